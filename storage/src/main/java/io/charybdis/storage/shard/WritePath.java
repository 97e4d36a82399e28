package io.charybdis.storage.shard;

import io.charybdis.storage.DerivedWrites;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.mutation.Mutation;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;

/**
 * Accepting writes: commit log, then memtable, with memtable back-pressure.
 *
 * <p>Implementation notes: a write to a partition held by {@link PartitionLocks} waits behind the lock. Otherwise it
 * is admitted now if the shard's memtables are under the hard limit and no write is already waiting; else it waits
 * (FIFO, its future completes later) until a flush frees memory ({@link #drainBlocked}, called when a flush ends and
 * on each flush controller tick). A durable write's future completes when the commit log has it (the commit log
 * hands the acknowledgement back to the shard); a replayed write's ({@code log} false) at once. Shard thread only.
 */
final class WritePath {
    private final Shard shard;
    private final ArrayDeque<BlockedWrite> blocked = new ArrayDeque<>();
    private volatile long statBlockedWrites;

    private record BlockedWrite(Runnable apply, CompletableFuture<?> done) {
    }

    WritePath(Shard shard) {
        this.shard = shard;
    }

    CompletableFuture<Void> apply(Mutation m, boolean log) {
        return apply(m, log, null);
    }

    /** @param trace a traced request's tracing session, told of the commit log append and memtable write; or null */
    CompletableFuture<Void> apply(Mutation m, boolean log, Consumer<String> trace) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!shard.acceptingWrites()) {
            done.completeExceptionally(notAccepted());
            return done;
        }
        shard.countForegroundOp();
        TableShard ts = shard.tables.get(m.table());
        ArrayDeque<Runnable> waiters = shard.locks.waitersOf(m.token(), m.partitionKey());
        if (waiters != null) {
            waiters.add(() -> admit(() -> applyNow(ts, m, log, done, trace), done));
            return done;
        }
        admit(() -> applyNow(ts, m, log, done, trace), done);
        return done;
    }

    /** Runs {@code apply} now if memtables are under the hard limit and no write waits, else queues it (FIFO). */
    private void admit(Runnable apply, CompletableFuture<?> done) {
        if (blocked.isEmpty() && !shard.memory.atHardLimit()) {
            apply.run();
            return;
        }
        blocked.add(new BlockedWrite(apply, done));
        statBlockedWrites++;
        shard.flusher.maybeFlush();
    }

    /** Admits the waiting writes memory now allows (fails them once writes are no longer accepted). */
    void drainBlocked() {
        while (!blocked.isEmpty() && !shard.memory.atHardLimit()) {
            BlockedWrite w = blocked.poll();
            if (!shard.acceptingWrites()) {
                w.done().completeExceptionally(notAccepted());
            } else {
                w.apply().run();
            }
        }
        if (!blocked.isEmpty()) {
            shard.flusher.maybeFlush();
        }
    }

    /** Writes the mutation now: commit log (if {@code log}), memtable; the cache gives back what memtables took. */
    void applyNow(TableShard ts, Mutation m, boolean log, CompletableFuture<Void> done) {
        applyNow(ts, m, log, done, null);
    }

    void applyNow(TableShard ts, Mutation m, boolean log, CompletableFuture<Void> done, Consumer<String> trace) {
        if (ts.dropped) {
            done.completeExceptionally(new StorageException("table dropped id=" + m.table()));
            return;
        }
        long started = System.nanoTime();
        if (trace != null && log) {
            trace.accept("Appending to commitlog");
        }
        long segment = log ? shard.commitLog.append(m, done) : -1;
        if (trace != null) {
            trace.accept("Adding to " + ts.entry.descriptor().name() + " memtable");
        }
        ts.memtable.apply(m, segment);
        applyDerived(ts, m, segment);
        ts.writeLatency.recordNanos(System.nanoTime() - started);
        ShardMemory memory = shard.memory;
        if (memory.cache.bytes() > 0) {
            memory.cache.evictTo(memory.cacheLimit());
        }
        if (!log) {
            done.complete(null);
        }
        shard.flusher.maybeFlush();
    }

    /**
     * Applies the writes {@code m} implies on other tables of this shard (see {@link DerivedWrites}), into their
     * memtables, kept against {@code segment}. A derived mutation whose token this shard does not own is a bug of
     * the hook: refused loudly.
     */
    void applyDerived(TableShard ts, Mutation m, long segment) {
        DerivedWrites d = ts.entry.derived();
        if (d == null) {
            return;
        }
        d.derive(m, shard.id, shard.ctx.shardCount(), dm -> {
            if (ShardRouting.shardOf(dm.token(), shard.ctx.shardCount()) != shard.id) {
                throw new StorageException("derived write table=" + dm.table() + " token=" + dm.token()
                        + " is not owned by shard=" + shard.id);
            }
            TableShard target = shard.ctx.tables().get(dm.table()) == null ? null : shard.tables.get(dm.table());
            if (target == null || target.dropped) {
                return; // the derived table is being dropped (DROP INDEX): nothing to keep
            }
            if (segment >= 0) {
                shard.commitLog.markDirty(segment, dm.table());
            }
            target.memtable.apply(dm, segment);
        });
    }

    /** Derives and applies (not logged) the writes {@code base}, not applied itself, implies: index builds. */
    CompletableFuture<Void> deriveOnly(Mutation base) {
        if (!shard.acceptingWrites()) {
            return CompletableFuture.failedFuture(notAccepted());
        }
        TableEntry e = shard.ctx.tables().get(base.table());
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + base.table()));
        }
        applyDerived(shard.tables.get(base.table()), base, -1);
        shard.flusher.maybeFlush();
        return CompletableFuture.completedFuture(null);
    }

    /** Writes waiting for memtable memory now. */
    int blockedCount() {
        return blocked.size();
    }

    /** Writes that ever waited for memtable memory. */
    long blockedTotal() {
        return statBlockedWrites;
    }

    /** At close: fails every waiting write. */
    void failBlocked() {
        for (BlockedWrite w : blocked) {
            w.done().completeExceptionally(new StorageException("storage is closed: write not applied"));
        }
        blocked.clear();
    }

    static StorageException notAccepted() {
        return new StorageException("storage is drained or closed: writes are not accepted");
    }
}
