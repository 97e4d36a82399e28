package io.charybdis.stress.run;

import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.ops.Operation;
import java.util.List;
import java.util.function.Supplier;

/**
 * What one measured (or warmup) phase runs: the operations and their weights, the seeds, how many threads with
 * how many operations in flight each, the pacing, and when to stop.
 *
 * @param count           operations to run, or -1
 * @param durationNanos   how long to run, or 0
 * @param targetUncertainty stop once the throughput's standard error falls below this (or -1)
 * @param rate            null for unpaced
 * @param clustering      mixed: how many consecutive operations of the same kind (null: choose each time)
 */
public record PhaseConfig(Supplier<List<Operation>> operations, double[] weights, DistributionSpec population,
                          boolean sequential, boolean wrap, int threads, int inFlightPerThread, RateGate rate,
                          long count, long durationNanos, double targetUncertainty, int minMeasurements,
                          int maxMeasurements, int tries, boolean ignoreErrors, DistributionSpec clustering,
                          long intervalMillis, boolean print) {
}
