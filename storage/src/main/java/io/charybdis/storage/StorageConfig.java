package io.charybdis.storage;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Typed engine configuration, built once by the node and passed down.
 *
 * @param memoryBudgetBytes off-heap bytes for memtables and row cache of the whole node, split evenly
 *                          between shards; a shard's memtables may use up to half of its share (the hard limit:
 *                          writes wait beyond it) and start flushing at 60% of that; the row cache takes the rest
 * @param compactionThroughputBytesPerSecond cassandra.yaml {@code compaction_throughput} for the whole node, split
 *                          evenly between shards; 0 = unlimited (the default). Only ever a cap: compaction speed is
 *                          set by the backlog controller
 * @param extraDataDirectories cassandra.yaml's {@code data_file_directories} after the first ({@code dataDirectory}):
 *                          every table has a directory in each, new SSTables go to them in turn (see
 *                          {@link io.charybdis.storage.shard.TableEntry#nextDirectory}), and all are read at startup
 */
public record StorageConfig(
        Path dataDirectory,
        Path commitLogDirectory,
        CommitLogSync commitLogSync,
        long commitLogSyncPeriodMillis,
        long commitLogGroupWindowMillis,
        long commitLogSegmentSizeBytes,
        long memoryBudgetBytes,
        boolean ignoreCommitLogCorruption,
        long compactionThroughputBytesPerSecond,
        List<Path> extraDataDirectories) {

    public static final long DEFAULT_SEGMENT_SIZE = 32L << 20;

    public StorageConfig {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(commitLogDirectory, "commitLogDirectory");
        Objects.requireNonNull(commitLogSync, "commitLogSync");
        extraDataDirectories = extraDataDirectories == null ? List.of() : List.copyOf(extraDataDirectories);
        if (new java.util.HashSet<>(dataDirectories(dataDirectory, extraDataDirectories)).size()
                != 1 + extraDataDirectories.size()) {
            throw new IllegalArgumentException("data directories repeat: " + dataDirectory + " " + extraDataDirectories);
        }
        if (commitLogSegmentSizeBytes < 4096) {
            throw new IllegalArgumentException("commitLogSegmentSizeBytes=" + commitLogSegmentSizeBytes + " must be >= 4096");
        }
        if (memoryBudgetBytes < (1 << 20)) {
            throw new IllegalArgumentException("memoryBudgetBytes=" + memoryBudgetBytes + " must be >= 1MiB");
        }
        if (compactionThroughputBytesPerSecond < 0) {
            throw new IllegalArgumentException("compactionThroughputBytesPerSecond=" + compactionThroughputBytesPerSecond
                    + " must be >= 0");
        }
    }

    /** A configuration without a compaction throughput cap. */
    public StorageConfig(Path dataDirectory, Path commitLogDirectory, CommitLogSync commitLogSync,
                         long commitLogSyncPeriodMillis, long commitLogGroupWindowMillis, long commitLogSegmentSizeBytes,
                         long memoryBudgetBytes, boolean ignoreCommitLogCorruption) {
        this(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis, commitLogGroupWindowMillis,
                commitLogSegmentSizeBytes, memoryBudgetBytes, ignoreCommitLogCorruption, 0, List.of());
    }

    /** Every data directory, {@code dataDirectory} first. */
    public List<Path> dataDirectories() {
        return dataDirectories(dataDirectory, extraDataDirectories);
    }

    private static List<Path> dataDirectories(Path first, List<Path> extra) {
        List<Path> all = new java.util.ArrayList<>(1 + extra.size());
        all.add(first);
        all.addAll(extra);
        return List.copyOf(all);
    }

    /** The same configuration with SSTables spread over {@code directories} (the first is {@code dataDirectory}). */
    public StorageConfig withDataDirectories(List<Path> directories) {
        if (directories.isEmpty()) {
            throw new IllegalArgumentException("at least one data directory is required");
        }
        return new StorageConfig(directories.get(0), commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignoreCommitLogCorruption,
                compactionThroughputBytesPerSecond, directories.subList(1, directories.size()));
    }

    /** {@code compaction_throughput} as a cap in bytes per second for the node (0 = none). */
    public StorageConfig withCompactionThroughputBytesPerSecond(long bytesPerSecond) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignoreCommitLogCorruption,
                bytesPerSecond, extraDataDirectories);
    }

    /** Defaults like cassandra.yaml: periodic sync every 10s, 32 MiB segments, 1/4 of max heap... as off-heap budget. */
    public static StorageConfig defaults(Path base) {
        long budget = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 2);
        return new StorageConfig(base.resolve("data"), base.resolve("commitlog"), CommitLogSync.PERIODIC,
                10_000, 2, DEFAULT_SEGMENT_SIZE, budget, false);
    }

    public StorageConfig withCommitLogSync(CommitLogSync sync) {
        return new StorageConfig(dataDirectory, commitLogDirectory, sync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignoreCommitLogCorruption,
                compactionThroughputBytesPerSecond, extraDataDirectories);
    }

    public StorageConfig withMemoryBudgetBytes(long bytes) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, bytes, ignoreCommitLogCorruption,
                compactionThroughputBytesPerSecond, extraDataDirectories);
    }

    public StorageConfig withCommitLogSegmentSizeBytes(long bytes) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, bytes, memoryBudgetBytes, ignoreCommitLogCorruption,
                compactionThroughputBytesPerSecond, extraDataDirectories);
    }

    public StorageConfig withIgnoreCommitLogCorruption(boolean ignore) {
        return new StorageConfig(dataDirectory, commitLogDirectory, commitLogSync, commitLogSyncPeriodMillis,
                commitLogGroupWindowMillis, commitLogSegmentSizeBytes, memoryBudgetBytes, ignore,
                compactionThroughputBytesPerSecond, extraDataDirectories);
    }
}
