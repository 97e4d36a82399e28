package io.charybdis.storage.sstable;

/**
 * Bloom filter over partition tokens (already a good 64-bit hash of the key) with double hashing; about 10 bits
 * and 7 probes per key (~1% false positives).
 */
public final class BloomFilter {
    private final long[] words;
    private final int hashCount;

    public BloomFilter(long expectedKeys) {
        long bits = Math.max(64, Math.min(Integer.MAX_VALUE - 64L, expectedKeys * 10));
        this.words = new long[(int) ((bits + 63) / 64)];
        this.hashCount = 7;
    }

    BloomFilter(long[] words, int hashCount) {
        this.words = words;
        this.hashCount = hashCount;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    public void add(long token) {
        long h1 = mix(token);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long bits = (long) words.length * 64;
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bits);
            words[(int) (bit >>> 6)] |= 1L << bit;
        }
    }

    public boolean mightContain(long token) {
        long h1 = mix(token);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long bits = (long) words.length * 64;
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bits);
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    long[] words() {
        return words;
    }

    int hashCount() {
        return hashCount;
    }
}
