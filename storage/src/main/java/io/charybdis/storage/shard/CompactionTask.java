package io.charybdis.storage.shard;

import io.charybdis.storage.StorageException;
import io.charybdis.storage.compaction.BacklogTracker;
import io.charybdis.storage.compaction.CompactionJob;
import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.sstable.Compression;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.sstable.SSTableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One compaction, run a chunk per step on the shard's background thread: a k-way merge of the inputs'
 * partitions with Cassandra's reconciliation and the {@link PurgePolicy} fixed at start, cut into outputs of
 * {@link CompactionJob#maxOutputBytes()}, under a {@link CompactionLog} so a crash leaves inputs or outputs,
 * never both nor neither. Inputs are acquired by the shard for the task's lifetime.
 */
final class CompactionTask implements ShardScheduler.Task {
    /** Stop request from {@code stopCompactions}. */
    static final class StoppedException extends StorageException {
        StoppedException(String message) {
            super(message);
        }
    }

    final UUID id = io.charybdis.storage.compaction.CompactionIds.next();
    final Shard shard;
    final TableShard ts;
    final CompactionJob<SSTableReader> job;
    final int epoch;
    final boolean userInitiated;
    final List<CompletableFuture<Void>> waiters;
    final long totalBytes;
    final long startedAtMillis = System.currentTimeMillis();
    private final PurgePolicy purge;
    /** Cleanup: the tokens kept (the others are dropped); null keeps all. */
    private final java.util.function.LongPredicate keep;
    /** The table's first directory: the compaction's log is kept there. */
    private final Path dir;
    /** The directory of each output, in the order of {@link #outputGenerations}. */
    private final List<Path> outputDirectories = new ArrayList<>();
    private final Compression compression;
    private final int shardCount;
    private final double minShares;
    private volatile long completedBytes;
    private volatile long outputBytes;
    private volatile boolean stopRequested;
    private CompactionLog log;
    private SSTableReader.Scanner[] scanners;
    private boolean[] has;
    private SSTableWriter writer;
    private final List<Long> outputGenerations = new ArrayList<>();
    private long finishedOutputBytes;
    private final PartitionMerger merger = new PartitionMerger();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private PartitionView[] views;
    private SerializedPartition[] wrappers;
    private boolean finished;
    /** Partitions by the number of inputs they were merged from (index: inputs), for the compaction history. */
    final long[] mergedFrom;

    CompactionTask(Shard shard, TableShard ts, CompactionJob<SSTableReader> job, PurgePolicy purge, int epoch,
                   int shardCount, boolean userInitiated, double minShares, List<CompletableFuture<Void>> waiters,
                   java.util.function.LongPredicate keep) {
        this.keep = keep;
        this.shard = shard;
        this.ts = ts;
        this.job = job;
        this.purge = purge;
        this.epoch = epoch;
        this.shardCount = shardCount;
        this.userInitiated = userInitiated;
        this.minShares = minShares;
        this.waiters = waiters;
        this.dir = ts.entry.directory();
        this.compression = Compression.fromOptions(ts.entry.descriptor().compression());
        long total = 0;
        for (SSTableReader r : job.inputs()) {
            total += r.uncompressedLength();
        }
        this.totalBytes = Math.max(1, total);
        this.mergedFrom = new long[job.inputs().size() + 1];
    }

    long completedBytes() {
        return completedBytes;
    }

    void stop() {
        stopRequested = true;
    }

    /** What the backlog tracker needs of this task now (any thread; approximate while running). */
    void ongoing(List<BacklogTracker.OngoingWrite> writes, List<BacklogTracker.OngoingCompaction> compactions) {
        writes.add(new BacklogTracker.OngoingWrite(outputBytes, job.outputLevel()));
        double fraction = Math.min(1, (double) completedBytes / totalBytes);
        for (SSTableReader r : job.inputs()) {
            compactions.add(new BacklogTracker.OngoingCompaction(r, (long) (fraction * r.onDiskBytes())));
        }
    }

    @Override
    public long step() throws Exception {
        if (stopRequested) {
            throw new StoppedException("compaction stopped id=" + id);
        }
        if (scanners == null) {
            start();
        }
        long before = completedBytes;
        long done = before;
        int k = scanners.length;
        while (done - before < ShardScheduler.CHUNK_BYTES) {
            int min = -1;
            for (int i = 0; i < k; i++) {
                if (has[i] && (min < 0 || DecoratedKey.compare(scanners[i].token(), scanners[i].key(),
                        scanners[min].token(), scanners[min].key()) < 0)) {
                    min = i;
                }
            }
            if (min < 0) {
                finish();
                break;
            }
            long token = scanners[min].token();
            byte[] key = scanners[min].key();
            int n = 0;
            for (int i = 0; i < k; i++) {
                if (has[i] && DecoratedKey.compare(scanners[i].token(), scanners[i].key(), token, key) == 0) {
                    byte[] p = scanners[i].partition();
                    done += p.length;
                    views[n++] = wrappers[i].wrap(new UnsafeBuffer(p), 0, false);
                    has[i] = scanners[i].advance();
                }
            }
            mergedFrom[n]++;
            if ((keep == null || keep.test(token)) && merger.merge(views, n, null, null, purge, out, 0) > 0) {
                if (writer == null) {
                    long generation = ts.entry.nextGeneration();
                    log.added(generation);
                    outputGenerations.add(generation);
                    Path outputDir = ts.entry.nextDirectory(Math.min(totalBytes, job.maxOutputBytes()));
                    outputDirectories.add(outputDir);
                    writer = new SSTableWriter(outputDir, generation, compression, shard.id, shardCount,
                            estimatedPartitions(), ts.entry.sstableAllocator()).level(job.outputLevel());
                }
                writer.append(out, 0);
                outputBytes = finishedOutputBytes + writer.bytesWritten();
                if (writer.uncompressedBytes() >= job.maxOutputBytes()) {
                    finishWriter();
                }
            }
        }
        completedBytes = Math.min(done, totalBytes);
        return done - before;
    }

    private long estimatedPartitions() {
        long n = 0;
        for (SSTableReader r : job.inputs()) {
            n += r.partitionCount();
        }
        if (job.maxOutputBytes() != Long.MAX_VALUE) {
            n = Math.min(n, Math.max(1, n * job.maxOutputBytes() / totalBytes) + 1);
        }
        return Math.max(1, n);
    }

    private void start() throws Exception {
        List<Long> gens = new ArrayList<>();
        for (SSTableReader r : job.inputs()) {
            gens.add(r.generation());
        }
        log = CompactionLog.begin(dir, id, gens);
        int k = job.inputs().size();
        scanners = new SSTableReader.Scanner[k];
        has = new boolean[k];
        views = new PartitionView[k];
        wrappers = new SerializedPartition[k];
        for (int i = 0; i < k; i++) {
            scanners[i] = job.inputs().get(i).scanner();
            has[i] = scanners[i].advance();
            wrappers[i] = new SerializedPartition();
        }
    }

    private void finishWriter() throws Exception {
        writer.finish();
        finishedOutputBytes += writer.bytesWritten();
        writer = null;
    }

    private void finish() throws Exception {
        if (writer != null) {
            finishWriter();
        }
        log.commit();
        finished = true;
        List<SSTableReader> outputs = new ArrayList<>();
        for (int i = 0; i < outputGenerations.size(); i++) {
            SSTableReader r = SSTableReader.open(outputDirectories.get(i), outputGenerations.get(i),
                    ts.entry.sstableAllocator());
            r.level(job.outputLevel());
            outputs.add(r);
        }
        completedBytes = totalBytes;
        CompactionLog committed = log;
        shard.post(() -> shard.compactor.compactionDone(this, outputs, committed, null));
    }

    @Override
    public boolean done() {
        return finished;
    }

    @Override
    public void abort(Throwable cause) {
        if (writer != null) {
            writer.abort();
        }
        if (log != null && !log.committed()) {
            for (int i = 0; i < outputDirectories.size(); i++) {
                try {
                    CompactionLog.deleteSSTable(outputDirectories.get(i), outputGenerations.get(i));
                } catch (Exception e) {
                    // startup recovery removes them (the log is not committed)
                }
            }
            log.abort();
        }
        Throwable t = cause != null ? cause : new StoppedException("compaction abandoned: storage is closing id=" + id);
        shard.post(() -> shard.compactor.compactionDone(this, List.of(), null, t));
    }

    @Override
    public double minShares() {
        return minShares;
    }
}
