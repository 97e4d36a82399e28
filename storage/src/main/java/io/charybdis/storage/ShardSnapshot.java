package io.charybdis.storage;

/**
 * One shard's memory, cache, commit log and scheduler figures at one moment, taken on the shard's own thread (a
 * message to it, never a read of its state from outside), for the metrics endpoint.
 *
 * @param memoryBudgetBytes    the shard's part of memory_budget
 * @param memtableBytes        off-heap bytes of memtables (writable and flushing), all tables
 * @param memtableHardLimit    memtable bytes at which writes wait for a flush (half the budget)
 * @param cacheBytes           off-heap bytes of the row cache
 * @param cacheEntries         partitions in the row cache
 * @param cacheHits            row cache hits since start
 * @param cacheMisses          row cache misses since start
 * @param cacheEvictions       partitions evicted from the row cache since start
 * @param cacheInvalidations   partitions dropped from the row cache by writes since start
 * @param commitLogSegments    commit log segments this shard still needs (not yet covered by flushes)
 * @param commitLogSegmentSize the configured segment size in bytes
 * @param blockedWrites        writes waiting for memtable memory now
 * @param flushShares          the flush group's shares now
 * @param compactionShares     the compaction group's shares now
 * @param flushBusyNanos       CPU time spent flushing since start
 * @param compactionBusyNanos  CPU time spent compacting since start
 * @param queuedRequests       requests waiting in the shard's bounded queue
 * @param rejectedRequests     requests refused because that queue was full, since start
 */
public record ShardSnapshot(int shard, long memoryBudgetBytes, long memtableBytes, long memtableHardLimit,
                            long cacheBytes, long cacheEntries, long cacheHits, long cacheMisses, long cacheEvictions,
                            long cacheInvalidations, int commitLogSegments, long commitLogSegmentSize,
                            int blockedWrites, double flushShares, double compactionShares, long flushBusyNanos,
                            long compactionBusyNanos, int queuedRequests, long rejectedRequests) {
}
