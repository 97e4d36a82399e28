package io.charybdis.node.cql.syntax;

import java.util.List;

/** Entry points of the hand-written CQL parser. Thread-safe: every call builds its own lexer and parser. */
public final class CqlParser {
    private CqlParser() {
    }

    /** One statement, with an optional trailing {@code ;}. */
    public static Statement parse(String cql) {
        return prepare(cql).statement();
    }

    /** One statement with its bind markers in order of appearance. */
    public static ParsedStatement prepare(String cql) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Statements separated by {@code ;}; empty statements are skipped. */
    public static List<Statement> parseScript(String cql) {
        throw new UnsupportedOperationException("not yet");
    }
}
