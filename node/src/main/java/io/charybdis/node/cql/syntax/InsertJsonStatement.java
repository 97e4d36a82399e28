package io.charybdis.node.cql.syntax;

/**
 * {@code INSERT INTO t JSON 'doc' [DEFAULT NULL|UNSET] [IF NOT EXISTS] [USING ...]};
 * {@code json} is a STRING literal or a bind marker.
 */
public record InsertJsonStatement(
        QualifiedName table,
        Term json,
        boolean defaultUnset,
        boolean ifNotExists,
        Attributes attributes) implements ModificationStatement {
}
