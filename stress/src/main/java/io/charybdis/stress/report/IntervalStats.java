package io.charybdis.stress.report;

import org.HdrHistogram.Histogram;

/**
 * One line of the live table: the operation kind ("total" for all), the running total of operations, the rates
 * over the interval, the interval's latency percentiles in milliseconds, the elapsed time, the standard error of
 * the throughput so far, and the cluster's GC activity over the interval.
 */
public record IntervalStats(String name, long totalOps, double opRate, double partitionRate, double rowRate,
                            double meanMs, double medianMs, double p95Ms, double p99Ms, double p999Ms, double maxMs,
                            double timeSeconds, double stderr, long errors, GcStats gc) {

    /** Builds a line from an interval histogram in microseconds. */
    public static IntervalStats of(String name, long totalOps, long ops, long partitions, long rows, Histogram h,
                                   double intervalSeconds, double timeSeconds, double stderr, long errors, GcStats gc) {
        double secs = Math.max(intervalSeconds, 1e-9);
        boolean empty = h == null || h.getTotalCount() == 0;
        return new IntervalStats(name, totalOps, ops / secs, partitions / secs, rows / secs,
                empty ? 0 : h.getMean() / 1000d, ms(h, 50, empty), ms(h, 95, empty), ms(h, 99, empty),
                ms(h, 99.9, empty), empty ? 0 : h.getMaxValue() / 1000d, timeSeconds, stderr, errors, gc);
    }

    private static double ms(Histogram h, double percentile, boolean empty) {
        return empty ? 0 : h.getValueAtPercentile(percentile) / 1000d;
    }
}
