package io.charybdis.node.cql.syntax;

import java.util.List;

/**
 * {@code SELECT [JSON] [DISTINCT] selectors FROM table [WHERE ...] [GROUP BY ...] [ORDER BY ...]
 * [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING] [USING TIMEOUT d]}. {@code selectors} is empty for {@code *};
 * {@code limit} and {@code perPartitionLimit} are INTEGER literals or bind markers, null when absent; {@code timeout}
 * (ScyllaDB's extension) a duration term or a bind marker, null when absent.
 */
public record SelectStatement(
        QualifiedName table,
        boolean json,
        boolean distinct,
        List<Selector.Item> selectors,
        List<Relation> where,
        List<Selector> groupBy,
        List<Ordering> orderBy,
        Term perPartitionLimit,
        Term limit,
        boolean allowFiltering,
        Term timeout) implements Statement {

    public SelectStatement(QualifiedName table, boolean json, boolean distinct, List<Selector.Item> selectors,
                           List<Relation> where, List<Selector> groupBy, List<Ordering> orderBy, Term perPartitionLimit,
                           Term limit, boolean allowFiltering) {
        this(table, json, distinct, selectors, where, groupBy, orderBy, perPartitionLimit, limit, allowFiltering, null);
    }

    /** One ORDER BY entry; {@code annOf} is the vector of {@code ORDER BY v ANN OF [..]}, else null. */
    public record Ordering(String column, Term annOf, boolean descending) {
    }

    public SelectStatement {
        selectors = List.copyOf(selectors);
        where = List.copyOf(where);
        groupBy = List.copyOf(groupBy);
        orderBy = List.copyOf(orderBy);
    }

    public boolean isWildcard() {
        return selectors.isEmpty();
    }
}
