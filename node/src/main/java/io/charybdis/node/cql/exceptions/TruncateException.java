package io.charybdis.node.cql.exceptions;

/** 0x1003 Truncate error. */
public class TruncateException extends CqlException {
    public static final int CODE = 0x1003;

    public TruncateException(String message, Throwable cause) {
        super(CODE, message, cause);
    }
}
