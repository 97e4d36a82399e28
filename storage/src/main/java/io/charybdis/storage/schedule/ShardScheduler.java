package io.charybdis.storage.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard's background scheduler: runs the shard's memtable flushes and compactions as chunked tasks on one
 * background thread, giving each group time in proportion to its shares against the shard's foreground
 * (statements) work.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>Chunks.</b> A {@link Task} does a bounded amount of work per {@link Task#step()} (about
 *       {@value #CHUNK_BYTES} bytes read or written) and returns the bytes it processed. Between chunks the
 *       scheduler picks what runs next, so a long compaction never holds back a flush.</li>
 *   <li><b>Between groups</b> (flush, compaction): weighted fair queuing. Each group has a virtual time that
 *       advances by (chunk run time / group shares); the eligible group with the smallest virtual time runs. Within
 *       a group, tasks take turns (round robin).</li>
 *   <li><b>Against the foreground</b>: a duty cycle. After a chunk of group g that used t of CPU time (time
 *       blocked on the disk does not count: the duty cycle shares the shard's core),  g is not eligible
 *       again for t × (competing shares / g's shares), where the competing shares are those of the other groups
 *       with work plus {@link BacklogController#STATEMENT_SHARES} if the shard served statements recently
 *       (its foreground operation counter moved in the last {@value #FOREGROUND_WINDOW_MILLIS} ms). So over time
 *       g gets shares/(shares + competing) of the time, i.e. of CPU and of the disk bandwidth it can use; an idle
 *       shard gives background work everything (work conserving).</li>
 *   <li><b>Shares</b> are set from outside by the controllers ({@link #setShares}); a task may carry a floor
 *       ({@link Task#minShares()}: explicit flushes, user-initiated compactions).</li>
 *   <li><b>Caps.</b> {@link #setThroughputCap} limits a group's bytes per second (compaction_throughput): a cap
 *       only ever delays a group further, it never speeds it up.</li>
 * </ul>
 * Thread-safe: submit, shares and caps may be changed from any thread; tasks run on the scheduler's thread.
 */
public final class ShardScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardScheduler.class);
    public static final int CHUNK_BYTES = 256 * 1024;
    static final long FOREGROUND_WINDOW_MILLIS = 100;
    private static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    public enum Group { FLUSH, COMPACTION }

    /** A chunked background task. */
    public interface Task {
        /** Does one chunk of work; returns the bytes processed. */
        long step() throws Exception;

        boolean done();

        /** The task failed in {@link #step()} (with that exception) or was abandoned at close (null). */
        void abort(Throwable cause);

        default double minShares() {
            return 0;
        }
    }

    private final class GroupState {
        final Group group;
        final ArrayDeque<Task> queue = new ArrayDeque<>();
        volatile double shares;
        volatile long capBytesPerSecond;
        double virtualTime;
        long eligibleAt;
        long capAllowedAt;
        volatile long bytes;
        volatile long busyNanos;
        volatile long completedTasks;
        volatile int active;
        volatile int queued;

        GroupState(Group group, double shares) {
            this.group = group;
            this.shares = shares;
        }

        double effectiveShares() {
            double s = Math.max(1, shares);
            for (Task t : queue) {
                s = Math.max(s, t.minShares());
            }
            return s;
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    private final boolean cpuTimeSupported = THREADS.isCurrentThreadCpuTimeSupported();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final GroupState[] groups;
    private final LongSupplier foregroundOps;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastOps = Long.MIN_VALUE;
    private long foregroundUntil;

    public ShardScheduler(int shardId, LongSupplier foregroundOps) {
        this.foregroundOps = foregroundOps;
        this.groups = new GroupState[] {new GroupState(Group.FLUSH, 10), new GroupState(Group.COMPACTION, 50)};
        this.thread = new Thread(this::run, "storage-background-" + shardId);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private GroupState state(Group g) {
        return groups[g.ordinal()];
    }

    /** False once {@link #close()} began: submitted tasks are aborted at once. */
    public boolean isRunning() {
        return running;
    }

    public void submit(Group g, Task task) {
        lock.lock();
        try {
            if (!running) {
                task.abort(null);
                return;
            }
            GroupState st = state(g);
            st.queue.add(task);
            st.queued = st.queue.size();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void setShares(Group g, double shares) {
        state(g).shares = shares;
    }

    public double shares(Group g) {
        return state(g).shares;
    }

    /** Bytes per second at most for the group; 0 = no cap. */
    public void setThroughputCap(Group g, long bytesPerSecond) {
        state(g).capBytesPerSecond = Math.max(0, bytesPerSecond);
    }

    public long processedBytes(Group g) {
        return state(g).bytes;
    }

    public long busyNanos(Group g) {
        return state(g).busyNanos;
    }

    public int queued(Group g) {
        lock.lock();
        try {
            return state(g).queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Tasks of the group waiting for their next chunk (not the one running now); lock-free, a moment old. */
    public int pendingTasks(Group g) {
        return state(g).queued;
    }

    /** 1 while a chunk of the group's task runs, else 0. */
    public int activeTasks(Group g) {
        return state(g).active;
    }

    /** Tasks of the group that finished (done or failed) since start. */
    public long completedTasks(Group g) {
        return state(g).completedTasks;
    }

    /** CPU time of this thread (time blocked in I/O or fsync does not count), or -1 if unavailable. */
    private long cpuNanos() {
        return cpuTimeSupported ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    private boolean foregroundActive(long now) {
        long ops = foregroundOps.getAsLong();
        if (ops != lastOps) {
            lastOps = ops;
            foregroundUntil = now + TimeUnit.MILLISECONDS.toNanos(FOREGROUND_WINDOW_MILLIS);
        }
        return now < foregroundUntil;
    }

    private void run() {
        while (running) {
            GroupState g;
            Task task;
            lock.lock();
            try {
                long now = System.nanoTime();
                g = null;
                long wakeAt = Long.MAX_VALUE;
                for (GroupState s : groups) {
                    if (s.queue.isEmpty()) {
                        continue;
                    }
                    long at = Math.max(s.eligibleAt, s.capAllowedAt);
                    if (at > now) {
                        wakeAt = Math.min(wakeAt, at);
                    } else if (g == null || s.virtualTime < g.virtualTime) {
                        g = s;
                    }
                }
                if (g == null) {
                    long wait = wakeAt == Long.MAX_VALUE ? MAX_IDLE_NANOS : Math.min(MAX_IDLE_NANOS, wakeAt - now);
                    changed.awaitNanos(wait);
                    continue;
                }
                task = g.queue.poll();
                g.queued = g.queue.size();
                g.active = 1;
                // a group that was idle does not bank credit: start it at the least virtual time in use
                double minVt = g.virtualTime;
                for (GroupState s : groups) {
                    if (!s.queue.isEmpty() && s != g) {
                        minVt = Math.min(minVt, s.virtualTime);
                    }
                }
                g.virtualTime = Math.max(g.virtualTime, minVt);
            } catch (InterruptedException e) {
                continue;
            } finally {
                lock.unlock();
            }
            long t0 = System.nanoTime();
            long c0 = cpuNanos();
            long processed = 0;
            boolean failed = false;
            try {
                processed = task.step();
            } catch (Throwable t) {
                failed = true;
                try {
                    task.abort(t);
                } catch (Throwable t2) {
                    LOG.error("background task abort failed", t2);
                }
            }
            long t1 = System.nanoTime();
            long dt = Math.max(1, c0 < 0 ? t1 - t0 : cpuNanos() - c0);
            lock.lock();
            try {
                double shares = Math.max(g.effectiveShares(), task.minShares());
                double competing = foregroundActive(t1) ? BacklogController.STATEMENT_SHARES : 0;
                for (GroupState s : groups) {
                    if (s != g && !s.queue.isEmpty()) {
                        competing += s.effectiveShares();
                    }
                }
                g.virtualTime += dt / shares;
                g.eligibleAt = t1 + (long) Math.min(MAX_IDLE_NANOS, dt * (competing / shares));
                long cap = g.capBytesPerSecond;
                if (cap > 0 && processed > 0) {
                    g.capAllowedAt = Math.max(g.capAllowedAt, t0) + (long) (processed * 1e9 / cap);
                } else {
                    g.capAllowedAt = 0;
                }
                g.bytes += processed;
                g.busyNanos += dt;
                g.active = 0;
                if (!failed && !task.done()) {
                    g.queue.add(task);
                } else {
                    g.completedTasks++;
                }
                g.queued = g.queue.size();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Stops the thread after its current chunk; queued tasks are aborted (with a null cause). */
    @Override
    public void close() {
        List<Task> left = new ArrayList<>();
        lock.lock();
        try {
            running = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lock.lock();
        try {
            for (GroupState s : groups) {
                left.addAll(s.queue);
                s.queue.clear();
                s.queued = 0;
            }
        } finally {
            lock.unlock();
        }
        for (Task t : left) {
            try {
                t.abort(null);
            } catch (Throwable e) {
                LOG.error("background task abort failed", e);
            }
        }
    }
}
