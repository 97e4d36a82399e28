package io.charybdis.cluster.counters;

import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agrona.DirectBuffer;

/**
 * Counters replicated over several nodes, after Cassandra's model (a counter is a set of shards, one per replica
 * that led updates to it; an update goes to one leader replica, which adds the delta to its own shard and
 * replicates the resulting shard, never the delta), expressed in ordinary cells so that nothing in storage knows
 * about counters.
 *
 * <pre>
 * A counter column of a row holds, in storage:
 *   shard cells   path = counter id (16 bytes: the leading replica's host id, msb then lsb, big-endian)
 *                 value = that shard's count (8 bytes, big-endian, like a CQL bigint)
 *                 timestamp = that shard's clock
 *   legacy cell   no path, value = a total (what versions before shards wrote on a single node); read as one more
 *                 shard and never rewritten
 * The counter's value is the sum of its live cells.
 * </pre>
 *
 * <p>Invariants:
 * <ul>
 *   <li>Only the replica whose host id is a shard's counter id writes that shard, under the partition's lock on
 *       its owning shard, from its own current value: each new version of a shard has a timestamp above the last
 *       one ({@code max(update timestamp, previous + 1)}), so the timestamp is the shard's logical clock.</li>
 *   <li>Reconciliation is storage's last-write-wins per (column, path): per counter id the highest clock wins,
 *       which is how counter contexts merge. So replicas, read repair ({@code Mutation.merge}), hints, streaming,
 *       repair and compaction, which all move and merge cells as they are, merge counters correctly, and the on-disk
 *       formats are unchanged.</li>
 *   <li>A deleted counter column ({@code DELETE c}) is a complex deletion of the column at
 *       {@link #DELETION_TIMESTAMP}, above every possible clock: it shadows every shard (and the legacy cell),
 *       those written later included, in memtables, SSTables, compaction and on every replica, since it is an
 *       ordinary deletion and merges as one. This is Cassandra's rule for counters (a cell tombstone wins over a
 *       counter cell whatever their timestamps, CASSANDRA-7346): the counter stays deleted until the deletion is
 *       purged. Row, range and partition deletions keep their statement's timestamp, as in Cassandra: they shadow
 *       the shards written before them, and a later update starts the counter again from its delta.</li>
 *   <li>An update ("delta mutation") has one cell per counter column without a path whose value is the 8-byte
 *       delta; it only travels to the leader ({@link #shards} turns it into shard cells) and is never applied.</li>
 * </ul>
 */
public final class CounterShards {
    private CounterShards() {
    }

    /**
     * The timestamp of a counter column's deletion: above every shard's clock, so that the deletion wins over every
     * shard, later ones included (Cassandra: a counter's tombstone always wins over its counter cells).
     */
    public static final long DELETION_TIMESTAMP = Long.MAX_VALUE;

    /** The counter id of a replica: its host id, 16 bytes big-endian. */
    public static byte[] counterId(UUID hostId) {
        return ByteBuffer.allocate(16).putLong(hostId.getMostSignificantBits())
                .putLong(hostId.getLeastSignificantBits()).array();
    }

    /**
     * The read the leader makes of its current shards before applying {@code delta}: the delta's rows (the whole
     * partition when one of them is the static row) and its counter columns.
     */
    public static ReadCommand currentRead(Mutation delta, int nowInSeconds) {
        SerializedPartition p = delta.partition();
        List<byte[]> clusterings = new ArrayList<>();
        java.util.TreeSet<Integer> columns = new java.util.TreeSet<>();
        boolean staticRow = false;
        DirectBuffer b = p.buffer();
        for (int r = 0; r < p.rowCount(); r++) {
            int ro = p.rowOffset(r);
            byte[] ck = clustering(b, ro);
            staticRow |= ck.length == 0;
            clusterings.add(ck);
            int c = Rows.firstCellOffset(b, ro);
            for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
                if (!Cells.isWrittenClustering(b, c)) {
                    columns.add(Cells.column(b, c));
                }
                c += Cells.length(b, c);
            }
        }
        ReadCommand.Builder read = ReadCommand.partition(delta.table(), delta.token(), delta.partitionKey())
                .nowInSeconds(nowInSeconds).columns(columns.stream().mapToInt(Integer::intValue).toArray());
        if (!staticRow) {
            clusterings.sort(Arrays::compareUnsigned);
            List<ReadCommand.Slice> slices = new ArrayList<>();
            byte[] previous = null;
            for (byte[] ck : clusterings) {
                if (previous == null || !Arrays.equals(previous, ck)) {
                    // [ck, ck 0x00) holds ck alone: a longer key starting with ck sorts at or after ck 0x00
                    slices.add(new ReadCommand.Slice(ck, Arrays.copyOf(ck, ck.length + 1)));
                }
                previous = ck;
            }
            read.slices(slices);
        }
        return read.build();
    }

    /**
     * The shards this replica ({@code counterId}) writes for {@code delta}, given its current values ({@code current},
     * the answer to {@link #currentRead}): per row and counter column, its own shard plus the delta, at the next clock.
     */
    public static Mutation shards(Mutation delta, ReadResult current, byte[] counterId) {
        Map<String, long[]> mine = new HashMap<>(); // "clustering/column" -> {clock, count}
        ReadResult.Cursor cursor = current.cursor();
        while (cursor.nextPartition()) {
            while (cursor.nextRow()) {
                String row = Arrays.toString(cursor.isStatic() ? new byte[0] : cursor.clusteringBytes());
                while (cursor.nextCell()) {
                    if (cursor.hasPath() && cursor.pathLength() == 16 && cursor.valueLength() == 8
                            && isId(cursor.pathBuffer(), cursor.pathOffset(), counterId)) {
                        long count = cursor.valueBuffer().getLong(cursor.valueOffset(), java.nio.ByteOrder.BIG_ENDIAN);
                        mine.put(row + "/" + cursor.columnId(), new long[] {cursor.timestamp(), count});
                    }
                }
            }
        }
        SerializedPartition p = delta.partition();
        DirectBuffer b = p.buffer();
        MutationBuilder out = new MutationBuilder();
        out.start(delta.table(), delta.token(), delta.partitionKey());
        for (int r = 0; r < p.rowCount(); r++) {
            int ro = p.rowOffset(r);
            byte[] ck = clustering(b, ro);
            String row = Arrays.toString(ck);
            out.beginRow(ck);
            int c = Rows.firstCellOffset(b, ro);
            for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
                int column = Cells.column(b, c);
                if (Cells.isWrittenClustering(b, c)) {
                    // the row's clustering as written goes along with its shards
                    out.writtenClustering(Cells.timestamp(b, c), valueCopy(b, c));
                    c += Cells.length(b, c);
                    continue;
                }
                if (Cells.valueLength(b, c) != 8 || Cells.flags(b, c) != 0) {
                    throw new IllegalArgumentException("not a counter update: table=" + delta.table() + " column="
                            + column + " flags=" + Cells.flags(b, c) + " valueLength=" + Cells.valueLength(b, c));
                }
                long d = b.getLong(Cells.valueOffset(b, c), java.nio.ByteOrder.BIG_ENDIAN);
                long[] now = mine.get(row + "/" + column);
                long ts = Cells.timestamp(b, c);
                long count = d;
                if (now != null) {
                    ts = Math.max(ts, now[0] + 1);
                    count += now[1];
                }
                out.complexCell(column, counterId, ts, 0, 0, ByteBuffer.allocate(8).putLong(0, count));
                c += Cells.length(b, c);
            }
            out.endRow();
        }
        return out.build();
    }

    private static ByteBuffer valueCopy(DirectBuffer b, int c) {
        byte[] v = new byte[Cells.valueLength(b, c)];
        b.getBytes(Cells.valueOffset(b, c), v);
        return ByteBuffer.wrap(v);
    }

    private static byte[] clustering(DirectBuffer b, int ro) {
        byte[] ck = new byte[Rows.clusteringLength(b, ro)];
        b.getBytes(Rows.clusteringOffset(ro), ck);
        return ck;
    }

    private static boolean isId(DirectBuffer b, int off, byte[] id) {
        for (int i = 0; i < 16; i++) {
            if (b.getByte(off + i) != id[i]) {
                return false;
            }
        }
        return true;
    }
}
