package io.charybdis.storage.shard;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts per slot over a sliding window of one to two minutes: two one-minute windows, the current one and the
 * one before, rotated by the single writer as time passes. Readers on other threads sum what is still recent.
 * The point is percentiles of recent behaviour (how many SSTables reads consult now, not since start), as
 * Cassandra's decaying histograms give nodetool.
 */
final class RecentCounts {
    static final long WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final AtomicLongArray[] windows;
    /** Start of windows[current]; written by the writer only. */
    private volatile long currentStart;
    private volatile int current;

    RecentCounts(int slots) {
        windows = new AtomicLongArray[] {new AtomicLongArray(slots), new AtomicLongArray(slots)};
        currentStart = System.nanoTime();
    }

    /** Counts one value in {@code slot}; called by one thread only. */
    void record(int slot, long nowNanos) {
        long age = nowNanos - currentStart;
        if (age >= WINDOW_NANOS) {
            int next = 1 - current;
            AtomicLongArray w = windows[next];
            if (age >= 2 * WINDOW_NANOS) {
                clear(windows[current]); // nothing recorded for over a minute: both windows are stale
            }
            clear(w);
            current = next;
            currentStart = nowNanos;
        }
        AtomicLongArray w = windows[current];
        w.lazySet(slot, w.get(slot) + 1);
    }

    /** Adds the counts still recent at {@code nowNanos} to {@code into}; safe from any thread. */
    void addTo(long[] into, long nowNanos) {
        int cur = current;
        long age = nowNanos - currentStart;
        if (age >= 2 * WINDOW_NANOS) {
            return;
        }
        add(windows[cur], into);
        if (age < WINDOW_NANOS) {
            add(windows[1 - cur], into);
        }
    }

    private static void add(AtomicLongArray w, long[] into) {
        for (int i = 0; i < into.length && i < w.length(); i++) {
            into[i] += w.get(i);
        }
    }

    private static void clear(AtomicLongArray w) {
        for (int i = 0; i < w.length(); i++) {
            w.lazySet(i, 0);
        }
    }
}
