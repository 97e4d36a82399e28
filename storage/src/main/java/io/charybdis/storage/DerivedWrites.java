package io.charybdis.storage;

import io.charybdis.storage.mutation.Mutation;
import java.util.function.Consumer;

/**
 * Writes a table's writes imply on other tables of the same shard: what keeps a local secondary index (a hidden
 * table of the same node and shard) in step with its base table.
 *
 * <p>Implementation notes: {@link #derive} runs on the shard thread that applies {@code base}, right after the base
 * mutation went to the commit log and the memtable, and every mutation it hands to {@code out} is applied at once,
 * in the same shard, into the derived table's memtable, accounted against the same commit log segment as the base
 * write (so the segment is kept until the derived table has flushed too). Derived mutations are not logged
 * themselves: commit log replay applies the base mutation again, which derives them again. Their tokens must
 * belong to {@code shard} (see {@link #tokenInShard}); the engine checks and refuses any other. The same hook is
 * called by {@link Storage#deriveFrom} to build derived data for what a table already holds.
 */
@FunctionalInterface
public interface DerivedWrites {
    void derive(Mutation base, int shard, int shardCount, Consumer<Mutation> out);

    /**
     * A token owned by {@code shard} of {@code shardCount} for a partition whose own hash is {@code hash}: keeps the
     * hash's top {@value io.charybdis.storage.shard.ShardRouting#IGNORE_MSB} bits (which the shard function ignores)
     * and places the remaining ones inside the shard's slice of the biased token space.
     */
    static long tokenInShard(long hash, int shard, int shardCount) {
        int ignore = io.charybdis.storage.shard.ShardRouting.IGNORE_MSB;
        long width = Long.divideUnsigned(-1L, shardCount); // the slice of one shard in the shifted space
        long start = shard == 0 ? 0 : width * shard + shard;
        long first = (start + (1L << ignore) - 1) & (-1L << ignore); // the slice's first value shifting back exactly
        long within = Long.remainderUnsigned((hash ^ Long.MIN_VALUE) << ignore, width - (2L << ignore));
        long shifted = first + within;
        long biased = ((hash ^ Long.MIN_VALUE) & (-1L << (64 - ignore))) | (shifted >>> ignore);
        long token = biased ^ Long.MIN_VALUE;
        if (io.charybdis.storage.shard.ShardRouting.shardOf(token, shardCount) == shard) {
            return token;
        }
        throw new IllegalStateException("no token for shard=" + shard + " of " + shardCount);
    }
}
