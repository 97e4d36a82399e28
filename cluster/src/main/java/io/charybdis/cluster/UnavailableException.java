package io.charybdis.cluster;

/**
 * Too few replicas are alive to reach the consistency level: nothing was sent to any replica. Cassandra's
 * Unavailable error (0x1000) with its fields.
 */
public final class UnavailableException extends CoordinatorException {
    private final ConsistencyLevel consistency;
    private final int required;
    private final int alive;

    public UnavailableException(ConsistencyLevel consistency, int required, int alive) {
        this("Cannot achieve consistency level " + consistency, consistency, required, alive);
    }

    public UnavailableException(String message, ConsistencyLevel consistency, int required, int alive) {
        super(message);
        this.consistency = consistency;
        this.required = required;
        this.alive = alive;
    }

    public ConsistencyLevel consistency() {
        return consistency;
    }

    public int required() {
        return required;
    }

    public int alive() {
        return alive;
    }
}
