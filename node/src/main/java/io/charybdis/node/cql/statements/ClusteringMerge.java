package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Operator;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks Cassandra makes while it adds a SELECT's relations on clustering columns one by one, in WHERE order,
 * to the restrictions it has so far: merging a relation with those on the same columns (one equality per column,
 * one bound per side of a slice, slices starting on the same column), then, unless the query allows filtering or an
 * index supports the new relation, the order of the relations (nothing after a slice; no slice before a column
 * already restricted). Only the shape of each relation matters here (its columns, kind and bounds); values are
 * bound elsewhere.
 */
final class ClusteringMerge {
    enum Kind { EQ, IN, SLICE, CONTAINS }

    /** One restriction: a relation, or relations merged, over consecutive clustering columns. */
    private record R(List<ColumnMetadata> columns, Kind kind, boolean start, boolean end, boolean multi) {
        ColumnMetadata first() {
            return columns.get(0);
        }

        R asMulti() {
            return new R(columns, kind, start, end, true);
        }
    }

    private final TableMetadata table;
    private final boolean allowFiltering;
    /** The restriction on each restricted clustering column, by position. */
    private final TreeMap<Integer, R> byColumn = new TreeMap<>();
    private boolean sawMulti;
    /** Set when a merge is not modelled here (CONTAINS with anything else): the later checks are left to others. */
    private boolean gaveUp;

    ClusteringMerge(TableMetadata table, boolean allowFiltering) {
        this.table = table;
        this.allowFiltering = allowFiltering;
    }

    /**
     * A single-column relation on a clustering column.
     *
     * @param oneValue for IN: whether it lists one value (Cassandra makes that an =)
     */
    void single(ColumnMetadata c, Operator op, boolean oneValue) {
        Kind k = switch (op) {
            case EQ -> Kind.EQ;
            case IN -> oneValue ? Kind.EQ : Kind.IN;
            case LT, LTE, GT, GTE -> Kind.SLICE;
            case CONTAINS, CONTAINS_KEY -> Kind.CONTAINS;
            default -> null;
        };
        if (k == null) {
            gaveUp = true;
            return;
        }
        add(new R(List.of(c), k, isStart(op), isEnd(op), false), indexed(c, op));
    }

    /** A multi-column relation over clustering columns (in their order); {@code oneValue} as for {@link #single}. */
    void multi(List<ColumnMetadata> cols, Operator op, boolean oneValue) {
        Kind k = switch (op) {
            case EQ -> Kind.EQ;
            case IN -> oneValue ? Kind.EQ : Kind.IN;
            case LT, LTE, GT, GTE -> Kind.SLICE;
            default -> null;
        };
        if (k == null) {
            gaveUp = true;
            return;
        }
        sawMulti = true;
        boolean supported = false;
        for (ColumnMetadata c : cols) {
            supported |= indexed(c, op);
        }
        add(new R(List.copyOf(cols), k, isStart(op), isEnd(op), true), supported);
    }

    private static boolean isStart(Operator op) {
        return op == Operator.GT || op == Operator.GTE;
    }

    private static boolean isEnd(Operator op) {
        return op == Operator.LT || op == Operator.LTE;
    }

    private boolean indexed(ColumnMetadata c, Operator op) {
        return Restrictions.indexFor(table, new Restrictions.Filter(c, op, null, null, null)) != null;
    }

    private void add(R r, boolean supportedByIndex) {
        if (gaveUp) {
            return;
        }
        Map.Entry<Integer, R> last = byColumn.lastEntry();
        // Cassandra collects them in a hash set: its order is the columns' last first, as recorded
        Set<R> existing = new LinkedHashSet<>();
        for (int i = r.columns().size() - 1; i >= 0; i--) {
            R e = byColumn.get(r.columns().get(i).position());
            if (e != null) {
                existing.add(e);
            }
        }
        TreeMap<Integer, R> next = new TreeMap<>(byColumn);
        if (existing.isEmpty()) {
            for (ColumnMetadata c : r.columns()) {
                next.put(c.position(), r);
            }
        } else {
            for (R e : existing) {
                R merged = merge(e, r);
                if (merged == null) {
                    gaveUp = true;
                    return;
                }
                for (ColumnMetadata c : r.columns()) {
                    next.put(c.position(), merged);
                }
            }
        }
        if (last != null && !allowFiltering && !supportedByIndex) {
            R lastR = last.getValue();
            ColumnMetadata lastStart = lastR.first();
            ColumnMetadata newStart = r.first();
            if (lastR.kind() == Kind.SLICE && newStart.position() > lastStart.position()) {
                throw new InvalidRequestException("Clustering column \"" + newStart.name() + "\" cannot be restricted "
                        + "(preceding column \"" + lastStart.name() + "\" is restricted by a non-EQ relation)");
            }
            if (newStart.position() < lastStart.position() && r.kind() == Kind.SLICE) {
                Integer after = byColumn.higherKey(newStart.position());
                throw new InvalidRequestException("PRIMARY KEY column \"" + table.clustering().get(after).name()
                        + "\" cannot be restricted (preceding column \"" + newStart.name() + "\" is restricted by a "
                        + "non-EQ relation)");
            }
        }
        byColumn.clear();
        byColumn.putAll(next);
    }

    /** Cassandra's merge of restriction {@code e} with the new {@code r}; null when not modelled here. */
    private static R merge(R e, R r) {
        if (e.kind() == Kind.CONTAINS) {
            if (r.kind() == Kind.CONTAINS) {
                return e;
            }
            if (r.multi()) {
                return null;
            }
            throw new InvalidRequestException("Collection column " + e.first().name() + " can only be restricted by "
                    + "CONTAINS, CONTAINS KEY, or map-entry equality");
        }
        // a single-column restriction merging with a multi-column one becomes a multi-column one (not a CONTAINS)
        if (!e.multi() && r.multi()) {
            e = e.asMulti();
        } else if (e.multi() && !r.multi() && r.kind() != Kind.CONTAINS) {
            r = r.asMulti();
        }
        String names = e.multi() ? commons(e, r) : e.first().name();
        switch (e.kind()) {
            case EQ -> throw new InvalidRequestException(names + " cannot be restricted by more than one relation if "
                    + "it includes an Equal");
            case IN -> throw new InvalidRequestException(names + " cannot be restricted by more than one relation if "
                    + "it includes a IN");
            default -> {
            }
        }
        if (r.kind() != Kind.SLICE) {
            throw new InvalidRequestException("Column \"" + names + "\" cannot be restricted by both an equality and an "
                    + "inequality relation");
        }
        if (e.multi() && !e.first().equals(r.first())) {
            ColumnMetadata later = e.first().position() > r.first().position() ? e.first() : r.first();
            throw new InvalidRequestException("Column \"" + later.name() + "\" cannot be restricted by two "
                    + "inequalities not starting with the same column");
        }
        if (e.start() && r.start()) {
            throw new InvalidRequestException("More than one restriction was found for the start bound on " + names);
        }
        if (e.end() && r.end()) {
            throw new InvalidRequestException("More than one restriction was found for the end bound on " + names);
        }
        List<ColumnMetadata> cols = e.columns().size() >= r.columns().size() ? e.columns() : r.columns();
        return new R(cols, Kind.SLICE, e.start() || r.start(), e.end() || r.end(), e.multi());
    }

    /** The columns two restrictions share, joined as Cassandra joins them (from a hash set: last first). */
    private static String commons(R a, R b) {
        List<String> out = new ArrayList<>();
        for (ColumnMetadata c : a.columns()) {
            if (b.columns().contains(c)) {
                out.add(0, c.name());
            }
        }
        return String.join(" ,", out);
    }

    /**
     * After all relations, with a multi-column relation among them and neither filtering nor an index: Cassandra's
     * check that the restricted clustering columns are a prefix, when they do not all bound the read.
     */
    void checkPrefix(boolean queriableIndex) {
        if (gaveUp || !sawMulti || allowFiltering || queriableIndex || !needsFiltering()) {
            return;
        }
        int i = 0;
        for (Integer pos : byColumn.keySet()) {
            ColumnMetadata expected = table.clustering().get(i);
            if (pos != i) {
                throw new InvalidRequestException("PRIMARY KEY column \"" + table.clustering().get(pos).name()
                        + "\" cannot be restricted as preceding column \"" + expected.name() + "\" is not restricted");
            }
            i++;
        }
    }

    private boolean needsFiltering() {
        int position = 0;
        R previous = null;
        for (R r : byColumn.values()) {
            if (r == previous) {
                continue;
            }
            previous = r;
            if (r.kind() == Kind.CONTAINS || position != r.first().position()) {
                return true;
            }
            if (r.kind() != Kind.SLICE) {
                position = r.columns().get(r.columns().size() - 1).position() + 1;
            }
        }
        return false;
    }
}
