package io.charybdis.node.jmx;

/**
 * Charybdis's own bean {@code io.charybdis:type=MemoryBudget}: how {@code memory_budget} is split now, off the heap,
 * beside the heap (nodetool info's extra lines in {@code bin/nodetool}). Cassandra has no such bean.
 */
public interface MemoryBudgetMBean {
    /** memory_budget: what memtables and the row cache share. */
    long getBudgetBytes();

    /** Off-heap bytes of memtables (writable and being flushed), all shards. */
    long getMemtableBytes();

    /** Off-heap bytes of the row cache, all shards: it takes what the memtables leave and yields when they grow. */
    long getRowCacheBytes();

    /** Off-heap bytes of the open SSTables' index structures (Bloom filters, index summaries, chunk offsets). */
    long getIndexBytes();

    /** Used and maximum heap bytes (the JVM's). */
    long getHeapUsedBytes();

    long getHeapMaxBytes();
}
