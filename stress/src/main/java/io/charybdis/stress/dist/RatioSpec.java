package io.charybdis.stress.dist;

import java.util.Locale;

/**
 * A ratio as cassandra-stress writes it: a distribution over a divisor, {@code uniform(1..10)/10} (a tenth to all),
 * {@code fixed(1)/1}; without {@code /divisor} the divisor is 1. Used by {@code -insert select-ratio=} and the
 * profile's {@code insert: select:}.
 */
public record RatioSpec(DistributionSpec distribution, double divisor) {

    /** All of it: {@code fixed(1)/1}. */
    public static final RatioSpec ONE = new RatioSpec(DistributionSpec.fixed(1), 1);

    public static RatioSpec parse(String s) {
        String text = s.trim();
        int slash = text.lastIndexOf('/');
        if (slash < 0 || slash < text.lastIndexOf(')')) {
            return new RatioSpec(DistributionSpec.parse(text), 1);
        }
        double divisor;
        try {
            divisor = Double.parseDouble(text.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid ratio: " + s + " (expected DIST(?)/divisor, e.g. uniform(1..10)/10)");
        }
        if (!(divisor > 0)) {
            throw new IllegalArgumentException("Invalid ratio: " + s + " (the divisor must be positive)");
        }
        return new RatioSpec(DistributionSpec.parse(text.substring(0, slash)), divisor);
    }

    public double min() {
        return clamp(distribution.min() / divisor);
    }

    public double max() {
        return clamp(distribution.max() / divisor);
    }

    /** A sampler of ratios in [0, 1]; not thread-safe. */
    public Sampler create() {
        return new Sampler(distribution.create(), divisor);
    }

    /** The settings-dump form: {@code Ratio: divisor=10.000000;delegate=Uniform:  min=1,max=10}. */
    public String display() {
        return String.format(Locale.ROOT, "Ratio: divisor=%f;delegate=%s", divisor, distribution.display());
    }

    @Override
    public String toString() {
        return distribution + "/" + (divisor == Math.rint(divisor) ? String.valueOf((long) divisor) : String.valueOf(divisor));
    }

    private static double clamp(double r) {
        return Math.max(0, Math.min(1, r));
    }

    /** Draws ratios clamped to [0, 1]. */
    public static final class Sampler {
        private final Distribution distribution;
        private final double divisor;

        Sampler(Distribution distribution, double divisor) {
            this.distribution = distribution;
            this.divisor = divisor;
        }

        public void setSeed(long seed) {
            distribution.setSeed(seed);
        }

        public double next() {
            return clamp(distribution.next() / divisor);
        }
    }
}
