package io.charybdis.node.cql.values;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/** Serialized forms of CQL values, as the native protocol and Cassandra's storage carry them. */
public final class Values {
    /** Marks an unset bind value: the column is left untouched. Compared by identity. */
    public static final ByteBuffer UNSET = io.charybdis.protocol.request.QueryOptions.UNSET;
    public static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private Values() {
    }

    public static ByteBuffer int32(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    public static ByteBuffer bigint(long v) {
        return ByteBuffer.allocate(8).putLong(0, v);
    }

    public static ByteBuffer bool(boolean v) {
        return ByteBuffer.wrap(new byte[]{(byte) (v ? 1 : 0)});
    }

    public static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    public static ByteBuffer dbl(double d) {
        return ByteBuffer.allocate(8).putDouble(0, d);
    }

    public static ByteBuffer uuid(UUID u) {
        return ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits()).putLong(8, u.getLeastSignificantBits());
    }

    public static UUID toUuid(ByteBuffer b) {
        return new UUID(b.getLong(b.position()), b.getLong(b.position() + 8));
    }

    public static ByteBuffer decimal(BigDecimal d) {
        byte[] unscaled = d.unscaledValue().toByteArray();
        ByteBuffer b = ByteBuffer.allocate(4 + unscaled.length);
        b.putInt(d.scale()).put(unscaled).flip();
        return b;
    }

    public static String toText(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    public static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A collection in the v3+ format: [int n] then n × ([int length][bytes]). */
    public static ByteBuffer collection(List<ByteBuffer> elements) {
        int size = 4;
        for (ByteBuffer e : elements) {
            size += 4 + e.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(elements.size());
        for (ByteBuffer e : elements) {
            out.putInt(e.remaining()).put(e.duplicate());
        }
        return out.flip();
    }

    /** Splits a v3+ collection into its element buffers (map: key, value, key, value, ...). */
    public static List<ByteBuffer> elements(ByteBuffer collection, boolean map) {
        ByteBuffer in = collection.duplicate();
        int n = in.getInt();
        if (n < 0) {
            throw new IllegalArgumentException("negative collection size " + n);
        }
        int count = map ? n * 2 : n;
        java.util.ArrayList<ByteBuffer> out = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int len = in.getInt();
            if (len < 0) {
                out.add(null);
                continue;
            }
            out.add(in.slice(in.position(), len));
            in.position(in.position() + len);
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("unexpected " + in.remaining() + " extraneous bytes after collection");
        }
        return out;
    }

    /** A tuple or UDT value: each field [int length or -1 for null][bytes]. */
    public static ByteBuffer tuple(List<ByteBuffer> fields) {
        int size = 0;
        for (ByteBuffer e : fields) {
            size += 4 + (e == null ? 0 : e.remaining());
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer e : fields) {
            if (e == null) {
                out.putInt(-1);
            } else {
                out.putInt(e.remaining()).put(e.duplicate());
            }
        }
        return out.flip();
    }

    /** Splits a tuple/UDT value; missing trailing fields (a UDT written before fields were added) read as null. */
    public static List<ByteBuffer> fields(ByteBuffer value, int count) {
        ByteBuffer in = value.duplicate();
        java.util.ArrayList<ByteBuffer> out = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (!in.hasRemaining()) {
                out.add(null);
                continue;
            }
            int len = in.getInt();
            if (len < 0) {
                out.add(null);
                continue;
            }
            out.add(in.slice(in.position(), len));
            in.position(in.position() + len);
        }
        return out;
    }
}
