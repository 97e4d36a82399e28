package io.charybdis.storage.sstable;

/** Statistics of one SSTable, stored in its Statistics component. */
public record SSTableStats(long partitionCount, long rowCount, long minTimestamp, long maxTimestamp,
                           long tombstoneCount, long minToken, byte[] minKey, long maxToken, byte[] maxKey,
                           int shardId, int shardCount, long uncompressedLength, int level) {
}
