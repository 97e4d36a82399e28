package io.charybdis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Readers and writers for the notations of the spec's section 3 ([string], [long string], [bytes], [value], maps,
 * [inet], ...). Every reader checks the bytes it needs are there and throws {@link ProtocolException} (non-fatal,
 * stream 0) otherwise; no {@link IndexOutOfBoundsException} comes out of here.
 */
public final class Wire {
    /** The marker {@code [value]} length for null. */
    public static final int NULL_LENGTH = -1;
    /** The marker {@code [value]} length for "not set". */
    public static final int UNSET_LENGTH = -2;

    private Wire() {
    }

    static void need(ByteBuf in, int n, String what) {
        if (n < 0 || in.readableBytes() < n) {
            throw new ProtocolException("Not enough bytes to read " + what + ": need=" + n + " available="
                    + in.readableBytes());
        }
    }

    public static int readByte(ByteBuf in, String what) {
        need(in, 1, what);
        return in.readUnsignedByte();
    }

    public static int readUnsignedShort(ByteBuf in, String what) {
        need(in, 2, what);
        return in.readUnsignedShort();
    }

    public static int readInt(ByteBuf in, String what) {
        need(in, 4, what);
        return in.readInt();
    }

    public static long readLong(ByteBuf in, String what) {
        need(in, 8, what);
        return in.readLong();
    }

    public static String readString(ByteBuf in) {
        int n = readUnsignedShort(in, "a [string] length");
        need(in, n, "a [string]");
        String s = in.toString(in.readerIndex(), n, StandardCharsets.UTF_8);
        in.skipBytes(n);
        return s;
    }

    public static String readLongString(ByteBuf in) {
        int n = readInt(in, "a [long string] length");
        if (n < 0) {
            throw new ProtocolException("Negative [long string] length: " + n);
        }
        need(in, n, "a [long string]");
        String s = in.toString(in.readerIndex(), n, StandardCharsets.UTF_8);
        in.skipBytes(n);
        return s;
    }

    /** [bytes]: null when the length is negative. */
    public static byte[] readBytes(ByteBuf in) {
        int n = readInt(in, "a [bytes] length");
        if (n < 0) {
            return null;
        }
        need(in, n, "[bytes]");
        byte[] b = new byte[n];
        in.readBytes(b);
        return b;
    }

    public static byte[] readShortBytes(ByteBuf in) {
        int n = readUnsignedShort(in, "a [short bytes] length");
        need(in, n, "[short bytes]");
        byte[] b = new byte[n];
        in.readBytes(b);
        return b;
    }

    /**
     * [value]: a heap ByteBuffer copy, null for -1, {@code unset} (returned by identity) for -2.
     *
     * @throws ProtocolException for lengths below -2
     */
    public static ByteBuffer readValue(ByteBuf in, ByteBuffer unset) {
        int n = readInt(in, "a [value] length");
        if (n == NULL_LENGTH) {
            return null;
        }
        if (n == UNSET_LENGTH) {
            return unset;
        }
        if (n < 0) {
            throw new ProtocolException("Invalid [value] length: " + n);
        }
        need(in, n, "a [value]");
        byte[] b = new byte[n];
        in.readBytes(b);
        return ByteBuffer.wrap(b);
    }

    public static List<String> readStringList(ByteBuf in) {
        int n = readUnsignedShort(in, "a [string list] size");
        if (n == 0) {
            return List.of();
        }
        List<String> l = new ArrayList<>(Math.min(n, 64));
        for (int i = 0; i < n; i++) {
            l.add(readString(in));
        }
        return Collections.unmodifiableList(l);
    }

    public static Map<String, String> readStringMap(ByteBuf in) {
        int n = readUnsignedShort(in, "a [string map] size");
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = readString(in);
            m.put(k, readString(in));
        }
        return Collections.unmodifiableMap(m);
    }

    public static Map<String, List<String>> readStringMultimap(ByteBuf in) {
        int n = readUnsignedShort(in, "a [string multimap] size");
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = readString(in);
            m.put(k, readStringList(in));
        }
        return Collections.unmodifiableMap(m);
    }

    /** [bytes map]; null values stay null. */
    public static Map<String, ByteBuffer> readBytesMap(ByteBuf in) {
        int n = readUnsignedShort(in, "a [bytes map] size");
        Map<String, ByteBuffer> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = readString(in);
            byte[] v = readBytes(in);
            m.put(k, v == null ? null : ByteBuffer.wrap(v));
        }
        return Collections.unmodifiableMap(m);
    }

    public static UUID readUuid(ByteBuf in) {
        need(in, 16, "a [uuid]");
        return new UUID(in.readLong(), in.readLong());
    }

    public static Consistency readConsistency(ByteBuf in) {
        return Consistency.fromCode(readUnsignedShort(in, "a [consistency]"));
    }

    public static InetAddress readInetAddr(ByteBuf in) {
        int n = readByte(in, "an [inetaddr] size");
        if (n != 4 && n != 16) {
            throw new ProtocolException("Invalid [inetaddr] size: " + n);
        }
        need(in, n, "an [inetaddr]");
        byte[] b = new byte[n];
        in.readBytes(b);
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new ProtocolException("Invalid [inetaddr]: " + e.getMessage());
        }
    }

    public static InetSocketAddress readInet(ByteBuf in) {
        InetAddress a = readInetAddr(in);
        return new InetSocketAddress(a, readInt(in, "an [inet] port"));
    }

    // ---- writers

    public static void writeString(ByteBuf out, String s) {
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int n = ByteBufUtil.writeUtf8(out, s);
        if (n > 0xFFFF) {
            throw new IllegalArgumentException("[string] too long: " + n + " bytes");
        }
        out.setShort(lengthIndex, n);
    }

    public static void writeLongString(ByteBuf out, String s) {
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        int n = ByteBufUtil.writeUtf8(out, s);
        out.setInt(lengthIndex, n);
    }

    /** [bytes]; null is written as length -1. */
    public static void writeBytes(ByteBuf out, byte[] b) {
        if (b == null) {
            out.writeInt(NULL_LENGTH);
        } else {
            out.writeInt(b.length);
            out.writeBytes(b);
        }
    }

    public static void writeShortBytes(ByteBuf out, byte[] b) {
        if (b.length > 0xFFFF) {
            throw new IllegalArgumentException("[short bytes] too long: " + b.length);
        }
        out.writeShort(b.length);
        out.writeBytes(b);
    }

    /** [value] / [bytes] from a ByteBuffer (position to limit, not consumed); null → -1. */
    public static void writeValue(ByteBuf out, ByteBuffer v) {
        if (v == null) {
            out.writeInt(NULL_LENGTH);
        } else {
            out.writeInt(v.remaining());
            out.writeBytes(v.duplicate());
        }
    }

    public static void writeStringList(ByteBuf out, List<String> l) {
        out.writeShort(l.size());
        for (String s : l) {
            writeString(out, s);
        }
    }

    public static void writeStringMap(ByteBuf out, Map<String, String> m) {
        out.writeShort(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    public static void writeStringMultimap(ByteBuf out, Map<String, List<String>> m) {
        out.writeShort(m.size());
        for (Map.Entry<String, List<String>> e : m.entrySet()) {
            writeString(out, e.getKey());
            writeStringList(out, e.getValue());
        }
    }

    public static void writeBytesMap(ByteBuf out, Map<String, ByteBuffer> m) {
        out.writeShort(m.size());
        for (Map.Entry<String, ByteBuffer> e : m.entrySet()) {
            writeString(out, e.getKey());
            writeValue(out, e.getValue());
        }
    }

    public static void writeUuid(ByteBuf out, UUID u) {
        out.writeLong(u.getMostSignificantBits());
        out.writeLong(u.getLeastSignificantBits());
    }

    public static void writeConsistency(ByteBuf out, Consistency c) {
        out.writeShort(c.code());
    }

    public static void writeInetAddr(ByteBuf out, InetAddress a) {
        byte[] b = a.getAddress();
        out.writeByte(b.length);
        out.writeBytes(b);
    }

    public static void writeInet(ByteBuf out, InetSocketAddress a) {
        writeInetAddr(out, a.getAddress());
        out.writeInt(a.getPort());
    }
}
