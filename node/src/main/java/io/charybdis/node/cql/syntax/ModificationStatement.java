package io.charybdis.node.cql.syntax;

/** INSERT, INSERT JSON, UPDATE and DELETE: the statements a BATCH may hold. */
public sealed interface ModificationStatement extends Statement
        permits InsertStatement, InsertJsonStatement, UpdateStatement, DeleteStatement {

    QualifiedName table();

    Attributes attributes();
}
