package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Operator;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.BoundValue;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Row-by-row evaluation of the restrictions that could not select data directly (ALLOW FILTERING). */
final class Filters {
    private Filters() {
    }

    static boolean matches(List<Restrictions.Filter> filters, RowData row, BindContext ctx) {
        return matches(filters, row, ctx, null);
    }

    /**
     * @param bound per filter, its compared value once bound (filled on first use, for the rest of the request), so
     *              that rows do not bind it again; null binds it every time
     */
    static boolean matches(List<Restrictions.Filter> filters, RowData row, BindContext ctx, ByteBuffer[] bound) {
        for (int i = 0, n = filters.size(); i < n; i++) {
            if (!matches(filters.get(i), row, ctx, bound, i)) {
                return false;
            }
        }
        return true;
    }

    static boolean matches(Restrictions.Filter f, RowData row, BindContext ctx) {
        return matches(f, row, ctx, null, -1);
    }

    private static boolean matches(Restrictions.Filter f, RowData row, BindContext ctx, ByteBuffer[] cache, int slot) {
        int index = row.indexOf(f.column());
        // the row's own view: only compared below, never moved or kept
        ByteBuffer actual = row.values[index];
        DataType type = f.column().type();
        if (f.mapKey() != null) {
            if (actual == null) {
                return false;
            }
            ByteBuffer key = f.mapKey().bind(ctx);
            if (key == null) {
                throw new InvalidRequestException("Unsupported null map key for column " + f.column().name());
            }
            if (key == Values.UNSET) {
                throw new InvalidRequestException("Unsupported unset map key for column " + f.column().name());
            }
            List<ByteBuffer> parts = Values.elements(actual, true);
            actual = null;
            for (int i = 0; i < parts.size(); i += 2) {
                if (Types.keyType(type).compare(parts.get(i), key) == 0) {
                    actual = parts.get(i + 1);
                }
            }
            type = Types.valueType(type);
            if (actual == null) {
                return false;
            }
        }
        switch (f.op()) {
            case IN, NOT_IN -> {
                List<ByteBuffer> candidates = new ArrayList<>();
                if (f.inValues() != null && f.value() == null) {
                    for (BoundValue b : f.inValues()) {
                        candidates.add(bound(b, ctx, f));
                    }
                } else {
                    ByteBuffer list = bound(f.value(), ctx, f);
                    candidates.addAll(Values.elements(list, false));
                }
                boolean in = false;
                if (actual != null) {
                    for (ByteBuffer c : candidates) {
                        if (type.compare(actual, c) == 0) {
                            in = true;
                            break;
                        }
                    }
                }
                return f.op() == Operator.IN ? in : actual != null && !in;
            }
            case CONTAINS, NOT_CONTAINS, CONTAINS_KEY, NOT_CONTAINS_KEY -> {
                if (actual == null) {
                    return false;
                }
                ByteBuffer wanted = bound(f.value(), ctx, f);
                TypeKind k = Types.kind(type);
                boolean map = k == TypeKind.MAP;
                List<ByteBuffer> parts = Values.elements(actual, map);
                boolean keys = f.op() == Operator.CONTAINS_KEY || f.op() == Operator.NOT_CONTAINS_KEY;
                DataType et = map ? (keys ? Types.keyType(type) : Types.valueType(type)) : Types.elementType(type);
                boolean found = false;
                for (int i = map && !keys ? 1 : 0; i < parts.size(); i += map ? 2 : 1) {
                    if (et.compare(parts.get(i), wanted) == 0) {
                        found = true;
                        break;
                    }
                }
                return (f.op() == Operator.CONTAINS || f.op() == Operator.CONTAINS_KEY) == found;
            }
            default -> {
                ByteBuffer wanted;
                if (cache == null) {
                    wanted = bound(f.value(), ctx, f);
                } else {
                    wanted = cache[slot];
                    if (wanted == null) {
                        wanted = cache[slot] = bound(f.value(), ctx, f);
                    }
                }
                if (actual == null) {
                    return false;
                }
                int c = type.compare(actual, wanted);
                return switch (f.op()) {
                    case EQ -> c == 0;
                    case NEQ -> c != 0;
                    case LT -> c < 0;
                    case LTE -> c <= 0;
                    case GT -> c > 0;
                    case GTE -> c >= 0;
                    default -> throw new InvalidRequestException("Unsupported operator " + f.op().cql());
                };
            }
        }
    }

    /**
     * As Cassandra, which binds every filter's values when it builds the row filter, before reading: a null or unset
     * compared value (or map key) is refused whether or not any row is read.
     */
    static void checkBound(List<Restrictions.Filter> filters, BindContext ctx) {
        for (Restrictions.Filter f : filters) {
            if (f.mapKey() != null) {
                ByteBuffer key = f.mapKey().bind(ctx);
                if (key == null) {
                    throw new InvalidRequestException("Unsupported null map key for column " + f.column().name());
                }
                if (key == Values.UNSET) {
                    throw new InvalidRequestException("Unsupported unset map key for column " + f.column().name());
                }
            }
            if (f.value() != null && f.inValues() == null && f.op() != Operator.IN && f.op() != Operator.NOT_IN) {
                bound(f.value(), ctx, f);
            } else if (f.value() != null && f.op() == Operator.IN && f.value().bind(ctx) == Values.UNSET) {
                throw new InvalidRequestException("Invalid unset value for column " + f.column().name());
            }
        }
    }

    private static ByteBuffer bound(BoundValue b, BindContext ctx, Restrictions.Filter f) {
        ByteBuffer v = b.bind(ctx);
        String what = f.mapKey() != null ? "map value" : "value"; // m[k] = v: Cassandra names the map value
        if (v == null) {
            throw new InvalidRequestException("Unsupported null " + what + " for column " + f.column().name());
        }
        if (v == Values.UNSET) {
            throw new InvalidRequestException("Unsupported unset " + what + " for column " + f.column().name());
        }
        return v;
    }
}
