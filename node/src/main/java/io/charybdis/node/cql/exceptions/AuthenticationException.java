package io.charybdis.node.cql.exceptions;

/** 0x0100 Bad credentials. */
public class AuthenticationException extends CqlException {
    public static final int CODE = 0x0100;

    public AuthenticationException(String message) {
        super(CODE, message);
    }
}
