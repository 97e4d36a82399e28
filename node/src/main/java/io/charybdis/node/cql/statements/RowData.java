package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.ClusteringDecoder;
import io.charybdis.node.cql.keys.WrittenClustering;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.storage.read.ReadResult;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The current row of a read, decoded into one slot per column (in {@link TableMetadata#allColumns()} order), with
 * each cell's write timestamp and TTL. Reused across rows: one instance per read, not per row.
 *
 * <p>No allocation per row for simple columns: a slot holds a reused {@link ByteBuffer} view over the read result's
 * array (partition key and cell values, re-targeted by position and limit) or over the {@link ClusteringDecoder}'s
 * scratch array (clustering values; or, for a column kept as written, over the row's {@link WrittenClustering} in the
 * read result's array). <b>A value is therefore valid only while its row is the current one</b> (and
 * the read result is not released): whoever keeps a value beyond that (aggregates, GROUP BY keys, sort buffers,
 * LWT rows, ...) keeps a {@linkplain #copyValue copy}. {@link #value} gives a duplicate whose position the caller
 * may move, over the same bytes.
 *
 * <p>Multi-cell columns (non-frozen collections and UDTs) arrive as one cell per element; they are gathered and
 * serialized into a buffer per column that is reused from row to row ({@link MultiCellAssembler}).
 *
 * <p>A counter column arrives as one cell per shard (see {@code cluster.counters.CounterShards}); its value is their
 * sum, in an 8-byte buffer per column reused from row to row.
 */
public final class RowData {
    final TableMetadata table;
    final List<ColumnMetadata> columns;
    final ByteBuffer[] values;
    final long[] timestamps;
    final int[] ttls;
    final int[] cellIdToIndex;
    private final int firstNonKey;
    private final int pkCount;
    private final boolean[] multiCell;
    private final boolean[] staticColumn;
    private final MultiCellAssembler[] complex;
    private final boolean[] counter;
    /** Per column: the drop time of its dropped namesake, whose cells (at or before it) are skipped; else MIN. */
    private final long[] droppedTime;
    /** Per counter column: the sum of its shards, and the 8-byte buffer that shows it (reused from row to row). */
    private final long[] counterSums;
    private final ByteBuffer[] counterValues;
    /** Per multi-cell column: its cells' timestamps and TTLs (of the current row; of the static row for statics). */
    private final CellTimes[] cellTimes;
    private final CellTimes[] staticCellTimes;
    private final ClusteringDecoder clusteringDecoder;
    /** Positions of the clustering columns kept as written ({@link WrittenClustering}), and a view for each. */
    private final int[] keptAsWritten;
    private final ByteBuffer[] writtenViews;
    /** Static column values of the current partition, kept while its rows are produced. */
    private final ByteBuffer[] staticValues;
    private final long[] staticTimestamps;
    private final int[] staticTtls;
    /** The array {@link #cellViews}, {@link #staticViews}, {@link #keyViews} and {@link #keyView} wrap. */
    private byte[] array;
    private final ByteBuffer[] cellViews;
    private final ByteBuffer[] staticViews;
    private final ByteBuffer[] keyViews;
    private ByteBuffer keyView;
    /** The current row's clustering key in {@link #array}: offset, or -1 for a static row or no row. */
    private int clusteringOffset = -1;
    private int clusteringLength;
    long token;
    /** The current partition's key; like the values, valid for the current row only. */
    ByteBuffer partitionKey;
    boolean isStaticRow;
    /** Whether the current row lives: a row marker, or a cell of a column the table still has (not dropped). */
    boolean live;

    public RowData(TableMetadata table) {
        this.table = table;
        this.columns = table.allColumns();
        int n = columns.size();
        values = new ByteBuffer[n];
        timestamps = new long[n];
        ttls = new int[n];
        staticValues = new ByteBuffer[n];
        staticTimestamps = new long[n];
        staticTtls = new int[n];
        pkCount = table.partitionKey().size();
        firstNonKey = pkCount + table.clustering().size();
        cellIdToIndex = new int[Math.max(0, table.maxCellId() + 1)];
        Arrays.fill(cellIdToIndex, -1);
        multiCell = new boolean[n];
        staticColumn = new boolean[n];
        for (int i = firstNonKey; i < n; i++) {
            cellIdToIndex[columns.get(i).cellId()] = i;
        }
        complex = new MultiCellAssembler[n];
        droppedTime = new long[n];
        Arrays.fill(droppedTime, Long.MIN_VALUE);
        for (int i = firstNonKey; i < n; i++) {
            droppedTime[i] = table.droppedTimeOf(columns.get(i).cellId());
        }
        counter = new boolean[n];
        counterSums = new long[n];
        counterValues = new ByteBuffer[n];
        cellTimes = new CellTimes[n];
        staticCellTimes = new CellTimes[n];
        for (int i = 0; i < n; i++) {
            if (i >= firstNonKey && Types.isCounter(columns.get(i).type())) {
                counter[i] = true;
                counterValues[i] = ByteBuffer.allocate(8);
            }
            ColumnMetadata c = columns.get(i);
            multiCell[i] = i >= firstNonKey && c.isMultiCell();
            staticColumn[i] = i >= firstNonKey && c.isStatic();
            complex[i] = multiCell[i] ? new MultiCellAssembler(c) : null;
            cellTimes[i] = multiCell[i] ? new CellTimes() : null;
            staticCellTimes[i] = multiCell[i] && staticColumn[i] ? new CellTimes() : null;
        }
        clusteringDecoder = new ClusteringDecoder(table);
        keptAsWritten = table.clusteringKeptAsWritten();
        writtenViews = new ByteBuffer[keptAsWritten.length];
        cellViews = new ByteBuffer[n];
        staticViews = new ByteBuffer[n];
        keyViews = new ByteBuffer[pkCount];
    }

    public int indexOf(ColumnMetadata c) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(c.name())) {
                return i;
            }
        }
        throw new IllegalArgumentException(c.name());
    }

    /** Points the views at a (new) result array: once per read result, not per row. */
    private void attach(byte[] a) {
        if (a == array) {
            return;
        }
        array = a;
        keyView = ByteBuffer.wrap(a);
        for (int i = 0; i < pkCount; i++) {
            keyViews[i] = ByteBuffer.wrap(a);
        }
        for (int i = 0; i < writtenViews.length; i++) {
            writtenViews[i] = ByteBuffer.wrap(a);
        }
        for (int i = firstNonKey; i < values.length; i++) {
            if (!multiCell[i]) {
                if (staticColumn[i]) {
                    staticViews[i] = ByteBuffer.wrap(a);
                } else {
                    cellViews[i] = ByteBuffer.wrap(a);
                }
            }
        }
    }

    /**
     * Forgets the read this RowData served (values, views and the array they wrap, so that nothing of it stays
     * reachable), for reuse by a later read of the same table.
     */
    void detach() {
        array = null;
        keyView = null;
        Arrays.fill(keyViews, null);
        Arrays.fill(cellViews, null);
        Arrays.fill(staticViews, null);
        Arrays.fill(writtenViews, null);
        Arrays.fill(values, null);
        Arrays.fill(staticValues, null);
        for (MultiCellAssembler m : complex) {
            if (m != null) {
                m.clear();
            }
        }
        partitionKey = null;
        clusteringOffset = -1;
        isStaticRow = false;
    }

    private static ByteBuffer target(ByteBuffer view, int offset, int length) {
        view.limit(offset + length);
        view.position(offset);
        return view;
    }

    /** Starts the cursor's current partition: its key into the key slots (views), and clears the static slots. */
    void startPartition(ReadResult.Cursor cursor) {
        byte[] a = cursor.array();
        attach(a);
        this.token = cursor.token();
        int off = cursor.keyOffset();
        int len = cursor.keyLength();
        this.partitionKey = target(keyView, off, len);
        if (pkCount == 1) {
            values[0] = partitionKey;
        } else {
            // composite: per component, a 2-byte length, the value, a 0 byte (PartitionKeyCodec)
            int p = off;
            for (int i = 0; i < pkCount; i++) {
                int l = ((a[p] & 0xFF) << 8) | (a[p + 1] & 0xFF);
                values[i] = target(keyViews[i], p + 2, l);
                p += 3 + l;
            }
        }
        for (int i = 0; i < pkCount; i++) {
            timestamps[i] = Long.MIN_VALUE;
        }
        Arrays.fill(staticValues, null);
        for (CellTimes t : staticCellTimes) {
            if (t != null) {
                t.clear();
            }
        }
    }

    /** Loads the cursor's current row. A static row is kept for the partition's later rows. */
    void loadRow(ReadResult.Cursor cursor) {
        byte[] a = cursor.array();
        attach(a);
        isStaticRow = cursor.isStatic();
        live = cursor.rowTimestamp() != Long.MIN_VALUE;
        for (int i = firstNonKey; i < values.length; i++) {
            values[i] = null;
            timestamps[i] = Long.MIN_VALUE;
            ttls[i] = 0;
            if (multiCell[i]) {
                complex[i].clear();
                cellTimes[i].clear();
            }
        }
        boolean anyComplex = false;
        boolean anyCounter = false;
        if (isStaticRow) {
            clusteringOffset = -1;
            for (int i = pkCount; i < firstNonKey; i++) {
                values[i] = null;
            }
        } else {
            clusteringOffset = cursor.clusteringOffset();
            clusteringLength = cursor.clusteringLength();
            if (firstNonKey > pkCount) {
                clusteringDecoder.decode(a, clusteringOffset, clusteringLength, values, pkCount);
            }
        }
        while (cursor.nextCell()) {
            int id = cursor.columnId();
            if (id < 0) {
                if (!isStaticRow && keptAsWritten.length > 0 && cursor.isWrittenClustering()) {
                    // the clustering as first written (1.0, not 1 as decoded from the key)
                    WrittenClustering.decode(keptAsWritten, a, cursor.valueOffset(), cursor.valueLength(),
                            writtenViews, values, pkCount);
                }
                continue;
            }
            int idx = id < cellIdToIndex.length ? cellIdToIndex[id] : -1;
            if (idx < 0) {
                continue; // a dropped column's data
            }
            if (staticColumn[idx] != isStaticRow || cursor.timestamp() <= droppedTime[idx]) {
                continue; // (or a cell of the column dropped before this one was added under its name)
            }
            live = true;
            timestamps[idx] = Math.max(timestamps[idx], cursor.timestamp());
            ttls[idx] = cursor.ttl() == 0 ? 0 : cursor.localExpirationTime();
            if (counter[idx]) {
                if (cursor.valueLength() == 8) {
                    long shard = cursor.valueBuffer().getLong(cursor.valueOffset(), java.nio.ByteOrder.BIG_ENDIAN);
                    counterSums[idx] = values[idx] == null ? shard : counterSums[idx] + shard;
                    values[idx] = counterValues[idx]; // marks the column present; filled in below
                    anyCounter = true;
                }
            } else if (cursor.hasPath()) {
                if (multiCell[idx]) {
                    complex[idx].add(cursor.pathOffset(), cursor.pathLength(), cursor.valueOffset(),
                            cursor.valueLength());
                    int field = cursor.pathLength() >= 2 ? ((a[cursor.pathOffset()] & 0xFF) << 8)
                            | (a[cursor.pathOffset() + 1] & 0xFF) : -1;
                    cellTimes[idx].add(cursor.timestamp(), cursor.ttl() == 0 ? 0 : cursor.localExpirationTime(),
                            field);
                    anyComplex = true;
                }
            } else if (!multiCell[idx]) {
                values[idx] = target(isStaticRow ? staticViews[idx] : cellViews[idx], cursor.valueOffset(),
                        cursor.valueLength());
            }
        }
        if (anyCounter) {
            for (int i = firstNonKey; i < values.length; i++) {
                if (counter[i] && values[i] == counterValues[i]) {
                    counterValues[i].putLong(0, counterSums[i]).clear();
                }
            }
        }
        if (anyComplex) {
            for (int i = firstNonKey; i < values.length; i++) {
                MultiCellAssembler m = complex[i];
                if (m != null && !m.isEmpty()) {
                    values[i] = m.assemble(a);
                }
            }
        }
        if (isStaticRow) {
            for (int i = firstNonKey; i < values.length; i++) {
                if (staticCellTimes[i] != null) {
                    staticCellTimes[i].copyFrom(cellTimes[i]);
                }
            }
            System.arraycopy(values, 0, staticValues, 0, values.length);
            System.arraycopy(timestamps, 0, staticTimestamps, 0, values.length);
            System.arraycopy(ttls, 0, staticTtls, 0, values.length);
        } else {
            for (int i = firstNonKey; i < values.length; i++) {
                if (staticColumn[i]) {
                    values[i] = staticValues[i];
                    timestamps[i] = staticTimestamps[i];
                    ttls[i] = staticTtls[i];
                }
            }
        }
    }

    /** A copy of the current row's clustering key (empty for a static row). */
    byte[] clusteringKeyCopy() {
        return clusteringOffset < 0 ? ClusteringCodec.STATIC_ROW
                : Arrays.copyOfRange(array, clusteringOffset, clusteringOffset + clusteringLength);
    }

    /** Whether the current row's clustering key is {@code key} (empty = the static row). */
    boolean clusteringKeyEquals(byte[] key) {
        return clusteringOffset < 0 ? key.length == 0
                : Arrays.equals(array, clusteringOffset, clusteringOffset + clusteringLength, key, 0, key.length);
    }

    /** Where the current row's clustering key lies in the read result's array; -1 for a static row. */
    int clusteringOffset() {
        return clusteringOffset;
    }

    int clusteringLength() {
        return clusteringLength;
    }

    /** Sets every slot from a fully materialized row (virtual tables). */
    void loadValues(ByteBuffer[] row) {
        isStaticRow = false;
        clusteringOffset = -1;
        System.arraycopy(row, 0, values, 0, values.length);
        Arrays.fill(timestamps, Long.MIN_VALUE);
        Arrays.fill(ttls, 0);
    }

    /** Turns a static row into the row CQL shows for a partition without regular rows. */
    void asStaticOnlyRow() {
        isStaticRow = false;
        for (int i = table.partitionKey().size(); i < firstNonKey; i++) {
            values[i] = null;
        }
        for (int i = firstNonKey; i < values.length; i++) {
            if (!columns.get(i).isStatic()) {
                values[i] = null;
            }
        }
    }

    /** The value of a slot (null if none), as a duplicate over the same bytes, valid for the current row only. */
    public ByteBuffer value(int index) {
        ByteBuffer v = values[index];
        return v == null ? null : v.duplicate();
    }

    /** A copy of the value of a slot that stays valid after the row (null if none). */
    ByteBuffer copyValue(int index) {
        return copy(values[index]);
    }

    static ByteBuffer copy(ByteBuffer v) {
        if (v == null) {
            return null;
        }
        byte[] b = new byte[v.remaining()];
        v.get(v.position(), b);
        return ByteBuffer.wrap(b);
    }

    /** Whether a slot holds {@code v} (both null, or the same bytes); allocates nothing. */
    boolean valueEquals(int index, ByteBuffer v) {
        ByteBuffer mine = values[index];
        return mine == null ? v == null : v != null && mine.equals(v);
    }

    /** Writes a slot's value (or null) into a RESULT row, with no intermediate buffer. */
    void writeValue(int index, RowsWriter writer) {
        ByteBuffer v = values[index];
        if (v == null) {
            writer.nullValue();
        } else {
            writer.value(v);
        }
    }

    public long timestamp(int index) {
        return timestamps[index];
    }

    /** When the column's cell expires (seconds since the epoch), 0 when it does not: ttl() is what is left. */
    public int expiration(int index) {
        return ttls[index];
    }

    /** The timestamps and TTLs of the cells of multi-cell column {@code index} in the current row. */
    CellTimes cellTimes(int index) {
        return staticColumn[index] ? staticCellTimes[index] : cellTimes[index];
    }

    /** True when the row has a value in at least one non-key column (for static-only detection). */
    boolean hasStaticValues() {
        for (int i = firstNonKey; i < values.length; i++) {
            if (columns.get(i).isStatic() && staticValues[i] != null) {
                return true;
            }
        }
        return false;
    }
}
