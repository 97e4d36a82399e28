package io.charybdis.cluster;

/**
 * Fewer than the consistency level's replicas acknowledged a write in time (Cassandra's WriteTimeout, 0x1100): the
 * write may still have been applied by some replicas.
 */
public final class WriteTimeoutException extends ReplicaTimeoutException {
    /** Cassandra's writeType names; the same strings go on the wire. */
    public enum WriteType { SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, BATCH_LOG, CAS, VIEW, CDC }

    private final WriteType writeType;

    public WriteTimeoutException(ConsistencyLevel consistency, int received, int blockFor, WriteType writeType) {
        super(consistency, received, blockFor);
        this.writeType = writeType;
    }

    public WriteType writeType() {
        return writeType;
    }
}
