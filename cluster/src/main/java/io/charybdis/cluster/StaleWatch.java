package io.charybdis.cluster;

import io.charybdis.cluster.messaging.MessagingException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Watches the replica answers of one attempt at a request for a refusal because this coordinator routed by a stale
 * metadata epoch (token placement changed since: {@code replica.EpochGate}). The attempt turns every replica
 * failure into Cassandra's timeout or unavailable answers; the watch remembers whether one of them was such a
 * refusal, so that {@link Coordinator} can catch up with the metadata log and try once more on the new plan.
 *
 * <p>An attempt that may have changed data in a way a second attempt could repeat (a Paxos proposal of its own
 * update that a replica may have accepted) {@linkplain #noRetry() closes} the watch: then it is never retried.
 * Thread-safe: answers arrive on any thread.
 */
final class StaleWatch {
    private volatile boolean refused;
    private volatile boolean closed;

    /**
     * Watches one replica answer: returns a future with its outcome that completes once the watch has seen it (so
     * that whatever depends on the answer sees the watch up to date). A null watch watches nothing.
     */
    static <T> CompletableFuture<T> watch(StaleWatch w, CompletableFuture<T> answer) {
        if (w == null) {
            return answer;
        }
        return answer.whenComplete((v, t) -> {
            if (t != null && isStaleEpoch(t)) {
                w.refused = true;
            }
        });
    }

    /** From now on the attempt must not be repeated, whatever its answers. */
    void noRetry() {
        closed = true;
    }

    /** Whether a replica refused the attempt for a stale epoch, and it may be tried again. */
    boolean shouldRetry() {
        return refused && !closed;
    }

    static boolean isStaleEpoch(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof MessagingException me && me.reason() == MessagingException.Reason.REMOTE_FAILURE
                && me.getMessage() != null && me.getMessage().contains("stale metadata epoch");
    }
}
