package io.charybdis.storage.compaction;

import java.util.List;

/**
 * One compaction a strategy asks for: the inputs, the level of the outputs, the size at which the output is cut
 * into a new SSTable ({@code Long.MAX_VALUE}: one output), and its kind.
 */
public record CompactionJob<S extends CompactionSSTable>(List<S> inputs, int outputLevel, long maxOutputBytes,
                                                         Type type) {
    public enum Type {
        COMPACTION, TOMBSTONE_COMPACTION, MAJOR_COMPACTION;

        /** The name nodetool compactionstats shows. */
        public String displayName() {
            return switch (this) {
                case COMPACTION -> "Compaction";
                case TOMBSTONE_COMPACTION -> "Tombstone compaction";
                case MAJOR_COMPACTION -> "Major compaction";
            };
        }
    }

    public CompactionJob {
        inputs = List.copyOf(inputs);
    }

    public long inputBytes() {
        long n = 0;
        for (S s : inputs) {
            n += s.onDiskBytes();
        }
        return n;
    }
}
