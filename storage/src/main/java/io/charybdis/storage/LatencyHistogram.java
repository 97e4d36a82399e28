package io.charybdis.storage;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in microseconds, counted in the buckets of Cassandra's EstimatedHistogram (offsets 1, 2, 3, ... each
 * about 1.2 times the previous, up to about 25 s; larger values land in an overflow bucket). Safe to record from any
 * thread; recording is a bucket search and two atomic increments.
 */
public final class LatencyHistogram {
    /** Upper bounds (inclusive) of the buckets, in microseconds: Cassandra's EstimatedHistogram with 90 buckets. */
    private static final long[] OFFSETS = offsets(90);

    private final AtomicLongArray buckets = new AtomicLongArray(OFFSETS.length + 1);
    private final AtomicLong totalMicros = new AtomicLong();

    /** Cassandra's EstimatedHistogram.newOffsets(size, false). */
    public static long[] offsets(int size) {
        return io.charybdis.storage.util.EstimatedHistogram.offsets(size);
    }

    public void recordNanos(long nanos) {
        record(nanos / 1000);
    }

    /** Records a plain value (the buckets suit any non-negative count, e.g. rows or tombstones a read went through). */
    public void record(long value) {
        long micros = Math.max(0, value);
        int lo = 0;
        int hi = OFFSETS.length;
        while (lo < hi) { // first offset >= micros
            int mid = (lo + hi) >>> 1;
            if (OFFSETS[mid] < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        buckets.incrementAndGet(lo);
        totalMicros.addAndGet(micros);
    }

    public Snapshot snapshot() {
        long[] counts = new long[buckets.length()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = buckets.get(i);
        }
        return new Snapshot(counts, totalMicros.get());
    }

    /** Adds another histogram's counts (e.g. of another shard) into this snapshot's sum. */
    public static Snapshot sum(Snapshot a, Snapshot b) {
        long[] c = a.counts.clone();
        for (int i = 0; i < c.length; i++) {
            c[i] += b.counts[i];
        }
        return new Snapshot(c, a.totalMicros + b.totalMicros);
    }

    public static Snapshot empty() {
        return new Snapshot(new long[OFFSETS.length + 1], 0);
    }

    /**
     * Counts per bucket ({@code counts[i]}: values in (offset[i-1], offset[i]] µs; the last one: overflow) and the
     * exact sum of the recorded values.
     */
    public record Snapshot(long[] counts, long totalMicros) {
        public Snapshot {
            counts = counts.clone();
        }

        /** The bucket offsets (µs) of {@link #counts()}, without the overflow bucket. */
        public static long[] bucketOffsets() {
            return OFFSETS.clone();
        }

        public long count() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        public double mean() {
            long n = count();
            return n == 0 ? 0 : (double) totalMicros / n;
        }

        private static long upper(int bucket) {
            return bucket < OFFSETS.length ? OFFSETS[bucket] : OFFSETS[OFFSETS.length - 1] + 1;
        }

        /** Upper bound (µs) of the bucket holding the p-quantile (0..1), as Cassandra's reservoirs report it. */
        public long percentile(double p) {
            long total = count();
            if (total == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(p * total));
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return upper(i);
                }
            }
            return upper(counts.length - 1);
        }

        public long min() {
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    return upper(i);
                }
            }
            return 0;
        }

        public long max() {
            for (int i = counts.length - 1; i >= 0; i--) {
                if (counts[i] > 0) {
                    return upper(i);
                }
            }
            return 0;
        }

        /** Standard deviation estimated from the bucket bounds. */
        public double stdDev() {
            long n = count();
            if (n < 2) {
                return 0;
            }
            double mean = mean();
            double sq = 0;
            for (int i = 0; i < counts.length; i++) {
                double d = upper(i) - mean;
                sq += d * d * counts[i];
            }
            return Math.sqrt(sq / (n - 1));
        }
    }
}
