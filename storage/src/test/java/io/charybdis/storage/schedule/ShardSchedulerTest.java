package io.charybdis.storage.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ShardSchedulerTest {
    /** A task of n chunks, each burning about {@code spinNanos} of CPU. */
    static final class Spin implements ShardScheduler.Task {
        final AtomicInteger left;
        final long spinNanos;
        final CountDownLatch finished = new CountDownLatch(1);
        final AtomicInteger chunks = new AtomicInteger();

        Spin(int chunks, long spinNanos) {
            this.left = new AtomicInteger(chunks);
            this.spinNanos = spinNanos;
        }

        @Override
        public long step() {
            long end = System.nanoTime() + spinNanos;
            long x = 0;
            while (System.nanoTime() < end) {
                x++;
            }
            chunks.incrementAndGet();
            if (left.decrementAndGet() == 0) {
                finished.countDown();
            }
            return 1000 + (x & 1);
        }

        @Override
        public boolean done() {
            return left.get() <= 0;
        }

        @Override
        public void abort(Throwable cause) {
            finished.countDown();
        }
    }

    @Test
    void shouldRunTasksToCompletionWhenTheShardIsIdle() throws InterruptedException {
        try (ShardScheduler s = new ShardScheduler(0, () -> 0)) {
            Spin t = new Spin(20, 100_000);
            s.submit(ShardScheduler.Group.COMPACTION, t);
            assertThat(t.finished.await(10, TimeUnit.SECONDS)).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (s.processedBytes(ShardScheduler.Group.COMPACTION) < 20_000 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the last chunk is counted just after it returns
            }
            assertThat(s.processedBytes(ShardScheduler.Group.COMPACTION)).isGreaterThanOrEqualTo(20_000);
        }
    }

    @Test
    void shouldGiveGroupsTimeInProportionToShares() throws InterruptedException {
        try (ShardScheduler s = new ShardScheduler(0, () -> 0)) {
            s.setShares(ShardScheduler.Group.FLUSH, 800);
            s.setShares(ShardScheduler.Group.COMPACTION, 200);
            Spin flush = new Spin(1_000_000, 200_000);
            Spin compaction = new Spin(1_000_000, 200_000);
            s.submit(ShardScheduler.Group.FLUSH, flush);
            s.submit(ShardScheduler.Group.COMPACTION, compaction);
            Thread.sleep(600);
            double ratio = (double) flush.chunks.get() / Math.max(1, compaction.chunks.get());
            assertThat(ratio).isBetween(2.0, 8.0);
        }
    }

    @Test
    void shouldYieldToForegroundWorkInProportionToShares() throws InterruptedException {
        AtomicLong ops = new AtomicLong();
        try (ShardScheduler idle = new ShardScheduler(0, () -> 0);
             ShardScheduler busy = new ShardScheduler(1, ops::incrementAndGet)) { // the foreground always moves
            idle.setShares(ShardScheduler.Group.COMPACTION, 100);
            busy.setShares(ShardScheduler.Group.COMPACTION, 100);
            Spin a = new Spin(1_000_000, 200_000);
            Spin b = new Spin(1_000_000, 200_000);
            idle.submit(ShardScheduler.Group.COMPACTION, a);
            busy.submit(ShardScheduler.Group.COMPACTION, b);
            Thread.sleep(600);
            // 100 shares against 1000 of statements: about 1/11 of the time
            assertThat(b.chunks.get()).isLessThan(a.chunks.get() / 3);
            assertThat(b.chunks.get()).isGreaterThan(0);
        }
    }

    @Test
    void shouldCapThroughput() throws InterruptedException {
        try (ShardScheduler s = new ShardScheduler(0, () -> 0)) {
            s.setThroughputCap(ShardScheduler.Group.COMPACTION, 10_000); // 10 chunks of ~1000 bytes per second
            Spin t = new Spin(1_000_000, 10_000);
            s.submit(ShardScheduler.Group.COMPACTION, t);
            Thread.sleep(500);
            assertThat(t.chunks.get()).isBetween(2, 12);
        }
    }

    @Test
    void shouldAbortQueuedTasksAtClose() throws InterruptedException {
        ShardScheduler s = new ShardScheduler(0, () -> 0);
        s.setThroughputCap(ShardScheduler.Group.COMPACTION, 1);
        Spin t = new Spin(1_000_000, 1000);
        s.submit(ShardScheduler.Group.COMPACTION, t);
        Thread.sleep(50);
        s.close();
        assertThat(t.finished.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(t.done()).isFalse();
    }
}
