package io.charybdis.stress.report;

/**
 * The standard error of the mean interval throughput, as a fraction of that mean (the {@code stderr} column and
 * the {@code err<} stopping rule): {@code (s / sqrt(n)) / mean}, with s the sample standard deviation of the
 * per-interval op rates (Welford's running update). 0 until there are two intervals.
 */
public final class Uncertainty {

    private long n;
    private double mean;
    private double m2;

    public void update(double rate) {
        n++;
        double delta = rate - mean;
        mean += delta / n;
        m2 += delta * (rate - mean);
    }

    public long measurements() {
        return n;
    }

    public double get() {
        if (n < 2 || mean == 0) {
            return 0;
        }
        double stdev = Math.sqrt(m2 / (n - 1));
        return stdev / Math.sqrt(n) / mean;
    }
}
