package io.charybdis.storage.shard;

import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableId;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What shards share (all thread-safe): configuration, the table registry, the I/O pool, segment ids, and the
 * node's compaction throughput cap in bytes per second (0 = none), which the management layer may change at run
 * time ({@code nodetool setcompactionthroughput}), and the history of finished compactions.
 */
public record ShardContext(StorageConfig config, int shardCount, Map<TableId, TableEntry> tables,
                           ExecutorService io, AtomicLong segmentIds, AtomicLong compactionThroughputCap,
                           io.charybdis.storage.CompactionHistory compactionHistory) {
}
