package io.charybdis.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts a write's replica answers until the consistency level is met (success) or can no longer be met (a
 * WriteTimeout naming how many acknowledged). Answers arrive on any thread; the first decision wins.
 */
final class WriteTracker {
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicInteger acks = new AtomicInteger();
    private final AtomicInteger outstanding;
    private final int blockFor;
    private final ConsistencyLevel cl;
    private final WriteTimeoutException.WriteType type;

    /** @param contacted the replicas whose answers count */
    WriteTracker(int contacted, int blockFor, ConsistencyLevel cl, WriteTimeoutException.WriteType type) {
        this.outstanding = new AtomicInteger(contacted);
        this.blockFor = blockFor;
        this.cl = cl;
        this.type = type;
    }

    CompletableFuture<Void> future() {
        return done;
    }

    void track(CompletableFuture<Void> replicaAnswer) {
        track(replicaAnswer, true);
    }

    /** Tracks one replica's answer; {@code counts} false for a replica the level does not count (another DC's). */
    void track(CompletableFuture<Void> replicaAnswer, boolean counts) {
        if (!counts) {
            return; // still written (replication), not waited for, not in {@code contacted}
        }
        replicaAnswer.whenComplete((v, t) -> {
            int left = outstanding.decrementAndGet();
            if (t == null) {
                if (acks.incrementAndGet() == blockFor) {
                    done.complete(null);
                }
            } else if (acks.get() + left < blockFor) {
                done.completeExceptionally(new WriteTimeoutException(cl, acks.get(), blockFor, type));
            }
        });
    }
}
