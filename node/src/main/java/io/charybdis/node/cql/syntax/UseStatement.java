package io.charybdis.node.cql.syntax;

/** {@code USE keyspace}. */
public record UseStatement(String keyspace) implements Statement {
}
