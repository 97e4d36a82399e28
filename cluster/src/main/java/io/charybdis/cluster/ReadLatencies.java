package io.charybdis.cluster;

import io.charybdis.storage.LatencyHistogram;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One table's coordinator read latency (single-partition reads this node coordinated across replicas) and the
 * recent percentile that a percentile {@link SpeculativeRetry} waits for.
 *
 * <p>Implementation notes: the histogram is cumulative (Cassandra's EstimatedHistogram buckets); the percentile is
 * taken over the interval since the last update — the difference of two snapshots — once the interval holds
 * {@link #MIN_SAMPLES} reads and at least {@link #UPDATE_INTERVAL_NANOS} passed (or {@link #MAX_INTERVAL_NANOS}
 * with any), so it follows recent latency as Cassandra's decaying reservoir does. Before the first update it is half
 * the read timeout, Cassandra's starting value. Recording is two atomic increments; the update is done by whichever
 * reader finds it due, one at a time, without blocking the others.
 */
final class ReadLatencies {
    static final long UPDATE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long MAX_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int MIN_SAMPLES = 20;

    private final LatencyHistogram latency = new LatencyHistogram();
    private final AtomicLong speculativeRetries = new AtomicLong();
    private final AtomicBoolean updating = new AtomicBoolean();
    private LatencyHistogram.Snapshot last = LatencyHistogram.empty(); // written only by the updating reader
    private volatile long lastUpdateNanos = System.nanoTime();
    private volatile double percentile = -1;
    private volatile long percentileMicros;

    ReadLatencies(long readTimeoutMillis) {
        this.percentileMicros = TimeUnit.MILLISECONDS.toMicros(readTimeoutMillis) / 2;
    }

    void recordNanos(long nanos) {
        latency.recordNanos(nanos);
    }

    void speculated() {
        speculativeRetries.incrementAndGet();
    }

    long speculativeRetries() {
        return speculativeRetries.get();
    }

    LatencyHistogram.Snapshot snapshot() {
        return latency.snapshot();
    }

    /** The p-th percentile (0..100) of recent read latency, in microseconds. */
    long percentileMicros(double p) {
        long now = System.nanoTime();
        long since = now - lastUpdateNanos;
        if ((p != percentile || since >= UPDATE_INTERVAL_NANOS) && updating.compareAndSet(false, true)) {
            try {
                LatencyHistogram.Snapshot s = latency.snapshot();
                long[] counts = s.counts().clone();
                long[] before = last.counts();
                long n = 0;
                for (int i = 0; i < counts.length; i++) {
                    counts[i] -= before[i];
                    n += counts[i];
                }
                if (n >= MIN_SAMPLES || (n > 0 && since >= MAX_INTERVAL_NANOS)) {
                    percentileMicros = new LatencyHistogram.Snapshot(counts, s.totalMicros() - last.totalMicros())
                            .percentile(p / 100);
                    last = s;
                    lastUpdateNanos = now;
                }
                percentile = p;
            } finally {
                updating.set(false);
            }
        }
        return percentileMicros;
    }
}
