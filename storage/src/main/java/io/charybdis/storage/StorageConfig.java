package io.charybdis.storage;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Typed engine configuration, built once by the node and passed down.
 *
 * @param memoryBudgetBytes off-heap bytes for memtables and row cache of the whole node, split evenly
 *                          between shards; memtables may use up to half of a shard's share before flushing
 */
public record StorageConfig(
        Path dataDirectory,
        Path commitLogDirectory,
        CommitLogSync commitLogSync,
        long commitLogSyncPeriodMillis,
        long commitLogGroupWindowMillis,
        long commitLogSegmentSizeBytes,
        long memoryBudgetBytes,
        boolean ignoreCommitLogCorruption) {

    public static final long DEFAULT_SEGMENT_SIZE = 32L << 20;

    public StorageConfig {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(commitLogDirectory, "commitLogDirectory");
        Objects.requireNonNull(commitLogSync, "commitLogSync");
        if (commitLogSegmentSizeBytes < 4096) {
            throw new IllegalArgumentException("commitLogSegmentSizeBytes=" + commitLogSegmentSizeBytes + " must be >= 4096");
        }
        if (memoryBudgetBytes < (1 << 20)) {
            throw new IllegalArgumentException("memoryBudgetBytes=" + memoryBudgetBytes + " must be >= 1MiB");
        }
    }

    /** Defaults like cassandra.yaml: periodic sync every 10s, 32 MiB segments, 1/4 of max heap... as off-heap budget. */
    public static StorageConfig defaults(Path base) {
        long budget = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 2);
        return new StorageConfig(base.resolve("data"), base.resolve("commitlog"), CommitLogSync.PERIODIC,
                10_000, 2, DEFAULT_SEGMENT_SIZE, budget, false);
    }

    public StorageConfig withCommitLogSync(CommitLogSync sync) {
        return new StorageConfig(dataDirectory, commitLogDirectory, sync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignoreCommitLogCorruption);
    }

    public StorageConfig withMemoryBudgetBytes(long bytes) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, bytes, ignoreCommitLogCorruption);
    }

    public StorageConfig withCommitLogSegmentSizeBytes(long bytes) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, bytes, memoryBudgetBytes, ignoreCommitLogCorruption);
    }

    public StorageConfig withIgnoreCommitLogCorruption(boolean ignore) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignore);
    }
}
