package io.charybdis.node.cql.syntax;

import java.util.List;

/**
 * {@code DELETE [targets] FROM t [USING TIMESTAMP ts] WHERE ... [IF EXISTS | IF conditions]};
 * {@code targets} is empty when the whole row is deleted.
 */
public record DeleteStatement(
        List<Target> targets,
        QualifiedName table,
        Attributes attributes,
        List<Relation> where,
        boolean ifExists,
        List<Condition> conditions) implements ModificationStatement {

    /** What a DELETE removes: a column, a collection element {@code m[k]}, or a UDT field {@code u.f}. */
    public sealed interface Target {
        String column();

        record Column(String column) implements Target {
        }

        record Element(String column, Term element) implements Target {
        }

        record Field(String column, String field) implements Target {
        }
    }

    public DeleteStatement {
        targets = List.copyOf(targets);
        where = List.copyOf(where);
        conditions = List.copyOf(conditions);
    }
}
