package io.charybdis.storage.util;

/**
 * Counts of non-negative values in the buckets of Cassandra's {@code EstimatedHistogram}, the layout nodetool reads
 * from the table beans ({@code EstimatedPartitionSizeHistogram}, {@code EstimatedColumnCountHistogram}).
 *
 * <p>Implementation notes. A histogram of {@code n} offsets has {@code n + 1} counts. The offsets are the series
 * {@code 1, 2, 3, ...} where each is the previous times 1.2, rounded half up, and one more than the previous where
 * rounding would repeat it (so 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 20, 24, 29, ...). Count {@code i} holds the
 * values in {@code (offset[i-1], offset[i]]} (count 0: values up to 1, zero included); the last count holds the
 * values above the last offset ("overflowed"). Since the offsets follow from their number, a histogram travels as
 * its counts alone: a reader derives the offsets from the array's length, as Cassandra's nodetool does.
 *
 * <p>Cassandra's SSTables keep two: partition sizes in bytes over {@link #PARTITION_SIZE_OFFSETS} offsets (up to
 * about 3.5 TB) and cells per partition over {@link #CELL_COUNT_OFFSETS} offsets (up to about 4.1 billion). The
 * instance methods record on one thread without allocating (a binary search over a primitive array); the static
 * ones compute nodetool's figures over a counts array (Cassandra's {@code min}, {@code max}, {@code mean},
 * {@code count}).
 */
public final class EstimatedHistogram {
    /** Offsets of the partition-size histogram of Cassandra 5.0's SSTable statistics. */
    public static final int PARTITION_SIZE_OFFSETS = 155;
    /** Offsets of the cells-per-partition histogram of Cassandra 5.0's SSTable statistics. */
    public static final int CELL_COUNT_OFFSETS = 118;

    private final long[] offsets;
    private final long[] counts;

    public EstimatedHistogram(int offsetCount) {
        this.offsets = offsets(offsetCount);
        this.counts = new long[offsetCount + 1];
    }

    public static EstimatedHistogram partitionSizes() {
        return new EstimatedHistogram(PARTITION_SIZE_OFFSETS);
    }

    public static EstimatedHistogram cellCounts() {
        return new EstimatedHistogram(CELL_COUNT_OFFSETS);
    }

    /** The first {@code n} offsets of the series (Cassandra's {@code EstimatedHistogram.newOffsets(n, false)}). */
    public static long[] offsets(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("an estimated histogram needs offsets, n=" + n);
        }
        long[] result = new long[n];
        long last = 1;
        result[0] = last;
        for (int i = 1; i < n; i++) {
            long next = Math.round(last * 1.2);
            if (next == last) {
                next++;
            }
            result[i] = next;
            last = next;
        }
        return result;
    }

    /** Counts one value (negative ones as 0). */
    public void add(long value) {
        counts[bucket(offsets, value)]++;
    }

    /** The index of the count that holds {@code value}: the first offset at or above it, else the overflow one. */
    public static int bucket(long[] offsets, long value) {
        int lo = 0;
        int hi = offsets.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (offsets[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A copy of the counts ({@code offsetCount + 1} of them). */
    public long[] counts() {
        return counts.clone();
    }

    public void clear() {
        java.util.Arrays.fill(counts, 0);
    }

    // ------------------------------------------------------------------ figures over a counts array

    public static long count(long[] counts) {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    public static boolean overflowed(long[] counts) {
        return counts.length > 0 && counts[counts.length - 1] > 0;
    }

    /** The smallest value the lowest non-empty bucket may hold (0 for the first bucket or no value). */
    public static long min(long[] counts) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                return i == 0 ? 0 : 1 + offsets(i)[i - 1];
            }
        }
        return 0;
    }

    /** The upper bound of the highest non-empty bucket; {@link Long#MAX_VALUE} when overflowed, 0 with no value. */
    public static long max(long[] counts) {
        if (overflowed(counts)) {
            return Long.MAX_VALUE;
        }
        for (int i = counts.length - 2; i >= 0; i--) {
            if (counts[i] > 0) {
                return offsets(i + 1)[i];
            }
        }
        return 0;
    }

    /**
     * The mean of the buckets' upper bounds weighted by their counts, rounded up; 0 with no value. The overflow
     * bucket has no bound and is left out (Cassandra refuses the mean of an overflowed histogram; a partition of
     * 3.5 TB or 4 billion cells cannot be written here anyway).
     */
    public static long mean(long[] counts) {
        if (counts.length < 2) {
            return 0;
        }
        long[] offsets = offsets(counts.length - 1);
        long n = 0;
        long sum = 0;
        for (int i = 0; i < offsets.length; i++) {
            n += counts[i];
            sum += counts[i] * offsets[i];
        }
        return n == 0 ? 0 : (long) Math.ceil((double) sum / n);
    }

    /** Adds {@code b}'s counts to {@code a}'s, the shorter extended with zeros (Cassandra's addHistogram). */
    public static long[] add(long[] a, long[] b) {
        long[] r = java.util.Arrays.copyOf(a, Math.max(a.length, b.length));
        for (int i = 0; i < b.length; i++) {
            r[i] += b[i];
        }
        return r;
    }
}
