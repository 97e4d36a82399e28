package io.charybdis.node.cql.syntax;

import java.util.List;

/** {@code BEGIN [UNLOGGED|COUNTER] BATCH [USING TIMESTAMP ts] stmt; ... APPLY BATCH}. */
public record BatchStatement(Type type, Attributes attributes, List<ModificationStatement> statements)
        implements Statement {

    public enum Type { LOGGED, UNLOGGED, COUNTER }

    public BatchStatement {
        statements = List.copyOf(statements);
    }
}
