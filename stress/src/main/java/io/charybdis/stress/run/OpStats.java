package io.charybdis.stress.run;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The live counters of one operation kind. Completions record from driver threads (wait-free: a {@link Recorder}
 * and {@link LongAdder}s); the reporter thread takes interval histograms and differences of the counters.
 */
public final class OpStats {

    /** Latencies are recorded in microseconds, up to one hour, 3 significant digits. */
    static final long HIGHEST_MICROS = 3_600_000_000L;

    final String name;
    final Recorder recorder = new Recorder(1, HIGHEST_MICROS, 3);
    final LongAdder ops = new LongAdder();
    final LongAdder partitions = new LongAdder();
    final LongAdder rows = new LongAdder();
    final LongAdder errors = new LongAdder();

    public OpStats(String name) {
        this.name = name;
    }

    void success(long latencyNanos, int partitionCount, int rowCount) {
        recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(1, latencyNanos / 1000)));
        ops.increment();
        partitions.add(partitionCount);
        rows.add(rowCount);
    }

    void failure() {
        errors.increment();
    }

    Histogram intervalHistogram(Histogram recycle) {
        return recorder.getIntervalHistogram(recycle);
    }
}
