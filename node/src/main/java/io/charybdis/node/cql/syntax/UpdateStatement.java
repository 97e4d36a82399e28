package io.charybdis.node.cql.syntax;

import java.util.List;

/** {@code UPDATE t [USING ...] SET ... WHERE ... [IF EXISTS | IF conditions]}. */
public record UpdateStatement(
        QualifiedName table,
        Attributes attributes,
        List<Assignment> assignments,
        List<Relation> where,
        boolean ifExists,
        List<Condition> conditions) implements ModificationStatement {

    public UpdateStatement {
        assignments = List.copyOf(assignments);
        where = List.copyOf(where);
        conditions = List.copyOf(conditions);
    }
}
