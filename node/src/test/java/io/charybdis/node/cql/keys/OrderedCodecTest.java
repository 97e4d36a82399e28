package io.charybdis.node.cql.keys;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

class OrderedCodecTest {
    private final Random random = new Random(7);

    private static byte[] enc(OrderedCodec.Kind kind, ByteBuffer v) {
        ByteSink s = new ByteSink(16);
        OrderedCodec.encode(kind, v, s);
        return s.toArray();
    }

    private <T> void check(OrderedCodec.Kind kind, Supplier<T> gen, Function<T, ByteBuffer> ser, Comparator<T> cmp) {
        for (int i = 0; i < 2000; i++) {
            T a = gen.get();
            T b = gen.get();
            byte[] ea = enc(kind, ser.apply(a));
            byte[] eb = enc(kind, ser.apply(b));
            assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb)))
                    .as("%s vs %s", a, b).isEqualTo(Integer.signum(cmp.compare(a, b)));
            ByteBuffer in = ByteBuffer.wrap(ea);
            assertThat(OrderedCodec.decode(kind, in)).isEqualTo(ser.apply(a));
            assertThat(in.hasRemaining()).isFalse();
        }
    }

    @Test
    void shouldPreserveOrderOfInts() {
        check(OrderedCodec.Kind.INT32, () -> random.nextInt(), v -> ByteBuffer.allocate(4).putInt(0, v), Integer::compare);
        check(OrderedCodec.Kind.INT64, () -> random.nextLong(), v -> ByteBuffer.allocate(8).putLong(0, v), Long::compare);
        check(OrderedCodec.Kind.INT16, () -> (short) random.nextInt(), v -> ByteBuffer.allocate(2).putShort(0, v),
                Short::compare);
    }

    @Test
    void shouldPreserveOrderOfFloatingPoint() {
        double[] specials = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-300, -1e300};
        check(OrderedCodec.Kind.DOUBLE,
                () -> random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)] : random.nextGaussian() * 1e6,
                v -> ByteBuffer.allocate(8).putDouble(0, v), Double::compare);
        check(OrderedCodec.Kind.FLOAT, () -> (float) (random.nextGaussian() * 100),
                v -> ByteBuffer.allocate(4).putFloat(0, v), Float::compare);
    }

    @Test
    void shouldPreserveOrderOfBytesWithZeros() {
        check(OrderedCodec.Kind.BYTES, () -> {
            byte[] b = new byte[random.nextInt(5)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (random.nextInt(3) - 1);
            }
            return b;
        }, ByteBuffer::wrap, Arrays::compareUnsigned);
    }

    @Test
    void shouldPreserveOrderOfVarints() {
        check(OrderedCodec.Kind.VARINT, () -> new BigInteger(random.nextInt(100), random).subtract(BigInteger.TWO.pow(50)),
                v -> ByteBuffer.wrap(v.toByteArray()), BigInteger::compareTo);
    }

    @Test
    void shouldPreserveOrderOfDecimalsComparingByValue() {
        for (int i = 0; i < 2000; i++) {
            BigDecimal a = new BigDecimal(BigInteger.valueOf(random.nextInt(2001) - 1000), random.nextInt(6) - 2);
            BigDecimal b = new BigDecimal(BigInteger.valueOf(random.nextInt(2001) - 1000), random.nextInt(6) - 2);
            byte[] ea = enc(OrderedCodec.Kind.DECIMAL, OrderedCodec.decimalBytes(a));
            byte[] eb = enc(OrderedCodec.Kind.DECIMAL, OrderedCodec.decimalBytes(b));
            assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb))).as("%s vs %s", a, b)
                    .isEqualTo(Integer.signum(a.compareTo(b)));
            ByteBuffer in = ByteBuffer.wrap(ea);
            assertThat(OrderedCodec.decimal(OrderedCodec.decode(OrderedCodec.Kind.DECIMAL, in)).compareTo(a)).isZero();
            assertThat(in.hasRemaining()).isFalse();
        }
        assertThat(enc(OrderedCodec.Kind.DECIMAL, OrderedCodec.decimalBytes(new BigDecimal("1.50"))))
                .isEqualTo(enc(OrderedCodec.Kind.DECIMAL, OrderedCodec.decimalBytes(new BigDecimal("1.5"))));
    }

    @Test
    void shouldOrderTimeUuidsByTimestamp() {
        check(OrderedCodec.Kind.TIMEUUID, () -> {
            long ts = random.nextLong() & 0x0fffffffffffffffL;
            long msb = (ts << 32) | ((ts >>> 16) & 0xffff0000L) | 0x1000L | (ts >>> 48);
            return new UUID(msb, random.nextLong());
        }, u -> ByteBuffer.allocate(16).putLong(0, u.getMostSignificantBits()).putLong(8, u.getLeastSignificantBits()),
                (a, b) -> {
                    int c = Long.compare(a.timestamp(), b.timestamp());
                    if (c != 0) {
                        return c;
                    }
                    byte[] la = ByteBuffer.allocate(8).putLong(a.getLeastSignificantBits()).array();
                    byte[] lb = ByteBuffer.allocate(8).putLong(b.getLeastSignificantBits()).array();
                    return Arrays.compare(la, lb);
                });
    }
}
