package io.charybdis.node.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One shard's request counters and coordinator latency histograms, in ScyllaDB's terms (CQL operations by kind,
 * requests served and shed, timeouts and unavailables, read and write latency).
 *
 * <p>Implementation notes: single writer, many readers, no locks and no allocation. Only the shard's thread writes
 * (the connection handlers and the statements they start run on it); every slot is a {@code long} in a plain array
 * updated as {@code setOpaque(get + delta)}, so an increment is a load and a store, and the scraper's
 * {@code getOpaque} never sees a torn value. A reader may see a histogram's count and its buckets a request apart;
 * Prometheus tolerates that (each series stays monotonic).
 *
 * <p>Latency buckets are powers of two in microseconds: bucket i counts requests that took at most 2^i µs, up to
 * 2^{@value #LATENCY_BUCKETS_MINUS_ONE} µs (about 33 s); the last bucket takes everything longer.
 */
public final class ShardRequestMetrics {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** What a statement is, for the latency histograms and the timeout counters. */
    public static final int KIND_OTHER = 0, KIND_READ = 1, KIND_WRITE = 2, KIND_RANGE_READ = 3;

    // counter slots
    public static final int CQL_READS = 0;
    public static final int CQL_INSERTS = 1;
    public static final int CQL_UPDATES = 2;
    public static final int CQL_DELETES = 3;
    public static final int CQL_INSERTS_CONDITIONAL = 4;
    public static final int CQL_UPDATES_CONDITIONAL = 5;
    public static final int CQL_DELETES_CONDITIONAL = 6;
    public static final int CQL_BATCHES = 7;
    public static final int CQL_STATEMENTS_IN_BATCHES = 8;
    public static final int CQL_UNPAGED_SELECTS = 9;
    public static final int CQL_FILTERED_READS = 10;
    public static final int CQL_REVERSE_QUERIES = 11;
    public static final int STATEMENTS_PARSED = 12;
    public static final int REQUESTS_SERVED = 13;
    public static final int REQUESTS_SHED = 14;
    public static final int READ_TIMEOUTS = 15;
    public static final int WRITE_TIMEOUTS = 16;
    public static final int RANGE_TIMEOUTS = 17;
    public static final int READ_UNAVAILABLE = 18;
    public static final int WRITE_UNAVAILABLE = 19;
    public static final int RANGE_UNAVAILABLE = 20;
    /** Slots from here on count queries by consistency level (the protocol's ordinal). */
    public static final int QUERIES_BY_CONSISTENCY = 24;
    public static final int CONSISTENCY_LEVELS = 11;
    static final int COUNTERS = QUERIES_BY_CONSISTENCY + CONSISTENCY_LEVELS;

    static final int LATENCY_BUCKETS = 26;
    private static final int LATENCY_BUCKETS_MINUS_ONE = LATENCY_BUCKETS - 1;
    /** Per histogram: LATENCY_BUCKETS bucket counts, then the sum of microseconds. */
    private static final int HISTOGRAM_SLOTS = LATENCY_BUCKETS + 1;

    private final int shard;
    private final long[] counters = new long[COUNTERS];
    private final long[] readLatency = new long[HISTOGRAM_SLOTS];
    private final long[] writeLatency = new long[HISTOGRAM_SLOTS];
    private final long[] rangeLatency = new long[HISTOGRAM_SLOTS];
    /** The same latencies in Cassandra's buckets, for JMX (nodetool proxyhistograms: ClientRequest Latency). */
    private final io.charybdis.storage.LatencyHistogram readTimer = new io.charybdis.storage.LatencyHistogram();
    private final io.charybdis.storage.LatencyHistogram writeTimer = new io.charybdis.storage.LatencyHistogram();
    private final io.charybdis.storage.LatencyHistogram rangeTimer = new io.charybdis.storage.LatencyHistogram();
    /** The kind of the statement the shard started last: set and read on the shard thread, in the same call. */
    private int lastKind;

    public ShardRequestMetrics(int shard) {
        this.shard = shard;
    }

    public int shard() {
        return shard;
    }

    // ------------------------------------------------------------------ writer side (the shard's thread)

    public void increment(int slot) {
        add(counters, slot, 1);
    }

    public void add(int slot, long delta) {
        add(counters, slot, delta);
    }

    /** Notes the kind of the statement being started, for the connection that awaits it. */
    public void started(int kind) {
        lastKind = kind;
    }

    /** The kind of the statement started last, and forgets it. */
    public int takeStartedKind() {
        int k = lastKind;
        lastKind = KIND_OTHER;
        return k;
    }

    /** Records the coordinator latency of a completed statement of {@code kind}. */
    public void recordLatency(int kind, long nanos) {
        long[] h = switch (kind) {
            case KIND_READ -> readLatency;
            case KIND_WRITE -> writeLatency;
            case KIND_RANGE_READ -> rangeLatency;
            default -> null;
        };
        if (h == null) {
            return;
        }
        long micros = Math.max(0, nanos / 1000);
        add(h, bucketOf(micros), 1);
        add(h, LATENCY_BUCKETS, micros);
        (kind == KIND_READ ? readTimer : kind == KIND_WRITE ? writeTimer : rangeTimer).record(micros);
    }

    /** Coordinator latencies of a kind (read, write, range read) in Cassandra's EstimatedHistogram buckets. */
    public io.charybdis.storage.LatencyHistogram.Snapshot cassandraLatency(int kind) {
        return switch (kind) {
            case KIND_READ -> readTimer.snapshot();
            case KIND_WRITE -> writeTimer.snapshot();
            case KIND_RANGE_READ -> rangeTimer.snapshot();
            default -> throw new IllegalArgumentException("no latency histogram for kind=" + kind);
        };
    }

    static int bucketOf(long micros) {
        if (micros <= 1) {
            return 0;
        }
        return Math.min(LATENCY_BUCKETS_MINUS_ONE, 64 - Long.numberOfLeadingZeros(micros - 1));
    }

    /** The upper bound of bucket i in microseconds (the last is unbounded). */
    static double bucketBound(int i) {
        return i == LATENCY_BUCKETS_MINUS_ONE ? Double.POSITIVE_INFINITY : (double) (1L << i);
    }

    private static void add(long[] a, int i, long delta) {
        LONGS.setOpaque(a, i, (long) LONGS.getOpaque(a, i) + delta);
    }

    // ------------------------------------------------------------------ reader side (any thread)

    public long counter(int slot) {
        return (long) LONGS.getOpaque(counters, slot);
    }

    /** A copy of a latency histogram: bucket counts (not cumulative), then the sum of microseconds. */
    public long[] latency(int kind) {
        long[] h = switch (kind) {
            case KIND_READ -> readLatency;
            case KIND_WRITE -> writeLatency;
            case KIND_RANGE_READ -> rangeLatency;
            default -> throw new IllegalArgumentException("no latency histogram for kind=" + kind);
        };
        long[] copy = new long[HISTOGRAM_SLOTS];
        for (int i = 0; i < HISTOGRAM_SLOTS; i++) {
            copy[i] = (long) LONGS.getOpaque(h, i);
        }
        return copy;
    }
}
