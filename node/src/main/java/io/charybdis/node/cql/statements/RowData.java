package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.PartitionKeyCodec;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.storage.read.ReadResult;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The current row of a read, decoded into one slot per column (in {@link TableMetadata#allColumns()} order), with
 * each cell's write timestamp and TTL. Reused across rows: one instance per read, not per row.
 *
 * <p>Multi-cell columns (non-frozen collections and UDTs) arrive as one cell per element; they are gathered and
 * serialized into the collection's value when the row is complete.
 */
public final class RowData {
    final TableMetadata table;
    final List<ColumnMetadata> columns;
    final ByteBuffer[] values;
    final long[] timestamps;
    final int[] ttls;
    final int[] cellIdToIndex;
    private final int firstNonKey;
    private final List<List<ByteBuffer[]>> complex;
    private final ByteBuffer[] clusteringScratch;
    /** Static column values of the current partition, kept while its rows are produced. */
    private final ByteBuffer[] staticValues;
    private final long[] staticTimestamps;
    private final int[] staticTtls;
    byte[] clusteringKey;
    long token;
    ByteBuffer partitionKey;
    boolean isStaticRow;

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
        firstNonKey = table.partitionKey().size() + table.clustering().size();
        cellIdToIndex = new int[Math.max(0, table.maxCellId() + 1)];
        Arrays.fill(cellIdToIndex, -1);
        for (int i = firstNonKey; i < n; i++) {
            cellIdToIndex[columns.get(i).cellId()] = i;
        }
        complex = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            complex.add(columns.get(i).isMultiCell() ? new ArrayList<>() : null);
        }
        clusteringScratch = new ByteBuffer[table.clustering().size()];
    }

    public int indexOf(ColumnMetadata c) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(c.name())) {
                return i;
            }
        }
        throw new IllegalArgumentException(c.name());
    }

    /** Starts a partition: decodes its key into the key slots and clears the static slots. */
    void startPartition(long token, ByteBuffer key) {
        this.token = token;
        this.partitionKey = key;
        ByteBuffer[] parts = PartitionKeyCodec.split(key, table.partitionKey().size());
        for (int i = 0; i < parts.length; i++) {
            values[i] = parts[i];
            timestamps[i] = Long.MIN_VALUE;
        }
        Arrays.fill(staticValues, null);
    }

    /** Loads the cursor's current row. A static row is kept for the partition's later rows. */
    void loadRow(ReadResult.Cursor cursor) {
        isStaticRow = cursor.isStatic();
        for (int i = firstNonKey; i < values.length; i++) {
            values[i] = null;
            timestamps[i] = Long.MIN_VALUE;
            ttls[i] = 0;
            if (complex.get(i) != null) {
                complex.get(i).clear();
            }
        }
        int pk = table.partitionKey().size();
        if (isStaticRow) {
            clusteringKey = ClusteringCodec.STATIC_ROW;
            for (int i = pk; i < firstNonKey; i++) {
                values[i] = null;
            }
        } else {
            clusteringKey = cursor.clusteringBytes();
            if (!table.clustering().isEmpty()) {
                ClusteringCodec.decode(table, clusteringKey, clusteringScratch);
                System.arraycopy(clusteringScratch, 0, values, pk, clusteringScratch.length);
            }
        }
        while (cursor.nextCell()) {
            int id = cursor.columnId();
            int idx = id < cellIdToIndex.length ? cellIdToIndex[id] : -1;
            if (idx < 0) {
                continue; // a dropped column's data
            }
            ColumnMetadata c = columns.get(idx);
            if (c.isStatic() != isStaticRow) {
                continue;
            }
            timestamps[idx] = Math.max(timestamps[idx], cursor.timestamp());
            ttls[idx] = cursor.ttl();
            if (cursor.hasPath()) {
                List<ByteBuffer[]> list = complex.get(idx);
                if (list != null) {
                    list.add(new ByteBuffer[]{ByteBuffer.wrap(cursor.pathBytes()), cursor.value()});
                }
            } else {
                values[idx] = cursor.value();
            }
        }
        for (int i = firstNonKey; i < values.length; i++) {
            List<ByteBuffer[]> list = complex.get(i);
            if (list != null && !list.isEmpty()) {
                values[i] = assemble(columns.get(i), list);
            }
        }
        if (isStaticRow) {
            System.arraycopy(values, 0, staticValues, 0, values.length);
            System.arraycopy(timestamps, 0, staticTimestamps, 0, values.length);
            System.arraycopy(ttls, 0, staticTtls, 0, values.length);
        } else {
            for (int i = firstNonKey; i < values.length; i++) {
                if (columns.get(i).isStatic()) {
                    values[i] = staticValues[i];
                    timestamps[i] = staticTimestamps[i];
                    ttls[i] = staticTtls[i];
                }
            }
        }
    }

    /** Sets every slot from a fully materialized row (virtual tables). */
    void loadValues(ByteBuffer[] row) {
        isStaticRow = false;
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

    static ByteBuffer assemble(ColumnMetadata c, List<ByteBuffer[]> cells) {
        TypeKind kind = Types.kind(c.type());
        List<ByteBuffer> parts = new ArrayList<>(cells.size() * 2);
        switch (kind) {
            case SET -> {
                for (ByteBuffer[] cell : cells) {
                    parts.add(ClusteringCodec.decodeSingle(Types.elementType(c.type()), cell[0]));
                }
                return Values.collection(parts);
            }
            case LIST -> {
                for (ByteBuffer[] cell : cells) {
                    parts.add(cell[1]);
                }
                return Values.collection(parts);
            }
            case MAP -> {
                for (ByteBuffer[] cell : cells) {
                    parts.add(ClusteringCodec.decodeSingle(Types.keyType(c.type()), cell[0]));
                    parts.add(cell[1]);
                }
                return Types.joinComponents(c.type(), parts);
            }
            case UDT -> {
                int n = Types.fieldTypes(c.type()).size();
                ByteBuffer[] fields = new ByteBuffer[n];
                for (ByteBuffer[] cell : cells) {
                    int f = cell[0].getShort(cell[0].position()) & 0xFFFF;
                    if (f < n) {
                        fields[f] = cell[1];
                    }
                }
                return Values.tuple(Arrays.asList(fields));
            }
            default -> throw new IllegalStateException("not multi-cell: " + c);
        }
    }

    public ByteBuffer value(int index) {
        ByteBuffer v = values[index];
        return v == null ? null : v.duplicate();
    }

    public long timestamp(int index) {
        return timestamps[index];
    }

    public int ttl(int index) {
        return ttls[index];
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
