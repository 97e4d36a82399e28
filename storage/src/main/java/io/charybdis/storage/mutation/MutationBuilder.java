package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.TableId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reusable writer of {@link Mutation}s: {@code start}, then deletions and rows, then {@code build}. Not thread-safe.
 * Cells of a row may be added in any order: {@link #endRow()} sorts them and reconciles duplicates.
 */
public final class MutationBuilder {
    private final ExpandableArrayBuffer rts = new ExpandableArrayBuffer(64);
    private final ExpandableArrayBuffer rows = new ExpandableArrayBuffer(256);
    private final ExpandableArrayBuffer cells = new ExpandableArrayBuffer(256);
    private final UnsafeBuffer keyView = new UnsafeBuffer(new byte[0]);
    private int[] cellOffsets = new int[16];
    private Integer[] order = new Integer[16];
    private TableId table;
    private long token;
    private byte[] key;
    private long deletionTs;
    private int deletionLdt;
    private int rtCount;
    private int rtLength;
    private int rowCount;
    private int rowsLength;
    private int rowStart = -1;
    private int cellCount;
    private int cellsLength;

    public MutationBuilder start(TableId table, long token, byte[] partitionKey) {
        this.table = table;
        this.token = token;
        this.key = partitionKey.clone();
        deletionTs = NO_TIMESTAMP;
        deletionLdt = NO_DELETION_TIME;
        rtCount = 0;
        rtLength = 0;
        rowCount = 0;
        rowsLength = 0;
        rowStart = -1;
        return this;
    }

    public MutationBuilder start(TableId table, long token, ByteBuffer partitionKey) {
        byte[] k = new byte[partitionKey.remaining()];
        partitionKey.duplicate().get(k);
        return start(table, token, k);
    }

    public MutationBuilder partitionDeletion(long ts, int localDeletionTime) {
        checkStarted();
        if (ts > deletionTs || (ts == deletionTs && localDeletionTime > deletionLdt)) {
            deletionTs = ts;
            deletionLdt = localDeletionTime;
        }
        return this;
    }

    /** Deletes rows with clustering in [start, end); null means unbounded. Never deletes the static row. */
    public MutationBuilder rangeTombstone(byte[] start, byte[] end, long ts, int localDeletionTime) {
        checkStarted();
        int p = rtLength;
        int sl = start == null ? -1 : start.length;
        int el = end == null ? -1 : end.length;
        rts.putInt(p + RT_START_LENGTH, sl);
        rts.putInt(p + RT_END_LENGTH, el);
        rts.putLong(p + RT_TS, ts);
        rts.putInt(p + RT_LDT, localDeletionTime);
        int q = p + RT_BOUNDS;
        if (start != null) {
            rts.putBytes(q, start);
            q += start.length;
        }
        if (end != null) {
            rts.putBytes(q, end);
            q += end.length;
        }
        rtLength = q;
        rtCount++;
        return this;
    }

    public MutationBuilder beginRow(byte[] clustering) {
        checkStarted();
        if (rowStart >= 0) {
            throw new IllegalStateException("beginRow without endRow");
        }
        rowStart = rowsLength;
        rows.putInt(rowStart + R_CLUSTERING_LENGTH, clustering.length);
        rows.putLong(rowStart + R_MARKER_TS, NO_TIMESTAMP);
        rows.putInt(rowStart + R_MARKER_TTL, 0);
        rows.putInt(rowStart + R_MARKER_LET, NO_DELETION_TIME);
        rows.putLong(rowStart + R_DELETION_TS, NO_TIMESTAMP);
        rows.putInt(rowStart + R_DELETION_LDT, NO_DELETION_TIME);
        rows.putBytes(rowStart + R_CLUSTERING, clustering);
        cellCount = 0;
        cellsLength = 0;
        return this;
    }

    public MutationBuilder rowMarker(long ts, int ttl, int localExpirationTime) {
        checkRow();
        rows.putLong(rowStart + R_MARKER_TS, ts);
        rows.putInt(rowStart + R_MARKER_TTL, ttl);
        rows.putInt(rowStart + R_MARKER_LET, ttl > 0 ? localExpirationTime : NO_DELETION_TIME);
        return this;
    }

    public MutationBuilder rowDeletion(long ts, int localDeletionTime) {
        checkRow();
        long old = rows.getLong(rowStart + R_DELETION_TS);
        if (ts > old || (ts == old && localDeletionTime > rows.getInt(rowStart + R_DELETION_LDT))) {
            rows.putLong(rowStart + R_DELETION_TS, ts);
            rows.putInt(rowStart + R_DELETION_LDT, localDeletionTime);
        }
        return this;
    }

    public MutationBuilder cell(int columnId, long ts, int ttl, int localExpirationTime, ByteBuffer value) {
        checkRow();
        return addCell((byte) 0, columnId, null, ts, ttl, ttl > 0 ? localExpirationTime : NO_DELETION_TIME, value);
    }

    public MutationBuilder cellTombstone(int columnId, long ts, int localDeletionTime) {
        checkRow();
        return addCell(FLAG_TOMBSTONE, columnId, null, ts, 0, localDeletionTime, null);
    }

    public MutationBuilder complexCell(int columnId, byte[] path, long ts, int ttl, int localExpirationTime, ByteBuffer value) {
        checkRow();
        return addCell(FLAG_HAS_PATH, columnId, path, ts, ttl, ttl > 0 ? localExpirationTime : NO_DELETION_TIME, value);
    }

    public MutationBuilder complexCellTombstone(int columnId, byte[] path, long ts, int localDeletionTime) {
        checkRow();
        return addCell((byte) (FLAG_HAS_PATH | FLAG_TOMBSTONE), columnId, path, ts, 0, localDeletionTime, null);
    }

    /**
     * The row's clustering values as written ({@link MutationLayout}'s written clustering cell), in a form only the
     * caller reads back; {@code ts} is the write's timestamp.
     */
    public MutationBuilder writtenClustering(long ts, ByteBuffer value) {
        checkRow();
        return addCell(FLAG_WRITTEN_CLUSTERING, WRITTEN_CLUSTERING_COLUMN, null, ts, 0, NO_DELETION_TIME, value);
    }

    /** Deletes every element of collection column {@code columnId} with timestamp <= ts. */
    public MutationBuilder complexDeletion(int columnId, long ts, int localDeletionTime) {
        checkRow();
        return addCell(FLAG_COMPLEX_DELETION, columnId, null, ts, 0, localDeletionTime, null);
    }

    private MutationBuilder addCell(byte flags, int columnId, byte[] path, long ts, int ttl, int ldt, ByteBuffer value) {
        if (cellCount == cellOffsets.length) {
            cellOffsets = Arrays.copyOf(cellOffsets, cellCount * 2);
        }
        int p = cellsLength;
        cellOffsets[cellCount++] = p;
        int pathLength = path == null ? 0 : path.length;
        int valueLength = value == null ? 0 : value.remaining();
        cells.putByte(p + C_FLAGS, flags);
        cells.putInt(p + C_COLUMN, columnId);
        cells.putLong(p + C_TS, ts);
        cells.putInt(p + C_TTL, ttl);
        cells.putInt(p + C_LDT, ldt);
        cells.putInt(p + C_PATH_LENGTH, pathLength);
        cells.putInt(p + C_VALUE_LENGTH, valueLength);
        int q = p + C_PATH;
        if (path != null) {
            cells.putBytes(q, path);
            q += pathLength;
        }
        if (value != null) {
            cells.putBytes(q, value, value.position(), valueLength);
            q += valueLength;
        }
        cellsLength = q;
        return this;
    }

    public MutationBuilder endRow() {
        checkRow();
        if (order.length < cellCount) {
            order = new Integer[Math.max(cellCount, order.length * 2)];
        }
        for (int i = 0; i < cellCount; i++) {
            order[i] = cellOffsets[i];
        }
        Arrays.sort(order, 0, cellCount, (a, b) -> Cells.compareKey(cells, a, cells, b));
        int clusteringLength = rows.getInt(rowStart + R_CLUSTERING_LENGTH);
        int q = rowStart + R_CLUSTERING + clusteringLength;
        int written = 0;
        int i = 0;
        while (i < cellCount) {
            int winner = order[i];
            int j = i + 1;
            while (j < cellCount && Cells.compareKey(cells, winner, cells, order[j]) == 0) {
                if (!Cells.firstWins(cells, winner, cells, order[j])) {
                    winner = order[j];
                }
                j++;
            }
            int len = Cells.length(cells, winner);
            rows.putBytes(q, cells, winner, len);
            q += len;
            written++;
            i = j;
        }
        rows.putInt(rowStart + R_CELL_COUNT, written);
        rows.putInt(rowStart + R_LENGTH, q - rowStart);
        rowsLength = q;
        rowCount++;
        rowStart = -1;
        return this;
    }

    public Mutation build() {
        checkStarted();
        if (rowStart >= 0) {
            throw new IllegalStateException("build inside a row: call endRow first");
        }
        int partitionLength = P_KEY + key.length + rtLength + rowsLength;
        int total = M_PARTITION + partitionLength;
        byte[] bytes = new byte[total];
        UnsafeBuffer out = keyView;
        out.wrap(bytes);
        out.putInt(M_TOTAL_LENGTH, total);
        out.putLong(M_TABLE_MSB, table.msb());
        out.putLong(M_TABLE_LSB, table.lsb());
        int p = M_PARTITION;
        out.putInt(p + P_LENGTH, partitionLength);
        out.putLong(p + P_TOKEN, token);
        out.putInt(p + P_KEY_LENGTH, key.length);
        out.putLong(p + P_DELETION_TS, deletionTs);
        out.putInt(p + P_DELETION_LDT, deletionLdt);
        out.putInt(p + P_RT_COUNT, rtCount);
        out.putInt(p + P_ROW_COUNT, rowCount);
        out.putBytes(p + P_KEY, key);
        int q = p + P_KEY + key.length;
        out.putBytes(q, rts, 0, rtLength);
        q += rtLength;
        out.putBytes(q, rows, 0, rowsLength);
        out.wrap(new byte[0]);
        return new Mutation(bytes);
    }

    private void checkStarted() {
        if (table == null) {
            throw new IllegalStateException("call start first");
        }
    }

    private void checkRow() {
        if (rowStart < 0) {
            throw new IllegalStateException("call beginRow first");
        }
    }
}
