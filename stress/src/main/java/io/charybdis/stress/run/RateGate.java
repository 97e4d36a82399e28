package io.charybdis.stress.run;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Paces operations for {@code -rate limit=N/s} (or {@code throttle=}) and {@code -rate fixed=N/s}.
 *
 * <p>Implementation notes: one shared "next slot" time, advanced by 1/N s with a CAS per operation. Each caller
 * takes a slot and parks until it is due. The two modes differ in what happens when the clients fall behind:
 * <ul>
 *   <li>fixed: the schedule never moves. Slot k is due at start + k/N however late it is taken, and the returned
 *       intended start is what latency is measured from, so a stall on the server shows up in the latency of every
 *       operation it delayed (no coordinated omission);</li>
 *   <li>limit: a slot is never earlier than now, so a stall is not followed by a burst; latency is measured from the
 *       actual send.</li>
 * </ul>
 */
public final class RateGate {

    private final long intervalNanos;
    private final boolean fixed;
    private final LongSupplier clock;
    private final AtomicLong next;

    public RateGate(long opsPerSecond, boolean fixed, LongSupplier nanoClock) {
        if (opsPerSecond <= 0) {
            throw new IllegalArgumentException("opsPerSecond=" + opsPerSecond);
        }
        this.intervalNanos = Math.max(1, 1_000_000_000L / opsPerSecond);
        this.fixed = fixed;
        this.clock = nanoClock;
        this.next = new AtomicLong(nanoClock.getAsLong());
    }

    /** Restarts the schedule at {@code startNanos}. */
    public void reset(long startNanos) {
        next.set(startNanos);
    }

    /** Takes the next slot without waiting; returns its due time. */
    public long take() {
        while (true) {
            long cur = next.get();
            long due = fixed ? cur : Math.max(cur, clock.getAsLong());
            if (next.compareAndSet(cur, due + intervalNanos)) {
                return due;
            }
        }
    }

    /** Takes the next slot and parks until it is due; returns the due (intended start) time. */
    public long acquire() {
        long due = take();
        long wait;
        while ((wait = due - clock.getAsLong()) > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return due;
    }

    public boolean fixed() {
        return fixed;
    }

    public long intervalNanos() {
        return intervalNanos;
    }
}
