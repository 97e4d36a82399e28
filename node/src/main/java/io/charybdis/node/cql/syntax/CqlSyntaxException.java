package io.charybdis.node.cql.syntax;

/**
 * A CQL statement that cannot be parsed. {@code line} is 1-based and {@code column} 0-based (as ANTLR counts them,
 * so messages read like Cassandra's: {@code line 1:9 mismatched input 'FORM' expecting K_FROM (SELECT * [FORM]...)}).
 */
public final class CqlSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public CqlSyntaxException(String message, int line, int column) {
        super(message);
        this.line = line;
        this.column = column;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
