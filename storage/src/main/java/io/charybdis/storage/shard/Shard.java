package io.charybdis.storage.shard;

import io.charybdis.storage.CasResult;
import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableId;
import io.charybdis.storage.cache.RowCache;
import io.charybdis.storage.commitlog.CommitLogShard;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One shard: owns, for its slice of the token range, every table's memtables, SSTables, row cache entries and commit
 * log, and is the one place that says how work reaches it and how it starts and stops.
 *
 * <p>Implementation notes: every field of the shard and of the parts it owns is touched only on its thread (the
 * {@link Executor} handed in, one thread; in production a Netty event loop). Work arrives through the
 * {@link ShardInbox}: request-path work ({@link #requestApply}, {@link #requestRead}, {@link #requestAtomically})
 * inline when the caller is this shard's thread, else on a bounded queue whose overflow fails the future with
 * {@code ShardOverloadedException}; maintenance through {@link #submit} / {@link #execute}. The parts, one job each:
 * <ul>
 * <li>{@link ShardTables}: each registered table's {@link TableShard}, made at registration;</li>
 * <li>{@link ShardMemory}: the budget shared by memtables and the {@link RowCache};</li>
 * <li>{@link WritePath}: commit log, then memtable, with memtable back-pressure;</li>
 * <li>{@link Flusher}: memtables to SSTables on the background {@link ShardScheduler};</li>
 * <li>{@link Compactor} and {@link ShardControllers}: compaction, and the backlog controllers that set the
 * scheduler's shares (ticks every 50 / 250 ms);</li>
 * <li>{@link ShardReads} and {@link RangeReader}: point and range reads (SSTable reads on the shared I/O pool);</li>
 * <li>{@link PartitionLocks}: read-decide-apply on a partition with no write in between.</li>
 * </ul>
 * Work done off the shard (I/O pool, scheduler, commit log thread) comes back through {@link #post}. Lifecycle:
 * serving → {@link #stopWrites} (drain) → {@link #closeScheduler} → {@link #close}: after close nothing is held
 * (memtables freed, SSTables released, cache emptied, commit log synced and closed).
 */
public final class Shard {
    /** Requests the bounded queue holds by default: far more than a node's connections keep in flight. */
    public static final int DEFAULT_REQUEST_QUEUE_CAPACITY = 16 * 1024;

    final int id;
    final ShardContext ctx;
    final ShardInbox inbox;
    final ShardMemory memory;
    final CommitLogShard commitLog;
    final ShardScheduler scheduler;
    final ShardTables tables;
    final WritePath writes;
    final Flusher flusher;
    final Compactor compactor;
    final ShardControllers controllers;
    final ShardReads reads;
    private final RangeKeys rangeKeys;
    final PartitionLocks locks;
    private volatile long foregroundOps;
    private boolean acceptingWrites = true;
    private boolean closed;

    public Shard(int id, Executor executor, ShardContext ctx) {
        this(id, executor, ctx, DEFAULT_REQUEST_QUEUE_CAPACITY);
    }

    /** @param requestQueueCapacity requests the bounded queue holds (rounded up to a power of two) */
    public Shard(int id, Executor executor, ShardContext ctx, int requestQueueCapacity) {
        this.id = id;
        this.ctx = ctx;
        this.inbox = new ShardInbox(id, executor, requestQueueCapacity);
        this.memory = new ShardMemory(id, ctx);
        this.commitLog = new CommitLogShard(ctx.config().commitLogDirectory(), id, ctx.config().commitLogSync(),
                ctx.config().commitLogGroupWindowMillis(), ctx.config().commitLogSegmentSizeBytes(),
                ctx.segmentIds(), this::post);
        this.scheduler = new ShardScheduler(id, () -> foregroundOps);
        this.tables = new ShardTables(this);
        this.writes = new WritePath(this);
        this.flusher = new Flusher(this);
        this.compactor = new Compactor(this);
        this.controllers = new ShardControllers(this);
        this.reads = new ShardReads(this);
        this.rangeKeys = new RangeKeys(this);
        this.locks = new PartitionLocks(this);
        controllers.applyThroughputCap();
    }

    public int id() {
        return id;
    }

    public ShardAllocator allocator() {
        return memory.allocator;
    }

    public RowCache cache() {
        return memory.cache;
    }

    boolean acceptingWrites() {
        return acceptingWrites;
    }

    boolean isClosed() {
        return closed;
    }

    void countForegroundOp() {
        foregroundOps++;
    }

    // ------------------------------------------------------------------ how work reaches the shard

    /** Whether the calling thread is this shard's. */
    public boolean inShardThread() {
        return inbox.inShardThread();
    }

    /** Requests waiting in this shard's bounded request queue. */
    public int queuedRequests() {
        return inbox.queuedRequests();
    }

    /** The bounded request queue's capacity. */
    public int requestQueueCapacity() {
        return inbox.capacity();
    }

    /** Requests refused (queue full) since start. */
    public long rejectedRequests() {
        return inbox.rejectedRequests();
    }

    /** Runs a task on this shard's thread: inline when called on it (outside shard work), else queued. */
    public void execute(Runnable task) {
        inbox.execute(task);
    }

    /** Queues a task on the shard's executor (work handed back from other threads). */
    void post(Runnable task) {
        inbox.post(task);
    }

    /** Runs {@code body} on the shard (maintenance; unbounded) and completes the returned future with its result. */
    public <T> CompletableFuture<T> submit(Supplier<CompletableFuture<T>> body) {
        return inbox.submit(body);
    }

    /** Request path: applies a mutation (inline on this shard's thread, else through the bounded queue). */
    public CompletableFuture<Void> requestApply(Mutation m) {
        return inbox.request(() -> apply(m, true));
    }

    /** As {@link #requestApply(Mutation)}, telling {@code trace} (a traced request's session) of each step. */
    public CompletableFuture<Void> requestApply(Mutation m, java.util.function.Consumer<String> trace) {
        return inbox.request(() -> writes.apply(m, true, trace));
    }

    /** Derives and applies the writes {@code base} implies, without applying it (see {@link WritePath#deriveOnly}). */
    public CompletableFuture<Void> requestDerive(Mutation base) {
        return inbox.request(() -> writes.deriveOnly(base));
    }

    /** Request path: reads (inline on this shard's thread, else through the bounded queue). */
    public CompletableFuture<ReadResult> requestRead(ReadCommand c) {
        return inbox.request(() -> read(c));
    }

    /** As {@link #requestRead(ReadCommand)}, telling {@code trace} (a traced request's session) of its steps. */
    public CompletableFuture<ReadResult> requestRead(ReadCommand c, java.util.function.Consumer<String> trace) {
        return inbox.request(() -> reads.read(c, trace));
    }

    /** The whole partition, reconciled and unfiltered, as a mutation (null: none here); see ShardReads#readRaw. */
    public CompletableFuture<io.charybdis.storage.mutation.Mutation> requestRawPartition(TableId table, long token,
                                                                                        byte[] key) {
        return inbox.request(() -> reads.readRaw(table, token, key));
    }

    /**
     * Maintenance (streaming, repair): the partitions this shard holds with tokens in [startToken, endToken], after
     * {@code after} when not null (resuming), at most {@code limit}, each whole and unfiltered as
     * {@link #requestRawPartition} gives it, in (token, key) order. Absent partitions (nothing left) are skipped.
     */
    public CompletableFuture<java.util.List<Mutation>> requestRawRange(TableId table, long startToken,
            io.charybdis.storage.mutation.DecoratedKey after, long endToken, int limit) {
        return submit(() -> rangeKeys.keys(table, startToken, after, endToken, limit).thenCompose(keys -> {
            java.util.List<CompletableFuture<Mutation>> parts = new java.util.ArrayList<>(keys.size());
            for (io.charybdis.storage.mutation.DecoratedKey k : keys) {
                parts.add(reads.readRaw(table, k.token(), k.key()));
            }
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
                java.util.List<Mutation> out = new java.util.ArrayList<>(parts.size());
                for (CompletableFuture<Mutation> p : parts) {
                    Mutation m = p.join();
                    if (m != null) {
                        out.add(m);
                    }
                }
                return out;
            });
        }));
    }

    /** Request path: read-decide-apply (inline on this shard's thread, else through the bounded queue). */
    public CompletableFuture<CasResult> requestAtomically(TableId tid, long token, byte[] key, ReadCommand current,
                                                          Function<ReadResult, Mutation> decide) {
        return inbox.request(() -> atomically(tid, token, key, current, decide));
    }

    /** Hands the table to this shard, which makes its state (idempotent; from any thread). */
    public void registerTable(TableEntry e) {
        try {
            execute(() -> tables.register(e));
        } catch (RejectedExecutionException ex) {
            // not running: nothing to make
        }
    }

    void io(Runnable task, CompletableFuture<?> onReject) {
        try {
            ctx.io().execute(task);
        } catch (RejectedExecutionException e) {
            onReject.completeExceptionally(new StorageException("storage is closing", e));
        }
    }

    // ------------------------------------------------------------------ operations (on the shard thread)

    public CompletableFuture<Void> apply(Mutation m, boolean log) {
        return writes.apply(m, log);
    }

    /** Writes waiting for memtable memory on this shard. */
    public int blockedWrites() {
        return writes.blockedCount();
    }

    public CompletableFuture<ReadResult> read(ReadCommand c) {
        return reads.read(c);
    }

    public CompletableFuture<CasResult> atomically(TableId tid, long token, byte[] key, ReadCommand current,
                                                   Function<ReadResult, Mutation> decide) {
        return locks.atomically(tid, token, key, current, decide);
    }

    public CompletableFuture<Void> flush(TableId tid) {
        return flusher.flush(tid);
    }

    public CompletableFuture<Void> flushAll() {
        return flusher.flushAll();
    }

    public CompletableFuture<Void> cleanup(TableId tid, java.util.function.LongPredicate keep) {
        return compactor.cleanup(tid, keep);
    }

    public CompletableFuture<Void> forceMajorCompaction(TableId tid) {
        return compactor.forceMajorCompaction(tid);
    }

    public CompletableFuture<Integer> stopCompactions() {
        return CompletableFuture.completedFuture(compactor.stopCompactions());
    }

    /** Each scheduling group's figures now (statement, memtable, compaction); safe from any thread. */
    public java.util.List<io.charybdis.storage.SchedulingGroupStats> schedulingGroups() {
        ShardScheduler.Group f = ShardScheduler.Group.FLUSH;
        ShardScheduler.Group c = ShardScheduler.Group.COMPACTION;
        return java.util.List.of(
                new io.charybdis.storage.SchedulingGroupStats(id, io.charybdis.storage.SchedulingGroupStats.STATEMENT,
                        -1, queuedRequests(), foregroundOps, writes.blockedCount(), rejectedRequests()),
                new io.charybdis.storage.SchedulingGroupStats(id, io.charybdis.storage.SchedulingGroupStats.MEMTABLE,
                        scheduler.activeTasks(f), scheduler.pendingTasks(f), scheduler.completedTasks(f), 0, 0),
                new io.charybdis.storage.SchedulingGroupStats(id, io.charybdis.storage.SchedulingGroupStats.COMPACTION,
                        scheduler.activeTasks(c), scheduler.pendingTasks(c), scheduler.completedTasks(c), 0, 0));
    }

    /** Runs the table's compaction strategy now (auto-compaction enabled again). */
    public CompletableFuture<Void> maybeCompact(TableId tid) {
        if (tables.isRegistered(tid)) {
            compactor.maybeCompact(tables.get(tid));
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Adds SSTables loaded from disk (nodetool refresh / import) to the table's live set on this shard; the row
     * cache forgets the table (its partitions may have changed) and the strategy may compact them.
     */
    public CompletableFuture<Void> addSSTables(TableId tid, java.util.List<SSTableReader> added) {
        if (!tables.isRegistered(tid)) {
            added.forEach(SSTableReader::release);
            return CompletableFuture.failedFuture(new io.charybdis.storage.StorageException("unknown table id=" + tid));
        }
        TableShard ts = tables.get(tid);
        ts.cachePhase++;
        memory.cache.invalidateTable(tid);
        memory.largePartition.forget(tid);
        compactor.strategy(ts); // makes the backlog tracker if no compaction ran yet
        ts.sstables.addAll(added);
        ts.tracker().replaceSSTables(java.util.List.of(), added);
        ts.publishStats();
        compactor.maybeCompact(ts);
        return CompletableFuture.completedFuture(null);
    }

    /** This shard's memory, cache, commit log and scheduler figures; call on the shard thread (through submit). */
    public CompletableFuture<io.charybdis.storage.ShardSnapshot> snapshot() {
        io.charybdis.storage.cache.RowCache c = memory.cache;
        return CompletableFuture.completedFuture(new io.charybdis.storage.ShardSnapshot(id, memory.shardBudget,
                memory.memtableBytes(), memory.hardLimit, c.bytes(), c.size(), c.hits(), c.misses(), c.evictions(),
                c.invalidations(), commitLog.segmentCount(), ctx.config().commitLogSegmentSizeBytes(), blockedWrites(),
                scheduler.shares(ShardScheduler.Group.FLUSH), scheduler.shares(ShardScheduler.Group.COMPACTION),
                scheduler.busyNanos(ShardScheduler.Group.FLUSH), scheduler.busyNanos(ShardScheduler.Group.COMPACTION),
                queuedRequests(), rejectedRequests()));
    }

    public CompletableFuture<CompactionStatus.ShardStatus> compactionStatus() {
        return CompletableFuture.completedFuture(compactor.status());
    }

    /** Compaction controller period: backlog → compaction shares; also starts compactions that became due. */
    public void adjustCompactionShares() {
        if (!closed) {
            controllers.adjustCompactionShares();
        }
    }

    /** Flush controller period: dirty memory → flush shares; releases writes memory now allows. */
    public void adjustFlushShares() {
        if (!closed) {
            controllers.adjustFlushShares();
        }
    }

    /** The node's compaction_throughput cap, this shard's part of it (at once when the management layer changes it). */
    public void applyThroughputCap() {
        controllers.applyThroughputCap();
    }

    /** Discards the table's data on this shard (memtables, SSTables, cache, commit log marks); with drop, its state. */
    public CompletableFuture<Void> truncate(TableId tid, boolean drop) {
        TableShard ts = tables.find(tid);
        if (ts == null) {
            if (!tables.isRegistered(tid)) {
                return CompletableFuture.completedFuture(null);
            }
            ts = tables.get(tid); // takes the SSTables found at registration, so they are discarded too
        }
        ts.epoch++;
        ts.cachePhase++;
        memory.cache.invalidateTable(tid);
        memory.largePartition.forget(tid);
        ts.memtable.release();
        ts.memtable = memory.newMemtable();
        for (Memtable m : ts.flushing) {
            m.release();
        }
        ts.flushing.clear();
        for (SSTableReader r : ts.sstables) {
            r.markObsolete();
            r.release();
        }
        ts.sstables.clear();
        ts.resetTracker(compactor.strategy(ts).newBacklogTracker(), List.of());
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
        TableShard ts = tables.get(tid);
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

    /** Stops the background thread; queued flushes and compactions are abandoned. Not from a shard thread. */
    public void closeScheduler() {
        scheduler.close();
    }

    /** Frees every memtable and releases every SSTable; syncs and stops the commit log. */
    public CompletableFuture<Void> close() {
        closed = true;
        acceptingWrites = false;
        memory.cache.clear();
        memory.largePartition.clear();
        writes.failBlocked();
        for (TableShard ts : tables.all()) {
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
