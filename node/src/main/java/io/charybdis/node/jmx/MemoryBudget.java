package io.charybdis.node.jmx;

import io.charybdis.storage.ShardSnapshot;
import java.lang.management.ManagementFactory;
import java.util.List;

/** {@link MemoryBudgetMBean}: memtables and cache as each shard accounts them (a message to each shard). */
final class MemoryBudget implements MemoryBudgetMBean {
    static final String NAME = "io.charybdis:type=MemoryBudget";
    private final NodeView node;

    MemoryBudget(NodeView node) {
        this.node = node;
    }

    /** Each shard's figures, taken on the shard (bounded wait: a stopping node's shards may not answer). */
    private List<ShardSnapshot> shards() {
        try {
            return node.storage.shardSnapshots().get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the shards did not report their memory: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    @Override
    public long getBudgetBytes() {
        return node.config.memoryBudget().bytes();
    }

    @Override
    public long getMemtableBytes() {
        return shards().stream().mapToLong(ShardSnapshot::memtableBytes).sum();
    }

    @Override
    public long getRowCacheBytes() {
        return shards().stream().mapToLong(ShardSnapshot::cacheBytes).sum();
    }

    @Override
    public long getIndexBytes() {
        return node.storage.sstableOffHeapBytes();
    }

    @Override
    public long getHeapUsedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public long getHeapMaxBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
    }
}
