package io.charybdis.node.cql.syntax;

import java.util.List;

/** {@code INSERT INTO t (c1, c2) VALUES (v1, v2) [IF NOT EXISTS] [USING ...]}. */
public record InsertStatement(
        QualifiedName table,
        List<String> columns,
        List<Term> values,
        boolean ifNotExists,
        Attributes attributes) implements ModificationStatement {

    public InsertStatement {
        columns = List.copyOf(columns);
        values = List.copyOf(values);
    }
}
