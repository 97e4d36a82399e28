package io.charybdis.storage.shard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentCountsTest {
    private static final long W = RecentCounts.WINDOW_NANOS;

    private static long[] at(RecentCounts c, long now) {
        long[] out = new long[4];
        c.addTo(out, now);
        return out;
    }

    @Test
    void keepsTheLastOneToTwoMinutesAndForgetsOlderCounts() {
        RecentCounts c = new RecentCounts(4);
        long t0 = System.nanoTime();
        c.record(1, t0);
        c.record(1, t0 + 1);
        assertThat(at(c, t0 + 2)).containsExactly(0, 2, 0, 0);

        // a minute later: a new window; the old one still counts until it is two windows old
        c.record(3, t0 + W + 5);
        assertThat(at(c, t0 + W + 6)).containsExactly(0, 2, 0, 1);

        // another minute: the first window is dropped
        c.record(2, t0 + 2 * W + 10);
        assertThat(at(c, t0 + 2 * W + 11)).containsExactly(0, 0, 1, 1);
    }

    @Test
    void readersSeeNothingStaleWhenNoReadsHappen() {
        RecentCounts c = new RecentCounts(4);
        long t0 = System.nanoTime();
        c.record(2, t0);
        assertThat(at(c, t0 + W / 2)).containsExactly(0, 0, 1, 0);
        assertThat(at(c, t0 + 2 * W + 1)).containsExactly(0, 0, 0, 0);

        // a long pause, then a read: only the new count is recent
        c.record(1, t0 + 5 * W);
        assertThat(at(c, t0 + 5 * W + 1)).containsExactly(0, 1, 0, 0);
    }
}
