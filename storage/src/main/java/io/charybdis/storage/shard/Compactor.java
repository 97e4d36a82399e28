package io.charybdis.storage.shard;

import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.compaction.BacklogTracker;
import io.charybdis.storage.compaction.CompactionJob;
import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.compaction.CompactionOptions;
import io.charybdis.storage.compaction.CompactionStrategy;
import io.charybdis.storage.compaction.SizeTieredStrategy;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction on one shard: each table's strategy picks jobs, {@link CompactionTask}s run them on the background
 * scheduler, and {@link #compactionDone} swaps inputs for outputs.
 *
 * <p>Implementation notes: at most {@value #MAX_COMPACTIONS_PER_TABLE} compactions run per table; a major compaction
 * waits until the running ones are done and then runs alone. A shard compacts only SSTables it wrote under the
 * current shard layout ({@link #compactable}); others (another shard count, corrupt) are read, never rewritten.
 * Inputs are acquired for the task's life. A tombstone may be purged only if no data it shadows can remain outside
 * the compaction: {@link PurgePolicy}'s max purgeable timestamp is the minimum timestamp of the memtables and of the
 * SSTables that are not inputs. A compaction of a table truncated or dropped meanwhile ({@code epoch} changed)
 * discards its outputs. Shard thread only, except {@link CompactionTask}'s steps.
 */
final class Compactor {
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);
    static final int MAX_COMPACTIONS_PER_TABLE = 2;
    /** Floor of shares of a user compaction (major, nodetool compact). */
    static final double USER_COMPACTION_SHARES = 200;

    private final Shard shard;

    Compactor(Shard shard) {
        this.shard = shard;
    }

    /** Whether this shard may compact the SSTable (written by it under the current layout, readable). */
    boolean compactable(SSTableReader r) {
        return !r.isCorrupt() && r.ownedBy(shard.id, shard.ctx.shardCount());
    }

    private List<SSTableReader> compactableSSTables(TableShard ts) {
        List<SSTableReader> l = new ArrayList<>();
        for (SSTableReader r : ts.sstables) {
            if (compactable(r)) {
                l.add(r);
            }
        }
        return l;
    }

    /** The table's strategy for its current {@code compaction} option; rebuilt (levels repaired) when it changes. */
    CompactionStrategy strategy(TableShard ts) {
        Map<String, String> opts = ts.entry.descriptor().compaction();
        if (ts.strategy == null || !opts.equals(ts.strategySource)) {
            CompactionOptions parsed = CompactionOptions.parse(opts);
            if (ts.strategy == null || !parsed.equals(ts.strategy.options())) {
                ts.strategy = CompactionStrategy.of(parsed);
                List<SSTableReader> live = compactableSSTables(ts);
                if (parsed.kind() == CompactionOptions.Kind.LEVELED) {
                    ts.strategy.repairLevels(live);
                }
                ts.resetTracker(ts.strategy.newBacklogTracker(), live);
            }
            ts.strategySource = opts;
        }
        return ts.strategy;
    }

    void maybeCompact(TableShard ts) {
        // once the scheduler is stopped (closing), a new task would only be aborted after the shard closed
        if (ts.dropped || shard.isClosed() || !shard.scheduler.isRunning()) {
            return;
        }
        CompactionStrategy strategy = strategy(ts);
        if (!ts.majorWaiters.isEmpty()) {
            if (ts.running.isEmpty()) {
                List<CompletableFuture<Void>> waiters = new ArrayList<>(ts.majorWaiters);
                ts.majorWaiters.clear();
                java.util.function.LongPredicate keep = ts.majorKeep;
                ts.majorKeep = null;
                CompactionJob<SSTableReader> job = strategy.major(compactableSSTables(ts));
                if (job == null) {
                    waiters.forEach(f -> f.complete(null));
                } else {
                    start(ts, job, true, waiters, keep);
                }
            }
            return;
        }
        if (ts.entry.autoCompactionDisabled()) { // the 'enabled' option, or nodetool's switch since
            return;
        }
        int now = (int) (System.currentTimeMillis() / 1000);
        while (ts.running.size() < MAX_COMPACTIONS_PER_TABLE) {
            CompactionJob<SSTableReader> job = strategy.next(compactableSSTables(ts), ts.compacting::contains,
                    now - ts.entry.descriptor().gcGraceSeconds(), System.currentTimeMillis());
            if (job == null) {
                break;
            }
            start(ts, job, false, List.of(), null);
        }
    }

    private void start(TableShard ts, CompactionJob<SSTableReader> job, boolean userInitiated,
                       List<CompletableFuture<Void>> waiters, java.util.function.LongPredicate keep) {
        for (SSTableReader r : job.inputs()) {
            r.acquire();
            ts.compacting.add(r);
        }
        // a tombstone may only go if no data it shadows can remain outside this compaction
        long maxPurgeable = ts.memtable.minTimestamp();
        for (Memtable f : ts.flushing) {
            maxPurgeable = Math.min(maxPurgeable, f.minTimestamp());
        }
        Set<SSTableReader> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
        inputs.addAll(job.inputs());
        for (SSTableReader r : ts.sstables) {
            if (!inputs.contains(r)) {
                maxPurgeable = Math.min(maxPurgeable, r.minTimestamp());
            }
        }
        int now = (int) (System.currentTimeMillis() / 1000);
        PurgePolicy purge = new PurgePolicy(now, now - ts.entry.descriptor().gcGraceSeconds(), maxPurgeable);
        CompactionTask task = new CompactionTask(shard, ts, job, purge, ts.epoch, shard.ctx.shardCount(), userInitiated,
                userInitiated ? USER_COMPACTION_SHARES : 0, waiters, keep);
        ts.running.add(task);
        ts.publishStats();
        shard.scheduler.submit(ShardScheduler.Group.COMPACTION, task);
    }

    void compactionDone(CompactionTask task, List<SSTableReader> outputs, CompactionLog log, Throwable error) {
        TableShard ts = task.ts;
        ts.running.remove(task);
        List<SSTableReader> inputs = task.job.inputs();
        inputs.forEach(ts.compacting::remove);
        if (error != null) {
            if (error instanceof CompactionTask.StoppedException) {
                LOG.info("compaction stopped shard={} table={}.{} id={}", shard.id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), task.id);
            } else {
                LOG.error("compaction failed shard={} table={}.{}: {}", shard.id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), error.toString());
            }
            inputs.forEach(SSTableReader::release);
            task.waiters.forEach(f -> f.completeExceptionally(error));
            ts.publishStats();
            return;
        }
        if (ts.epoch != task.epoch || ts.dropped || shard.isClosed()) {
            for (SSTableReader o : outputs) {
                o.markObsolete();
                o.release();
            }
            inputs.forEach(SSTableReader::release);
            log.discard();
            task.waiters.forEach(f -> f.complete(null));
            return;
        }
        for (SSTableReader r : inputs) {
            if (ts.sstables.remove(r)) {
                r.markObsolete(log::inputDeleted);
                r.release();
            } else {
                log.inputDeleted();
            }
            r.release();
        }
        ts.sstables.addAll(outputs);
        ts.tracker().replaceSSTables(inputs, outputs);
        if (task.job.type() == CompactionJob.Type.TOMBSTONE_COMPACTION && ts.strategy instanceof SizeTieredStrategy st) {
            outputs.forEach(o -> st.tombstoneCompactionOutput(o.generation()));
        }
        recordHistory(task, inputs, outputs);
        ts.statCompactions = ts.statCompactions + 1;
        ts.statBytesCompacted = ts.statBytesCompacted + task.totalBytes;
        ts.publishStats();
        task.waiters.forEach(f -> f.complete(null));
        maybeCompact(ts);
    }

    private void recordHistory(CompactionTask task, List<SSTableReader> inputs, List<SSTableReader> outputs) {
        long in = 0;
        long out = 0;
        for (SSTableReader r : inputs) {
            in += r.onDiskBytes();
        }
        for (SSTableReader r : outputs) {
            out += r.onDiskBytes();
        }
        Map<Integer, Long> merged = new java.util.TreeMap<>();
        for (int n = 1; n < task.mergedFrom.length; n++) {
            if (task.mergedFrom[n] > 0) {
                merged.put(n, task.mergedFrom[n]);
            }
        }
        TableDescriptor d = task.ts.entry.descriptor();
        Map<String, String> properties = new java.util.TreeMap<>();
        properties.put("compaction_type", task.job.type().displayName());
        var entry = new io.charybdis.storage.CompactionHistory.Entry(task.id, d.keyspace(), d.name(),
                System.currentTimeMillis(), in, out, merged, properties);
        shard.post(() -> shard.ctx.compactionHistory().add(entry)); // a task of its own: the sink may write a table

    }

    /** Runs a major compaction of the table on this shard (after the running ones); completes when done. */
    CompletableFuture<Void> forceMajorCompaction(TableId tid) {
        if (!shard.tables.isRegistered(tid)) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + tid));
        }
        TableShard ts = shard.tables.get(tid);
        CompletableFuture<Void> f = new CompletableFuture<>();
        ts.majorWaiters.add(f);
        maybeCompact(ts);
        return f;
    }

    /**
     * Cleanup: a major compaction of the table on this shard that keeps only the partitions whose token
     * {@code keep} accepts (the ranges this node still replicates); completes when done. Flush first: memtables are
     * not cleaned.
     */
    CompletableFuture<Void> cleanup(TableId tid, java.util.function.LongPredicate keep) {
        if (!shard.tables.isRegistered(tid)) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + tid));
        }
        TableShard ts = shard.tables.get(tid);
        ts.majorKeep = ts.majorKeep == null ? keep : ts.majorKeep.and(keep);
        return forceMajorCompaction(tid);
    }

    /** Asks every running compaction to stop at its next chunk; returns how many were asked. */
    int stopCompactions() {
        int n = 0;
        for (TableShard ts : shard.tables.all()) {
            for (CompactionTask t : ts.running) {
                t.stop();
                n++;
            }
        }
        return n;
    }

    /** The backlog of one table (bytes × rewrites), from its tracker and the work in flight. */
    double backlog(TableShard ts) {
        List<BacklogTracker.OngoingWrite> writes = new ArrayList<>();
        List<BacklogTracker.OngoingCompaction> compactions = new ArrayList<>();
        for (FlushTask f : shard.flusher.running()) {
            if (f.ts == ts) {
                writes.add(new BacklogTracker.OngoingWrite(f.bytesWritten, 0));
            }
        }
        for (CompactionTask t : ts.running) {
            t.ongoing(writes, compactions);
        }
        return ts.tracker().backlog(writes, compactions);
    }

    /** This shard's part of the compaction status (running compactions, per-table pending work, shares). */
    CompactionStatus.ShardStatus status() {
        List<CompactionStatus.Running> running = new ArrayList<>();
        List<CompactionStatus.TableStatus> perTable = new ArrayList<>();
        for (TableShard ts : shard.tables.all()) {
            TableDescriptor d = ts.entry.descriptor();
            for (CompactionTask t : ts.running) {
                running.add(new CompactionStatus.Running(t.id, d.id(), d.keyspace(), d.name(), shard.id,
                        t.job.type().displayName(), t.completedBytes(), t.totalBytes, t.startedAtMillis));
            }
            CompactionStrategy s = strategy(ts);
            perTable.add(new CompactionStatus.TableStatus(d.id(), d.keyspace(), d.name(), s.options().className(),
                    s.pendingTasks(compactableSSTables(ts)) + ts.majorWaiters.size(), ts.running.size(), backlog(ts),
                    levelCounts(ts)));
        }
        ShardControllers c = shard.controllers;
        ShardScheduler scheduler = shard.scheduler;
        return new CompactionStatus.ShardStatus(shard.id, running, perTable, c.compactionBacklog(),
                scheduler.shares(ShardScheduler.Group.COMPACTION), c.dirtyRatio(), scheduler.shares(ShardScheduler.Group.FLUSH),
                shard.writes.blockedCount(), shard.writes.blockedTotal(),
                scheduler.processedBytes(ShardScheduler.Group.COMPACTION), scheduler.processedBytes(ShardScheduler.Group.FLUSH));
    }

    private static int[] levelCounts(TableShard ts) {
        int[] counts = new int[1];
        for (SSTableReader r : ts.sstables) {
            int l = Math.max(0, r.level());
            if (l >= counts.length) {
                counts = Arrays.copyOf(counts, l + 1);
            }
            counts[l]++;
        }
        return counts;
    }
}
