package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.shard.ShardRouting;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShardRoutingTest {
    private static int reference(long token, int shards) {
        BigInteger biased = BigInteger.valueOf(token).add(BigInteger.ONE.shiftLeft(63));
        BigInteger mask = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        BigInteger shifted = biased.shiftLeft(12).and(mask);
        return shifted.multiply(BigInteger.valueOf(shards)).shiftRight(64).intValueExact();
    }

    @Test
    void shouldAlwaysBeZeroWithOneShard() {
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(ShardRouting.shardOf(r.nextLong(), 1)).isZero();
        }
        assertThat(ShardRouting.shardOf(Long.MIN_VALUE, 1)).isZero();
        assertThat(ShardRouting.shardOf(Long.MAX_VALUE, 1)).isZero();
    }

    @Test
    void shouldMatchHandComputedVectors() {
        // token 0: biased = 2^63, << 12 drops it => 0 => shard 0
        assertThat(ShardRouting.shardOf(0, 4)).isZero();
        // token -2^63: biased 0 => shard 0
        assertThat(ShardRouting.shardOf(Long.MIN_VALUE, 8)).isZero();
        // token 2^51: biased = 2^63 + 2^51, << 12 => 2^63 => * 2 >> 64 = 1
        assertThat(ShardRouting.shardOf(1L << 51, 2)).isEqualTo(1);
        // token -1: biased = 2^63 - 1, << 12 => 2^64 - 2^12 => *3 >> 64 = 2
        assertThat(ShardRouting.shardOf(-1L, 3)).isEqualTo(2);
        // token 2^50: biased << 12 = 2^62 => *4 >> 64 = 1
        assertThat(ShardRouting.shardOf(1L << 50, 4)).isEqualTo(1);
    }

    @Test
    void shouldMatchBigIntegerReference() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 20000; i++) {
            long t = r.nextLong();
            int n = 1 + r.nextInt(64);
            assertThat(ShardRouting.shardOf(t, n)).as("token=%d shards=%d", t, n).isEqualTo(reference(t, n));
        }
    }
}
