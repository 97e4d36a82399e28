package io.charybdis.node.cql.exceptions;

/** 0x2200 Invalid: a well-formed statement that is not valid (unknown table, wrong types, missing key, ...). */
public class InvalidRequestException extends CqlException {
    public static final int CODE = 0x2200;

    public InvalidRequestException(String message) {
        super(CODE, message);
    }

    public InvalidRequestException(String message, Throwable cause) {
        super(CODE, message, cause);
    }
}
