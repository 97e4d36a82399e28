package io.charybdis.stress.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistributionTest {

    private static final int SAMPLES = 200_000;

    private static double[] moments(Distribution d, long min, long max) {
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < SAMPLES; i++) {
            long v = d.next();
            assertThat(v).isBetween(min, max);
            sum += v;
            sq += (double) v * v;
        }
        double mean = sum / SAMPLES;
        return new double[] {mean, Math.sqrt(sq / SAMPLES - mean * mean)};
    }

    @Test
    void shouldParseSuffixesAndAliases() {
        assertThat(DistributionSpec.parseLong("100B")).isEqualTo(100_000_000_000L);
        assertThat(DistributionSpec.parseLong("2m")).isEqualTo(2_000_000L);
        assertThat(DistributionSpec.parseLong("3k")).isEqualTo(3_000L);
        assertThat(DistributionSpec.parse("GAUSS(1..10,2)").kind()).isEqualTo(DistributionSpec.Kind.GAUSSIAN);
        assertThat(DistributionSpec.parse("normal(1..10)").kind()).isEqualTo(DistributionSpec.Kind.GAUSSIAN);
        assertThat(DistributionSpec.parse("norm(1..10)").kind()).isEqualTo(DistributionSpec.Kind.GAUSSIAN);
        assertThat(DistributionSpec.parse("extr(1..10,2)").kind()).isEqualTo(DistributionSpec.Kind.EXTREME);
        assertThat(DistributionSpec.parse("weibull(1..10,2)").kind()).isEqualTo(DistributionSpec.Kind.EXTREME);
        assertThat(DistributionSpec.parse("qextr(1..10,2,3)").kind()).isEqualTo(DistributionSpec.Kind.QEXTREME);
        assertThat(DistributionSpec.parse("uniform(1...10)").max()).isEqualTo(10);
    }

    @Test
    void shouldDrawUniformlyOverTheWholeRange() {
        Distribution d = DistributionSpec.parse("uniform(1..1000)").create();
        double[] m = moments(d, 1, 1000);
        assertThat(m[0]).isCloseTo(500.5, within(3.0));
        assertThat(m[1]).isCloseTo(1000 / Math.sqrt(12), within(3.0));
    }

    @Test
    void shouldDrawGaussianWithGivenMeanAndStdev() {
        double[] m = moments(DistributionSpec.parse("gaussian(1..1000000,400000,10000)").create(), 1, 1_000_000);
        assertThat(m[0]).isCloseTo(400_000, within(200.0));
        assertThat(m[1]).isCloseTo(10_000, within(200.0));
        DistributionSpec three = DistributionSpec.parse("gauss(0..600)");
        assertThat(three.mean()).isEqualTo(300);
        assertThat(three.stdev()).isEqualTo(100);
        assertThat(DistributionSpec.parse("gauss(0..600,6)").stdev()).isEqualTo(50);
    }

    @Test
    void shouldSkewExponentialAndExtremeTowardsMinAndInvertTowardsMax() {
        double[] exp = moments(DistributionSpec.parse("exp(1..1000)").create(), 1, 1000);
        assertThat(exp[0]).isLessThan(300);
        double[] inv = moments(DistributionSpec.parse("~exp(1..1000)").create(), 1, 1000);
        assertThat(inv[0]).isGreaterThan(700);
        double[] ext = moments(DistributionSpec.parse("extreme(1..1000,1.5)").create(), 1, 1000);
        assertThat(ext[0]).isLessThan(400);
        moments(DistributionSpec.parse("qextreme(1..1000,1.5,10)").create(), 1, 1000);
    }

    @Test
    void shouldReturnFixedValue() {
        Distribution d = DistributionSpec.parse("fixed(34)").create();
        assertThat(d.next()).isEqualTo(34);
        assertThat(d.inverseCumProb(0.99)).isEqualTo(34);
    }

    @Test
    void shouldVisitSequenceInOrderAndWrap() {
        Distribution d = DistributionSpec.parse("seq(5..7)").create();
        assertThat(new long[] {d.next(), d.next(), d.next(), d.next()}).containsExactly(5, 6, 7, 5);
    }

    @Test
    void shouldRepeatValuesForTheSameSeed() {
        Distribution a = DistributionSpec.parse("uniform(1..1000000)").create();
        Distribution b = DistributionSpec.parse("uniform(1..1000000)").create();
        a.setSeed(42);
        b.setSeed(42);
        for (int i = 0; i < 100; i++) {
            assertThat(a.next()).isEqualTo(b.next());
        }
    }

    @Test
    void shouldComputeQuantiles() {
        Distribution g = DistributionSpec.parse("gaussian(1..1000,500,100)").create();
        assertThat(g.inverseCumProb(0.5)).isBetween(499L, 500L);
        assertThat(g.inverseCumProb(0.975)).isBetween(694L, 696L);
        assertThat(DistributionSpec.parse("uniform(1..100)").create().inverseCumProb(0)).isEqualTo(1);
    }
}
