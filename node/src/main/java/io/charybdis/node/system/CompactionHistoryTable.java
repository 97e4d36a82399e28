package io.charybdis.node.system;

import io.charybdis.node.auth.InternalQueries;
import io.charybdis.node.cql.values.TimeUuids;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.storage.CompactionHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code system.compaction_history} as Cassandra 5.0 keeps it: one row per finished compaction (id, keyspace_name,
 * columnfamily_name, compacted_at, bytes_in, bytes_out, rows_merged, compaction_properties), kept a week by the
 * table's {@code default_time_to_live} (604800), so the history survives a restart.
 *
 * <p>The storage engine hands each finished compaction to {@link #write} on the shard that ran it, in a task of its
 * own; the row is written through the node's own INSERT (the same processor, coordinator and storage as a client's;
 * the keyspace is LocalStrategy, so the only replica is this node) and nothing waits for it. JMX's
 * CompactionManager {@code CompactionHistory} (nodetool compactionhistory) reads the table back with {@link #read}.
 */
public final class CompactionHistoryTable {
    private static final MapType TEXT_MAP = new MapType(NativeType.TEXT, NativeType.TEXT, false);
    private static final MapType INT_BIGINT_MAP = new MapType(NativeType.INT, NativeType.BIGINT, false);
    private static final Logger log = LoggerFactory.getLogger(CompactionHistoryTable.class);
    static final String INSERT = "INSERT INTO system.compaction_history (id, keyspace_name, columnfamily_name, "
            + "compacted_at, bytes_in, bytes_out, rows_merged, compaction_properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    static final String SELECT = "SELECT id, keyspace_name, columnfamily_name, compacted_at, bytes_in, bytes_out, "
            + "rows_merged, compaction_properties FROM system.compaction_history";

    private final InternalQueries queries;
    private final AtomicLong failures = new AtomicLong();

    public CompactionHistoryTable(InternalQueries queries) {
        this.queries = queries;
    }

    /**
     * Writes one finished compaction; completes once it is written. Its id is the compaction's (time-based, as the
     * timeuuid column needs; a new one otherwise).
     */
    public CompletableFuture<Void> write(CompactionHistory.Entry e) {
        UUID id = e.id() != null && e.id().version() == 1 ? e.id() : TimeUuids.now();
        ByteBuffer rowsMerged = INT_BIGINT_MAP.decompose(e.rowsMerged());
        ByteBuffer properties = TEXT_MAP.decompose(e.properties());
        return queries.execute(INSERT, Consistency.ONE, uuid(id), InternalQueries.text(e.keyspace()),
                InternalQueries.text(e.table()), int64(e.compactedAtMillis()), int64(e.bytesIn()),
                int64(e.bytesOut()), rowsMerged, properties).handle((rows, err) -> {
                    if (err != null && failures.getAndIncrement() % 10 == 0) {
                        log.warn("Could not write compaction of {}.{} to system.compaction_history", e.keyspace(),
                                e.table(), err);
                    }
                    return null;
                });
    }

    /** Compactions whose row could not be written (logged once per ten). */
    public long failures() {
        return failures.get();
    }

    /** Every row of the table (unordered, as Cassandra's SELECT * returns them). */
    public CompletableFuture<List<CompactionHistory.Entry>> read() {
        return queries.execute(SELECT, Consistency.ONE).thenApply(rows -> {
            List<CompactionHistory.Entry> out = new ArrayList<>(rows.size());
            for (List<ByteBuffer> r : rows) {
                out.add(new CompactionHistory.Entry(asUuid(r.get(0)), InternalQueries.asText(r.get(1)),
                        InternalQueries.asText(r.get(2)), asLong(r.get(3)), asLong(r.get(4)), asLong(r.get(5)),
                        asIntLongMap(r.get(6)), asTextMap(r.get(7))));
            }
            return out;
        });
    }

    static ByteBuffer uuid(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                .flip();
    }

    static ByteBuffer int64(long v) {
        return ByteBuffer.allocate(8).putLong(v).flip();
    }



    private static UUID asUuid(ByteBuffer b) {
        return b == null ? null : new UUID(b.getLong(b.position()), b.getLong(b.position() + 8));
    }

    private static long asLong(ByteBuffer b) {
        return b == null || b.remaining() < 8 ? 0 : b.getLong(b.position());
    }

    private static Map<Integer, Long> asIntLongMap(ByteBuffer b) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        if (b == null || b.remaining() < 4) {
            return out;
        }
        ByteBuffer d = b.duplicate();
        int n = d.getInt();
        for (int i = 0; i < n; i++) {
            d.getInt();
            int k = d.getInt();
            d.getInt();
            out.put(k, d.getLong());
        }
        return out;
    }

    private static Map<String, String> asTextMap(ByteBuffer b) {
        Map<String, String> out = new LinkedHashMap<>();
        if (b == null || b.remaining() < 4) {
            return out;
        }
        ByteBuffer d = b.duplicate();
        int n = d.getInt();
        for (int i = 0; i < n; i++) {
            out.put(string(d), string(d));
        }
        return out;
    }

    private static String string(ByteBuffer d) {
        byte[] v = new byte[d.getInt()];
        d.get(v);
        return new String(v, StandardCharsets.UTF_8);
    }
}
