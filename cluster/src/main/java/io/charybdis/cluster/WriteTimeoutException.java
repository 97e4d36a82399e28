package io.charybdis.cluster;

/**
 * Fewer than the consistency level's replicas acknowledged a write in time (Cassandra's WriteTimeout, 0x1100): the
 * write may still have been applied by some replicas.
 */
public final class WriteTimeoutException extends CoordinatorException {
    /** Cassandra's writeType names; the same strings go on the wire. */
    public enum WriteType { SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, BATCH_LOG, CAS, VIEW, CDC }

    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final WriteType writeType;

    public WriteTimeoutException(ConsistencyLevel consistency, int received, int blockFor, WriteType writeType) {
        super("Operation timed out - received only " + received + " responses.");
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.writeType = writeType;
    }

    public ConsistencyLevel consistency() {
        return consistency;
    }

    public int received() {
        return received;
    }

    public int blockFor() {
        return blockFor;
    }

    public WriteType writeType() {
        return writeType;
    }
}
