package io.charybdis.cluster;

/** Fewer replicas than the consistency level asks for answered in time: how many did, of how many needed. */
public abstract class ReplicaTimeoutException extends CoordinatorException {
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;

    protected ReplicaTimeoutException(ConsistencyLevel consistency, int received, int blockFor) {
        super("Operation timed out - received only " + received + " responses.");
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
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
}
