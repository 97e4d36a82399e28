package io.charybdis.storage.compaction;

import io.charybdis.storage.mutation.DecoratedKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Leveled compaction (Cassandra's LCS, after LevelDB). Level 0 holds flushed SSTables, which may overlap; every
 * level L ≥ 1 holds SSTables of about sstable_size_in_mb that do not overlap, and may hold
 * fanout_size^L × sstable_size bytes. Choice of the next compaction, as Cassandra's {@code LeveledManifest}:
 * <ol>
 *   <li>from the highest level down to L1, the first level over its size (score > 1.001): if L0 has more than
 *       {@value #MAX_COMPACTING_L0} SSTables, size-tiered within L0 first (output stays in L0); otherwise the next
 *       SSTable of L after the last one compacted there (round robin), with every SSTable of L+1 it overlaps,
 *       into L+1;</li>
 *   <li>otherwise an L0 compaction: the oldest L0 SSTables and those overlapping them (at most
 *       {@value #MAX_COMPACTING_L0}), with the L1 SSTables they overlap if they make more than one SSTable's worth
 *       (output to L1), else staying in L0; at least two SSTables;</li>
 *   <li>otherwise size-tiered within L0 if it has too many SSTables.</li>
 * </ol>
 * Output is cut into SSTables of sstable_size_in_mb (uncompressed bytes).
 */
public final class LeveledStrategy implements CompactionStrategy {
    public static final int MAX_COMPACTING_L0 = 32;
    private static final Comparator<CompactionSSTable> BY_FIRST_KEY =
            (a, b) -> DecoratedKey.compare(a.minToken(), a.minKey(), b.minToken(), b.minKey());

    private final CompactionOptions options;
    private final SizeTieredStrategy l0;
    /** Per level: the first key of the SSTable compacted last (round robin through the level). */
    private final Map<Integer, CompactionSSTable> lastCompacted = new HashMap<>();

    public LeveledStrategy(CompactionOptions options) {
        this.options = options;
        this.l0 = new SizeTieredStrategy(options);
    }

    @Override
    public CompactionOptions options() {
        return options;
    }

    public long maxBytesForLevel(int level) {
        return level == 0 ? 4 * options.maxSSTableBytes()
                : (long) Math.min(Long.MAX_VALUE / 2, Math.pow(options.fanout(), level) * options.maxSSTableBytes());
    }

    static <S extends CompactionSSTable> List<List<S>> levels(List<S> live) {
        List<List<S>> levels = new ArrayList<>();
        for (S s : live) {
            int l = Math.max(0, s.level());
            while (levels.size() <= l) {
                levels.add(new ArrayList<>());
            }
            levels.get(l).add(s);
        }
        if (levels.isEmpty()) {
            levels.add(new ArrayList<>());
        }
        for (int i = 1; i < levels.size(); i++) {
            levels.get(i).sort(BY_FIRST_KEY);
        }
        levels.get(0).sort(Comparator.comparingLong(CompactionSSTable::generation));
        return levels;
    }

    static long bytes(List<? extends CompactionSSTable> l) {
        long n = 0;
        for (CompactionSSTable s : l) {
            n += s.onDiskBytes();
        }
        return n;
    }

    @Override
    public <S extends CompactionSSTable> CompactionJob<S> next(List<S> live, Predicate<S> compacting, int gcBefore,
                                                               long nowMillis) {
        List<List<S>> levels = levels(live);
        for (int l = levels.size() - 1; l > 0; l--) {
            List<S> level = levels.get(l);
            long remaining = 0;
            for (S s : level) {
                if (!compacting.test(s)) {
                    remaining += s.onDiskBytes();
                }
            }
            if ((double) remaining / maxBytesForLevel(l) > 1.001) {
                CompactionJob<S> stcs = stcsInL0(levels.get(0), compacting);
                if (stcs != null) {
                    return stcs;
                }
                List<S> next = l + 1 < levels.size() ? levels.get(l + 1) : List.of();
                List<S> c = candidatesFor(l, level, next, compacting);
                if (!c.isEmpty()) {
                    return new CompactionJob<>(c, l + 1, options.maxSSTableBytes(), CompactionJob.Type.COMPACTION);
                }
            }
        }
        List<S> level0 = levels.get(0);
        if (level0.isEmpty()) {
            return null;
        }
        List<S> c = candidatesForL0(level0, levels.size() > 1 ? levels.get(1) : List.of(), compacting);
        if (c.isEmpty()) {
            return stcsInL0(level0, compacting);
        }
        return new CompactionJob<>(c, nextLevel(c), options.maxSSTableBytes(), CompactionJob.Type.COMPACTION);
    }

    private <S extends CompactionSSTable> CompactionJob<S> stcsInL0(List<S> level0, Predicate<S> compacting) {
        if (level0.size() <= MAX_COMPACTING_L0) {
            return null;
        }
        List<S> free = new ArrayList<>();
        for (S s : level0) {
            if (!compacting.test(s)) {
                free.add(s);
            }
        }
        List<S> bucket = l0.pickBucket(free, options.minThreshold(), options.maxThreshold());
        return bucket.isEmpty() ? null : new CompactionJob<>(bucket, 0, Long.MAX_VALUE, CompactionJob.Type.COMPACTION);
    }

    private <S extends CompactionSSTable> List<S> candidatesFor(int l, List<S> level, List<S> next, Predicate<S> compacting) {
        CompactionSSTable last = lastCompacted.get(l);
        int start = 0;
        if (last != null) {
            while (start < level.size() && BY_FIRST_KEY.compare(level.get(start), last) <= 0) {
                start++;
            }
        }
        for (int i = 0; i < level.size(); i++) {
            S s = level.get((start + i) % level.size());
            if (compacting.test(s)) {
                continue;
            }
            List<S> overlapping = overlapping(List.of(s), next);
            if (overlapping.stream().anyMatch(compacting)) {
                continue;
            }
            lastCompacted.put(l, s);
            List<S> c = new ArrayList<>();
            c.add(s);
            c.addAll(overlapping);
            return c;
        }
        return List.of();
    }

    private <S extends CompactionSSTable> List<S> candidatesForL0(List<S> level0, List<S> level1, Predicate<S> compacting) {
        for (S s : level0) {
            if (compacting.test(s)) {
                return List.of(); // one L0 compaction at a time
            }
        }
        Set<S> candidates = new LinkedHashSet<>();
        List<S> remaining = new ArrayList<>(level0); // oldest first
        for (S s : level0) {
            if (candidates.contains(s)) {
                continue;
            }
            candidates.add(s);
            remaining.remove(s);
            List<S> overlapped = overlapping(List.of(s), remaining);
            candidates.addAll(overlapped);
            remaining.removeAll(overlapped);
            if (candidates.size() > MAX_COMPACTING_L0) {
                List<S> oldest = new ArrayList<>(candidates);
                oldest.sort(Comparator.comparingLong(CompactionSSTable::generation));
                candidates = new LinkedHashSet<>(oldest.subList(0, MAX_COMPACTING_L0));
                break;
            }
        }
        List<S> result = new ArrayList<>(candidates);
        if (bytes(result) > options.maxSSTableBytes()) {
            List<S> l1 = overlapping(result, level1);
            if (l1.stream().anyMatch(compacting)) {
                return List.of();
            }
            result.addAll(l1);
        }
        return result.size() < 2 ? List.of() : result;
    }

    /** The SSTables of {@code level} within the key bounds of all of {@code of}. */
    static <S extends CompactionSSTable> List<S> overlapping(List<? extends CompactionSSTable> of, List<S> level) {
        if (of.isEmpty()) {
            return List.of();
        }
        CompactionSSTable lo = of.get(0);
        CompactionSSTable hi = of.get(0);
        for (CompactionSSTable s : of) {
            if (DecoratedKey.compare(s.minToken(), s.minKey(), lo.minToken(), lo.minKey()) < 0) {
                lo = s;
            }
            if (DecoratedKey.compare(s.maxToken(), s.maxKey(), hi.maxToken(), hi.maxKey()) > 0) {
                hi = s;
            }
        }
        List<S> out = new ArrayList<>();
        for (S s : level) {
            if (!of.contains(s) && DecoratedKey.compare(s.minToken(), s.minKey(), hi.maxToken(), hi.maxKey()) <= 0
                    && DecoratedKey.compare(lo.minToken(), lo.minKey(), s.maxToken(), s.maxKey()) <= 0) {
                out.add(s);
            }
        }
        return out;
    }

    /** Cassandra's {@code getNextLevel}: small all-L0 sets stay in L0, otherwise one level above the inputs. */
    private int nextLevel(List<? extends CompactionSSTable> c) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (CompactionSSTable s : c) {
            min = Math.min(min, s.level());
            max = Math.max(max, s.level());
        }
        if (min == 0 && max == 0 && bytes(c) < options.maxSSTableBytes()) {
            return 0;
        }
        return min == max ? max + 1 : max;
    }

    @Override
    public <S extends CompactionSSTable> CompactionJob<S> major(List<S> live) {
        if (live.isEmpty()) {
            return null;
        }
        long total = bytes(live);
        int level = 1;
        while (maxBytesForLevel(level) < total && level < 8) {
            level++;
        }
        return new CompactionJob<>(live, level, options.maxSSTableBytes(), CompactionJob.Type.MAJOR_COMPACTION);
    }

    @Override
    public int pendingTasks(List<? extends CompactionSSTable> live) {
        List<? extends List<? extends CompactionSSTable>> levels = levels(new ArrayList<>(live));
        long tasks = 0;
        for (int l = 0; l < levels.size(); l++) {
            long excess = bytes(levels.get(l)) - maxBytesForLevel(l);
            if (excess > 0) {
                tasks += (excess + options.maxSSTableBytes() - 1) / options.maxSSTableBytes();
            }
        }
        if (tasks == 0 && levels.get(0).size() >= 2) {
            tasks = 1;
        }
        return (int) Math.min(Integer.MAX_VALUE, tasks);
    }

    @Override
    public void repairLevels(List<? extends CompactionSSTable> live) {
        List<? extends List<? extends CompactionSSTable>> levels = levels(new ArrayList<>(live));
        for (int l = 1; l < levels.size(); l++) {
            CompactionSSTable previous = null;
            for (CompactionSSTable s : levels.get(l)) {
                if (previous != null && DecoratedKey.compare(s.minToken(), s.minKey(), previous.maxToken(), previous.maxKey()) <= 0) {
                    s.level(0);
                } else {
                    previous = s;
                }
            }
        }
    }

    @Override
    public BacklogTracker newBacklogTracker() {
        return new LeveledBacklogTracker(options);
    }
}
