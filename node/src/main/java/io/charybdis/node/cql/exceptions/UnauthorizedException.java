package io.charybdis.node.cql.exceptions;

/** 0x2100 Unauthorized. */
public class UnauthorizedException extends CqlException {
    public static final int CODE = 0x2100;

    public UnauthorizedException(String message) {
        super(CODE, message);
    }
}
