package io.charybdis.node.cql.keys;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Turns clustering values into the byte-comparable clustering keys the storage engine orders rows by, and back.
 *
 * <pre>
 *  row key     := component*            (one per clustering column, in clustering order)
 *  component   := 0x40 value            a value, encoded by {@link OrderedCodec} (bytes inverted for DESC columns)
 *               | 0x3F                  an empty (zero-length) value, which sorts before every other value
 *  static row  := (empty)               sorts before every regular row
 *  no clustering columns: the single row's key is {@link #NO_CLUSTERING_ROW}
 *  composite values (frozen collections, tuples, UDTs) encode as a sequence of components ended by 0x20
 *  (0x3E marks a null tuple/UDT field; trailing null fields are left out, so that a value equals itself with
 *  fewer fields, as Cassandra compares them)
 * </pre>
 * Because every component encoding is prefix-free, all rows whose first k components equal a prefix P lie in the
 * half-open byte range [P, successor(P)), which is how slices on clustering prefixes become storage slices.
 */
public final class ClusteringCodec {
    public static final byte[] STATIC_ROW = new byte[0];
    public static final byte[] NO_CLUSTERING_ROW = {0x40};
    static final byte VALUE = 0x40;
    static final byte EMPTY = 0x3F;
    /** The first byte of an empty value's encoding. */
    public static final byte EMPTY_MARKER = EMPTY;
    static final byte NULL_FIELD = 0x3E;
    static final byte END = 0x20;

    private ClusteringCodec() {
    }

    /** The key of a full clustering (all values non-null). */
    public static byte[] encode(TableMetadata table, ByteBuffer[] values) {
        List<ColumnMetadata> cols = table.clustering();
        if (cols.isEmpty()) {
            return NO_CLUSTERING_ROW;
        }
        return encodePrefix(table, values, cols.size());
    }

    /** The encoding of the first {@code n} clustering values. */
    public static byte[] encodePrefix(TableMetadata table, ByteBuffer[] values, int n) {
        ByteSink sink = new ByteSink(32);
        List<ColumnMetadata> cols = table.clustering();
        for (int i = 0; i < n; i++) {
            ColumnMetadata c = cols.get(i);
            encodeComponent(c.type(), values[i], c.reversed(), sink);
        }
        return sink.toArray();
    }

    public static void encodeComponent(DataType type, ByteBuffer value, boolean reversed, ByteSink sink) {
        int start = sink.length();
        if (!value.hasRemaining()) {
            sink.put(EMPTY);
        } else {
            sink.put(VALUE);
            encodeValue(type, value, sink);
        }
        if (reversed) {
            sink.invertFrom(start);
        }
    }

    static void encodeValue(DataType type, ByteBuffer value, ByteSink sink) {
        OrderedCodec.Kind kind = Types.orderedKind(type);
        if (kind != null) {
            OrderedCodec.encode(kind, value, sink);
            return;
        }
        List<DataType> componentTypes = Types.componentTypes(type, value);
        List<ByteBuffer> components = Types.splitComponents(type, value);
        int n = components.size();
        TypeKind shape = Types.kind(type);
        if (shape == TypeKind.TUPLE || shape == TypeKind.UDT) {
            // trailing null fields are left out: a value written before ALTER TYPE ... ADD (without the new
            // fields) equals the same value with them null, as Cassandra's tuple comparison treats them
            while (n > 0 && components.get(n - 1) == null) {
                n--;
            }
        }
        for (int i = 0; i < n; i++) {
            ByteBuffer c = components.get(i);
            if (c == null) {
                sink.put(NULL_FIELD);
            } else if (!c.hasRemaining()) {
                sink.put(EMPTY);
            } else {
                sink.put(VALUE);
                encodeValue(componentTypes.get(i), c, sink);
            }
        }
        sink.put(END);
    }

    /**
     * Decodes a row key into {@code out} (one value per clustering column; null for those a clustering prefix, the
     * key of a compound dense COMPACT STORAGE row written without its last columns, leaves out).
     */
    public static void decode(TableMetadata table, byte[] key, ByteBuffer[] out) {
        decode(table, ByteBuffer.wrap(key), out);
    }

    public static void decode(TableMetadata table, ByteBuffer key, ByteBuffer[] out) {
        List<ColumnMetadata> cols = table.clustering();
        ByteBuffer in = key.duplicate();
        for (int i = 0; i < cols.size(); i++) {
            ColumnMetadata c = cols.get(i);
            if (!in.hasRemaining()) {
                out[i] = null; // a row under a clustering prefix (compound dense COMPACT STORAGE): the rest is null
                continue;
            }
            ByteBuffer src = in;
            if (c.reversed()) {
                src = invertedCopy(in);
            }
            int before = src.position();
            byte marker = src.get();
            if (marker == EMPTY) {
                out[i] = ByteBuffer.allocate(0);
            } else {
                out[i] = decodeValue(c.type(), src);
            }
            if (c.reversed()) {
                in.position(in.position() + (src.position() - before));
            }
        }
    }

    private static ByteBuffer invertedCopy(ByteBuffer in) {
        byte[] b = new byte[in.remaining()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ~in.get(in.position() + i);
        }
        return ByteBuffer.wrap(b);
    }

    static ByteBuffer decodeValue(DataType type, ByteBuffer in) {
        OrderedCodec.Kind kind = Types.orderedKind(type);
        if (kind != null) {
            return OrderedCodec.decode(kind, in);
        }
        java.util.ArrayList<ByteBuffer> components = new java.util.ArrayList<>();
        int index = 0;
        while (true) {
            byte marker = in.get();
            if (marker == END) {
                break;
            }
            if (marker == NULL_FIELD) {
                components.add(null);
            } else if (marker == EMPTY) {
                components.add(ByteBuffer.allocate(0));
            } else {
                components.add(decodeValue(Types.componentType(type, index), in));
            }
            index++;
        }
        return Types.joinComponents(type, components);
    }

    /** The smallest key greater than every key that starts with {@code prefix}; null if there is none. */
    public static byte[] successor(byte[] prefix) {
        byte[] s = prefix.clone();
        for (int i = s.length - 1; i >= 0; i--) {
            if (s[i] != (byte) 0xFF) {
                s[i]++;
                return java.util.Arrays.copyOf(s, i + 1);
            }
        }
        return null;
    }

    /** A single value as a byte-comparable, self-delimiting key (used as the cell path of set elements and map keys). */
    public static byte[] encodeSingle(DataType type, ByteBuffer value) {
        ByteSink sink = new ByteSink(value.remaining() + 8);
        encodeComponent(type, value, false, sink);
        return sink.toArray();
    }

    public static ByteBuffer decodeSingle(DataType type, ByteBuffer encoded) {
        ByteBuffer in = encoded.duplicate();
        byte marker = in.get();
        return marker == EMPTY ? ByteBuffer.allocate(0) : decodeValue(type, in);
    }
}
