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

    private List<ShardSnapshot> shards() {
        return node.storage.shardSnapshots().join();
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
