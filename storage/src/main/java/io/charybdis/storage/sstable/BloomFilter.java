package io.charybdis.storage.sstable;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Bloom filter over partition tokens (already a good 64-bit hash of the key) with double hashing; about 10 bits
 * and 7 probes per key (~1% false positives).
 *
 * <p>A flyweight over a bit array of little-endian 64-bit words in any buffer: while an SSTable is written, an
 * off-heap buffer of the writer; once it is open, the words region of the filter file loaded into off-heap memory
 * by {@link SSTableReader} (the {@code long words[]} of {@link SSTableFormat}'s filter component, byte for byte).
 */
public final class BloomFilter {
    private final DirectBuffer words;
    private final int wordsOffset;
    private final int wordCount;
    private final int hashCount;

    /** A writable, empty filter sized for {@code expectedKeys}, on the heap. */
    public BloomFilter(long expectedKeys) {
        this(new UnsafeBuffer(new byte[wordCount(expectedKeys) * 8]), 0, wordCount(expectedKeys), HASH_COUNT);
    }

    static final int HASH_COUNT = 7;

    /** Words of a filter for {@code expectedKeys} keys (10 bits a key). */
    static int wordCount(long expectedKeys) {
        long bits = Math.max(64, Math.min(Integer.MAX_VALUE - 64L, expectedKeys * 10));
        return (int) ((bits + 63) / 64);
    }

    /** A view of {@code wordCount} words at {@code offset} of {@code buffer} (zeroed for a new filter). */
    BloomFilter(DirectBuffer buffer, int offset, int wordCount, int hashCount) {
        this.words = buffer;
        this.wordsOffset = offset;
        this.wordCount = wordCount;
        this.hashCount = hashCount;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    public void add(long token) {
        MutableDirectBuffer w = (MutableDirectBuffer) words;
        long h1 = mix(token);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long bits = (long) wordCount * 64;
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bits);
            int at = wordsOffset + (int) (bit >>> 6) * 8;
            w.putLong(at, w.getLong(at) | (1L << bit));
        }
    }

    public boolean mightContain(long token) {
        long h1 = mix(token);
        long h2 = mix(h1 ^ 0x9E3779B97F4A7C15L) | 1;
        long bits = (long) wordCount * 64;
        for (int i = 0; i < hashCount; i++) {
            long bit = Long.remainderUnsigned(h1 + i * h2, bits);
            if ((words.getLong(wordsOffset + (int) (bit >>> 6) * 8) & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    int wordCount() {
        return wordCount;
    }

    long word(int i) {
        return words.getLong(wordsOffset + i * 8);
    }

    int hashCount() {
        return hashCount;
    }
}
