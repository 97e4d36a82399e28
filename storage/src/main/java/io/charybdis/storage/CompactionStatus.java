package io.charybdis.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What compaction is doing on the node (for nodetool compactionstats and metrics): running compactions, pending
 * work per table summed over shards, and each shard's controller state.
 */
public record CompactionStatus(List<Running> running, List<TableStatus> tables, List<ShardStatus> shards) {

    /** One running compaction on one shard. Bytes are uncompressed partition bytes of the inputs. */
    public record Running(UUID id, TableId tableId, String keyspace, String table, int shard, String taskType,
                          long completedBytes, long totalBytes, long startedAtMillis) {
        public String unit() {
            return "bytes";
        }

        public double progress() {
            return totalBytes == 0 ? 1 : (double) completedBytes / totalBytes;
        }
    }

    /**
     * One table's compaction state.
     *
     * @param pendingTasks     the strategy's estimate of compactions still needed (plus requested majors)
     * @param backlogBytes     the strategy's backlog (bytes × rewrites still owed; 0 = goal met)
     * @param sstablesPerLevel SSTable count per LCS level (everything in [0] under size-tiered)
     */
    public record TableStatus(TableId tableId, String keyspace, String table, String strategyClass, int pendingTasks,
                              int runningTasks, double backlogBytes, int[] sstablesPerLevel) {
    }

    /**
     * One shard's controllers and scheduler.
     *
     * @param normalizedBacklog compaction backlog / the shard's memory (the compaction controller's input)
     * @param dirtyRatio        memtable memory / the hard limit (the flush controller's input)
     * @param blockedWrites     writes waiting for memtable memory now
     * @param writesDelayed     writes that ever had to wait for memtable memory
     */
    public record ShardStatus(int shard, List<Running> running, List<TableStatus> tables, double normalizedBacklog,
                              double compactionShares, double dirtyRatio, double flushShares, int blockedWrites,
                              long writesDelayed, long compactionBytesProcessed, long flushBytesProcessed) {
    }

    public int pendingTasks() {
        int n = 0;
        for (TableStatus t : tables) {
            n += t.pendingTasks();
        }
        return n;
    }

    /** Sums per-shard parts into the node's status. */
    public static CompactionStatus merge(List<ShardStatus> shards) {
        List<Running> running = new ArrayList<>();
        Map<TableId, TableStatus> tables = new LinkedHashMap<>();
        for (ShardStatus s : shards) {
            running.addAll(s.running());
            for (TableStatus t : s.tables()) {
                tables.merge(t.tableId(), t, (a, b) -> {
                    int[] levels = new int[Math.max(a.sstablesPerLevel().length, b.sstablesPerLevel().length)];
                    for (int i = 0; i < levels.length; i++) {
                        levels[i] = (i < a.sstablesPerLevel().length ? a.sstablesPerLevel()[i] : 0)
                                + (i < b.sstablesPerLevel().length ? b.sstablesPerLevel()[i] : 0);
                    }
                    return new TableStatus(a.tableId(), a.keyspace(), a.table(), a.strategyClass(),
                            a.pendingTasks() + b.pendingTasks(), a.runningTasks() + b.runningTasks(),
                            a.backlogBytes() + b.backlogBytes(), levels);
                });
            }
        }
        return new CompactionStatus(running, new ArrayList<>(tables.values()), shards);
    }
}
