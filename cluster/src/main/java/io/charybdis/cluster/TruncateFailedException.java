package io.charybdis.cluster;

/** A TRUNCATE that not every node confirmed in time (Cassandra's truncate error, 0x1003). */
public final class TruncateFailedException extends CoordinatorException {
    public TruncateFailedException(int responses) {
        super("Truncate timed out - received only " + responses + " responses");
    }
}
