package io.charybdis.stress.generate;

import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.dist.DistributionSpec;
import java.nio.ByteBuffer;

/**
 * Column values: {@code size} bytes (from the {@code -col size=} distribution, seeded per partition and column so
 * that a partition always gets the same sizes) filled from a SplitMix64 stream of the same seed. Not thread-safe.
 */
public final class ValueGenerator {

    private final Distribution size;

    public ValueGenerator(DistributionSpec size) {
        this.size = size.create();
    }

    public ByteBuffer value(long partitionSeed, int column) {
        long s = mix(partitionSeed * 31 + column + 0x9E3779B97F4A7C15L);
        size.setSeed(s);
        int n = (int) Math.max(0, size.next());
        byte[] out = new byte[n];
        long state = s;
        for (int i = 0; i < n; i += 8) {
            state += 0x9E3779B97F4A7C15L;
            long v = mix(state);
            for (int j = 0; j < 8 && i + j < n; j++) {
                out[i + j] = (byte) v;
                v >>>= 8;
            }
        }
        return ByteBuffer.wrap(out);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
