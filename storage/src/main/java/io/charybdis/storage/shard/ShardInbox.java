package io.charybdis.storage.shard;

import io.charybdis.storage.ShardOverloadedException;
import io.charybdis.storage.StorageException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How work reaches a shard's thread: inline, through the bounded request queue, or through the executor.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Three doors.</b> (1) <i>Inline</i>: the caller is the shard's own thread, outside any shard work, and the
 * inline budget is not spent: the body runs now, in the caller's frame (the home shard of a request is the
 * data's shard: no queue, no hop). (2) <i>Request queue</i>: request-path work ({@link #request}: apply, read,
 * atomically) from any other thread goes through a bounded many-to-one queue; when it is full the request is
 * not queued and its future fails with {@link ShardOverloadedException} (back-pressure as a value: no thread
 * waits, nothing of the request ran). (3) <i>Executor</i> ({@link #execute}, {@link #submit}, {@link #post}):
 * maintenance (flush, compaction, controller ticks, stats, drain) and completions handed back by the commit log,
 * the I/O pool and the background scheduler, unbounded as before: refusing them would lose work already done.</li>
 * <li><b>Why Agrona's {@link ManyToOneConcurrentArrayQueue}</b>, not a bounded Netty task queue: storage does not
 * see Netty (ARCHITECTURE.md, module table), and only request-path work may be refused, while a bounded event
 * loop queue would also refuse maintenance and Netty's own channel tasks. {@code offer} returning false is the
 * back-pressure value, as in Aeron's conductor proxies. The queue holds requests (not bytes): its capacity
 * bounds the memory of in-flight work at a few hundred bytes per request.</li>
 * <li><b>Drain.</b> A drain task goes on the executor only when the queue turns busy ({@link #drainScheduled}
 * false → true), so a burst of requests costs one executor hand-off, not one each. The drain task clears the flag
 * before it polls, so an offer that finds the flag set is always seen by a poll that follows it. It runs at most
 * {@link #DRAIN_BATCH} requests, then queues itself again behind the loop's other work, as Netty's own task
 * batches yield to I/O.</li>
 * <li><b>Re-entrancy.</b> {@link #depth} counts shard work on the shard thread's stack. Only work started at
 * depth 0 runs inline; work handed in from inside shard work (a completion callback that submits back to this
 * shard) is queued exactly as before, so no loop of the shard sees its state change under it and callbacks keep
 * their order. The inline budget bounds recursion through futures that are already complete at depth 0
 * ({@code thenCompose} on a done future runs its function at once, so a chain of inline reads would otherwise
 * nest without end): after {@link #INLINE_BUDGET} inline runs without a queued task in between, work queues;
 * the budget refills when a queued task runs.</li>
 * <li><b>Order.</b> Maintenance work ({@link #execute}, {@link #submit}) and every inline run first drain the
 * request queue. So the work one thread hands this shard runs in the order it was handed, whichever door each
 * piece took: a request queued before a flush is applied before that flush runs; a request the shard thread
 * itself queued (budget spent, or from inside shard work) runs before its next inline one.</li>
 * </ul>
 */
final class ShardInbox {
    private static final Logger LOG = LoggerFactory.getLogger(ShardInbox.class);
    static final int INLINE_BUDGET = 64;
    /** Requests one drain task runs before it yields the thread (to the event loop's I/O and other tasks). */
    static final int DRAIN_BATCH = 256;

    private final int shard;
    private final Executor executor;
    private final ManyToOneConcurrentArrayQueue<Request<?>> requests;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = () -> {
        drainScheduled.set(false);
        runTask(() -> drainRequests(DRAIN_BATCH), true, false);
    };
    private final LongAdder rejected = new LongAdder();
    private volatile Thread thread;
    // shard thread only
    private int depth;
    private int budget = INLINE_BUDGET;

    ShardInbox(int shard, Executor executor, int capacity) {
        this.shard = shard;
        this.executor = executor;
        this.requests = new ManyToOneConcurrentArrayQueue<>(capacity);
        // the executor is a single thread (in production a Netty event loop): learn which
        try {
            executor.execute(() -> thread = Thread.currentThread());
        } catch (RejectedExecutionException e) {
            // not running: every door below refuses too
        }
    }

    /** Whether the calling thread is this shard's. */
    boolean inShardThread() {
        return Thread.currentThread() == thread;
    }

    /** Requests waiting in the bounded queue (an estimate while producers race). */
    int queuedRequests() {
        return requests.size();
    }

    int capacity() {
        return requests.capacity();
    }

    /** Requests refused because the queue was full, since start. */
    long rejectedRequests() {
        return rejected.sum();
    }

    // ------------------------------------------------------------------ request path

    /**
     * Request-path work: inline when allowed, else through the bounded queue. The future fails with
     * {@link ShardOverloadedException} when the queue is full, and with a {@link StorageException} when the shard is
     * not running.
     */
    <T> CompletableFuture<T> request(Supplier<CompletableFuture<T>> body) {
        if (inlineAllowed()) {
            return inline(body);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        if (!requests.offer(new Request<>(body, result))) {
            rejected.increment();
            result.completeExceptionally(new ShardOverloadedException(shard, requests.capacity()));
            return result;
        }
        if (!drainScheduled.get() && drainScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(drainTask);
            } catch (RejectedExecutionException e) {
                drainScheduled.set(false);
                // the queued request is skipped if a drain ever runs: its future is done
                result.completeExceptionally(notRunning(e));
            }
        }
        return result;
    }

    // ------------------------------------------------------------------ executor path

    /** Runs a task on the shard: inline when allowed, else queued on the executor. Errors are logged. */
    void execute(Runnable task) {
        if (inlineAllowed()) {
            budget--;
            runTask(task, false, true);
        } else {
            executor.execute(() -> runTask(task, true, true));
        }
    }

    /**
     * Always queues the task on the executor: completions the commit log, the I/O pool and the background scheduler
     * hand back (they follow no request of the thread that posts them, so they do not drain the request queue).
     */
    void post(Runnable task) {
        executor.execute(() -> runTask(task, true, false));
    }

    /** Runs {@code body} on the shard (inline when allowed) and relays its future; unbounded, for maintenance. */
    <T> CompletableFuture<T> submit(Supplier<CompletableFuture<T>> body) {
        if (inlineAllowed()) {
            return inline(body);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            executor.execute(() -> runTask(() -> new Request<>(body, result).run(), true, true));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(notRunning(e));
        }
        return result;
    }

    // ------------------------------------------------------------------ internals

    private boolean inlineAllowed() {
        return Thread.currentThread() == thread && depth == 0 && budget > 0;
    }

    private <T> CompletableFuture<T> inline(Supplier<CompletableFuture<T>> body) {
        budget--;
        depth++;
        try {
            drainRequests(requests.capacity());
            CompletableFuture<T> f = body.get();
            return f.isDone() ? f : relay(f, new CompletableFuture<>());
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        } finally {
            depth--;
        }
    }

    /**
     * Runs shard work; a task the executor runs ({@code refill}) is where the shard went back to its loop. With
     * {@code drainFirst}, the requests queued before it run first.
     */
    private void runTask(Runnable task, boolean refill, boolean drainFirst) {
        depth++;
        try {
            if (drainFirst) {
                drainRequests(requests.capacity());
            }
            task.run();
        } catch (Throwable t) {
            LOG.error("unexpected error on shard={}", shard, t);
        } finally {
            depth--;
        }
        if (refill && depth == 0) {
            budget = INLINE_BUDGET;
        }
    }

    /** Runs queued requests, at most {@code limit}; if some remain, makes sure a drain task will run them. */
    private void drainRequests(int limit) {
        if (requests.isEmpty()) {
            return;
        }
        Request<?> r;
        while (limit-- > 0 && (r = requests.poll()) != null) {
            r.run();
        }
        if (!requests.isEmpty() && drainScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(drainTask);
            } catch (RejectedExecutionException e) {
                drainScheduled.set(false);
            }
        }
    }

    private StorageException notRunning(RejectedExecutionException e) {
        return new StorageException("shard=" + shard + " is not running", e);
    }

    private static <T> CompletableFuture<T> relay(CompletableFuture<T> from, CompletableFuture<T> to) {
        from.whenComplete((v, t) -> {
            if (t != null) {
                to.completeExceptionally(t);
            } else {
                to.complete(v);
            }
        });
        return to;
    }

    /** A request and the future its caller holds. */
    private record Request<T>(Supplier<CompletableFuture<T>> body, CompletableFuture<T> result) {
        void run() {
            if (result.isDone()) {
                return; // refused meanwhile (shard shutting down)
            }
            try {
                relay(body.get(), result);
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }
    }
}
