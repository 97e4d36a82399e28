package io.charybdis.storage;

/** A thread-safe snapshot of one table's storage figures, summed over shards. */
public record TableStats(int sstableCount, long liveDiskBytes, long memtableBytes, long memtablePartitions,
                         long sstablePartitionsEstimate, long flushCount, long compactionCount,
                         long pendingFlushes) {
    public long partitionsEstimate() {
        return memtablePartitions + sstablePartitionsEstimate;
    }
}
