package io.charybdis.storage.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.ShardOverloadedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ShardInboxTest {
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "inbox-test-shard");
        t.setDaemon(true);
        return t;
    });
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        executor.shutdownNow();
    }

    private ShardInbox inbox(int capacity) throws Exception {
        ShardInbox inbox = new ShardInbox(0, executor, capacity);
        executor.submit(() -> { }).get(5, TimeUnit.SECONDS); // the inbox has learnt its thread
        return inbox;
    }

    /** Keeps the shard thread busy until {@link #release} (outside any shard work, as a Netty handler would). */
    private void blockShard() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
    }

    /** Runs {@code body} on the shard thread as a plain executor task (depth 0: a connection's handler). */
    private <T> T onShardThread(java.util.concurrent.Callable<T> body) throws Exception {
        return executor.submit(body).get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldRunInlineWhenCalledOnTheShardThread() throws Exception {
        ShardInbox inbox = inbox(16);
        boolean[] ranBeforeReturn = onShardThread(() -> {
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<String> f = inbox.request(() -> {
                ran.set(true);
                return CompletableFuture.completedFuture(Thread.currentThread().getName());
            });
            return new boolean[] {ran.get(), f.isDone()};
        });
        assertThat(ranBeforeReturn).containsExactly(true, true);
        assertThat(inbox.queuedRequests()).isZero();
    }

    @Test
    void shouldQueueWhenCalledFromAnotherThreadAndRunOnTheShard() throws Exception {
        ShardInbox inbox = inbox(16);
        blockShard();
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> f = inbox.request(() -> {
            ran.set(true);
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        });
        assertThat(ran).isFalse();
        assertThat(f).isNotDone();
        assertThat(inbox.queuedRequests()).isEqualTo(1);
        release.countDown();
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("inbox-test-shard");
        assertThat(inbox.queuedRequests()).isZero();
    }

    @Test
    void shouldFailWithShardOverloadedWhenTheQueueIsFullAndLoseNothingQueued() throws Exception {
        ShardInbox inbox = inbox(4);
        blockShard();
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Integer>> accepted = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            accepted.add(inbox.request(() -> {
                order.add(n);
                return CompletableFuture.completedFuture(n);
            }));
        }
        AtomicBoolean refusedRan = new AtomicBoolean();
        CompletableFuture<Integer> refused = inbox.request(() -> {
            refusedRan.set(true);
            return CompletableFuture.completedFuture(-1);
        });

        assertThat(refused).isCompletedExceptionally();
        assertThat(refused.handle((v, t) -> t).join()).isInstanceOf(ShardOverloadedException.class)
                .hasMessageContaining("shard=0").hasMessageContaining("capacity=4");
        assertThat(inbox.queuedRequests()).isEqualTo(4);
        assertThat(inbox.rejectedRequests()).isEqualTo(1);

        release.countDown();
        for (int i = 0; i < 4; i++) {
            assertThat(accepted.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
        }
        assertThat(order).containsExactly(0, 1, 2, 3);
        assertThat(refusedRan).isFalse();
        assertThat(inbox.queuedRequests()).isZero();
        // room again once drained
        assertThat(inbox.request(() -> CompletableFuture.completedFuture(7)).get(10, TimeUnit.SECONDS)).isEqualTo(7);
    }

    @Test
    void shouldQueueWorkHandedInFromInsideShardWork() throws Exception {
        ShardInbox inbox = inbox(16);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> nested = new CompletableFuture<>();
        onShardThread(() -> {
            // a request whose completion callback submits back to the same shard
            inbox.request(() -> {
                order.add("outer");
                CompletableFuture<Void> inner = inbox.request(() -> {
                    order.add("inner");
                    return CompletableFuture.completedFuture(null);
                });
                inner.whenComplete((v, t) -> nested.complete(null));
                order.add("outer done");
                return CompletableFuture.completedFuture(null);
            });
            return null;
        });
        nested.get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("outer", "outer done", "inner");
    }

    @Test
    void shouldNotGrowTheStackThroughChainsOfCompletedInlineRequests() throws Exception {
        ShardInbox inbox = inbox(16);
        int steps = 200_000; // nested one in the other, these would overflow any stack
        CompletableFuture<Integer> done = new CompletableFuture<>();
        AtomicInteger maxDepth = new AtomicInteger();
        executor.execute(() -> chain(inbox, steps, steps, done, maxDepth));
        assertThat(done.get(20, TimeUnit.SECONDS)).isEqualTo(steps);
        assertThat(maxDepth.get()).isLessThan(ShardInbox.INLINE_BUDGET * 64);
    }

    /** Request after request, each started from the previous one's completion (a {@code thenCompose} loop). */
    private static void chain(ShardInbox inbox, int left, int total, CompletableFuture<Integer> done,
                              AtomicInteger maxDepth) {
        if (left % 1000 == 0) {
            maxDepth.accumulateAndGet(Thread.currentThread().getStackTrace().length, Math::max);
        }
        if (left == 0) {
            done.complete(total);
            return;
        }
        inbox.request(() -> CompletableFuture.completedFuture(left)).whenComplete((v, t) -> {
            if (t != null) {
                done.completeExceptionally(t);
            } else {
                chain(inbox, left - 1, total, done, maxDepth);
            }
        });
    }

    @Test
    void shouldRunWorkOneThreadHandedInInTheOrderItWasHanded() throws Exception {
        ShardInbox inbox = inbox(16);
        blockShard();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> request = inbox.request(() -> {
            order.add("request");
            return CompletableFuture.completedFuture(null);
        });
        CompletableFuture<Void> maintenance = inbox.submit(() -> {
            order.add("maintenance");
            return CompletableFuture.completedFuture(null);
        });
        release.countDown();
        CompletableFuture.allOf(request, maintenance).get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("request", "maintenance");
    }

    @Test
    void shouldYieldTheThreadBetweenBatchesOfQueuedRequests() throws Exception {
        ShardInbox inbox = inbox(1024);
        blockShard();
        AtomicInteger ran = new AtomicInteger();
        List<CompletableFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            fs.add(inbox.request(() -> CompletableFuture.completedFuture(ran.incrementAndGet())));
        }
        CompletableFuture<Integer> seenByOtherTask = new CompletableFuture<>();
        inbox.post(() -> seenByOtherTask.complete(ran.get())); // e.g. a commit log acknowledgement
        release.countDown();
        assertThat(seenByOtherTask.get(10, TimeUnit.SECONDS)).isEqualTo(ShardInbox.DRAIN_BATCH);
        CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(ran.get()).isEqualTo(600);
    }

    @Test
    void shouldLogAndSurviveAFailingTask() throws Exception {
        ShardInbox inbox = inbox(16);
        inbox.post(() -> {
            throw new IllegalStateException("boom");
        });
        CompletableFuture<Integer> f = inbox.request(() -> {
            throw new IllegalStateException("bad request");
        });
        assertThat(f.handle((v, t) -> t).get(10, TimeUnit.SECONDS)).hasMessageContaining("bad request");
        assertThat(inbox.submit(() -> CompletableFuture.completedFuture(1)).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }
}
