package io.charybdis.protocol.response;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.ErrorCode;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Builds one response {@link Envelope}: optional tracing id, warnings and custom payload (which set the
 * matching header flags and are written first, in that order), then one terminal call that writes the message.
 * Obtain with {@link Responses#to}. The envelope owns a newly allocated body.
 */
public final class ResponseBuilder {
    public static final int RESULT_VOID = 0x0001;
    public static final int RESULT_ROWS = 0x0002;
    public static final int RESULT_SET_KEYSPACE = 0x0003;
    public static final int RESULT_PREPARED = 0x0004;
    public static final int RESULT_SCHEMA_CHANGE = 0x0005;

    private final ByteBufAllocator alloc;
    private final ProtocolVersion version;
    private final int streamId;
    private UUID tracingId;
    private List<String> warnings;
    private Map<String, ByteBuffer> customPayload;

    ResponseBuilder(ByteBufAllocator alloc, ProtocolVersion version, int streamId) {
        this.alloc = alloc;
        this.version = version;
        this.streamId = streamId;
    }

    /** Sets the TRACING flag and writes the tracing session id first in the body (null: none). */
    public ResponseBuilder tracing(UUID id) {
        this.tracingId = id;
        return this;
    }

    /** Sets the WARNING flag and writes the warnings (null or empty: none). */
    public ResponseBuilder warnings(List<String> w) {
        this.warnings = w;
        return this;
    }

    /** Sets the CUSTOM_PAYLOAD flag and writes the payload (null or empty: none). */
    public ResponseBuilder customPayload(Map<String, ByteBuffer> payload) {
        this.customPayload = payload;
        return this;
    }

    private int flags() {
        int flags = 0;
        if (tracingId != null) {
            flags |= Envelope.TRACING;
        }
        if (hasWarnings()) {
            flags |= Envelope.WARNING;
        }
        if (hasCustomPayload()) {
            flags |= Envelope.CUSTOM_PAYLOAD;
        }
        return flags;
    }

    /** Warnings and custom payloads exist from v4 on; a v3 client gets neither (as from Cassandra). */
    private boolean hasWarnings() {
        return warnings != null && !warnings.isEmpty() && version.isAtLeast(ProtocolVersion.V4);
    }

    private boolean hasCustomPayload() {
        return customPayload != null && !customPayload.isEmpty() && version.isAtLeast(ProtocolVersion.V4);
    }

    private ByteBuf start(int sizeHint) {
        ByteBuf body = alloc.buffer(sizeHint);
        if (tracingId != null) {
            Wire.writeUuid(body, tracingId);
        }
        if (hasWarnings()) {
            Wire.writeStringList(body, warnings);
        }
        if (hasCustomPayload()) {
            Wire.writeBytesMap(body, customPayload);
        }
        return body;
    }

    private Envelope envelope(Opcode opcode, ByteBuf body) {
        return new Envelope(version, flags(), streamId, opcode, body);
    }

    public Envelope ready() {
        return envelope(Opcode.READY, start(0));
    }

    public Envelope supported(Map<String, List<String>> options) {
        ByteBuf b = start(128);
        Wire.writeStringMultimap(b, options);
        return envelope(Opcode.SUPPORTED, b);
    }

    public Envelope authenticate(String authenticatorClass) {
        ByteBuf b = start(64);
        Wire.writeString(b, authenticatorClass);
        return envelope(Opcode.AUTHENTICATE, b);
    }

    public Envelope authChallenge(byte[] token) {
        ByteBuf b = start(token == null ? 4 : 4 + token.length);
        Wire.writeBytes(b, token);
        return envelope(Opcode.AUTH_CHALLENGE, b);
    }

    public Envelope authSuccess(byte[] token) {
        ByteBuf b = start(token == null ? 4 : 4 + token.length);
        Wire.writeBytes(b, token);
        return envelope(Opcode.AUTH_SUCCESS, b);
    }

    // ---- ERROR

    private ByteBuf errorStart(ErrorCode code, String message) {
        ByteBuf b = start(64 + message.length());
        b.writeInt(code.code());
        Wire.writeString(b, message);
        return b;
    }

    /** An error without extra fields (SERVER_ERROR, PROTOCOL_ERROR, INVALID, SYNTAX_ERROR, ...). */
    public Envelope error(ErrorCode code, String message) {
        return envelope(Opcode.ERROR, errorStart(code, message));
    }

    public Envelope unavailable(String message, Consistency cl, int required, int alive) {
        ByteBuf b = errorStart(ErrorCode.UNAVAILABLE, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(required);
        b.writeInt(alive);
        return envelope(Opcode.ERROR, b);
    }

    /** WRITE_TIMEOUT; {@code contentions} is written only in v5 for {@link WriteType#CAS}. */
    public Envelope writeTimeout(String message, Consistency cl, int received, int blockFor, WriteType writeType,
                                 int contentions) {
        ByteBuf b = errorStart(ErrorCode.WRITE_TIMEOUT, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(received);
        b.writeInt(blockFor);
        Wire.writeString(b, writeType.name());
        if (writeType == WriteType.CAS && version.isAtLeast(ProtocolVersion.V5)) {
            b.writeShort(contentions);
        }
        return envelope(Opcode.ERROR, b);
    }

    public Envelope readTimeout(String message, Consistency cl, int received, int blockFor, boolean dataPresent) {
        ByteBuf b = errorStart(ErrorCode.READ_TIMEOUT, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(received);
        b.writeInt(blockFor);
        b.writeByte(dataPresent ? 1 : 0);
        return envelope(Opcode.ERROR, b);
    }

    /** READ_FAILURE: v5 writes the reason map (endpoint → failure code), v4 only its size. */
    public Envelope readFailure(String message, Consistency cl, int received, int blockFor,
                                Map<InetAddress, Integer> reasons, boolean dataPresent) {
        if (!version.isAtLeast(ProtocolVersion.V4)) {
            // v3 has no READ_FAILURE: Cassandra sends the read timeout it stands for
            return readTimeout(timeoutMessage(received), cl, received, blockFor, dataPresent);
        }
        ByteBuf b = errorStart(ErrorCode.READ_FAILURE, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(received);
        b.writeInt(blockFor);
        writeFailures(b, reasons);
        b.writeByte(dataPresent ? 1 : 0);
        return envelope(Opcode.ERROR, b);
    }

    /** WRITE_FAILURE: v5 writes the reason map (endpoint → failure code), v4 only its size. */
    public Envelope writeFailure(String message, Consistency cl, int received, int blockFor,
                                 Map<InetAddress, Integer> reasons, WriteType writeType) {
        if (!version.isAtLeast(ProtocolVersion.V4)) {
            // v3 has no WRITE_FAILURE: Cassandra sends the write timeout it stands for
            return writeTimeout(timeoutMessage(received), cl, received, blockFor, writeType, 0);
        }
        ByteBuf b = errorStart(ErrorCode.WRITE_FAILURE, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(received);
        b.writeInt(blockFor);
        writeFailures(b, reasons);
        Wire.writeString(b, writeType.name());
        return envelope(Opcode.ERROR, b);
    }

    /** Cassandra's RequestTimeoutException message, which the v3 stand-ins for failures carry. */
    private static String timeoutMessage(int received) {
        return "Operation timed out - received only " + received + " responses.";
    }

    private void writeFailures(ByteBuf b, Map<InetAddress, Integer> reasons) {
        b.writeInt(reasons.size());
        if (version.isAtLeast(ProtocolVersion.V5)) {
            for (Map.Entry<InetAddress, Integer> e : reasons.entrySet()) {
                Wire.writeInetAddr(b, e.getKey());
                b.writeShort(e.getValue());
            }
        }
    }

    public Envelope casWriteUnknown(String message, Consistency cl, int received, int blockFor) {
        ByteBuf b = errorStart(ErrorCode.CAS_WRITE_UNKNOWN, message);
        Wire.writeConsistency(b, cl);
        b.writeInt(received);
        b.writeInt(blockFor);
        return envelope(Opcode.ERROR, b);
    }

    public Envelope functionFailure(String message, String keyspace, String function, List<String> argTypes) {
        if (!version.isAtLeast(ProtocolVersion.V4)) {
            // v3 has no FUNCTION_FAILURE: Cassandra sends an Invalid request whose message is the error's own text
            return error(ErrorCode.INVALID, "ERROR FUNCTION_FAILURE: " + message);
        }
        ByteBuf b = errorStart(ErrorCode.FUNCTION_FAILURE, message);
        Wire.writeString(b, keyspace);
        Wire.writeString(b, function);
        Wire.writeStringList(b, argTypes);
        return envelope(Opcode.ERROR, b);
    }

    /** ALREADY_EXISTS; {@code table} is "" when the keyspace exists. */
    public Envelope alreadyExists(String message, String keyspace, String table) {
        ByteBuf b = errorStart(ErrorCode.ALREADY_EXISTS, message);
        Wire.writeString(b, keyspace);
        Wire.writeString(b, table == null ? "" : table);
        return envelope(Opcode.ERROR, b);
    }

    public Envelope unprepared(String message, byte[] statementId) {
        ByteBuf b = errorStart(ErrorCode.UNPREPARED, message);
        Wire.writeShortBytes(b, statementId);
        return envelope(Opcode.ERROR, b);
    }

    // ---- RESULT

    public Envelope voidResult() {
        ByteBuf b = start(4);
        b.writeInt(RESULT_VOID);
        return envelope(Opcode.RESULT, b);
    }

    public Envelope setKeyspace(String keyspace) {
        ByteBuf b = start(8 + keyspace.length());
        b.writeInt(RESULT_SET_KEYSPACE);
        Wire.writeString(b, keyspace);
        return envelope(Opcode.RESULT, b);
    }

    public Envelope schemaChange(SchemaChange change) {
        ByteBuf b = start(64);
        b.writeInt(RESULT_SCHEMA_CHANGE);
        change.forVersion(version).writeBody(b);
        return envelope(Opcode.RESULT, b);
    }

    public Envelope schemaChange(SchemaChange.Change change, SchemaChange.Target target, String keyspace,
                                 String name, List<String> argTypes) {
        return schemaChange(new SchemaChange(change, target, keyspace, name, argTypes));
    }

    /**
     * PREPARED: {@code <id>[<result_metadata_id> (v5)]<metadata><result_metadata>}.
     *
     * @param resultMetadataId v5 only (ignored in v4); e.g. {@link ResultMetadata#computeId()}
     */
    public Envelope prepared(byte[] id, byte[] resultMetadataId, PreparedMetadata metadata,
                             ResultMetadata resultMetadata) {
        ByteBuf b = start(256);
        b.writeInt(RESULT_PREPARED);
        Wire.writeShortBytes(b, id);
        if (version.isAtLeast(ProtocolVersion.V5)) {
            Wire.writeShortBytes(b, resultMetadataId == null ? resultMetadata.computeId() : resultMetadataId);
        }
        metadata.write(b, version);
        resultMetadata.write(b, version, false, null, null);
        return envelope(Opcode.RESULT, b);
    }

    /** A Rows result from a writer that {@link RowsWriter#begin began} a result; finishes it. */
    public Envelope rows(RowsWriter writer) {
        return envelope(Opcode.RESULT, writer.finish(start(64)));
    }

    // ---- EVENT

    public Envelope event(Event event) {
        ByteBuf b = start(64);
        Event e = event instanceof SchemaChange sc ? sc.forVersion(version) : event;
        Wire.writeString(b, e.type());
        e.writeBody(b);
        return envelope(Opcode.EVENT, b);
    }
}
