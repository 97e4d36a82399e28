package io.charybdis.cluster;

/** Fewer than the consistency level's replicas answered a read in time (Cassandra's ReadTimeout, 0x1200). */
public final class ReadTimeoutException extends ReplicaTimeoutException {
    private final boolean dataPresent;

    public ReadTimeoutException(ConsistencyLevel consistency, int received, int blockFor, boolean dataPresent) {
        super(consistency, received, blockFor);
        this.dataPresent = dataPresent;
    }

    public boolean dataPresent() {
        return dataPresent;
    }
}
