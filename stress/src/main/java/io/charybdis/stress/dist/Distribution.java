package io.charybdis.stress.dist;

/**
 * A source of longs in {@code [minValue(), maxValue()]}. Not thread-safe unless the implementation says so:
 * each load thread owns its samplers. {@link #setSeed(long)} makes the following values a pure function of the
 * seed, which is how keys and values are derived from a partition's seed.
 */
public interface Distribution {

    long next();

    /** The value at cumulative probability {@code p} in [0, 1]. */
    long inverseCumProb(double p);

    void setSeed(long seed);

    long minValue();

    long maxValue();
}
