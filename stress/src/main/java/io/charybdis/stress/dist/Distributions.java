package io.charybdis.stress.dist;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The distribution implementations. Each draws from its own {@link Random} (the JDK generator, so a seeded
 * sampler yields the same values on every JVM) and clamps its real-valued sample into {@code [min, max]}.
 */
final class Distributions {

    private Distributions() {
    }

    /** Base for the samplers that transform a uniform double. */
    abstract static class Continuous implements Distribution {
        final Random random = new Random();
        final long min;
        final long max;

        Continuous(long min, long max) {
            this.min = min;
            this.max = max;
        }

        /** A real-valued sample from the underlying distribution, before clamping. */
        abstract double sample();

        abstract double quantile(double p);

        @Override
        public long next() {
            return clamp(sample());
        }

        @Override
        public long inverseCumProb(double p) {
            return clamp(quantile(p));
        }

        long clamp(double v) {
            long r = (long) v;
            return r < min ? min : Math.min(r, max);
        }

        @Override
        public void setSeed(long seed) {
            random.setSeed(seed);
        }

        @Override
        public long minValue() {
            return min;
        }

        @Override
        public long maxValue() {
            return max;
        }
    }

    /** Uniform over [min, max]: {@code u * (max + 1) + (1 - u) * min}, truncated. */
    static final class Uniform extends Continuous {
        Uniform(long min, long max) {
            super(min, max);
        }

        @Override
        double sample() {
            return quantile(random.nextDouble());
        }

        @Override
        double quantile(double u) {
            return u * (max + 1d) + (1d - u) * min;
        }
    }

    static final class Gaussian extends Continuous {
        private final double mean;
        private final double stdev;

        Gaussian(long min, long max, double mean, double stdev) {
            super(min, max);
            this.mean = mean;
            this.stdev = stdev;
        }

        @Override
        double sample() {
            return mean + stdev * random.nextGaussian();
        }

        @Override
        double quantile(double p) {
            return mean + stdev * NormalQuantile.of(p);
        }
    }

    /** Exponential with the given mean, offset to start at min. */
    static final class Exponential extends Continuous {
        private final double mean;

        Exponential(long min, long max, double mean) {
            super(min, max);
            this.mean = mean;
        }

        @Override
        double sample() {
            return quantile(random.nextDouble());
        }

        @Override
        double quantile(double p) {
            return min + -mean * Math.log(1d - p);
        }
    }

    /** Weibull (extreme value) with the given shape and scale, offset to start at min. */
    static final class Extreme extends Continuous {
        private final double shape;
        private final double scale;

        Extreme(long min, long max, double shape, double scale) {
            super(min, max);
            this.shape = shape;
            this.scale = scale;
        }

        @Override
        double sample() {
            return quantile(random.nextDouble());
        }

        @Override
        double quantile(double p) {
            return min + scale * Math.pow(-Math.log(1d - p), 1d / shape);
        }
    }

    /** Picks one of {@code quantas} equal slices of the range by the delegate, then uniformly within it. */
    static final class Quantized implements Distribution {
        private final Distribution delegate;
        private final Random random = new Random();
        private final long min;
        private final long max;
        private final int quantas;

        Quantized(Distribution delegate, long min, long max, int quantas) {
            this.delegate = delegate;
            this.min = min;
            this.max = max;
            this.quantas = Math.max(1, quantas);
        }

        @Override
        public long next() {
            return within(delegate.next(), random.nextDouble());
        }

        @Override
        public long inverseCumProb(double p) {
            return within(delegate.inverseCumProb(p), 0.5);
        }

        private long within(long v, double u) {
            double width = (max - min + 1d) / quantas;
            long slice = Math.min(quantas - 1, (long) ((v - min) / width));
            long lo = min + (long) (slice * width);
            long hi = Math.min(max, min + (long) ((slice + 1) * width) - 1);
            return lo + (long) (u * (hi - lo + 1));
        }

        @Override
        public void setSeed(long seed) {
            delegate.setSeed(seed);
            random.setSeed(~seed);
        }

        @Override
        public long minValue() {
            return min;
        }

        @Override
        public long maxValue() {
            return max;
        }
    }

    static final class Fixed implements Distribution {
        private final long value;

        Fixed(long value) {
            this.value = value;
        }

        @Override
        public long next() {
            return value;
        }

        @Override
        public long inverseCumProb(double p) {
            return value;
        }

        @Override
        public void setSeed(long seed) {
        }

        @Override
        public long minValue() {
            return value;
        }

        @Override
        public long maxValue() {
            return value;
        }
    }

    /**
     * min, min+1, ..., max, min, ... Thread-safe: the position is shared by everyone holding the counter.
     * {@link #setSeed} moves the position to the seed (so the sequence starts at {@code min + seed mod range}).
     */
    static final class Sequence implements Distribution {
        private final long min;
        private final long max;
        private final AtomicLong position;

        Sequence(long min, long max, AtomicLong position) {
            this.min = min;
            this.max = max;
            this.position = position;
        }

        @Override
        public long next() {
            return min + Math.floorMod(position.getAndIncrement(), max - min + 1);
        }

        @Override
        public long inverseCumProb(double p) {
            return min + (long) (p * (max - min));
        }

        @Override
        public void setSeed(long seed) {
            position.set(seed);
        }

        @Override
        public long minValue() {
            return min;
        }

        @Override
        public long maxValue() {
            return max;
        }
    }

    /** Mirrors a distribution in its range: the most likely values become the least likely. */
    static final class Inverted implements Distribution {
        private final Distribution delegate;
        private final long min;
        private final long max;

        Inverted(Distribution delegate, long min, long max) {
            this.delegate = delegate;
            this.min = min;
            this.max = max;
        }

        @Override
        public long next() {
            return max - (delegate.next() - min);
        }

        @Override
        public long inverseCumProb(double p) {
            return max - (delegate.inverseCumProb(1d - p) - min);
        }

        @Override
        public void setSeed(long seed) {
            delegate.setSeed(seed);
        }

        @Override
        public long minValue() {
            return min;
        }

        @Override
        public long maxValue() {
            return max;
        }
    }
}
