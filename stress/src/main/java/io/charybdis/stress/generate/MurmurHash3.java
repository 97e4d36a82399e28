package io.charybdis.stress.generate;

/** MurmurHash3 x64 128-bit (Austin Appleby's public-domain algorithm); {@link #hash64} returns the first half. */
public final class MurmurHash3 {

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private MurmurHash3() {
    }

    public static long hash64(byte[] data, long seed) {
        long h1 = seed;
        long h2 = seed;
        int blocks = data.length / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = getLong(data, i * 16);
            long k2 = getLong(data, i * 16 + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = blocks * 16;
        for (int i = data.length - tail - 1; i >= 0; i--) {
            long b = data[tail + i] & 0xffL;
            if (i >= 8) {
                k2 |= b << ((i - 8) * 8);
            } else {
                k1 |= b << (i * 8);
            }
        }
        if (data.length - tail > 8) {
            h2 ^= mixK2(k2);
        }
        if (data.length - tail > 0) {
            h1 ^= mixK1(k1);
        }
        h1 ^= data.length;
        h2 ^= data.length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        return h1;
    }

    private static long mixK1(long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        return k * C2;
    }

    private static long mixK2(long k) {
        k *= C2;
        k = Long.rotateLeft(k, 33);
        return k * C1;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xffL);
        }
        return v;
    }
}
