package io.charybdis.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The compactions this node finished since it started (nodetool compactionhistory), newest last, at most
 * {@value #CAPACITY} of them (the oldest go first). Kept in memory only: Cassandra keeps them a week in
 * {@code system.compaction_history}; a restarted Charybdis node starts an empty history. Thread-safe: shards add,
 * the management layer reads.
 */
public final class CompactionHistory {
    public static final int CAPACITY = 10_000;

    /**
     * One finished compaction.
     *
     * @param bytesIn    on-disk bytes of the input SSTables
     * @param bytesOut   on-disk bytes of the output SSTables
     * @param rowsMerged partitions by the number of input SSTables they were merged from (Cassandra's rows_merged)
     * @param properties the strategy's class and the kind of compaction (Cassandra's compaction_properties)
     */
    public record Entry(UUID id, String keyspace, String table, long compactedAtMillis, long bytesIn, long bytesOut,
                        Map<Integer, Long> rowsMerged, Map<String, String> properties) {
    }

    private final ConcurrentLinkedDeque<Entry> entries = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();

    public void add(Entry e) {
        entries.addLast(e);
        if (size.incrementAndGet() > CAPACITY && entries.pollFirst() != null) {
            size.decrementAndGet();
        }
    }

    /** Oldest first. */
    public List<Entry> entries() {
        return new ArrayList<>(entries);
    }
}
