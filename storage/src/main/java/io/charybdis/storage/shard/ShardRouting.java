package io.charybdis.storage.shard;

/**
 * Scylla's token-to-shard function ("biased token round robin" with {@code ignore_msb} bits):
 * <pre>
 *   biased = token + 2^63           (as an unsigned 64-bit number: flips the sign bit)
 *   biased = biased << ignoreMsb    (drops the top bits so consecutive vnode ranges spread over shards)
 *   shard  = (biased * shardCount) >>> 64   (high 64 bits of the unsigned 128-bit product)
 * </pre>
 */
public final class ShardRouting {
    public static final int IGNORE_MSB = 12;

    private ShardRouting() {
    }

    public static int shardOf(long token, int shardCount) {
        return shardOf(token, shardCount, IGNORE_MSB);
    }

    public static int shardOf(long token, int shardCount, int ignoreMsb) {
        long biased = (token ^ Long.MIN_VALUE) << ignoreMsb;
        return (int) Math.unsignedMultiplyHigh(biased, shardCount);
    }
}
