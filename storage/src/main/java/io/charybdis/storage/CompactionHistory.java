package io.charybdis.storage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Where shards hand each finished compaction (nodetool compactionhistory). The engine keeps no history itself:
 * the node writes each entry to {@code system.compaction_history}, as Cassandra does, through a sink it installs
 * with {@link #setSink}. Entries finished before the sink exists (compactions during startup, before the CQL layer
 * is up) wait here, at most {@value #PENDING_CAPACITY} of them (the oldest go first), and go to the sink when it is
 * installed, oldest first.
 *
 * <p>Thread-safety: shards call {@link #add} from their threads, the node installs the sink once from another; the
 * sink itself is called on the adding shard's thread (or the installing thread for the waiting entries) and must
 * not block.
 */
public final class CompactionHistory {
    public static final int PENDING_CAPACITY = 10_000;

    /**
     * One finished compaction.
     *
     * @param bytesIn    on-disk bytes of the input SSTables
     * @param bytesOut   on-disk bytes of the output SSTables
     * @param rowsMerged partitions by the number of input SSTables they were merged from (Cassandra's rows_merged)
     * @param properties the kind of compaction (Cassandra's compaction_properties)
     */
    public record Entry(UUID id, String keyspace, String table, long compactedAtMillis, long bytesIn, long bytesOut,
                        Map<Integer, Long> rowsMerged, Map<String, String> properties) {
    }

    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    private volatile Consumer<Entry> sink;

    public void add(Entry e) {
        Consumer<Entry> s = sink;
        if (s == null) {
            synchronized (this) {
                s = sink;
                if (s == null) {
                    pending.addLast(e);
                    if (pending.size() > PENDING_CAPACITY) {
                        pending.pollFirst();
                    }
                    return;
                }
            }
        }
        s.accept(e);
    }

    /** Installs the sink (once) and hands it the entries that waited for it. */
    public void setSink(Consumer<Entry> s) {
        List<Entry> waiting;
        synchronized (this) {
            if (sink != null) {
                throw new IllegalStateException("compaction history sink already set");
            }
            waiting = new ArrayList<>(pending);
            pending.clear();
            sink = s;
        }
        waiting.forEach(s);
    }
}
