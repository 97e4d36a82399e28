package io.charybdis.cluster;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * Brings a request's continuation back to its home: the shard whose event loop owns the client connection. The
 * coordinator's replies may complete on a data shard or an internode connection's thread; what follows them
 * (filtering, aggregation, paging, result encoding) runs on the home shard, as the request path requires.
 */
public final class Home {
    private Home() {
    }

    /**
     * {@code f} itself when it is done and we are on {@code home} already (or there is no home: internal work),
     * else a future that completes with {@code f}'s outcome on {@code home}'s thread.
     */
    public static <T> CompletableFuture<T> resume(CompletableFuture<T> f, EventExecutor home) {
        if (home == null || (f.isDone() && home.inEventLoop())) {
            return f;
        }
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, t) -> {
            if (home.inEventLoop()) {
                complete(out, v, t);
                return;
            }
            try {
                home.execute(() -> complete(out, v, t));
            } catch (RejectedExecutionException e) {
                complete(out, v, t); // the home loop is shutting down: finish where we are
            }
        });
        return out;
    }

    private static <T> void complete(CompletableFuture<T> out, T v, Throwable t) {
        if (t != null) {
            out.completeExceptionally(t);
        } else {
            out.complete(v);
        }
    }
}
