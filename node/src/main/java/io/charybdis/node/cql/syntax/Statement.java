package io.charybdis.node.cql.syntax;

/**
 * A parsed CQL statement. The families: {@link SelectStatement}; {@link ModificationStatement} (INSERT, INSERT JSON,
 * UPDATE, DELETE); {@link BatchStatement}; {@link UseStatement}; {@link TruncateStatement};
 * {@link SchemaStatement} (DDL); {@link AuthStatement} (roles, users, permissions, identities);
 * {@link DescribeStatement}.
 */
public sealed interface Statement
        permits SelectStatement, ModificationStatement, BatchStatement, UseStatement, TruncateStatement,
        SchemaStatement, AuthStatement, DescribeStatement {
}
