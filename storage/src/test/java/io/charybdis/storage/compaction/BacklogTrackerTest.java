package io.charybdis.storage.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BacklogTrackerTest {
    static final long MB = 1 << 20;
    final CompactionOptions stcs = CompactionOptions.parse(Map.of("min_sstable_size", "0"));

    static double log4(double x) {
        return Math.log(x) / Math.log(4);
    }

    /** The definition, summed per SSTable: B_i = (S_i − C_i) · log4(T / S_i). */
    static double direct(List<FakeSSTable> ss, long[] compacted) {
        double t = 0;
        for (FakeSSTable s : ss) {
            t += s.size;
        }
        double b = 0;
        for (int i = 0; i < ss.size(); i++) {
            b += (ss.get(i).size - compacted[i]) * log4(t / ss.get(i).size);
        }
        return Math.max(0, b);
    }

    @Test
    void shouldOweOneRewriteOfEachByteForFourEqualSSTables() {
        SizeTieredBacklogTracker t = new SizeTieredBacklogTracker(stcs);
        List<FakeSSTable> ss = List.of(FakeSSTable.of(100 * MB), FakeSSTable.of(100 * MB), FakeSSTable.of(100 * MB),
                FakeSSTable.of(100 * MB));
        t.replaceSSTables(List.of(), ss);
        assertThat(t.backlog(List.of(), List.of())).isCloseTo(400.0 * MB, within(1.0));
    }

    @Test
    void shouldMatchTheDefinitionIncrementally() {
        SizeTieredBacklogTracker t = new SizeTieredBacklogTracker(CompactionOptions.parse(
                Map.of("min_sstable_size", "0", "bucket_low", "0.01", "bucket_high", "100", "min_threshold", "2")));
        List<FakeSSTable> ss = new ArrayList<>();
        for (long size : new long[] {10 * MB, 20 * MB, 35 * MB, 80 * MB, 7 * MB}) {
            FakeSSTable s = FakeSSTable.of(size);
            ss.add(s);
            t.replaceSSTables(List.of(), List.of(s));
        }
        long[] none = new long[ss.size()];
        assertThat(t.backlog(List.of(), List.of())).isCloseTo(direct(ss, none), within(1e-3));
        // a compaction of the first two, 30% done
        long[] c = {3 * MB, 6 * MB, 0, 0, 0};
        List<BacklogTracker.OngoingCompaction> ongoing = List.of(
                new BacklogTracker.OngoingCompaction(ss.get(0), c[0]), new BacklogTracker.OngoingCompaction(ss.get(1), c[1]));
        assertThat(t.backlog(List.of(), ongoing)).isCloseTo(direct(ss, c), within(1e-3));
        // removing an SSTable updates the sums
        t.replaceSSTables(List.of(ss.get(4)), List.of());
        assertThat(t.backlog(List.of(), List.of())).isCloseTo(direct(ss.subList(0, 4), new long[4]), within(1e-3));
    }

    @Test
    void shouldCountAnSSTableBeingWrittenAsAFullOne() {
        SizeTieredBacklogTracker t = new SizeTieredBacklogTracker(stcs);
        List<FakeSSTable> three = List.of(FakeSSTable.of(MB), FakeSSTable.of(MB), FakeSSTable.of(MB));
        t.replaceSSTables(List.of(), three);
        // three SSTables are below min_threshold: nothing to do yet
        assertThat(t.backlog(List.of(), List.of())).isZero();
        List<FakeSSTable> four = new ArrayList<>(three);
        four.add(FakeSSTable.of(MB));
        t.replaceSSTables(List.of(), List.of(four.get(3)));
        double withFour = t.backlog(List.of(), List.of());
        double withWrite = t.backlog(List.of(new BacklogTracker.OngoingWrite(MB, 0)), List.of());
        assertThat(withWrite).isGreaterThan(withFour);
        assertThat(withFour).isCloseTo(direct(four, new long[4]), within(1e-3));
    }

    @Test
    void shouldBeZeroForOneSSTableOrNone() {
        SizeTieredBacklogTracker t = new SizeTieredBacklogTracker(stcs);
        assertThat(t.backlog(List.of(), List.of())).isZero();
        t.replaceSSTables(List.of(), List.of(FakeSSTable.of(MB)));
        assertThat(t.backlog(List.of(), List.of())).isZero();
    }

    @Test
    void shouldComputeLeveledBacklogFromLevelExcess() {
        long m = 160 * MB;
        // L1 holds 20 SSTables (2x its 10-SSTable target when L2 is the top), L2 holds 100
        double[] eff = {0, 20 * m, 100 * m};
        double total = 120 * m;
        double targetMax = Math.ceil(total / (10.0 / 9));
        double targetL1 = Math.max(targetMax / 10, m);
        double expected = (20 * m - targetL1) * Math.min(10, Math.ceil(100.0 * m / m));
        assertThat(LeveledBacklogTracker.levelsBacklog(eff.clone(), 10, m)).isCloseTo(expected, within(1.0));
        // a balanced layout owes nothing
        assertThat(LeveledBacklogTracker.levelsBacklog(new double[] {0, 9 * m, 100 * m}, 10, m)).isZero();
        // only L0 populated: nothing beyond L0's size-tiered part
        assertThat(LeveledBacklogTracker.levelsBacklog(new double[] {5 * m}, 10, m)).isZero();
    }

    @Test
    void shouldCarryExcessUpwards() {
        long m = MB;
        // L0 excess lands in L1, which then exceeds its target too
        double[] eff = {30 * m, 10 * m, 100 * m};
        double b = LeveledBacklogTracker.levelsBacklog(eff, 10, m);
        double total = 140 * m;
        double targetMax = Math.ceil(total / (10.0 / 9));
        double t0 = Math.max(targetMax / 100, m);
        double t1 = Math.max(targetMax / 10, m);
        double l0Excess = 30 * m - t0;
        double expected = l0Excess * Math.min(10, Math.ceil(10.0))
                + (10 * m + l0Excess - t1) * Math.min(10, Math.ceil(100.0));
        assertThat(b).isCloseTo(expected, within(1.0));
    }

    @Test
    void shouldTrackLevelsIncrementallyAndSubtractCompactedBytes() {
        CompactionOptions o = CompactionOptions.parse(Map.of("class", "LeveledCompactionStrategy", "sstable_size_in_mb", "1"));
        LeveledBacklogTracker t = new LeveledBacklogTracker(o);
        List<FakeSSTable> l1 = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            l1.add(new FakeSSTable(MB, 1, i * 8, i * 8 + 7));
        }
        List<FakeSSTable> l2 = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            l2.add(new FakeSSTable(MB, 2, i * 5, i * 5 + 4));
        }
        t.replaceSSTables(List.of(), l1);
        t.replaceSSTables(List.of(), l2);
        double before = t.backlog(List.of(), List.of());
        assertThat(before).isCloseTo(LeveledBacklogTracker.levelsBacklog(new double[] {0, 30 * MB, 50 * MB}, 10, MB), within(1.0));
        assertThat(before).isPositive();
        double during = t.backlog(List.of(new BacklogTracker.OngoingWrite(MB / 2, 2)),
                List.of(new BacklogTracker.OngoingCompaction(l1.get(0), MB / 2)));
        assertThat(during).isLessThan(before);
        t.replaceSSTables(l1.subList(0, 25), List.of());
        assertThat(t.backlog(List.of(), List.of())).isLessThan(during);
    }
}
