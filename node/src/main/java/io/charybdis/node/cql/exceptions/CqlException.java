package io.charybdis.node.cql.exceptions;

/** An error a client sees, with the native-protocol error code Cassandra uses for it. */
public abstract class CqlException extends RuntimeException {
    private final int code;

    protected CqlException(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    protected CqlException(int code, String message, Throwable cause) {
        super(message, cause, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
