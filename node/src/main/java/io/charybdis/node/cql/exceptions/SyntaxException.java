package io.charybdis.node.cql.exceptions;

/** 0x2000 Syntax error in the CQL text. */
public class SyntaxException extends CqlException {
    public static final int CODE = 0x2000;

    public SyntaxException(String message) {
        super(CODE, message);
    }
}
