package io.charybdis.storage.shard;

import io.charybdis.storage.CasResult;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Read-decide-apply on one partition with no other write to it in between (the local part of a lightweight
 * transaction).
 *
 * <p>Implementation notes: a partition under {@link #atomically} is locked: an entry in {@link #locks} whose queue
 * holds, in arrival order, the writes and atomic operations that came meanwhile. The lock is released right after
 * the decided mutation went into the memtable (before the commit log has made it durable), and
 * {@link #unlock} then runs the waiters in order until one of them takes the lock again, to which it hands the rest.
 * No lock is held across a thread: the read completes on this shard. Shard thread only.
 */
final class PartitionLocks {
    private final Shard shard;
    private final HashMap<DecoratedKey, ArrayDeque<Runnable>> locks = new HashMap<>();

    PartitionLocks(Shard shard) {
        this.shard = shard;
    }

    /** The queue of work waiting for the partition's lock, or null when it is not locked. */
    ArrayDeque<Runnable> waitersOf(long token, byte[] key) {
        if (locks.isEmpty()) {
            return null;
        }
        return locks.get(new DecoratedKey(token, key));
    }

    CompletableFuture<CasResult> atomically(TableId tid, long token, byte[] key, ReadCommand current,
                                            Function<ReadResult, Mutation> decide) {
        CompletableFuture<CasResult> f = new CompletableFuture<>();
        DecoratedKey dk = new DecoratedKey(token, key);
        ArrayDeque<Runnable> waiters = locks.get(dk);
        if (waiters != null) {
            waiters.add(() -> start(tid, dk, current, decide, f));
        } else {
            start(tid, dk, current, decide, f);
        }
        return f;
    }

    private void start(TableId tid, DecoratedKey dk, ReadCommand current, Function<ReadResult, Mutation> decide,
                       CompletableFuture<CasResult> f) {
        locks.put(dk, new ArrayDeque<>());
        CompletableFuture<ReadResult> read;
        try {
            TableShard ts = shard.tables.get(tid);
            read = shard.reads.readPartition(current);
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
                    f.complete(new CasResult(rr, false));
                    return;
                }
                if (!shard.acceptingWrites()) {
                    unlock(dk);
                    f.completeExceptionally(WritePath.notAccepted());
                    return;
                }
                CompletableFuture<Void> applied = new CompletableFuture<>();
                shard.writes.applyNow(ts, m, true, applied);
                unlock(dk);
                applied.whenComplete((v, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(new CasResult(rr, true));
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
}
