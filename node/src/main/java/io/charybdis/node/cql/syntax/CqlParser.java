package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * Entry points of the hand-written CQL parser (Cassandra 5.0 grammar; see {@link StatementParser} and the layers
 * below it). Thread-safe: every call builds its own lexer and parser. Any input either parses or throws
 * {@link CqlSyntaxException}.
 */
public final class CqlParser {
    private CqlParser() {
    }

    /** One statement, with optional trailing {@code ;}. */
    public static Statement parse(String cql) {
        return prepare(cql).statement();
    }

    /** One statement with its bind markers in order of appearance. */
    public static ParsedStatement prepare(String cql) {
        try {
            return new StatementParser(cql).single();
        } catch (CqlSyntaxException e) {
            throw e;
        } catch (ExpressionParser.LiteralFormatException e) {
            throw failedParsing(cql, "NumberFormatException " + e.getMessage());
        } catch (FailedParsingException e) {
            throw failedParsing(cql, e.getMessage());
        } catch (RuntimeException e) {
            throw internalError(e);
        }
    }

    /** Statements separated by {@code ;} (semicolons inside BATCH belong to the batch); empty ones are skipped. */
    public static List<Statement> parseScript(String cql) {
        List<Statement> out = new ArrayList<>();
        for (ParsedStatement p : prepareScript(cql)) {
            out.add(p.statement());
        }
        return out;
    }

    /** Like {@link #parseScript}, with each statement's own bind markers. */
    public static List<ParsedStatement> prepareScript(String cql) {
        try {
            return new StatementParser(cql).script();
        } catch (CqlSyntaxException e) {
            throw e;
        } catch (ExpressionParser.LiteralFormatException e) {
            throw failedParsing(cql, "NumberFormatException " + e.getMessage());
        } catch (FailedParsingException e) {
            throw failedParsing(cql, e.getMessage());
        } catch (RuntimeException e) {
            throw internalError(e);
        }
    }

    private static CqlSyntaxException failedParsing(String cql, String reason) {
        return new CqlSyntaxException("Failed parsing statement: [" + cql + "] reason: " + reason, 1, 0);
    }

    /**
     * A statement Cassandra's grammar accepts but whose parser actions refuse it with an exception (e.g. a role's
     * {@code ACCESS TO ALL DATACENTERS} after a list of them); the message is that exception's class and message.
     */
    static final class FailedParsingException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FailedParsingException(String reason) {
            super(reason, null, false, false);
        }
    }

    private static CqlSyntaxException internalError(RuntimeException e) {
        CqlSyntaxException wrapped = new CqlSyntaxException("Failed parsing statement: " + e, 1, 0);
        wrapped.initCause(e);
        return wrapped;
    }
}
