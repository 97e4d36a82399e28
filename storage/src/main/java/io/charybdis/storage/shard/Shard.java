package io.charybdis.storage.shard;

import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.compaction.BacklogTracker;
import io.charybdis.storage.compaction.CompactionJob;
import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.compaction.CompactionOptions;
import io.charybdis.storage.compaction.CompactionStrategy;
import io.charybdis.storage.compaction.SizeTieredStrategy;
import io.charybdis.storage.schedule.BacklogController;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.cache.RowCache;
import io.charybdis.storage.commitlog.CommitLogShard;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.RowMerger;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ResultWriter;
import io.charybdis.storage.sstable.Compression;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.sstable.SSTableWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard: owns, for its slice of the token range, every table's memtables, SSTables and commit log.
 *
 * <p>Implementation notes: every field is touched only on {@link #executor} (one thread). Public entry points
 * are called on that thread by {@code Storage}, which submits to the executor. SSTable reads run on the shared
 * I/O pool; flushes and compactions run as chunked tasks on the shard's {@link ShardScheduler} (shares set by
 * the flush and compaction {@link BacklogController}s every 50 / 250 ms); both hop back with {@link #execute};
 * commit log writes and fsyncs run on the shard's commit log thread. Memory: the shard's budget
 * (memory_budget / shards) is shared by memtables and the {@link RowCache}; memtables start flushing at 60% of
 * the hard limit (half the budget) and writes wait (their futures complete later) while memtables are at the
 * hard limit; the cache takes the rest and is evicted as memtables grow. Memtables and SSTables handed to I/O work are
 * reference counted so a flush or compaction completing meanwhile cannot free them under a reader.
 * A partition under {@link #atomically} is locked: writes to it queue until the read-decide-apply is over.
 */
public final class Shard {
    private static final Logger LOG = LoggerFactory.getLogger(Shard.class);
    private static final int RANGE_BATCH = 64;
    private static final long MAX_CACHED_PARTITION = 1 << 20;
    private static final int MAX_COMPACTIONS_PER_TABLE = 2;
    /** Floors of shares: an explicit flush (ScyllaDB raises its backlog to backlog_of_shares(200)), a user compaction. */
    private static final double EXPLICIT_FLUSH_SHARES = 200;
    private static final double USER_COMPACTION_SHARES = 200;

    final int id;
    private final Executor executor;
    private final ShardContext ctx;
    private final ShardAllocator allocator;
    private final CommitLogShard commitLog;
    private final Map<TableId, TableShard> tables = new HashMap<>();
    private final RowMerger rowMerger = new RowMerger();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(1024);
    private final PartitionMerger merger = new PartitionMerger();
    private final ExpandableArrayBuffer mergeOut = new ExpandableArrayBuffer(4096);
    private final HashMap<DecoratedKey, ArrayDeque<Runnable>> locks = new HashMap<>();
    private final long hardLimit;
    private final long softLimit;
    private final ShardScheduler scheduler;
    private final BacklogController compactionController = BacklogController.compaction();
    private final BacklogController flushController = BacklogController.flush(BacklogController.DEFAULT_SOFT_LIMIT);
    private final ArrayDeque<BlockedWrite> blockedWrites = new ArrayDeque<>();
    private final List<FlushTask> runningFlushes = new ArrayList<>();
    private boolean memoryFlushRunning;
    private volatile long foregroundOps;
    private volatile long statBlockedWrites;
    private volatile double compactionBacklog;
    private volatile double dirtyRatio;
    private final long shardBudget;
    private final RowCache cache;
    private final ExpandableArrayBuffer cacheScratch = new ExpandableArrayBuffer(1024);
    private final int maxSegments;
    private boolean acceptingWrites = true;
    private boolean closed;

    public Shard(int id, Executor executor, ShardContext ctx) {
        this.id = id;
        this.executor = executor;
        this.ctx = ctx;
        this.allocator = new ShardAllocator(id);
        this.commitLog = new CommitLogShard(ctx.config().commitLogDirectory(), id, ctx.config().commitLogSync(),
                ctx.config().commitLogGroupWindowMillis(), ctx.config().commitLogSegmentSizeBytes(),
                ctx.segmentIds(), executor);
        this.shardBudget = Math.max(512 * 1024, ctx.config().memoryBudgetBytes() / ctx.shardCount());
        this.hardLimit = shardBudget / 2;
        this.softLimit = (long) (hardLimit * BacklogController.DEFAULT_SOFT_LIMIT);
        this.scheduler = new ShardScheduler(id, () -> foregroundOps);
        applyThroughputCap();
        this.cache = new RowCache(allocator);
        this.maxSegments = Math.max(4, 256 / ctx.shardCount());
    }

    public ShardAllocator allocator() {
        return allocator;
    }

    public RowCache cache() {
        return cache;
    }

    /** Off-heap bytes of memtables (writable and flushing) of every table on this shard. */
    long memtableBytes() {
        return allocator.allocatedBytes() - cache.bytes();
    }

    /** What the cache may hold now: the shard's budget less what memtables use. */
    private long cacheLimit() {
        return shardBudget - memtableBytes();
    }

    private long maxCachedPartition() {
        return Math.min(MAX_CACHED_PARTITION, shardBudget / 8);
    }

    /** Runs a task on this shard's thread. */
    public void execute(Runnable task) {
        executor.execute(() -> {
            try {
                task.run();
            } catch (Throwable t) {
                LOG.error("unexpected error on shard={}", id, t);
            }
        });
    }

    /** Runs {@code body} on the shard and completes the returned future with its result future. */
    public <T> CompletableFuture<T> submit(Supplier<CompletableFuture<T>> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    body.get().whenComplete((v, t) -> {
                        if (t != null) {
                            f.completeExceptionally(t);
                        } else {
                            f.complete(v);
                        }
                    });
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(new StorageException("shard=" + id + " is not running", e));
        }
        return f;
    }

    private void io(Runnable task, CompletableFuture<?> onReject) {
        try {
            ctx.io().execute(task);
        } catch (RejectedExecutionException e) {
            onReject.completeExceptionally(new StorageException("storage is closing", e));
        }
    }

    private TableShard table(TableId tid) {
        TableShard ts = tables.get(tid);
        if (ts == null) {
            TableEntry e = ctx.tables().get(tid);
            if (e == null) {
                throw new StorageException("unknown table id=" + tid);
            }
            ts = new TableShard(e, newMemtable());
            ts.sstables.addAll(e.takeInitial(id));
            strategy(ts);
            ts.publishStats();
            e.publish(id, ts);
            tables.put(tid, ts);
        }
        return ts;
    }

    private Memtable newMemtable() {
        return new Memtable(allocator, rowMerger, scratch);
    }

    // ------------------------------------------------------------------ writes

    public CompletableFuture<Void> apply(Mutation m, boolean log) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!acceptingWrites) {
            done.completeExceptionally(new StorageException("storage is drained or closed: writes are not accepted"));
            return done;
        }
        foregroundOps++;
        TableShard ts = table(m.table());
        if (!locks.isEmpty()) {
            DecoratedKey dk = new DecoratedKey(m.token(), m.partitionKey());
            ArrayDeque<Runnable> waiters = locks.get(dk);
            if (waiters != null) {
                waiters.add(() -> admit(() -> applyNow(ts, m, log, done), done));
                return done;
            }
        }
        admit(() -> applyNow(ts, m, log, done), done);
        return done;
    }

    private record BlockedWrite(Runnable apply, CompletableFuture<?> done) {
    }

    /**
     * Memtable back-pressure: runs {@code apply} now if the shard's memtables are under the hard limit and no
     * write is already waiting, else queues it (FIFO) until a flush frees memory. Its future completes later.
     */
    private void admit(Runnable apply, CompletableFuture<?> done) {
        if (blockedWrites.isEmpty() && memtableBytes() < hardLimit) {
            apply.run();
            return;
        }
        blockedWrites.add(new BlockedWrite(apply, done));
        statBlockedWrites++;
        maybeFlush();
    }

    private void drainBlockedWrites() {
        while (!blockedWrites.isEmpty() && memtableBytes() < hardLimit) {
            BlockedWrite w = blockedWrites.poll();
            if (!acceptingWrites) {
                w.done().completeExceptionally(new StorageException("storage is drained or closed: writes are not accepted"));
            } else {
                w.apply().run();
            }
        }
        if (!blockedWrites.isEmpty()) {
            maybeFlush();
        }
    }

    /** Writes waiting for memtable memory on this shard. */
    public int blockedWrites() {
        return blockedWrites.size();
    }

    private void applyNow(TableShard ts, Mutation m, boolean log, CompletableFuture<Void> done) {
        if (ts.dropped) {
            done.completeExceptionally(new StorageException("table dropped id=" + m.table()));
            return;
        }
        long started = System.nanoTime();
        long segment = log ? commitLog.append(m, done) : -1;
        ts.memtable.apply(m, segment);
        ts.writeLatency.recordNanos(System.nanoTime() - started);
        if (cache.bytes() > 0) {
            cache.evictTo(cacheLimit());
        }
        if (!log) {
            done.complete(null);
        }
        maybeFlush();
    }

    /**
     * Starts a flush of the largest memtable when the shard's memtables pass the soft limit and no
     * memory-triggered flush is running, and flushes what pins the oldest commit log segment.
     */
    private void maybeFlush() {
        long dirty = memtableBytes();
        if (dirty > softLimit && !memoryFlushRunning) {
            TableShard largest = null;
            for (TableShard ts : tables.values()) {
                if (!ts.memtable.isEmpty() && (largest == null || ts.memtable.allocatedBytes() > largest.memtable.allocatedBytes())) {
                    largest = ts;
                }
            }
            if (largest != null) {
                memoryFlushRunning = true;
                flush(largest, 10).whenComplete((v, t) -> memoryFlushRunning = false);
            }
        }
        if (commitLog.segmentCount() > maxSegments) {
            long oldest = commitLog.oldestSegment();
            for (TableId t : List.copyOf(commitLog.tablesDirtyIn(oldest))) {
                TableShard ts = tables.get(t);
                if (ts != null && ts.memtable.firstSegment() >= 0 && ts.memtable.firstSegment() <= oldest) {
                    flush(ts, 10);
                }
            }
        }
        for (TableShard ts : tables.values()) {
            ts.publishStats();
        }
    }

    // ------------------------------------------------------------------ flush

    public CompletableFuture<Void> flush(TableId tid) {
        TableShard ts = tables.get(tid);
        if (ts == null) {
            if (!ctx.tables().containsKey(tid)) {
                return CompletableFuture.failedFuture(new StorageException("unknown table id=" + tid));
            }
            return CompletableFuture.completedFuture(null);
        }
        return flush(ts, EXPLICIT_FLUSH_SHARES);
    }

    public CompletableFuture<Void> flushAll() {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (TableShard ts : tables.values()) {
            fs.add(flush(ts, EXPLICIT_FLUSH_SHARES));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> flush(TableShard ts, double minShares) {
        Memtable m = ts.memtable;
        if (m.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        ts.memtable = newMemtable();
        ts.flushing.add(m);
        m.retain(); // for the flush task
        CompletableFuture<Void> done = new CompletableFuture<>();
        FlushTask task = new FlushTask(this, ts, m, ts.epoch, ts.entry.nextGeneration(), ctx.shardCount(), minShares, done);
        runningFlushes.add(task);
        ts.publishStats();
        scheduler.submit(ShardScheduler.Group.FLUSH, task);
        return done;
    }

    void flushDone(FlushTask task, SSTableReader reader, Throwable error) {
        TableShard ts = task.ts;
        Memtable m = task.memtable;
        runningFlushes.remove(task);
        if (error == null && ts.epoch == task.epoch && !ts.dropped && !closed) {
            foldIntoCache(ts, m);
        }
        m.release(); // the flush task's reference
        if (error != null) {
            if (!closed) {
                LOG.error("flush failed shard={} table={}.{}: {}", id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), error.toString());
            }
            task.done.completeExceptionally(new StorageException("flush failed table=" + ts.entry.descriptor().name(), error));
            return;
        }
        if (ts.epoch != task.epoch || ts.dropped || closed) {
            reader.markObsolete();
            reader.release();
        } else {
            ts.sstables.add(reader);
            if (compactable(reader)) {
                ts.tracker().replaceSSTables(List.of(), List.of(reader));
            }
            ts.statFlushes = ts.statFlushes + 1;
            if (ts.flushing.remove(m)) {
                m.release();
            }
            TableId tid = ts.entry.descriptor().id();
            commitLog.markClean(tid, m.firstSegment(), m.lastSegment(), seg -> covers(ts, seg));
        }
        ts.publishStats();
        task.done.complete(null);
        drainBlockedWrites();
        maybeCompact(ts);
    }

    /**
     * The flushed memtable becomes SSTable content: fold each of its partitions into the cached entry (or drop the
     * entry if the result is too big), and make reads that started before this instant skip populating.
     */
    private void foldIntoCache(TableShard ts, Memtable m) {
        ts.cachePhase++;
        TableId tid = ts.entry.descriptor().id();
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
            long limit = cacheLimit();
            int len = merger.merge(two, 2, null, null, PurgePolicy.NONE, cacheScratch, 0);
            if (len == 0) {
                cache.putAbsent(tid, p.token(), key, cacheScratch, limit);
            } else if (len <= maxCachedPartition()) {
                cache.put(tid, p.token(), key, cacheScratch, 0, len, limit);
            } else {
                cache.invalidate(tid, p.token(), key);
            }
        }
    }

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

    // ------------------------------------------------------------------ compaction

    /** Whether this shard may compact the SSTable (written by it under the current layout, readable). */
    private boolean compactable(SSTableReader r) {
        return !r.isCorrupt() && r.ownedBy(id, ctx.shardCount());
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
    private CompactionStrategy strategy(TableShard ts) {
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
        if (ts.dropped || closed || !scheduler.isRunning()) {
            return;
        }
        CompactionStrategy strategy = strategy(ts);
        if (!ts.majorWaiters.isEmpty()) {
            if (ts.running.isEmpty()) {
                List<CompletableFuture<Void>> waiters = new ArrayList<>(ts.majorWaiters);
                ts.majorWaiters.clear();
                CompactionJob<SSTableReader> job = strategy.major(compactableSSTables(ts));
                if (job == null) {
                    waiters.forEach(f -> f.complete(null));
                } else {
                    start(ts, job, true, waiters);
                }
            }
            return;
        }
        if (!strategy.options().enabled()) {
            return;
        }
        int now = (int) (System.currentTimeMillis() / 1000);
        while (ts.running.size() < MAX_COMPACTIONS_PER_TABLE) {
            CompactionJob<SSTableReader> job = strategy.next(compactableSSTables(ts), ts.compacting::contains,
                    now - ts.entry.descriptor().gcGraceSeconds(), System.currentTimeMillis());
            if (job == null) {
                break;
            }
            start(ts, job, false, List.of());
        }
    }

    private void start(TableShard ts, CompactionJob<SSTableReader> job, boolean userInitiated,
                       List<CompletableFuture<Void>> waiters) {
        for (SSTableReader r : job.inputs()) {
            r.acquire();
            ts.compacting.add(r);
        }
        // a tombstone may only go if no data it shadows can remain outside this compaction
        long maxPurgeable = ts.memtable.minTimestamp();
        for (Memtable f : ts.flushing) {
            maxPurgeable = Math.min(maxPurgeable, f.minTimestamp());
        }
        Set<SSTableReader> inputs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        inputs.addAll(job.inputs());
        for (SSTableReader r : ts.sstables) {
            if (!inputs.contains(r)) {
                maxPurgeable = Math.min(maxPurgeable, r.minTimestamp());
            }
        }
        int now = (int) (System.currentTimeMillis() / 1000);
        PurgePolicy purge = new PurgePolicy(now, now - ts.entry.descriptor().gcGraceSeconds(), maxPurgeable);
        CompactionTask task = new CompactionTask(this, ts, job, purge, ts.epoch, ctx.shardCount(), userInitiated,
                userInitiated ? USER_COMPACTION_SHARES : 0, waiters);
        ts.running.add(task);
        ts.publishStats();
        scheduler.submit(ShardScheduler.Group.COMPACTION, task);
    }

    void compactionDone(CompactionTask task, List<SSTableReader> outputs, CompactionLog log, Throwable error) {
        TableShard ts = task.ts;
        ts.running.remove(task);
        List<SSTableReader> inputs = task.job.inputs();
        inputs.forEach(ts.compacting::remove);
        if (error != null) {
            if (error instanceof CompactionTask.StoppedException) {
                LOG.info("compaction stopped shard={} table={}.{} id={}", id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), task.id);
            } else {
                LOG.error("compaction failed shard={} table={}.{}: {}", id, ts.entry.descriptor().keyspace(),
                        ts.entry.descriptor().name(), error.toString());
            }
            inputs.forEach(SSTableReader::release);
            task.waiters.forEach(f -> f.completeExceptionally(error));
            ts.publishStats();
            return;
        }
        if (ts.epoch != task.epoch || ts.dropped || closed) {
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
        ts.statCompactions = ts.statCompactions + 1;
        ts.statBytesCompacted = ts.statBytesCompacted + task.totalBytes;
        ts.publishStats();
        task.waiters.forEach(f -> f.complete(null));
        maybeCompact(ts);
    }

    /** Runs a major compaction of the table on this shard (after the running ones); completes when done. */
    public CompletableFuture<Void> forceMajorCompaction(TableId tid) {
        if (!ctx.tables().containsKey(tid)) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + tid));
        }
        TableShard ts = table(tid);
        CompletableFuture<Void> f = new CompletableFuture<>();
        ts.majorWaiters.add(f);
        maybeCompact(ts);
        return f;
    }

    /** Asks every running compaction to stop at its next chunk; returns how many were asked. */
    public CompletableFuture<Integer> stopCompactions() {
        int n = 0;
        for (TableShard ts : tables.values()) {
            for (CompactionTask t : ts.running) {
                t.stop();
                n++;
            }
        }
        return CompletableFuture.completedFuture(n);
    }

    /** The backlog of one table (bytes × rewrites), from its tracker and the work in flight. */
    private double backlog(TableShard ts) {
        List<BacklogTracker.OngoingWrite> writes = new ArrayList<>();
        List<BacklogTracker.OngoingCompaction> compactions = new ArrayList<>();
        for (FlushTask f : runningFlushes) {
            if (f.ts == ts) {
                writes.add(new BacklogTracker.OngoingWrite(f.bytesWritten, 0));
            }
        }
        for (CompactionTask t : ts.running) {
            t.ongoing(writes, compactions);
        }
        return ts.tracker().backlog(writes, compactions);
    }

    /** Compaction controller period: backlog → compaction shares; also starts compactions that became due. */
    public void adjustCompactionShares() {
        if (closed) {
            return;
        }
        double total = 0;
        for (TableShard ts : tables.values()) {
            maybeCompact(ts);
            double b = backlog(ts);
            for (CompactionTask t : ts.running) {
                if (t.userInitiated) {
                    b += compactionController.backlogOfShares(USER_COMPACTION_SHARES) * shardBudget;
                }
            }
            ts.statBacklog = b;
            total += b;
        }
        double normalized = total / shardBudget;
        compactionBacklog = normalized;
        scheduler.setShares(ShardScheduler.Group.COMPACTION, compactionController.sharesFor(normalized));
        applyThroughputCap();
    }

    /**
     * The node's compaction_throughput cap, this shard's part of it (also before the controller's first tick, and
     * at once when the management layer changes it).
     */
    public void applyThroughputCap() {
        long cap = ctx.compactionThroughputCap().get();
        scheduler.setThroughputCap(ShardScheduler.Group.COMPACTION, cap == 0 ? 0 : Math.max(1, cap / ctx.shardCount()));
    }

    /** Flush controller period: dirty memory → flush shares; releases writes memory now allows. */
    public void adjustFlushShares() {
        if (closed) {
            return;
        }
        double ratio = (double) memtableBytes() / hardLimit;
        dirtyRatio = ratio;
        scheduler.setShares(ShardScheduler.Group.FLUSH, flushController.sharesFor(ratio));
        drainBlockedWrites();
    }

    /** This shard's part of the compaction status (running compactions, per-table pending work, shares). */
    public CompletableFuture<CompactionStatus.ShardStatus> compactionStatus() {
        List<CompactionStatus.Running> running = new ArrayList<>();
        List<CompactionStatus.TableStatus> perTable = new ArrayList<>();
        for (TableShard ts : tables.values()) {
            TableDescriptor d = ts.entry.descriptor();
            for (CompactionTask t : ts.running) {
                running.add(new CompactionStatus.Running(t.id, d.id(), d.keyspace(), d.name(), id,
                        t.job.type().displayName(), t.completedBytes(), t.totalBytes, t.startedAtMillis));
            }
            CompactionStrategy s = strategy(ts);
            perTable.add(new CompactionStatus.TableStatus(d.id(), d.keyspace(), d.name(), s.options().className(),
                    s.pendingTasks(compactableSSTables(ts)) + ts.majorWaiters.size(), ts.running.size(), backlog(ts),
                    levelCounts(ts)));
        }
        return CompletableFuture.completedFuture(new CompactionStatus.ShardStatus(id, running, perTable, compactionBacklog,
                scheduler.shares(ShardScheduler.Group.COMPACTION), dirtyRatio, scheduler.shares(ShardScheduler.Group.FLUSH),
                blockedWrites.size(), statBlockedWrites, scheduler.processedBytes(ShardScheduler.Group.COMPACTION),
                scheduler.processedBytes(ShardScheduler.Group.FLUSH)));
    }

    private static int[] levelCounts(TableShard ts) {
        int[] counts = new int[1];
        for (SSTableReader r : ts.sstables) {
            int l = Math.max(0, r.level());
            if (l >= counts.length) {
                counts = java.util.Arrays.copyOf(counts, l + 1);
            }
            counts[l]++;
        }
        return counts;
    }

    // ------------------------------------------------------------------ reads

    /** Memtables and SSTables of a table at one instant, with references held until {@link #release}. */
    private record Sources(List<Memtable> memtables, List<SSTableReader> sstables) {
        void release() {
            memtables.forEach(Memtable::release);
            sstables.forEach(SSTableReader::release);
        }
    }

    private Sources capture(TableShard ts, java.util.function.Predicate<SSTableReader> filter) {
        List<Memtable> ms = new ArrayList<>(1 + ts.flushing.size());
        ms.add(ts.memtable);
        ms.addAll(ts.flushing);
        ms.forEach(Memtable::retain);
        List<SSTableReader> ss = new ArrayList<>();
        for (SSTableReader r : ts.sstables) {
            if (filter.test(r) && r.acquire()) {
                ss.add(r);
            }
        }
        return new Sources(ms, ss);
    }

    public CompletableFuture<ReadResult> read(ReadCommand c) {
        foregroundOps++;
        if (!c.isSinglePartition()) {
            CompletableFuture<ReadResult> f = readRange(c);
            TableShard ts = tables.get(c.table());
            if (ts != null) {
                f.whenComplete((r, e) -> recordScanned(ts, r));
            }
            return f;
        }
        long started = System.nanoTime();
        CompletableFuture<ReadResult> f = readPartition(c);
        TableShard ts = tables.get(c.table());
        if (ts != null) {
            if (f.isDone()) {
                ts.readLatency.recordNanos(System.nanoTime() - started);
                if (!f.isCompletedExceptionally()) {
                    recordScanned(ts, f.getNow(null));
                }
            } else {
                f.whenComplete((r, e) -> {
                    ts.readLatency.recordNanos(System.nanoTime() - started);
                    recordScanned(ts, r);
                });
            }
        }
        return f;
    }

    private static void recordScanned(TableShard ts, ReadResult r) {
        if (r != null) {
            ts.liveScanned.record(r.liveRowsScanned());
            ts.tombstonesScanned.record(r.tombstonesScanned());
        }
    }

    private CompletableFuture<ReadResult> readPartition(ReadCommand c) {
        TableShard ts = table(c.table());
        CompletableFuture<ReadResult> f = new CompletableFuture<>();
        boolean useCache = ts.entry.descriptor().rowCacheEnabled();
        if (useCache) {
            PartitionView cached = cache.get(c.table(), c.token(), c.key());
            if (cached != null) {
                // as in Cassandra, a row cache hit is not a read of SSTables: the histogram does not count it
                List<PartitionView> views = memtableViews(ts.memtable, ts.flushing, new DecoratedKey(c.token(), c.key()));
                views.add(cached);
                ResultWriter w = new ResultWriter(c);
                emit(c, views, w);
                f.complete(w.build());
                return f;
            }
        }
        Sources src = capture(ts, r -> r.mayContain(c.token(), c.key()));
        ts.recordSSTablesPerRead(src.sstables.size());
        int phase = ts.cachePhase;
        if (src.sstables.isEmpty()) {
            if (useCache) {
                cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, cacheLimit());
            }
            finishPartitionRead(c, src, List.of(), f);
            return f;
        }
        io(() -> {
            List<byte[]> parts = new ArrayList<>();
            Throwable error = null;
            try {
                for (SSTableReader r : src.sstables) {
                    byte[] p = r.readPartition(c.token(), c.key());
                    if (p != null) {
                        parts.add(p);
                    }
                }
            } catch (Throwable t) {
                error = t;
            }
            Throwable err = error;
            execute(() -> {
                if (err != null) {
                    src.release();
                    f.completeExceptionally(err);
                } else {
                    if (useCache && phase == ts.cachePhase && !ts.dropped && !closed) {
                        populate(c, parts);
                    }
                    finishPartitionRead(c, src, parts, f);
                }
            });
        }, f);
        return f;
    }

    /** Caches the reconciled SSTable content of a partition just read (all SSTables that may hold it). */
    private void populate(ReadCommand c, List<byte[]> parts) {
        long limit = cacheLimit();
        if (parts.isEmpty()) {
            cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, limit);
            return;
        }
        PartitionView[] views = new PartitionView[parts.size()];
        for (int i = 0; i < views.length; i++) {
            views[i] = new SerializedPartition().wrap(new UnsafeBuffer(parts.get(i)), 0, false);
        }
        int len = merger.merge(views, views.length, null, null, PurgePolicy.NONE, cacheScratch, 0);
        if (len == 0) {
            cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, limit);
        } else if (len <= maxCachedPartition()) {
            cache.put(c.table(), c.token(), c.key(), cacheScratch, 0, len, limit);
        }
    }

    private static List<PartitionView> memtableViews(Memtable memtable, List<Memtable> flushing, DecoratedKey dk) {
        List<PartitionView> views = new ArrayList<>(2 + flushing.size());
        PartitionView v = memtable.get(dk);
        if (v != null) {
            views.add(v);
        }
        for (Memtable m : flushing) {
            v = m.get(dk);
            if (v != null) {
                views.add(v);
            }
        }
        return views;
    }

    private void finishPartitionRead(ReadCommand c, Sources src, List<byte[]> parts, CompletableFuture<ReadResult> f) {
        try {
            DecoratedKey dk = new DecoratedKey(c.token(), c.key());
            List<PartitionView> views = new ArrayList<>();
            for (Memtable m : src.memtables) {
                PartitionView v = m.get(dk);
                if (v != null) {
                    views.add(v);
                }
            }
            for (byte[] p : parts) {
                views.add(new SerializedPartition().wrap(new UnsafeBuffer(p), 0, false));
            }
            ResultWriter w = new ResultWriter(c);
            emit(c, views, w);
            f.complete(w.build());
        } catch (Throwable t) {
            f.completeExceptionally(t);
        } finally {
            src.release();
        }
    }

    private final SerializedPartition mergedView = new SerializedPartition();

    private void emit(ReadCommand c, List<PartitionView> views, ResultWriter w) {
        if (views.isEmpty()) {
            return;
        }
        byte[] lo = null;
        byte[] hi = null;
        if (!c.slices().isEmpty()) {
            lo = c.slices().get(0).start();
            hi = c.slices().get(c.slices().size() - 1).end();
        }
        int len = merger.merge(views.toArray(PartitionView[]::new), views.size(), lo, hi, PurgePolicy.NONE, mergeOut, 0);
        if (len > 0) {
            w.addPartition(mergedView.wrap(mergeOut, 0, false));
        }
    }

    private CompletableFuture<ReadResult> readRange(ReadCommand c) {
        TableShard ts = table(c.table());
        CompletableFuture<ReadResult> f = new CompletableFuture<>();
        Sources src = capture(ts, r -> true);
        RangeRead rr = new RangeRead(c, src, new ResultWriter(c), f);
        rangeStep(rr);
        return f;
    }

    private final class RangeRead {
        final ReadCommand cmd;
        final Sources src;
        final ResultWriter writer;
        final CompletableFuture<ReadResult> future;
        DecoratedKey from; // next position to consider, inclusive
        boolean fromExclusive;
        final boolean[] sstableDone;

        RangeRead(ReadCommand cmd, Sources src, ResultWriter writer, CompletableFuture<ReadResult> future) {
            this.cmd = cmd;
            this.src = src;
            this.writer = writer;
            this.future = future;
            this.from = new DecoratedKey(cmd.lowestToken(), new byte[0]);
            this.sstableDone = new boolean[src.sstables.size()];
        }

        boolean accepts(long token, byte[] key) {
            UnsafeBuffer kb = new UnsafeBuffer(key);
            return cmd.afterStart(token, kb, 0, key.length) && owned(token);
        }

        boolean beyondEnd(long token, byte[] key) {
            return !cmd.beforeEnd(token, new UnsafeBuffer(key), 0, key.length);
        }
    }

    private boolean owned(long token) {
        return ShardRouting.shardOf(token, ctx.shardCount()) == id;
    }

    private void rangeStep(RangeRead rr) {
        boolean anySSTable = false;
        for (boolean d : rr.sstableDone) {
            anySSTable |= !d;
        }
        if (!anySSTable) {
            rangeProcess(rr, new ArrayList<>(), null);
            return;
        }
        DecoratedKey from = rr.from;
        boolean exclusive = rr.fromExclusive;
        io(() -> {
            List<List<byte[]>> batches = new ArrayList<>();
            DecoratedKey upper = null;
            Throwable error = null;
            try {
                for (int i = 0; i < rr.src.sstables.size(); i++) {
                    List<byte[]> batch = new ArrayList<>();
                    batches.add(batch);
                    if (rr.sstableDone[i]) {
                        continue;
                    }
                    SSTableReader.Scanner s = rr.src.sstables.get(i).scanner(from.token(), from.key());
                    boolean more = false;
                    DecoratedKey last = null;
                    while (s.advance()) {
                        if (rr.beyondEnd(s.token(), s.key())) {
                            break;
                        }
                        if (exclusive && s.token() == from.token() && java.util.Arrays.equals(s.key(), from.key())) {
                            continue;
                        }
                        if (!rr.accepts(s.token(), s.key())) {
                            continue;
                        }
                        batch.add(s.partition());
                        last = new DecoratedKey(s.token(), s.key());
                        if (batch.size() >= RANGE_BATCH) {
                            more = true;
                            break;
                        }
                    }
                    if (!more) {
                        rr.sstableDone[i] = true;
                    } else if (upper == null || last.compareTo(upper) < 0) {
                        upper = last;
                    }
                }
            } catch (Throwable t) {
                error = t;
            }
            Throwable err = error;
            DecoratedKey up = upper;
            execute(() -> {
                if (err != null) {
                    rr.src.release();
                    rr.future.completeExceptionally(err);
                } else {
                    rangeProcess(rr, batches, up);
                }
            });
        }, rr.future);
    }

    /** Merges memtable partitions and the SSTable batch up to {@code upper} (inclusive; null = to the end). */
    private void rangeProcess(RangeRead rr, List<List<byte[]>> batches, DecoratedKey upper) {
        try {
            List<java.util.Iterator<? extends PartitionView>> its = new ArrayList<>();
            for (Memtable m : rr.src.memtables) {
                its.add(m.from(rr.from).iterator());
            }
            for (List<byte[]> b : batches) {
                List<PartitionView> vs = new ArrayList<>();
                for (byte[] p : b) {
                    SerializedPartition sp = new SerializedPartition().wrap(new UnsafeBuffer(p), 0, false);
                    if (upper == null || compare(sp, upper) <= 0) {
                        vs.add(sp);
                    }
                }
                its.add(vs.iterator());
            }
            int k = its.size();
            PartitionView[] heads = new PartitionView[k];
            for (int i = 0; i < k; i++) {
                heads[i] = nextAccepted(rr, its.get(i), upper);
            }
            List<PartitionView> group = new ArrayList<>();
            while (!rr.writer.isFull()) {
                int min = -1;
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (min < 0 || compare(heads[i], heads[min]) < 0)) {
                        min = i;
                    }
                }
                if (min < 0) {
                    break;
                }
                PartitionView first = heads[min];
                group.clear();
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (i == min || compare(heads[i], first) == 0)) {
                        group.add(heads[i]);
                    }
                }
                emit(rr.cmd, group, rr.writer);
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (i == min || compare(heads[i], first) == 0)) {
                        if (i != min) {
                            heads[i] = nextAccepted(rr, its.get(i), upper);
                        }
                    }
                }
                heads[min] = nextAccepted(rr, its.get(min), upper);
            }
            if (rr.writer.isFull() || upper == null) {
                rr.src.release();
                rr.future.complete(rr.writer.build());
                return;
            }
            rr.from = upper;
            rr.fromExclusive = true;
            rangeStep(rr);
        } catch (Throwable t) {
            rr.src.release();
            rr.future.completeExceptionally(t);
        }
    }

    private PartitionView nextAccepted(RangeRead rr, java.util.Iterator<? extends PartitionView> it, DecoratedKey upper) {
        while (it.hasNext()) {
            PartitionView v = it.next();
            if (upper != null && compare(v, upper) > 0) {
                return null;
            }
            if (rr.fromExclusive && compare(v, rr.from) <= 0) {
                continue;
            }
            if (!rr.cmd.beforeEnd(v.token(), v.keyBuffer(), v.keyOffset(), v.keyLength())) {
                return null;
            }
            if (rr.cmd.afterStart(v.token(), v.keyBuffer(), v.keyOffset(), v.keyLength()) && owned(v.token())) {
                return v;
            }
        }
        return null;
    }

    private static int compare(PartitionView a, PartitionView b) {
        int c = Long.compare(a.token(), b.token());
        return c != 0 ? c : io.charybdis.storage.util.ByteComparables.compare(
                a.keyBuffer(), a.keyOffset(), a.keyLength(), b.keyBuffer(), b.keyOffset(), b.keyLength());
    }

    private static int compare(PartitionView a, DecoratedKey k) {
        int c = Long.compare(a.token(), k.token());
        return c != 0 ? c : io.charybdis.storage.util.ByteComparables.compare(a.keyBuffer(), a.keyOffset(), a.keyLength(), k.key());
    }

    // ------------------------------------------------------------------ LWT

    public CompletableFuture<io.charybdis.storage.CasResult> atomically(TableId tid, long token, byte[] key,
                                                                        ReadCommand current,
                                                                        Function<ReadResult, Mutation> decide) {
        CompletableFuture<io.charybdis.storage.CasResult> f = new CompletableFuture<>();
        DecoratedKey dk = new DecoratedKey(token, key);
        ArrayDeque<Runnable> waiters = locks.get(dk);
        if (waiters != null) {
            waiters.add(() -> startAtomic(tid, dk, current, decide, f));
        } else {
            startAtomic(tid, dk, current, decide, f);
        }
        return f;
    }

    private void startAtomic(TableId tid, DecoratedKey dk, ReadCommand current, Function<ReadResult, Mutation> decide,
                             CompletableFuture<io.charybdis.storage.CasResult> f) {
        locks.put(dk, new ArrayDeque<>());
        CompletableFuture<ReadResult> read;
        try {
            TableShard ts = table(tid);
            read = readPartition(current);
            read.whenComplete((rr, t) -> {
                // runs on this shard: the read completes on it
                if (t != null) {
                    unlock(dk);
                    f.completeExceptionally(t);
                    return;
                }
                Mutation m;
                try {
                    m = decide.apply(rr);
                } catch (Throwable e) {
                    unlock(dk);
                    f.completeExceptionally(e);
                    return;
                }
                if (m == null) {
                    unlock(dk);
                    f.complete(new io.charybdis.storage.CasResult(rr, false));
                    return;
                }
                if (!acceptingWrites) {
                    unlock(dk);
                    f.completeExceptionally(new StorageException("storage is drained or closed: writes are not accepted"));
                    return;
                }
                CompletableFuture<Void> applied = new CompletableFuture<>();
                applyNow(ts, m, true, applied);
                unlock(dk);
                applied.whenComplete((v, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(new io.charybdis.storage.CasResult(rr, true));
                    }
                });
            });
        } catch (Throwable t) {
            unlock(dk);
            f.completeExceptionally(t);
        }
    }

    private void unlock(DecoratedKey dk) {
        ArrayDeque<Runnable> waiters = locks.remove(dk);
        if (waiters == null) {
            return;
        }
        while (!waiters.isEmpty() && !locks.containsKey(dk)) {
            waiters.poll().run();
        }
        if (!waiters.isEmpty()) {
            ArrayDeque<Runnable> now = locks.get(dk);
            if (now != null) {
                now.addAll(waiters);
            }
        }
    }

    // ------------------------------------------------------------------ truncate, drop, snapshot

    public CompletableFuture<Void> truncate(TableId tid, boolean drop) {
        TableShard ts = tables.get(tid);
        if (ts == null) {
            if (!ctx.tables().containsKey(tid)) {
                return CompletableFuture.completedFuture(null);
            }
            ts = table(tid); // takes the SSTables found at registration, so they are discarded too
        }
        ts.epoch++;
        ts.cachePhase++;
        cache.invalidateTable(tid);
        ts.memtable.release();
        ts.memtable = newMemtable();
        for (Memtable m : ts.flushing) {
            m.release();
        }
        ts.flushing.clear();
        for (SSTableReader r : ts.sstables) {
            r.markObsolete();
            r.release();
        }
        ts.sstables.clear();
        ts.resetTracker(strategy(ts).newBacklogTracker(), List.of());
        for (CompactionTask t : ts.running) {
            t.stop();
        }
        ts.majorWaiters.forEach(f -> f.complete(null));
        ts.majorWaiters.clear();
        commitLog.forget(tid);
        if (drop) {
            ts.dropped = true;
            ts.memtable.release();
            tables.remove(tid);
        }
        ts.publishStats();
        return CompletableFuture.completedFuture(null);
    }

    /** Acquired references to the table's SSTables; the caller releases them. */
    public CompletableFuture<List<SSTableReader>> acquireSSTables(TableId tid) {
        TableShard ts = table(tid);
        List<SSTableReader> l = new ArrayList<>();
        for (SSTableReader r : ts.sstables) {
            if (r.acquire()) {
                l.add(r);
            }
        }
        return CompletableFuture.completedFuture(l);
    }

    // ------------------------------------------------------------------ lifecycle

    public CompletableFuture<Void> stopWrites() {
        acceptingWrites = false;
        return CompletableFuture.completedFuture(null);
    }

    public CompletableFuture<Void> syncCommitLog() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        commitLog.sync(() -> f.complete(null));
        return f;
    }

    /** Frees every memtable and releases every SSTable; syncs and stops the commit log. */
    /** Stops the background thread; queued flushes and compactions are abandoned. Not from a shard thread. */
    public void closeScheduler() {
        scheduler.close();
    }

    public CompletableFuture<Void> close() {
        closed = true;
        acceptingWrites = false;
        cache.clear();
        for (BlockedWrite w : blockedWrites) {
            w.done().completeExceptionally(new StorageException("storage is closed: write not applied"));
        }
        blockedWrites.clear();
        for (TableShard ts : tables.values()) {
            ts.memtable.release();
            for (Memtable m : ts.flushing) {
                m.release();
            }
            ts.flushing.clear();
            for (SSTableReader r : ts.sstables) {
                r.release();
            }
            ts.sstables.clear();
        }
        tables.clear();
        CompletableFuture<Void> f = new CompletableFuture<>();
        commitLog.close(() -> f.complete(null));
        return f;
    }
}
