package io.charybdis.storage.compaction;

import java.util.List;
import java.util.function.Predicate;

/**
 * Chooses compactions for one table on one shard. Pure: strategies see SSTables through
 * {@link CompactionSSTable} and keep no state but round-robin positions, so tests drive them with synthetic sets.
 */
public interface CompactionStrategy {
    CompactionOptions options();

    /**
     * The next background compaction, or null if none is needed.
     *
     * @param live        the table's SSTables on this shard (the ones this shard may compact)
     * @param compacting  which of them are already taken by a running compaction
     * @param gcBefore    now − gc_grace_seconds (seconds), for tombstone compactions
     * @param nowMillis   the current time
     */
    <S extends CompactionSSTable> CompactionJob<S> next(List<S> live, Predicate<S> compacting, int gcBefore, long nowMillis);

    /** A major compaction of all of {@code live} (nothing may be compacting); null if there is nothing. */
    <S extends CompactionSSTable> CompactionJob<S> major(List<S> live);

    /** An estimate of the compactions still needed (running ones excluded). */
    int pendingTasks(List<? extends CompactionSSTable> live);

    /** A new, empty backlog tracker for this strategy. */
    BacklogTracker newBacklogTracker();

    /** Fixes SSTable levels that break the strategy's invariants (LCS: overlapping SSTables in a level go to L0). */
    default void repairLevels(List<? extends CompactionSSTable> live) {
    }

    static CompactionStrategy of(CompactionOptions o) {
        return o.kind() == CompactionOptions.Kind.LEVELED ? new LeveledStrategy(o) : new SizeTieredStrategy(o);
    }
}
