package io.charybdis.storage.compaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The size-tiered backlog (ScyllaDB's {@code size_tiered_backlog_tracker}, REFERENCES.md B1).
 *
 * <p>For each SSTable i of size S_i, of which C_i bytes are already compacted, in a table of total size T:
 * {@code B_i = (S_i − C_i) · log4(T / S_i)}: each byte still has to be rewritten once per tier between its
 * SSTable's size and the table's. Summed and rewritten so that only SSTables being compacted are iterated:
 * <pre>
 *   A = T·log4(T) − C·log4(T) − (Σ S_i·log4(S_i) − Σ C_i·log4(S_i)),   C = Σ C_i,   clamped to ≥ 0
 * </pre>
 * T and Σ S_i·log4(S_i) are kept up to date by {@link #replaceSSTables} (the set changes only on flush and
 * compaction). Only SSTables in buckets of at least min_threshold members contribute (a compaction of fewer is not
 * going to happen); an SSTable still being written counts as a full SSTable of its bytes so far. Base 4 is the
 * historical minimum fan-in.
 */
public final class SizeTieredBacklogTracker implements BacklogTracker {
    private static final double LN4 = Math.log(4);
    private final CompactionOptions options;
    private final Set<CompactionSSTable> all = new LinkedHashSet<>();
    private final Set<CompactionSSTable> contributing = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private double totalBytes;
    private double sumSLogS;

    public SizeTieredBacklogTracker(CompactionOptions options) {
        this.options = options;
    }

    static double log4(double x) {
        return Math.log(x) / LN4;
    }

    @Override
    public void replaceSSTables(Collection<? extends CompactionSSTable> removed, Collection<? extends CompactionSSTable> added) {
        all.removeAll(removed);
        all.addAll(added);
        contributing.clear();
        totalBytes = 0;
        sumSLogS = 0;
        for (List<CompactionSSTable> b : SizeTieredStrategy.buckets(new ArrayList<>(all), options.bucketLow(),
                options.bucketHigh(), options.minSSTableSize())) {
            if (b.size() < options.minThreshold()) {
                continue;
            }
            for (CompactionSSTable s : b) {
                long size = s.onDiskBytes();
                if (size > 0) {
                    contributing.add(s);
                    totalBytes += size;
                    sumSLogS += size * log4(size);
                }
            }
        }
    }

    @Override
    public double backlog(List<OngoingWrite> writes, List<OngoingCompaction> compactions) {
        double t = totalBytes;
        double sLogS = sumSLogS;
        for (OngoingWrite w : writes) {
            if (w.bytesWritten() > 0) {
                t += w.bytesWritten();
                sLogS += w.bytesWritten() * log4(w.bytesWritten());
            }
        }
        if (t <= 0) {
            return 0;
        }
        double c = 0;
        double cLogS = 0;
        for (OngoingCompaction oc : compactions) {
            if (contributing.contains(oc.input())) {
                long s = oc.input().onDiskBytes();
                double ci = Math.min(s, Math.max(0, oc.compactedBytes()));
                c += ci;
                cLogS += ci * log4(s);
            }
        }
        double logT = log4(t);
        return Math.max(0, t * logT - c * logT - (sLogS - cLogS));
    }

    /** The SSTables that count (for tests and status). */
    public int contributingCount() {
        return contributing.size();
    }
}
