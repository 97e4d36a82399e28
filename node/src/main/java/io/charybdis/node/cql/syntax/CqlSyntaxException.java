package io.charybdis.node.cql.syntax;

/**
 * A CQL statement that cannot be parsed. {@code line} is 1-based and {@code column} 0-based (as ANTLR counts them,
 * so messages read like Cassandra's: {@code line 1:9 mismatched input 'FORM' expecting K_FROM (SELECT * [FORM]...)}).
 * A few statements are refused while parsing but reported by Cassandra as invalid requests rather than syntax
 * errors: {@link #invalidRequest()} tells those.
 */
public final class CqlSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;
    private final boolean invalidRequest;

    public CqlSyntaxException(String message, int line, int column) {
        this(message, line, column, false);
    }

    public CqlSyntaxException(String message, int line, int column, boolean invalidRequest) {
        super(message);
        this.line = line;
        this.column = column;
        this.invalidRequest = invalidRequest;
    }

    /** A lexer error: the first error of the statement wherever the parser reaches it, never backtracked over. */
    static CqlSyntaxException lexical(String message, int line, int column) {
        CqlSyntaxException e = new CqlSyntaxException(message, line, column, false);
        e.lexical = true;
        return e;
    }

    private boolean lexical;

    boolean isLexical() {
        return lexical;
    }

    /** Whether Cassandra answers this error as an invalid request (code 0x2200) rather than a syntax error. */
    public boolean invalidRequest() {
        return invalidRequest;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
