package io.charybdis.storage.compaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The leveled backlog (ScyllaDB's LCS tracker, REFERENCES.md B1). With fanout f, maximum SSTable size M and the
 * effective size of each level (bytes, plus SSTables being written into it, minus bytes already compacted out):
 * <pre>
 *   backlog  = STCS backlog of L0  (L0 may run size-tiered internally)
 *   maxL     = the highest populated level;  T = Σ sizes
 *   target(maxL) = ceil(T / (f / (f − 1)))          (1.111 for f = 10: the space-amplification goal)
 *   target(L)    = max(target(maxL) / f^(maxL − L), M)
 *   for L = 0 .. maxL − 1:  if size(L) > target(L):
 *       backlog    += (size(L) − target(L)) · min(f, ceil(size(L+1) / M))   (SSTables of L+1 each byte rewrites)
 *       size(L+1)  += size(L) − target(L)                                    (the excess carries over)
 * </pre>
 * Level sizes are sums kept by {@link #replaceSSTables}; {@link #backlog} iterates only the work in flight.
 */
public final class LeveledBacklogTracker implements BacklogTracker {
    private final CompactionOptions options;
    private final SizeTieredBacklogTracker l0;
    private long[] sizes = new long[8];

    public LeveledBacklogTracker(CompactionOptions options) {
        this.options = options;
        this.l0 = new SizeTieredBacklogTracker(options);
    }

    @Override
    public void replaceSSTables(Collection<? extends CompactionSSTable> removed, Collection<? extends CompactionSSTable> added) {
        List<CompactionSSTable> removedL0 = new ArrayList<>();
        List<CompactionSSTable> addedL0 = new ArrayList<>();
        for (CompactionSSTable s : removed) {
            sizes[level(s)] -= s.onDiskBytes();
            if (level(s) == 0) {
                removedL0.add(s);
            }
        }
        for (CompactionSSTable s : added) {
            sizes[level(s)] += s.onDiskBytes();
            if (level(s) == 0) {
                addedL0.add(s);
            }
        }
        l0.replaceSSTables(removedL0, addedL0);
    }

    private int level(CompactionSSTable s) {
        int l = Math.max(0, s.level());
        if (l >= sizes.length) {
            sizes = java.util.Arrays.copyOf(sizes, l + 8);
        }
        return l;
    }

    @Override
    public double backlog(List<OngoingWrite> writes, List<OngoingCompaction> compactions) {
        List<OngoingWrite> l0Writes = new ArrayList<>();
        List<OngoingCompaction> l0Compactions = new ArrayList<>();
        double[] eff = new double[sizes.length + 1];
        for (int i = 0; i < sizes.length; i++) {
            eff[i] = sizes[i];
        }
        for (OngoingWrite w : writes) {
            int l = Math.min(eff.length - 1, Math.max(0, w.level()));
            eff[l] += w.bytesWritten();
            if (l == 0) {
                l0Writes.add(w);
            }
        }
        for (OngoingCompaction c : compactions) {
            int l = Math.min(eff.length - 1, Math.max(0, c.input().level()));
            eff[l] -= Math.min(c.input().onDiskBytes(), Math.max(0, c.compactedBytes()));
            if (l == 0) {
                l0Compactions.add(c);
            }
        }
        double b = l0.backlog(l0Writes, l0Compactions);
        return b + levelsBacklog(eff, options.fanout(), options.maxSSTableBytes());
    }

    /** The level part of the backlog for effective level sizes (modified: carry-over). A pure function. */
    public static double levelsBacklog(double[] eff, int fanout, long maxSSTableBytes) {
        int maxL = -1;
        double total = 0;
        for (int i = 0; i < eff.length; i++) {
            eff[i] = Math.max(0, eff[i]);
            if (eff[i] > 0) {
                maxL = i;
                total += eff[i];
            }
        }
        if (maxL <= 0) {
            return 0;
        }
        double targetMax = Math.ceil(total / ((double) fanout / (fanout - 1)));
        double b = 0;
        for (int l = 0; l < maxL; l++) {
            double target = Math.max(targetMax / Math.pow(fanout, maxL - l), maxSSTableBytes);
            if (eff[l] > target) {
                double excess = eff[l] - target;
                double nextSSTables = Math.ceil(eff[l + 1] / maxSSTableBytes);
                b += excess * Math.min(fanout, nextSSTables);
                eff[l + 1] += excess;
            }
        }
        return b;
    }
}
