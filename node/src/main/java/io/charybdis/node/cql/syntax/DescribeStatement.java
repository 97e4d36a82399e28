package io.charybdis.node.cql.syntax;

/**
 * {@code DESCRIBE|DESC ...}. {@code name} is null for the listing kinds and for {@code DESCRIBE KEYSPACE} without a
 * name (the current keyspace). {@link Kind#GENERIC} is a bare {@code DESCRIBE [ks.]name}: keyspace, table, view,
 * index, type, function or aggregate, whichever exists. For functions and aggregates {@code name} is the function
 * name; for KEYSPACE and a one-part GENERIC the single name is in {@code name.name()}.
 */
public record DescribeStatement(Kind kind, QualifiedName name, boolean only, boolean withInternals)
        implements Statement {

    public enum Kind {
        CLUSTER, SCHEMA, FULL_SCHEMA, KEYSPACES, KEYSPACE, TABLES, TABLE, INDEX, MATERIALIZED_VIEW, TYPES, TYPE,
        FUNCTIONS, FUNCTION, AGGREGATES, AGGREGATE, GENERIC
    }
}
