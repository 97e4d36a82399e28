package io.charybdis.storage.compaction;

import io.charybdis.storage.mutation.DecoratedKey;

/** What compaction strategies and backlog trackers see of an SSTable (SSTableReader, or a synthetic one in tests). */
public interface CompactionSSTable {
    long generation();

    long onDiskBytes();

    /** The LCS level the shard currently assigns (0 for every SSTable under size-tiered). */
    int level();

    /** Reassigns the level in memory (the Statistics file keeps the level it was written with). */
    void level(int level);

    long minToken();

    byte[] minKey();

    long maxToken();

    byte[] maxKey();

    long minTimestamp();

    long maxTimestamp();

    long rowCount();

    long tombstoneCount();

    /** When the SSTable was written (file time), for tombstone_compaction_interval. */
    long createdAtMillis();

    default boolean overlaps(CompactionSSTable o) {
        return DecoratedKey.compare(minToken(), minKey(), o.maxToken(), o.maxKey()) <= 0
                && DecoratedKey.compare(o.minToken(), o.minKey(), maxToken(), maxKey()) <= 0;
    }
}
