package io.charybdis.storage.shard;

import io.charybdis.storage.cache.RowCache;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.RowMerger;
import io.charybdis.storage.schedule.BacklogController;
import org.agrona.ExpandableArrayBuffer;

/**
 * A shard's off-heap budget (memory_budget / shards, at least 512 KiB) and how memtables and the row cache share it.
 *
 * <p>Implementation notes: one accounted {@link ShardAllocator} serves both, so memtable bytes are what it holds less
 * the cache's. Memtables may use up to the hard limit (half the budget); flushing starts at the soft limit (60% of
 * the hard limit, the flush controller's) and writes wait at the hard limit. The cache may hold the rest of the
 * budget and is evicted down as memtables grow. Shard thread only.
 */
final class ShardMemory {
    private static final long MAX_CACHED_PARTITION = 1 << 20;

    final ShardAllocator allocator;
    final RowCache cache;
    /** The last large partition read, kept for its next page (see LargePartitionSlot); in the cache's share. */
    final LargePartitionSlot largePartition;
    final long shardBudget;
    final long hardLimit;
    final long softLimit;
    private final RowMerger rowMerger = new RowMerger();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(1024);

    ShardMemory(int shard, ShardContext ctx) {
        this.allocator = new ShardAllocator(shard);
        this.shardBudget = Math.max(512 * 1024, ctx.config().memoryBudgetBytes() / ctx.shardCount());
        this.hardLimit = shardBudget / 2;
        this.softLimit = (long) (hardLimit * BacklogController.DEFAULT_SOFT_LIMIT);
        this.cache = new RowCache(allocator);
        this.largePartition = new LargePartitionSlot(allocator);
    }

    /** Off-heap bytes of memtables (writable and flushing) of every table on this shard. */
    long memtableBytes() {
        return allocator.allocatedBytes() - cache.bytes() - largePartition.bytes();
    }

    /** What the cache may hold now: the shard's budget less what memtables and the large-partition slot use. */
    long cacheLimit() {
        return shardBudget - memtableBytes() - largePartition.bytes();
    }

    long maxCachedPartition() {
        return Math.min(MAX_CACHED_PARTITION, shardBudget / 8);
    }

    /** Whether writes must wait for a flush to free memtable memory. */
    boolean atHardLimit() {
        return memtableBytes() >= hardLimit;
    }

    Memtable newMemtable() {
        return new Memtable(allocator, rowMerger, scratch);
    }
}
