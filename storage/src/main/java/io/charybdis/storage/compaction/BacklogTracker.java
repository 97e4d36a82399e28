package io.charybdis.storage.compaction;

import java.util.Collection;
import java.util.List;

/**
 * A strategy's measure of the compaction work it still owes, in bytes × rewrites (REFERENCES.md B1): zero once
 * the strategy's goal is met. Incremental: {@link #replaceSSTables} updates the static sums when the SSTable set
 * changes; {@link #backlog} iterates only the work in flight. Not thread-safe (the shard thread owns it).
 */
public interface BacklogTracker {
    /** An SSTable still being written (flush or compaction output): counts as a full SSTable of its bytes so far. */
    record OngoingWrite(long bytesWritten, int level) {
    }

    /** An input of a running compaction and the bytes of it already compacted. */
    record OngoingCompaction(CompactionSSTable input, long compactedBytes) {
    }

    void replaceSSTables(Collection<? extends CompactionSSTable> removed, Collection<? extends CompactionSSTable> added);

    double backlog(List<OngoingWrite> writes, List<OngoingCompaction> compactions);
}
