package io.charybdis.storage.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StrategyTest {
    static final long MB = 1 << 20;
    static final int GC_BEFORE = (int) (System.currentTimeMillis() / 1000) - 864000;

    static <S extends CompactionSSTable> CompactionJob<S> next(CompactionStrategy s, List<S> live, Set<S> compacting) {
        return s.next(live, compacting::contains, GC_BEFORE, System.currentTimeMillis());
    }

    @Test
    void shouldParseStrategyClassesAndOptions() {
        assertThat(CompactionOptions.parse(Map.of()).kind()).isEqualTo(CompactionOptions.Kind.SIZE_TIERED);
        assertThat(CompactionOptions.parse(Map.of("class", "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"))
                .kind()).isEqualTo(CompactionOptions.Kind.LEVELED);
        CompactionOptions l = CompactionOptions.parse(Map.of("class", "LeveledCompactionStrategy"));
        assertThat(l.maxSSTableBytes()).isEqualTo(160 * MB);
        assertThat(l.fanout()).isEqualTo(10);
        assertThat(CompactionOptions.parse(Map.of("enabled", "false")).enabled()).isFalse();
        assertThat(CompactionOptions.parse(Map.of("class", "TimeWindowCompactionStrategy")).kind())
                .isEqualTo(CompactionOptions.Kind.SIZE_TIERED);
    }

    // ------------------------------------------------------------------ size-tiered

    @Test
    void shouldCompactTheSmallestBucketWithEnoughSimilarSSTables() {
        SizeTieredStrategy s = new SizeTieredStrategy(CompactionOptions.DEFAULT);
        List<FakeSSTable> live = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            live.add(FakeSSTable.of(10 * MB)); // small bucket, below min_threshold... with the 50 MiB floor below
        }
        for (int i = 0; i < 4; i++) {
            live.add(FakeSSTable.of(1000 * MB + i));
        }
        live.add(FakeSSTable.of(5000 * MB));
        CompactionJob<FakeSSTable> job = next(s, live, Set.of());
        assertThat(job.inputs()).hasSize(4).allMatch(x -> x.size >= 1000 * MB && x.size < 1001 * MB);
        assertThat(job.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);
        // one more small one: the small bucket (average smaller) wins
        live.add(FakeSSTable.of(20 * MB));
        assertThat(next(s, live, Set.of()).inputs()).hasSize(4).allMatch(x -> x.size <= 20 * MB);
    }

    @Test
    void shouldTakeAtMostMaxThresholdAndSkipCompactingSSTables() {
        SizeTieredStrategy s = new SizeTieredStrategy(CompactionOptions.parse(Map.of("max_threshold", "6")));
        List<FakeSSTable> live = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            live.add(FakeSSTable.of(MB + i));
        }
        CompactionJob<FakeSSTable> first = next(s, live, Set.of());
        assertThat(first.inputs()).hasSize(6);
        CompactionJob<FakeSSTable> second = next(s, live, Set.copyOf(first.inputs()));
        assertThat(second.inputs()).hasSize(4).doesNotContainAnyElementsOf(first.inputs());
        assertThat(next(s, live, Set.copyOf(live))).isNull();
        assertThat(s.pendingTasks(live)).isEqualTo(2);
    }

    @Test
    void shouldNotCompactBelowMinThreshold() {
        SizeTieredStrategy s = new SizeTieredStrategy(CompactionOptions.DEFAULT);
        List<FakeSSTable> live = List.of(FakeSSTable.of(MB), FakeSSTable.of(MB), FakeSSTable.of(MB));
        assertThat(next(s, live, Set.of())).isNull();
        assertThat(s.pendingTasks(live)).isZero();
    }

    @Test
    void shouldPickAnOldSSTableFullOfTombstonesOnlyWhenPurgingIsSafe() {
        SizeTieredStrategy s = new SizeTieredStrategy(CompactionOptions.parse(Map.of("tombstone_compaction_interval", "1")));
        long old = System.currentTimeMillis() - 2_000_000_000L;
        FakeSSTable tombstones = FakeSSTable.of(MB);
        tombstones.tombstones = 80;
        tombstones.createdAt = old;
        tombstones.minTs = 100;
        tombstones.maxTs = 200;
        FakeSSTable newer = FakeSSTable.of(100 * MB);
        newer.minTs = 300;
        CompactionJob<FakeSSTable> job = next(s, List.of(tombstones, newer), Set.of());
        assertThat(job.inputs()).containsExactly(tombstones);
        assertThat(job.type()).isEqualTo(CompactionJob.Type.TOMBSTONE_COMPACTION);
        // older data elsewhere would stay shadowed only by these tombstones: not worth it unless unchecked
        FakeSSTable older = FakeSSTable.of(100 * MB);
        older.minTs = 50;
        assertThat(next(s, List.of(tombstones, older), Set.of())).isNull();
        SizeTieredStrategy unchecked = new SizeTieredStrategy(CompactionOptions.parse(
                Map.of("tombstone_compaction_interval", "1", "unchecked_tombstone_compaction", "true")));
        assertThat(next(unchecked, List.of(tombstones, older), Set.of()).inputs()).containsExactly(tombstones);
        // too young, or under the threshold
        tombstones.createdAt = System.currentTimeMillis();
        assertThat(next(unchecked, List.of(tombstones, older), Set.of())).isNull();
        tombstones.createdAt = old;
        tombstones.tombstones = 10;
        assertThat(next(unchecked, List.of(tombstones, older), Set.of())).isNull();
    }

    // ------------------------------------------------------------------ leveled

    final CompactionOptions lcs = CompactionOptions.parse(Map.of("class", "LeveledCompactionStrategy", "sstable_size_in_mb", "1"));

    @Test
    void shouldCompactOverlappingL0WithL1IntoL1() {
        LeveledStrategy s = new LeveledStrategy(lcs);
        List<FakeSSTable> live = new ArrayList<>();
        FakeSSTable a = new FakeSSTable(MB, 0, 10, 100);
        FakeSSTable b = new FakeSSTable(MB, 0, 50, 150);
        FakeSSTable l1a = new FakeSSTable(MB, 1, 0, 60);
        FakeSSTable l1b = new FakeSSTable(MB, 1, 61, 120);
        FakeSSTable l1c = new FakeSSTable(MB, 1, 200, 250);
        live.addAll(List.of(a, b, l1a, l1b, l1c));
        CompactionJob<FakeSSTable> job = next(s, live, Set.of());
        assertThat(job.inputs()).containsExactlyInAnyOrder(a, b, l1a, l1b);
        assertThat(job.outputLevel()).isEqualTo(1);
        assertThat(job.maxOutputBytes()).isEqualTo(MB);
    }

    @Test
    void shouldKeepSmallL0CompactionsInL0AndNeedTwoSSTables() {
        LeveledStrategy s = new LeveledStrategy(lcs);
        FakeSSTable a = new FakeSSTable(MB / 4, 0, 10, 100);
        FakeSSTable b = new FakeSSTable(MB / 4, 0, 50, 150);
        assertThat(next(s, List.of(a), Set.of())).isNull();
        CompactionJob<FakeSSTable> job = next(s, List.of(a, b), Set.of());
        assertThat(job.inputs()).containsExactlyInAnyOrder(a, b);
        assertThat(job.outputLevel()).isZero();
    }

    @Test
    void shouldPromoteFromAnOverfullLevelRoundRobin() {
        LeveledStrategy s = new LeveledStrategy(lcs);
        List<FakeSSTable> live = new ArrayList<>();
        for (int i = 0; i < 12; i++) { // L1 holds 10 MiB at most
            live.add(new FakeSSTable(MB, 1, i * 20, i * 20 + 19));
        }
        FakeSSTable l2 = new FakeSSTable(MB, 2, 5, 30);
        live.add(l2);
        CompactionJob<FakeSSTable> first = next(s, live, Set.of());
        assertThat(first.outputLevel()).isEqualTo(2);
        assertThat(first.inputs()).containsExactlyInAnyOrder(live.get(0), l2);
        CompactionJob<FakeSSTable> second = next(s, live, Set.copyOf(first.inputs()));
        // live[1] overlaps l2, which is busy: the next one
        assertThat(second.inputs()).containsExactly(live.get(2));
    }

    @Test
    void shouldRunSizeTieredInL0WhenItFallsFarBehind() {
        LeveledStrategy s = new LeveledStrategy(lcs);
        List<FakeSSTable> live = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            live.add(new FakeSSTable(MB / 8, 0, 0, 255));
        }
        for (int i = 0; i < 12; i++) {
            live.add(new FakeSSTable(MB, 1, i * 20, i * 20 + 19));
        }
        CompactionJob<FakeSSTable> job = next(s, live, Set.of());
        assertThat(job.outputLevel()).isZero();
        assertThat(job.inputs()).hasSize(32).allMatch(x -> x.level == 0);
        assertThat(job.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldRepairOverlappingLevelsAndChooseMajorLevel() {
        LeveledStrategy s = new LeveledStrategy(lcs);
        FakeSSTable a = new FakeSSTable(MB, 1, 0, 100);
        FakeSSTable b = new FakeSSTable(MB, 1, 50, 150);
        FakeSSTable c = new FakeSSTable(MB, 1, 151, 200);
        s.repairLevels(List.of(a, b, c));
        assertThat(List.of(a.level, b.level, c.level)).containsExactly(1, 0, 1);
        List<FakeSSTable> many = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            many.add(FakeSSTable.of(MB));
        }
        assertThat(s.major(many).outputLevel()).isEqualTo(2); // 30 MiB fit in L2 (100 MiB), not L1 (10 MiB)
        assertThat(s.pendingTasks(many)).isGreaterThan(0);
    }
}
