package io.charybdis.storage.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Size-tiered compaction (Cassandra's STCS): SSTables sorted by size are grouped into buckets whose members are
 * within [bucket_low, bucket_high] × the bucket's average size, all SSTables under min_sstable_size sharing one
 * bucket. Among buckets with at least min_threshold members, the one with the smallest average size is compacted
 * (at most max_threshold of its smallest members) into one SSTable. With no such bucket, an SSTable whose
 * tombstones are old enough to purge (written more than gc_grace_seconds and tombstone_compaction_interval ago)
 * and make up more than tombstone_threshold of its rows is compacted alone; unless
 * unchecked_tombstone_compaction, only if no other SSTable may hold older data those tombstones shadow.
 */
public final class SizeTieredStrategy implements CompactionStrategy {
    private final CompactionOptions options;
    /** Outputs of tombstone compactions: not tried again (their tombstones could not all be purged). */
    private final Set<Long> tombstoneCompacted = new HashSet<>();

    public SizeTieredStrategy(CompactionOptions options) {
        this.options = options;
    }

    @Override
    public CompactionOptions options() {
        return options;
    }

    /** Cassandra's bucketing, smallest sizes first; each bucket sorted by size. */
    public static <S extends CompactionSSTable> List<List<S>> buckets(List<S> sstables, double low, double high,
                                                                      long minSize) {
        List<S> sorted = new ArrayList<>(sstables);
        sorted.sort(Comparator.comparingLong(CompactionSSTable::onDiskBytes));
        List<List<S>> buckets = new ArrayList<>();
        List<Double> averages = new ArrayList<>();
        for (S r : sorted) {
            long size = r.onDiskBytes();
            boolean placed = false;
            for (int i = 0; i < buckets.size() && !placed; i++) {
                double avg = averages.get(i);
                if ((size > avg * low && size < avg * high) || (size < minSize && avg < minSize)) {
                    List<S> b = buckets.get(i);
                    b.add(r);
                    averages.set(i, (avg * (b.size() - 1) + size) / b.size());
                    placed = true;
                }
            }
            if (!placed) {
                List<S> b = new ArrayList<>();
                b.add(r);
                buckets.add(b);
                averages.add((double) size);
            }
        }
        return buckets;
    }

    <S extends CompactionSSTable> List<List<S>> buckets(List<S> sstables) {
        return buckets(sstables, options.bucketLow(), options.bucketHigh(), options.minSSTableSize());
    }

    @Override
    public <S extends CompactionSSTable> CompactionJob<S> next(List<S> live, Predicate<S> compacting, int gcBefore,
                                                               long nowMillis) {
        List<S> candidates = new ArrayList<>();
        for (S s : live) {
            if (!compacting.test(s)) {
                candidates.add(s);
            }
        }
        List<S> bucket = pickBucket(candidates, options.minThreshold(), options.maxThreshold());
        if (!bucket.isEmpty()) {
            return new CompactionJob<>(bucket, 0, Long.MAX_VALUE, CompactionJob.Type.COMPACTION);
        }
        S t = tombstoneCandidate(live, candidates, gcBefore, nowMillis);
        return t == null ? null : new CompactionJob<>(List.of(t), t.level(), Long.MAX_VALUE,
                CompactionJob.Type.TOMBSTONE_COMPACTION);
    }

    /** The bucket to compact among {@code candidates}, or an empty list. */
    <S extends CompactionSSTable> List<S> pickBucket(List<S> candidates, int min, int max) {
        List<S> best = List.of();
        double bestAverage = Double.MAX_VALUE;
        for (List<S> b : buckets(candidates)) {
            if (b.size() < min) {
                continue;
            }
            List<S> trimmed = b.subList(0, Math.min(max, b.size()));
            double avg = trimmed.stream().mapToLong(CompactionSSTable::onDiskBytes).average().orElse(0);
            if (avg < bestAverage) {
                best = new ArrayList<>(trimmed);
                bestAverage = avg;
            }
        }
        return best;
    }

    <S extends CompactionSSTable> S tombstoneCandidate(List<S> live, List<S> candidates, int gcBefore, long nowMillis) {
        S best = null;
        double bestRatio = 0;
        for (S s : candidates) {
            if (tombstoneCompacted.contains(s.generation()) || s.tombstoneCount() == 0) {
                continue;
            }
            long created = s.createdAtMillis();
            if (created > nowMillis - options.tombstoneCompactionIntervalSeconds() * 1000
                    || created / 1000 >= gcBefore) {
                continue;
            }
            double ratio = (double) s.tombstoneCount() / Math.max(1, s.rowCount());
            if (ratio <= options.tombstoneThreshold() || ratio <= bestRatio) {
                continue;
            }
            if (!options.uncheckedTombstoneCompaction() && shadowsElsewhere(s, live)) {
                continue;
            }
            best = s;
            bestRatio = ratio;
        }
        return best;
    }

    /** Whether another SSTable may hold data older than some tombstone of {@code s} (so purging it is unsafe). */
    static boolean shadowsElsewhere(CompactionSSTable s, List<? extends CompactionSSTable> live) {
        for (CompactionSSTable o : live) {
            if (o != s && o.overlaps(s) && o.minTimestamp() <= s.maxTimestamp()) {
                return true;
            }
        }
        return false;
    }

    /** Remembers that a tombstone compaction produced this SSTable, so it is not picked again for that. */
    public void tombstoneCompactionOutput(long generation) {
        tombstoneCompacted.add(generation);
    }

    @Override
    public <S extends CompactionSSTable> CompactionJob<S> major(List<S> live) {
        return live.isEmpty() ? null : new CompactionJob<>(live, 0, Long.MAX_VALUE, CompactionJob.Type.MAJOR_COMPACTION);
    }

    @Override
    public int pendingTasks(List<? extends CompactionSSTable> live) {
        int n = 0;
        for (List<? extends CompactionSSTable> b : buckets(new ArrayList<>(live))) {
            if (b.size() >= options.minThreshold()) {
                n += (b.size() + options.maxThreshold() - 1) / options.maxThreshold();
            }
        }
        return n;
    }

    @Override
    public BacklogTracker newBacklogTracker() {
        return new SizeTieredBacklogTracker(options);
    }
}
