package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Selector;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * {@code writetime()}, {@code maxwritetime()} and {@code ttl()} selections, as Cassandra 5.0 answers them.
 *
 * <p>Of a simple (or frozen) column: the cell's timestamp, or its TTL (null without one). Of a non-frozen
 * collection or UDT, whose elements are cells of their own: {@code writetime} and {@code ttl} are lists with one
 * entry per cell in element order (empty, not null, when the column has no cell; a TTL entry null for a cell that
 * does not expire), {@code maxwritetime} the greatest timestamp. Of an element ({@code m['k']}, {@code s['e']}) or
 * a UDT field ({@code u.f}) of such a column: that cell's, null when it has none; of a slice ({@code m['a'..'c']}):
 * lists over the cells in the slice. Elements and fields of frozen values share their column's single cell.
 */
final class WriteTimeSelection {
    private static final DataType TIMESTAMPS = DataType.list(NativeType.BIGINT);
    private static final DataType TTLS = DataType.list(NativeType.INT);

    private WriteTimeSelection() {
    }

    /** What the selection reads: a column, or an element, a slice or a field of one. */
    private enum Target { COLUMN, ELEMENT, SLICE, FIELD }

    /**
     * @param inner  the selected column, element, slice or field itself (its name names this selection)
     * @param lookup for an element {@code c[k]}, the slice {@code c[k..k]} (which of the cells is the element's);
     *               for a slice, the slice; otherwise null
     */
    static Selection.Output build(Selector.WriteTime wt, TableMetadata table, RowData row, Selection.Output inner,
                                  Selection.Output lookup) {
        String fn = wt.kind() == Selector.WriteTimeKind.TTL ? "ttl"
                : wt.kind() == Selector.WriteTimeKind.WRITETIME ? "writetime" : "maxwritetime";
        Target target;
        Selector receiver;
        switch (wt.column()) {
            case Selector.Column c -> {
                target = Target.COLUMN;
                receiver = c;
            }
            case Selector.ElementAccess ea -> {
                target = Target.ELEMENT;
                receiver = ea.receiver();
            }
            case Selector.SliceAccess sa -> {
                target = Target.SLICE;
                receiver = sa.receiver();
            }
            case Selector.FieldAccess fa -> {
                target = Target.FIELD;
                receiver = fa.receiver();
            }
            default -> throw new InvalidRequestException("Only column selections are supported in " + fn + "()");
        }
        if (!(receiver instanceof Selector.Column col)) {
            throw new InvalidRequestException("Only column selections are supported in " + fn + "()");
        }
        ColumnMetadata c = table.column(col.name());
        if (c == null) {
            throw new InvalidRequestException("Undefined column name " + col.name() + " in table " + table);
        }
        if (c.isPrimaryKey()) {
            throw new InvalidRequestException("Cannot use selection function " + fn + " on PRIMARY KEY part "
                    + c.name());
        }
        int index = row.indexOf(c);
        String name = fn + "(" + inner.name() + ")";
        boolean ttl = wt.kind() == Selector.WriteTimeKind.TTL;
        boolean max = wt.kind() == Selector.WriteTimeKind.MAXWRITETIME;
        DataType single = ttl ? NativeType.INT : NativeType.BIGINT;
        if (!c.isMultiCell() && target == Target.COLUMN) {
            return simpleColumn(index, name, ttl);
        }
        if (!c.isMultiCell()) {
            // one cell: the column's, when the selected element or field has a value
            return Selection.simple(single, name, (r, ctx) -> {
                if (r.values[index] == null || (target != Target.COLUMN && inner.value(r, ctx) == null)) {
                    return null;
                }
                if (ttl) {
                    int e = r.expiration(index);
                    return e == 0 ? null : Values.int32(remaining(e, ctx));
                }
                return Values.bigint(r.timestamp(index));
            });
        }
        TypeKind kind = Types.kind(c.type());
        boolean map = kind == TypeKind.MAP;
        int fields = kind == TypeKind.UDT ? Types.fieldTypes(c.type()).size() : 0;
        return switch (target) {
            case COLUMN, SLICE, ELEMENT -> {
                DataType type = max || target == Target.ELEMENT ? single : ttl ? TTLS : TIMESTAMPS;
                DataType keyType = map ? Types.keyType(c.type()) : kind == TypeKind.SET ? Types.elementType(c.type())
                        : null;
                yield Selection.simple(type, name, (r, ctx) -> {
                    CellTimes times = r.cellTimes(index);
                    boolean[] in = lookup == null ? null : cellsInSlice(r.values[index], lookup.value(r, ctx), map,
                            keyType, times.count());
                    if (target == Target.ELEMENT) {
                        for (int i = 0; i < in.length; i++) {
                            if (in[i]) {
                                return one(times, i, ttl, ctx);
                            }
                        }
                        return null;
                    }
                    return max ? maxTimestamp(times, in) : fields > 0 ? fieldList(times, fields, ttl, ctx)
                            : list(times, in, ttl, ctx);
                });
            }
            case FIELD -> {
                int field = Types.fieldNames(c.type()).indexOf(((Selector.FieldAccess) wt.column()).field());
                yield Selection.simple(single, name, (r, ctx) -> {
                    CellTimes times = r.cellTimes(index);
                    int cell = times.cellOfField(field);
                    return cell < 0 ? null : one(times, cell, ttl, ctx);
                });
            }
        };
    }

    /** A simple column's timestamp or TTL, written into the result without allocating (the read path's hot case). */
    private static Selection.Output simpleColumn(int index, String name, boolean ttl) {
        return new Selection.Output() {
            public DataType type() {
                return ttl ? NativeType.INT : NativeType.BIGINT;
            }

            public String name() {
                return name;
            }

            public ByteBuffer value(RowData r, io.charybdis.node.cql.values.BindContext ctx) {
                if (r.values[index] == null) {
                    return null;
                }
                if (ttl) {
                    int e = r.expiration(index);
                    return e == 0 ? null : Values.int32(remaining(e, ctx));
                }
                return Values.bigint(r.timestamp(index));
            }

            public void write(RowData r, io.charybdis.node.cql.values.BindContext ctx, RowsWriter writer) {
                if (r.values[index] == null || ttl && r.expiration(index) == 0) {
                    writer.nullValue();
                } else if (ttl) {
                    writer.intValue(remaining(r.expiration(index), ctx));
                } else {
                    writer.longValue(r.timestamp(index));
                }
            }
        };
    }

    /** The seconds left until {@code expiration}: what ttl() shows, as Cassandra computes it at the read's time. */
    private static int remaining(int expiration, BindContext ctx) {
        return Math.max(0, expiration - ctx.nowInSeconds());
    }

    private static ByteBuffer one(CellTimes times, int cell, boolean ttl, BindContext ctx) {
        if (ttl) {
            int e = times.expiration(cell);
            return e == 0 ? null : Values.int32(remaining(e, ctx));
        }
        return Values.bigint(times.timestamp(cell));
    }

    /** Which cells fall in the slice: those whose key is among the slice's keys. */
    private static boolean[] cellsInSlice(ByteBuffer column, ByteBuffer slice, boolean map, DataType keyType,
                                          int cells) {
        boolean[] in = new boolean[cells];
        if (column == null || slice == null) {
            return in;
        }
        List<ByteBuffer> all = Values.elements(column, map);
        List<ByteBuffer> kept = Values.elements(slice, map);
        int step = map ? 2 : 1;
        int k = 0;
        for (int i = 0, cell = 0; i < all.size() && cell < cells; i += step, cell++) {
            if (k < kept.size() && keyType.compare(all.get(i), kept.get(k)) == 0) {
                in[cell] = true;
                k += step;
            }
        }
        return in;
    }

    private static ByteBuffer maxTimestamp(CellTimes times, boolean[] in) {
        long best = Long.MIN_VALUE;
        for (int i = 0; i < times.count(); i++) {
            if (in == null || in[i]) {
                best = Math.max(best, times.timestamp(i));
            }
        }
        return best == Long.MIN_VALUE ? null : Values.bigint(best);
    }

    /**
     * A UDT's list: one entry per field (null for a field without a cell) once the value has any cell; empty
     * without one.
     */
    private static ByteBuffer fieldList(CellTimes times, int fields, boolean ttl, BindContext ctx) {
        if (times.count() == 0) {
            return list(times, null, ttl, ctx);
        }
        ByteBuffer out = ByteBuffer.allocate(4 + fields * 12);
        out.putInt(fields);
        for (int f = 0; f < fields; f++) {
            int cell = times.cellOfField(f);
            if (cell < 0 || (ttl && times.expiration(cell) == 0)) {
                out.putInt(-1);
            } else if (ttl) {
                out.putInt(4).putInt(remaining(times.expiration(cell), ctx));
            } else {
                out.putInt(8).putLong(times.timestamp(cell));
            }
        }
        return out.flip();
    }

    /** A list of the cells' timestamps (bigint) or TTLs (int, null entries for cells without one). */
    private static ByteBuffer list(CellTimes times, boolean[] in, boolean ttl, BindContext ctx) {
        int n = 0;
        for (int i = 0; i < times.count(); i++) {
            if (in == null || in[i]) {
                n++;
            }
        }
        ByteBuffer out = ByteBuffer.allocate(4 + n * (ttl ? 8 : 12));
        out.putInt(n);
        for (int i = 0; i < times.count(); i++) {
            if (in != null && !in[i]) {
                continue;
            }
            if (!ttl) {
                out.putInt(8).putLong(times.timestamp(i));
            } else if (times.expiration(i) == 0) {
                out.putInt(-1);
            } else {
                out.putInt(4).putInt(remaining(times.expiration(i), ctx));
            }
        }
        return out.flip();
    }
}
