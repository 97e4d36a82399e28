package io.charybdis.protocol.types;

/** A value that is not a valid serialization of its type; messages follow Cassandra's where reasonable. */
public class MarshalException extends RuntimeException {
    public MarshalException(String message) {
        super(message);
    }

    public MarshalException(String message, Throwable cause) {
        super(message, cause);
    }
}
