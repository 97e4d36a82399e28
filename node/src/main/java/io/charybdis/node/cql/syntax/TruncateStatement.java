package io.charybdis.node.cql.syntax;

/** {@code TRUNCATE [TABLE] t}. */
public record TruncateStatement(QualifiedName table) implements Statement {
}
