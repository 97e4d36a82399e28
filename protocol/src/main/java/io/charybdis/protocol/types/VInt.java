package io.charybdis.protocol.types;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;

/**
 * The protocol's variable-length integers. An unsigned vint is big-endian; the count of leading 1 bits of its
 * first byte is the number of extra bytes (0-8), the rest of the first byte holds the top bits of the value:
 * <pre>
 *   0xxxxxxx                        7 bits
 *   10xxxxxx xxxxxxxx               14 bits
 *   110xxxxx xxxxxxxx xxxxxxxx      21 bits ... 
 *   11111111 + 8 bytes              64 bits
 * </pre>
 * A signed vint is the zig-zag encoding of the value written as an unsigned vint: 0, -1, 1, -2 → 0, 1, 2, 3.
 */
public final class VInt {
    public static final int MAX_SIZE = 9;

    private VInt() {
    }

    public static long zigZagEncode(long n) {
        return (n >> 63) ^ (n << 1);
    }

    public static long zigZagDecode(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    /** Bytes taken by {@code value} as an unsigned vint (1-9). */
    public static int unsignedSize(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value);
        if (bits <= 7) {
            return 1;
        }
        int extra = (bits - 1) / 7;
        return Math.min(extra, 8) + 1;
    }

    public static int signedSize(long value) {
        return unsignedSize(zigZagEncode(value));
    }

    public static void writeUnsigned(ByteBuf out, long value) {
        int extra = unsignedSize(value) - 1;
        if (extra == 8) {
            out.writeByte(0xFF);
            out.writeLong(value);
            return;
        }
        int first = ((0xFF00 >>> extra) & 0xFF) | (int) (value >>> (8 * extra));
        out.writeByte(first);
        for (int i = extra - 1; i >= 0; i--) {
            out.writeByte((int) (value >>> (8 * i)));
        }
    }

    public static void writeSigned(ByteBuf out, long value) {
        writeUnsigned(out, zigZagEncode(value));
    }

    public static void writeUnsigned(ByteBuffer out, long value) {
        int extra = unsignedSize(value) - 1;
        if (extra == 8) {
            out.put((byte) 0xFF);
            out.putLong(value);
            return;
        }
        out.put((byte) (((0xFF00 >>> extra) & 0xFF) | (int) (value >>> (8 * extra))));
        for (int i = extra - 1; i >= 0; i--) {
            out.put((byte) (value >>> (8 * i)));
        }
    }

    public static void writeSigned(ByteBuffer out, long value) {
        writeUnsigned(out, zigZagEncode(value));
    }

    /** Number of extra bytes announced by the first byte of a vint. */
    public static int extraBytes(int firstByte) {
        return Integer.numberOfLeadingZeros(~(firstByte << 24));
    }

    /** Reads an unsigned vint at {@code in}'s position, advancing it. @throws MarshalException if truncated */
    public static long readUnsigned(ByteBuffer in) {
        if (!in.hasRemaining()) {
            throw new MarshalException("Not enough bytes to read a vint");
        }
        int first = in.get() & 0xFF;
        int extra = extraBytes(first);
        if (in.remaining() < extra) {
            throw new MarshalException("Not enough bytes to read a vint: need=" + extra + " available="
                    + in.remaining());
        }
        long value = extra == 8 ? 0 : first & (0xFF >>> extra);
        for (int i = 0; i < extra; i++) {
            value = (value << 8) | (in.get() & 0xFF);
        }
        return value;
    }

    public static long readSigned(ByteBuffer in) {
        return zigZagDecode(readUnsigned(in));
    }

    /** Reads an unsigned vint at {@code in}'s reader index. @throws MarshalException if truncated */
    public static long readUnsigned(ByteBuf in) {
        if (!in.isReadable()) {
            throw new MarshalException("Not enough bytes to read a vint");
        }
        int first = in.readUnsignedByte();
        int extra = extraBytes(first);
        if (in.readableBytes() < extra) {
            throw new MarshalException("Not enough bytes to read a vint: need=" + extra + " available="
                    + in.readableBytes());
        }
        long value = extra == 8 ? 0 : first & (0xFF >>> extra);
        for (int i = 0; i < extra; i++) {
            value = (value << 8) | in.readUnsignedByte();
        }
        return value;
    }

    public static long readSigned(ByteBuf in) {
        return zigZagDecode(readUnsigned(in));
    }
}
