package io.charybdis.node.cql.exceptions;

/** 0x0000 Server error: a fault of ours, reported with what failed. */
public class ServerErrorException extends CqlException {
    public static final int CODE = 0x0000;

    public ServerErrorException(String message, Throwable cause) {
        super(CODE, message, cause);
    }

    public ServerErrorException(String message) {
        super(CODE, message);
    }
}
