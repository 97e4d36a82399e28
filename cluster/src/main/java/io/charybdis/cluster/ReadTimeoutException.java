package io.charybdis.cluster;

/** Fewer than the consistency level's replicas answered a read in time (Cassandra's ReadTimeout, 0x1200). */
public final class ReadTimeoutException extends CoordinatorException {
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final boolean dataPresent;

    public ReadTimeoutException(ConsistencyLevel consistency, int received, int blockFor, boolean dataPresent) {
        super("Operation timed out - received only " + received + " responses.");
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.dataPresent = dataPresent;
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

    public boolean dataPresent() {
        return dataPresent;
    }
}
