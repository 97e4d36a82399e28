package io.charybdis.node.cql.statements;

import java.util.Arrays;

/**
 * The write timestamp and expiration time of each live cell of one multi-cell column (non-frozen collection or UDT) of the
 * current row, in cell order: the order of the elements in the column's serialized value (list order, set elements
 * and map keys sorted), and for a UDT the fields that have a cell, each with its field index. What
 * {@code writetime()}, {@code maxwritetime()} and {@code ttl()} of a collection, an element, a slice or a field
 * read. Reused from row to row: grows, never shrinks, allocates nothing once grown.
 */
final class CellTimes {
    private long[] timestamps = new long[8];
    private int[] ttls = new int[8];
    private int[] fields = new int[8];
    private int count;

    void clear() {
        count = 0;
    }

    void add(long timestamp, int expiration, int field) {
        if (count == timestamps.length) {
            int n = count * 2;
            timestamps = Arrays.copyOf(timestamps, n);
            ttls = Arrays.copyOf(ttls, n);
            fields = Arrays.copyOf(fields, n);
        }
        timestamps[count] = timestamp;
        ttls[count] = expiration;
        fields[count] = field;
        count++;
    }

    void copyFrom(CellTimes other) {
        clear();
        for (int i = 0; i < other.count; i++) {
            add(other.timestamps[i], other.ttls[i], other.fields[i]);
        }
    }

    int count() {
        return count;
    }

    long timestamp(int cell) {
        return timestamps[cell];
    }

    /** When the cell expires (seconds since the epoch); 0 when it does not. */
    int expiration(int cell) {
        return ttls[cell];
    }

    /** The cell holding UDT field {@code field}, or -1 when that field has none. */
    int cellOfField(int field) {
        for (int i = 0; i < count; i++) {
            if (fields[i] == field) {
                return i;
            }
        }
        return -1;
    }
}
