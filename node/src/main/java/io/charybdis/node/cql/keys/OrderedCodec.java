package io.charybdis.node.cql.keys;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * Order-preserving ("byte-comparable") encodings of single CQL values: the unsigned lexicographic order of the
 * encoded bytes equals the CQL order of the values. Every encoding here is prefix-free (fixed width, or terminated),
 * so encodings can be concatenated into multi-component keys, and each is reversible.
 *
 * <pre>
 *  kind            encoding
 *  INT8..INT64     big-endian two's complement with the sign bit flipped (fixed width 1/2/4/8)
 *  UINT32          big-endian as is (date: unsigned days, 2^31 = epoch)
 *  FLOAT/DOUBLE    IEEE bits; positive: flip sign bit; negative: flip all bits (NaN sorts last, like Java compare)
 *  BOOLEAN         one byte 0 / 1
 *  BYTES           content with 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x00
 *  VARINT          sign class (0x00 negative, 0x01 non-negative), 4-byte length (inverted when negative),
 *                  then minimal two's complement bytes
 *  UUID            version nibble first; v1 timestamps reordered to time_hi, time_mid, time_low; then the rest
 *  TIMEUUID        as UUID (all values are version 1), then the clock/node bytes with each byte's sign flipped,
 *                  matching Cassandra's signed comparison of the least significant bits
 *  DECIMAL         see {@link #encodeDecimal}
 * </pre>
 * Empty (zero-length) values, which Cassandra accepts for most types, are handled one level up by the component
 * marker (see {@link ClusteringCodec}).
 */
public final class OrderedCodec {

    public enum Kind {
        INT8(1), INT16(2), INT32(4), INT64(8), UINT32(4), FLOAT(4), DOUBLE(8), BOOLEAN(1), BYTES(-1), VARINT(-1),
        UUID(16), TIMEUUID(16), DECIMAL(-1);

        final int width;

        Kind(int width) {
            this.width = width;
        }
    }

    private OrderedCodec() {
    }

    /** Appends the encoding of {@code v} (its remaining bytes, not consumed) to {@code out}. */
    public static void encode(Kind kind, ByteBuffer v, ByteSink out) {
        int p = v.position();
        switch (kind) {
            case INT8, INT16, INT32, INT64 -> {
                out.put((byte) (v.get(p) ^ 0x80));
                for (int i = 1; i < kind.width; i++) {
                    out.put(v.get(p + i));
                }
            }
            case UINT32 -> {
                for (int i = 0; i < 4; i++) {
                    out.put(v.get(p + i));
                }
            }
            case FLOAT -> {
                int bits = v.getInt(p);
                bits = bits < 0 ? ~bits : bits ^ 0x80000000;
                out.putInt(bits);
            }
            case DOUBLE -> {
                long bits = v.getLong(p);
                bits = bits < 0 ? ~bits : bits ^ 0x8000000000000000L;
                out.putLong(bits);
            }
            case BOOLEAN -> out.put(v.get(p) != 0 ? (byte) 1 : (byte) 0);
            case BYTES -> encodeBytes(v, out);
            case VARINT -> encodeVarint(new BigInteger(bytes(v)), out);
            case UUID -> encodeUuid(v, out, false);
            case TIMEUUID -> encodeUuid(v, out, true);
            case DECIMAL -> encodeDecimal(v, out);
        }
    }

    /**
     * Decodes one value starting at {@code in.position()}, advancing it past the encoding, and returns the value in
     * its CQL serialized form.
     */
    public static ByteBuffer decode(Kind kind, ByteBuffer in) {
        switch (kind) {
            case INT8, INT16, INT32, INT64 -> {
                byte[] b = new byte[kind.width];
                in.get(b);
                b[0] ^= (byte) 0x80;
                return ByteBuffer.wrap(b);
            }
            case UINT32 -> {
                byte[] b = new byte[4];
                in.get(b);
                return ByteBuffer.wrap(b);
            }
            case FLOAT -> {
                int bits = in.getInt();
                bits = bits < 0 ? bits ^ 0x80000000 : ~bits;
                return ByteBuffer.allocate(4).putInt(0, bits);
            }
            case DOUBLE -> {
                long bits = in.getLong();
                bits = bits < 0 ? bits ^ 0x8000000000000000L : ~bits;
                return ByteBuffer.allocate(8).putLong(0, bits);
            }
            case BOOLEAN -> {
                return ByteBuffer.wrap(new byte[]{in.get()});
            }
            case BYTES -> {
                return decodeBytes(in);
            }
            case VARINT -> {
                return ByteBuffer.wrap(decodeVarintBytes(in));
            }
            case UUID, TIMEUUID -> {
                return decodeUuid(in, kind == Kind.TIMEUUID);
            }
            case DECIMAL -> {
                return decodeDecimal(in);
            }
            default -> throw new IllegalArgumentException(kind.toString());
        }
    }

    static byte[] bytes(ByteBuffer v) {
        byte[] b = new byte[v.remaining()];
        v.duplicate().get(b);
        return b;
    }

    static void encodeBytes(ByteBuffer v, ByteSink out) {
        for (int i = v.position(); i < v.limit(); i++) {
            byte b = v.get(i);
            out.put(b);
            if (b == 0) {
                out.put((byte) 0xFF);
            }
        }
        out.put((byte) 0);
        out.put((byte) 0);
    }

    static ByteBuffer decodeBytes(ByteBuffer in) {
        ByteSink sink = new ByteSink(16);
        while (true) {
            byte b = in.get();
            if (b == 0) {
                byte next = in.get();
                if (next == 0) {
                    return sink.toBuffer();
                }
                sink.put((byte) 0);
            } else {
                sink.put(b);
            }
        }
    }

    static void encodeVarint(BigInteger value, ByteSink out) {
        byte[] mag = value.toByteArray();
        if (value.signum() < 0) {
            out.put((byte) 0x00);
            out.putInt(~mag.length);
        } else {
            out.put((byte) 0x01);
            out.putInt(mag.length);
        }
        out.put(mag, 0, mag.length);
    }

    static byte[] decodeVarintBytes(ByteBuffer in) {
        byte cls = in.get();
        int len = in.getInt();
        if (cls == 0) {
            len = ~len;
        }
        byte[] b = new byte[len];
        in.get(b);
        return b;
    }

    static void encodeUuid(ByteBuffer v, ByteSink out, boolean timeUuid) {
        int p = v.position();
        long msb = v.getLong(p);
        long lsb = v.getLong(p + 8);
        int version = (int) ((msb >>> 12) & 0xf);
        if (!timeUuid) {
            out.put((byte) version);
        }
        if (version == 1) {
            long timeHi = msb & 0x0fffL;
            long timeMid = (msb >>> 16) & 0xffffL;
            long timeLow = msb >>> 32;
            out.putLong((timeHi << 48) | (timeMid << 32) | timeLow);
        } else {
            out.putLong(msb);
        }
        if (timeUuid) {
            // Cassandra's TimeUUIDType compares the low 64 bits as signed bytes.
            out.putLong(lsb ^ 0x8080808080808080L);
        } else {
            out.putLong(lsb);
        }
    }

    static ByteBuffer decodeUuid(ByteBuffer in, boolean timeUuid) {
        int version = timeUuid ? 1 : in.get();
        long first = in.getLong();
        long msb;
        if (version == 1) {
            long timeHi = (first >>> 48) & 0x0fffL;
            long timeMid = (first >>> 32) & 0xffffL;
            long timeLow = first & 0xffffffffL;
            msb = (timeLow << 32) | (timeMid << 16) | 0x1000L | timeHi;
        } else {
            msb = first;
        }
        long lsb = in.getLong();
        if (timeUuid) {
            lsb ^= 0x8080808080808080L;
        }
        return ByteBuffer.allocate(16).putLong(0, msb).putLong(8, lsb);
    }

    /**
     * Decimal: {@code unscaled * 10^-scale}, compared by value as Cassandra compares decimals, so 1.5 and 1.50 are
     * the same key. Encoded as a sign class (0x00 negative, 0x01 zero, 0x02 positive); for non-zero values the
     * adjusted exponent {@code precision - scale} (sign-flipped 4 bytes, inverted for negatives), then the
     * significant decimal digits without trailing zeros, one byte each as digit+1 (inverted for negatives),
     * terminated by 0x00 (0xFF for negatives). Decoding gives the value with its trailing zeros removed (and a
     * scale of at least 0 where that takes at most 64 zeros).
     */
    /** Decoded decimals with at most this many trailing zeros are written out in full (1E+2 as 100). */
    private static final int MAX_EXPANDED_ZEROS = 64;

    static void encodeDecimal(ByteBuffer v, ByteSink out) {
        java.math.BigDecimal d = decimal(v);
        int signum = d.signum();
        if (signum == 0) {
            out.put((byte) 0x01);
            return;
        }
        java.math.BigDecimal stripped = d.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - stripped.scale();
        boolean neg = signum < 0;
        out.put(neg ? (byte) 0x00 : (byte) 0x02);
        // the exponent is at least 2 - 2^31; from Integer.MAX_VALUE up (a scale near -2^31) it continues in 4 more
        // bytes, so that every value keeps its place
        int e = (int) Math.min(exponent, Integer.MAX_VALUE) ^ 0x80000000;
        out.putInt(neg ? ~e : e);
        if (exponent >= Integer.MAX_VALUE) {
            int extra = (int) (exponent - Integer.MAX_VALUE);
            out.putInt(neg ? ~extra : extra);
        }
        for (int i = 0; i < digits.length(); i++) {
            int digit = digits.charAt(i) - '0' + 1;
            out.put((byte) (neg ? ~digit : digit));
        }
        out.put(neg ? (byte) 0xFF : (byte) 0x00);
    }

    static ByteBuffer decodeDecimal(ByteBuffer in) {
        byte cls = in.get();
        if (cls == 0x01) {
            return decimalBytes(java.math.BigDecimal.ZERO);
        }
        boolean neg = cls == 0x00;
        int e = in.getInt();
        long exponent = (neg ? ~e : e) ^ 0x80000000;
        if (exponent == Integer.MAX_VALUE) {
            int extra = in.getInt();
            exponent += Integer.toUnsignedLong(neg ? ~extra : extra);
        }
        StringBuilder digits = new StringBuilder();
        while (true) {
            int b = in.get() & 0xff;
            if (neg) {
                b = ~b & 0xff;
            }
            if (b == 0) {
                break;
            }
            digits.append((char) ('0' + b - 1));
        }
        java.math.BigDecimal value = new java.math.BigDecimal(new BigInteger(digits.toString()),
                (int) (digits.length() - exponent));
        if (value.scale() < 0 && value.scale() >= -MAX_EXPANDED_ZEROS) {
            value = value.setScale(0);
        }
        return decimalBytes(neg ? value.negate() : value);
    }

    static java.math.BigDecimal decimal(ByteBuffer v) {
        int p = v.position();
        int scale = v.getInt(p);
        byte[] unscaled = new byte[v.remaining() - 4];
        v.duplicate().position(p + 4).get(unscaled);
        return new java.math.BigDecimal(new BigInteger(unscaled), scale);
    }

    static ByteBuffer decimalBytes(java.math.BigDecimal d) {
        byte[] unscaled = d.unscaledValue().toByteArray();
        ByteBuffer b = ByteBuffer.allocate(4 + unscaled.length);
        b.putInt(d.scale()).put(unscaled).flip();
        return b;
    }
}
