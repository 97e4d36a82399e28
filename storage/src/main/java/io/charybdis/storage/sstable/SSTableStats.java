package io.charybdis.storage.sstable;

/**
 * Statistics of one SSTable, stored in its Statistics component. {@code partitionSizes} and {@code cellCounts} are
 * the counts of Cassandra's estimated histograms ({@link io.charybdis.storage.util.EstimatedHistogram}) of the
 * partitions' sizes in bytes and cells; all zero for an SSTable written before they were recorded (Statistics
 * version 1). Shared as they are: never modified.
 */
public record SSTableStats(long partitionCount, long rowCount, long minTimestamp, long maxTimestamp,
                           long tombstoneCount, long minToken, byte[] minKey, long maxToken, byte[] maxKey,
                           int shardId, int shardCount, long uncompressedLength, int level,
                           long[] partitionSizes, long[] cellCounts) {
}
