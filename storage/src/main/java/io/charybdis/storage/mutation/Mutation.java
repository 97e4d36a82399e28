package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.TableId;
import java.nio.ByteBuffer;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One partition update of one table, serialized in a single buffer ({@link MutationLayout}). Immutable once built.
 * Built by {@link MutationBuilder}; read through {@link #buffer()} with the layout offsets or {@link SerializedPartition}.
 */
public final class Mutation {
    private final UnsafeBuffer buffer;
    private final TableId table;

    Mutation(byte[] bytes) {
        this.buffer = new UnsafeBuffer(bytes);
        this.table = TableId.of(buffer.getLong(M_TABLE_MSB), buffer.getLong(M_TABLE_LSB));
    }

    /** A mutation recreating a partition record ({@link MutationLayout}'s partition layout) of a table. */
    public static Mutation ofPartition(TableId table, DirectBuffer src, int offset, int length) {
        byte[] bytes = new byte[M_PARTITION + length];
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putInt(M_TOTAL_LENGTH, bytes.length);
        b.putLong(M_TABLE_MSB, table.msb());
        b.putLong(M_TABLE_LSB, table.lsb());
        src.getBytes(offset, bytes, M_PARTITION, length);
        return copyOf(b, 0, bytes.length);
    }

    /** Copies a serialized mutation (e.g. read back from the commit log); validates its framing. */
    public static Mutation copyOf(DirectBuffer src, int offset, int length) {
        if (length < M_PARTITION + P_KEY || src.getInt(offset + M_TOTAL_LENGTH) != length
                || src.getInt(offset + M_PARTITION + P_LENGTH) != length - M_PARTITION) {
            throw new IllegalArgumentException("malformed mutation length=" + length);
        }
        byte[] bytes = new byte[length];
        src.getBytes(offset, bytes);
        return new Mutation(bytes);
    }

    /**
     * Combines updates of one partition into a single mutation, so that they are logged as one commit log record
     * and applied to the memtable in one step (readers see all of them or none). The partition deletion is the
     * newest of the parts'; range tombstones and rows are concatenated in the given order (rows of a mutation may
     * repeat, and are reconciled as if the parts had been applied one after the other).
     *
     * @throws IllegalArgumentException if the parts are not all of the same table and partition
     */
    public static Mutation merge(List<Mutation> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        Mutation first = parts.get(0);
        if (parts.size() == 1) {
            return first;
        }
        int keyLength = first.partitionKeyLength();
        long deletionTs = NO_TIMESTAMP;
        int deletionLdt = NO_DELETION_TIME;
        int rtCount = 0;
        int rowCount = 0;
        int bodyLength = 0;
        for (Mutation m : parts) {
            if (!m.table.equals(first.table) || m.token() != first.token() || !sameKey(first, m)) {
                throw new IllegalArgumentException("cannot merge mutations of different partitions: " + first + ", " + m);
            }
            int p = M_PARTITION;
            long ts = m.buffer.getLong(p + P_DELETION_TS);
            int ldt = m.buffer.getInt(p + P_DELETION_LDT);
            if (ts != NO_TIMESTAMP && (ts > deletionTs || (ts == deletionTs && ldt > deletionLdt))) {
                deletionTs = ts;
                deletionLdt = ldt;
            }
            rtCount += m.buffer.getInt(p + P_RT_COUNT);
            rowCount += m.buffer.getInt(p + P_ROW_COUNT);
            bodyLength += m.buffer.getInt(p + P_LENGTH) - P_KEY - keyLength;
        }
        int partitionLength = P_KEY + keyLength + bodyLength;
        int total = M_PARTITION + partitionLength;
        UnsafeBuffer out = new UnsafeBuffer(new byte[total]);
        out.putBytes(0, first.buffer, 0, M_PARTITION + P_KEY + keyLength);
        out.putInt(M_TOTAL_LENGTH, total);
        int p = M_PARTITION;
        out.putInt(p + P_LENGTH, partitionLength);
        out.putLong(p + P_DELETION_TS, deletionTs);
        out.putInt(p + P_DELETION_LDT, deletionLdt);
        out.putInt(p + P_RT_COUNT, rtCount);
        out.putInt(p + P_ROW_COUNT, rowCount);
        int q = p + P_KEY + keyLength;
        // all range tombstones first, then all rows: the partition record keeps them in two runs
        int bodyStart = M_PARTITION + P_KEY + keyLength;
        int[] rowsStart = new int[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            Mutation m = parts.get(i);
            SerializedPartition sp = m.partition();
            rowsStart[i] = sp.rowCount() > 0 ? sp.rowOffset(0) : M_PARTITION + sp.length();
            out.putBytes(q, m.buffer, bodyStart, rowsStart[i] - bodyStart);
            q += rowsStart[i] - bodyStart;
        }
        for (int i = 0; i < parts.size(); i++) {
            Mutation m = parts.get(i);
            int end = M_PARTITION + m.buffer.getInt(M_PARTITION + P_LENGTH);
            out.putBytes(q, m.buffer, rowsStart[i], end - rowsStart[i]);
            q += end - rowsStart[i];
        }
        if (q != total) {
            throw new IllegalStateException("merged mutation length mismatch: " + q + " != " + total);
        }
        return new Mutation(out.byteArray());
    }

    private static boolean sameKey(Mutation a, Mutation b) {
        int n = a.partitionKeyLength();
        if (b.partitionKeyLength() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (a.buffer.getByte(a.partitionKeyOffset() + i) != b.buffer.getByte(b.partitionKeyOffset() + i)) {
                return false;
            }
        }
        return true;
    }

    public TableId table() {
        return table;
    }

    public long token() {
        return buffer.getLong(M_PARTITION + P_TOKEN);
    }

    public int partitionKeyLength() {
        return buffer.getInt(M_PARTITION + P_KEY_LENGTH);
    }

    /** Offset of the partition key inside {@link #buffer()}. */
    public int partitionKeyOffset() {
        return M_PARTITION + P_KEY;
    }

    public byte[] partitionKey() {
        byte[] key = new byte[partitionKeyLength()];
        buffer.getBytes(partitionKeyOffset(), key);
        return key;
    }

    public int serializedSize() {
        return buffer.capacity();
    }

    /** The whole serialized mutation; do not modify. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** A read-only view of the serialized bytes (for writing to a channel). */
    public ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(buffer.byteArray()).asReadOnlyBuffer();
    }

    public int partitionOffset() {
        return M_PARTITION;
    }

    public int rowCount() {
        return buffer.getInt(M_PARTITION + P_ROW_COUNT);
    }

    /** A flyweight over the partition record of this mutation. Rows are in build order and may repeat. */
    public SerializedPartition partition() {
        return new SerializedPartition().wrap(buffer, M_PARTITION, false);
    }

    @Override
    public String toString() {
        return "Mutation{table=" + table + ", token=" + token() + ", keyLength=" + partitionKeyLength()
                + ", rows=" + rowCount() + ", size=" + serializedSize() + "}";
    }
}
