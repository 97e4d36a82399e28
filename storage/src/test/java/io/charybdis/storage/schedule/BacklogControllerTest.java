package io.charybdis.storage.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BacklogControllerTest {
    final BacklogController compaction = BacklogController.compaction();
    final BacklogController flush = BacklogController.flush(0.6);

    @Test
    void shouldMapCompactionBacklogThroughScyllaControlPoints() {
        assertThat(compaction.sharesFor(0)).isEqualTo(50);
        assertThat(compaction.sharesFor(0.75)).isCloseTo(75, within(1e-9));
        assertThat(compaction.sharesFor(1.5)).isEqualTo(100);
        assertThat(compaction.sharesFor(15.75)).isCloseTo(550, within(1e-9));
        assertThat(compaction.sharesFor(30)).isEqualTo(1000);
        assertThat(compaction.sharesFor(1e9)).isEqualTo(1000);
        assertThat(compaction.sharesFor(Double.POSITIVE_INFINITY)).isEqualTo(1000);
        assertThat(compaction.sharesFor(Double.NaN)).isEqualTo(1000);
    }

    @Test
    void shouldKeepAFloorSoCompactionAlwaysMoves() {
        assertThat(compaction.sharesFor(-1)).isEqualTo(50);
        assertThat(compaction.sharesFor(1e-12)).isGreaterThanOrEqualTo(50);
    }

    @Test
    void shouldMapDirtyMemoryThroughThreeRegions() {
        assertThat(flush.sharesFor(0)).isEqualTo(0);
        assertThat(flush.sharesFor(0.3)).isCloseTo(5, within(1e-9)); // sluggish below the soft limit
        assertThat(flush.sharesFor(0.6)).isCloseTo(10, within(1e-9));
        assertThat(flush.sharesFor(0.8)).isCloseTo(200, within(1e-9)); // normal slope in the first half
        assertThat(flush.sharesFor(0.9)).isCloseTo(600, within(1e-9)); // aggressive near the hard limit
        assertThat(flush.sharesFor(1.0)).isEqualTo(1000);
        assertThat(flush.sharesFor(1.7)).isEqualTo(1000);
    }

    @Test
    void shouldInvertSharesToBacklog() {
        assertThat(compaction.backlogOfShares(100)).isCloseTo(1.5, within(1e-9));
        assertThat(compaction.backlogOfShares(200)).isCloseTo(1.5 + 28.5 / 9, within(1e-9));
        assertThat(compaction.sharesFor(compaction.backlogOfShares(200))).isCloseTo(200, within(1e-9));
        assertThat(flush.backlogOfShares(200)).isCloseTo(0.8, within(1e-9));
        assertThat(compaction.backlogOfShares(10)).isEqualTo(0);
        assertThat(compaction.backlogOfShares(5000)).isEqualTo(30);
    }

    @Test
    void shouldRejectDecreasingPoints() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BacklogController(java.util.List.of(
                new BacklogController.Point(1, 10), new BacklogController.Point(0.5, 20))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
