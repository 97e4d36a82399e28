package io.charybdis.node.system;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the rows of a virtual table by column name, serializing each Java value with its column's type, and
 * returns them in the order {@link VirtualTable#rows} promises: by partition key, then clustering in the CQL order
 * of the clustering columns (DESC columns reversed).
 */
final class RowsBuilder {
    private final List<ColumnMetadata> columns;
    private final Map<String, Integer> positions = new HashMap<>();
    private final List<ByteBuffer[]> rows = new ArrayList<>();
    private final Comparator<ByteBuffer[]> order;
    private ByteBuffer[] current;

    RowsBuilder(TableMetadata table) {
        this.columns = table.allColumns();
        for (int i = 0; i < columns.size(); i++) {
            positions.put(columns.get(i).name(), i);
        }
        Comparator<ByteBuffer[]> c = (a, b) -> 0;
        for (int i = 0; i < columns.size(); i++) {
            ColumnMetadata col = columns.get(i);
            if (!col.isPrimaryKey()) {
                continue;
            }
            int at = i;
            Comparator<ByteBuffer[]> byColumn = (a, b) -> compareNullsFirst(col, a[at], b[at]);
            c = c.thenComparing(col.reversed() ? byColumn.reversed() : byColumn);
        }
        this.order = c;
    }

    private static int compareNullsFirst(ColumnMetadata col, ByteBuffer a, ByteBuffer b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return col.type().compare(a, b);
    }

    /** Starts a new row; every column is null until {@link #set}. */
    RowsBuilder row() {
        current = new ByteBuffer[columns.size()];
        rows.add(current);
        return this;
    }

    /** Sets a column of the current row from its Java value (see {@code DataType.decompose}). */
    RowsBuilder set(String column, Object value) {
        Integer i = positions.get(column);
        if (i == null) {
            throw new IllegalArgumentException("no column " + column);
        }
        current[i] = value == null ? null : columns.get(i).type().decompose(value);
        return this;
    }

    List<ByteBuffer[]> build() {
        rows.sort(order);
        return rows;
    }
}
