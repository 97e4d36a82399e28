package io.charybdis.protocol.request;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Decodes request bodies. Malformed or truncated bodies throw a non-fatal {@link ProtocolException} on the
 * envelope's stream with a message naming what could not be read; nothing else escapes. Decoding does not
 * consume the envelope's body (it reads a duplicate) nor release it.
 */
public final class Requests {
    public static final int PREPARE_WITH_KEYSPACE = 0x01;

    private Requests() {
    }

    public static Request decode(Envelope env) {
        ByteBuf in = env.body().duplicate();
        try {
            if (env.hasFlag(Envelope.CUSTOM_PAYLOAD)) {
                Wire.readBytesMap(in);
            }
            return decode(env.opcode(), env.version(), in);
        } catch (ProtocolException e) {
            throw e.withStreamId(env.streamId());
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new ProtocolException("Malformed " + env.opcode() + " body: " + e.getMessage(), env.streamId(),
                    false, e);
        }
    }

    /** The custom payload of a request flagged CUSTOM_PAYLOAD, or an empty map. */
    public static Map<String, ByteBuffer> customPayload(Envelope env) {
        if (!env.hasFlag(Envelope.CUSTOM_PAYLOAD)) {
            return Map.of();
        }
        try {
            return Wire.readBytesMap(env.body().duplicate());
        } catch (ProtocolException e) {
            throw e.withStreamId(env.streamId());
        }
    }

    private static Request decode(io.charybdis.protocol.Opcode opcode, ProtocolVersion version, ByteBuf in) {
        return switch (opcode) {
            case STARTUP -> new Request.Startup(Wire.readStringMap(in));
            case OPTIONS -> new Request.Options();
            case QUERY -> {
                String query = Wire.readLongString(in);
                yield new Request.Query(query, readQueryOptions(in, version));
            }
            case PREPARE -> {
                String query = Wire.readLongString(in);
                String keyspace = null;
                if (version.isAtLeast(ProtocolVersion.V5)) {
                    int flags = Wire.readInt(in, "PREPARE flags");
                    if ((flags & PREPARE_WITH_KEYSPACE) != 0) {
                        keyspace = Wire.readString(in);
                    }
                }
                yield new Request.Prepare(query, keyspace);
            }
            case EXECUTE -> {
                byte[] id = Wire.readShortBytes(in);
                byte[] resultMetadataId = version.isAtLeast(ProtocolVersion.V5) ? Wire.readShortBytes(in) : null;
                yield new Request.Execute(id, resultMetadataId, readQueryOptions(in, version));
            }
            case BATCH -> readBatch(in, version);
            case REGISTER -> new Request.Register(Wire.readStringList(in));
            case AUTH_RESPONSE -> new Request.AuthResponse(Wire.readBytes(in));
            default -> throw new ProtocolException("Opcode " + opcode + " is not a request");
        };
    }

    private static int readFlags(ByteBuf in, ProtocolVersion version, String what) {
        return version.isAtLeast(ProtocolVersion.V5) ? Wire.readInt(in, what) : Wire.readByte(in, what);
    }

    /** Reads {@code <query_parameters>}. */
    public static QueryOptions readQueryOptions(ByteBuf in, ProtocolVersion version) {
        Consistency consistency = Wire.readConsistency(in);
        int flags = readFlags(in, version, "query flags");
        List<ByteBuffer> values = List.of();
        List<String> names = null;
        if ((flags & QueryOptions.VALUES) != 0) {
            boolean withNames = (flags & QueryOptions.WITH_NAMES_FOR_VALUES) != 0;
            int n = Wire.readUnsignedShort(in, "the number of values");
            values = new ArrayList<>(Math.min(n, 256));
            if (withNames) {
                names = new ArrayList<>(Math.min(n, 256));
            }
            for (int i = 0; i < n; i++) {
                if (withNames) {
                    names.add(Wire.readString(in));
                }
                values.add(Wire.readValue(in, QueryOptions.UNSET));
            }
            values = Collections.unmodifiableList(values);
            names = names == null ? null : Collections.unmodifiableList(names);
        }
        boolean skipMetadata = (flags & QueryOptions.SKIP_METADATA) != 0;
        int pageSize = -1;
        if ((flags & QueryOptions.PAGE_SIZE) != 0) {
            pageSize = Wire.readInt(in, "the page size");
            if (pageSize <= 0) {
                pageSize = -1;
            }
        }
        byte[] pagingState = (flags & QueryOptions.WITH_PAGING_STATE) != 0 ? Wire.readBytes(in) : null;
        Consistency serial = (flags & QueryOptions.WITH_SERIAL_CONSISTENCY) != 0 ? Wire.readConsistency(in) : null;
        long timestamp = Long.MIN_VALUE;
        if ((flags & QueryOptions.WITH_DEFAULT_TIMESTAMP) != 0) {
            timestamp = Wire.readLong(in, "the default timestamp");
            if (timestamp == Long.MIN_VALUE) {
                throw new ProtocolException("Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1) + ", "
                        + Long.MAX_VALUE + "] (got " + timestamp + ")");
            }
        }
        String keyspace = null;
        int nowInSeconds = Integer.MIN_VALUE;
        if (version.isAtLeast(ProtocolVersion.V5)) {
            if ((flags & QueryOptions.WITH_KEYSPACE) != 0) {
                keyspace = Wire.readString(in);
            }
            if ((flags & QueryOptions.WITH_NOW_IN_SECONDS) != 0) {
                nowInSeconds = Wire.readInt(in, "now_in_seconds");
            }
        }
        return new QueryOptions(consistency, values, names, skipMetadata, pageSize, pagingState, serial, timestamp,
                keyspace, nowInSeconds);
    }

    private static Request.Batch readBatch(ByteBuf in, ProtocolVersion version) {
        BatchType type = BatchType.fromCode(Wire.readByte(in, "the batch type"));
        int n = Wire.readUnsignedShort(in, "the number of batch statements");
        List<BatchChild> children = new ArrayList<>(Math.min(n, 256));
        for (int i = 0; i < n; i++) {
            int kind = Wire.readByte(in, "a batch statement kind");
            BatchChild child = switch (kind) {
                case 0 -> {
                    String q = Wire.readLongString(in);
                    yield new BatchChild.QueryChild(q, readBatchValues(in));
                }
                case 1 -> {
                    byte[] id = Wire.readShortBytes(in);
                    yield new BatchChild.PreparedChild(id, readBatchValues(in));
                }
                default -> throw new ProtocolException("Invalid query kind in BATCH messages. Must be 0 or 1 but got "
                        + kind);
            };
            children.add(child);
        }
        Consistency consistency = Wire.readConsistency(in);
        int flags = readFlags(in, version, "batch flags");
        if ((flags & QueryOptions.WITH_NAMES_FOR_VALUES) != 0) {
            throw new ProtocolException("Names for values are not supported in BATCH");
        }
        Consistency serial = (flags & QueryOptions.WITH_SERIAL_CONSISTENCY) != 0 ? Wire.readConsistency(in) : null;
        long timestamp = (flags & QueryOptions.WITH_DEFAULT_TIMESTAMP) != 0
                ? Wire.readLong(in, "the default timestamp") : Long.MIN_VALUE;
        String keyspace = null;
        int nowInSeconds = Integer.MIN_VALUE;
        if (version.isAtLeast(ProtocolVersion.V5)) {
            if ((flags & QueryOptions.WITH_KEYSPACE) != 0) {
                keyspace = Wire.readString(in);
            }
            if ((flags & QueryOptions.WITH_NOW_IN_SECONDS) != 0) {
                nowInSeconds = Wire.readInt(in, "now_in_seconds");
            }
        }
        return new Request.Batch(type, Collections.unmodifiableList(children), consistency, serial, timestamp,
                keyspace, nowInSeconds);
    }

    private static List<ByteBuffer> readBatchValues(ByteBuf in) {
        int n = Wire.readUnsignedShort(in, "the number of values");
        List<ByteBuffer> values = new ArrayList<>(Math.min(n, 256));
        for (int i = 0; i < n; i++) {
            values.add(Wire.readValue(in, QueryOptions.UNSET));
        }
        return Collections.unmodifiableList(values);
    }
}
