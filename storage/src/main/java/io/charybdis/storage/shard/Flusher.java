package io.charybdis.storage.shard;

import io.charybdis.storage.TableId;
import io.charybdis.storage.cache.RowCache;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.agrona.ExpandableArrayBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flush: switching out memtables and turning them into SSTables, on the shard's background scheduler.
 *
 * <p>Implementation notes: a flush is started by memory (the largest memtable once memtables pass the soft limit,
 * one such flush at a time), by the commit log (the memtables that pin its oldest segment once it has more than
 * {@code maxSegments}), or explicitly (flush, drain, snapshot). The switched-out memtable stays readable in
 * {@link TableShard#flushing} until its SSTable is live; both hold a reference on it. When the flush ends
 * ({@link #flushDone}, on the shard) its content is folded into cached partitions (so the row cache stays the
 * reconciled SSTable content), the commit log segments it covered are marked clean, waiting writes are admitted
 * and compaction is considered. A flush of a table truncated or dropped meanwhile ({@code epoch} changed) throws its
 * output away. Shard thread only, except {@link FlushTask}'s steps.
 */
final class Flusher {
    private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);
    /** Floor of shares of an explicit flush (ScyllaDB raises its backlog to backlog_of_shares(200)). */
    private static final double EXPLICIT_FLUSH_SHARES = 200;
    private static final double MEMORY_FLUSH_SHARES = 10;

    private final Shard shard;
    private final List<FlushTask> running = new ArrayList<>();
    private final int maxSegments;
    private final PartitionMerger merger = new PartitionMerger();
    private final ExpandableArrayBuffer cacheScratch = new ExpandableArrayBuffer(1024);
    private boolean memoryFlushRunning;

    Flusher(Shard shard) {
        this.shard = shard;
        this.maxSegments = Math.max(4, 256 / shard.ctx.shardCount());
    }

    /**
     * Starts a flush of the largest memtable when the shard's memtables pass the soft limit and no
     * memory-triggered flush is running, and flushes what pins the oldest commit log segment.
     */
    void maybeFlush() {
        long dirty = shard.memory.memtableBytes();
        if (dirty > shard.memory.softLimit && !memoryFlushRunning) {
            TableShard largest = null;
            for (TableShard ts : shard.tables.all()) {
                if (!ts.memtable.isEmpty() && (largest == null || ts.memtable.allocatedBytes() > largest.memtable.allocatedBytes())) {
                    largest = ts;
                }
            }
            if (largest != null) {
                memoryFlushRunning = true;
                flush(largest, MEMORY_FLUSH_SHARES).whenComplete((v, t) -> memoryFlushRunning = false);
            }
        }
        if (shard.commitLog.segmentCount() > maxSegments) {
            long oldest = shard.commitLog.oldestSegment();
            for (TableId t : List.copyOf(shard.commitLog.tablesDirtyIn(oldest))) {
                TableShard ts = shard.tables.find(t);
                if (ts != null && ts.memtable.firstSegment() >= 0 && ts.memtable.firstSegment() <= oldest) {
                    flush(ts, MEMORY_FLUSH_SHARES);
                }
            }
        }
        for (TableShard ts : shard.tables.all()) {
            ts.publishStats();
        }
    }

    CompletableFuture<Void> flush(TableId tid) {
        TableShard ts = shard.tables.find(tid);
        if (ts == null) {
            if (!shard.tables.isRegistered(tid)) {
                return CompletableFuture.failedFuture(new io.charybdis.storage.StorageException("unknown table id=" + tid));
            }
            return CompletableFuture.completedFuture(null);
        }
        return flush(ts, EXPLICIT_FLUSH_SHARES);
    }

    CompletableFuture<Void> flushAll() {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (TableShard ts : shard.tables.all()) {
            fs.add(flush(ts, EXPLICIT_FLUSH_SHARES));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> flush(TableShard ts, double minShares) {
        Memtable m = ts.memtable;
        if (m.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        ts.memtable = shard.memory.newMemtable();
        ts.flushing.add(m);
        m.retain(); // for the flush task
        CompletableFuture<Void> done = new CompletableFuture<>();
        FlushTask task = new FlushTask(shard, ts, m, ts.epoch, ts.entry.nextGeneration(), shard.ctx.shardCount(),
                minShares, done);
        running.add(task);
        ts.publishStats();
        shard.scheduler.submit(ShardScheduler.Group.FLUSH, task);
        return done;
    }

    /** The flushes running now (for the compaction backlog: their output is a write in flight). */
    List<FlushTask> running() {
        return running;
    }

    void flushDone(FlushTask task, SSTableReader reader, Throwable error) {
        TableShard ts = task.ts;
        Memtable m = task.memtable;
        running.remove(task);
        boolean closed = shard.isClosed();
        if (error == null && ts.epoch == task.epoch && !ts.dropped && !closed) {
            foldIntoCache(ts, m);
        }
        m.release(); // the flush task's reference
        if (error != null) {
            if (!closed) {
                LOG.error("flush failed shard={} table={}.{}: {}", shard.id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), error.toString());
            }
            task.done.completeExceptionally(new io.charybdis.storage.StorageException(
                    "flush failed table=" + ts.entry.descriptor().name(), error));
            return;
        }
        if (ts.epoch != task.epoch || ts.dropped || closed) {
            reader.markObsolete();
            reader.release();
        } else {
            ts.sstables.add(reader);
            if (shard.compactor.compactable(reader)) {
                ts.tracker().replaceSSTables(List.of(), List.of(reader));
            }
            ts.statFlushes = ts.statFlushes + 1;
            if (ts.flushing.remove(m)) {
                m.release();
            }
            TableId tid = ts.entry.descriptor().id();
            shard.commitLog.markClean(tid, m.firstSegment(), m.lastSegment(), seg -> covers(ts, seg));
        }
        ts.publishStats();
        task.done.complete(null);
        shard.writes.drainBlocked();
        shard.compactor.maybeCompact(ts);
    }

    /**
     * The flushed memtable becomes SSTable content: fold each of its partitions into the cached entry (or drop the
     * entry if the result is too big), and make reads that started before this instant skip populating.
     */
    private void foldIntoCache(TableShard ts, Memtable m) {
        ts.cachePhase++;
        TableId tid = ts.entry.descriptor().id();
        RowCache cache = shard.memory.cache;
        if (!cache.hasTable(tid)) {
            return;
        }
        PartitionView[] two = new PartitionView[2];
        for (PartitionView p : m.partitions()) {
            if (!cache.hasTable(tid)) {
                return;
            }
            byte[] key = new byte[p.keyLength()];
            p.keyBuffer().getBytes(p.keyOffset(), key);
            PartitionView cached = cache.peek(tid, p.token(), key);
            if (cached == null) {
                continue;
            }
            two[0] = cached;
            two[1] = p;
            long limit = shard.memory.cacheLimit();
            int len = merger.merge(two, 2, null, null, PurgePolicy.NONE, cacheScratch, 0);
            if (len == 0) {
                cache.putAbsent(tid, p.token(), key, cacheScratch, limit);
            } else if (len <= shard.memory.maxCachedPartition()) {
                cache.put(tid, p.token(), key, cacheScratch, 0, len, limit);
            } else {
                cache.invalidate(tid, p.token(), key);
            }
        }
    }

    /** Whether a memtable of the table still holds data of commit log segment {@code seg}. */
    private static boolean covers(TableShard ts, long seg) {
        if (ts.memtable.firstSegment() >= 0 && ts.memtable.firstSegment() <= seg) {
            return true;
        }
        for (Memtable f : ts.flushing) {
            if (f.firstSegment() >= 0 && f.firstSegment() <= seg && seg <= f.lastSegment()) {
                return true;
            }
        }
        return false;
    }
}
