package io.charybdis.node.cql.exceptions;

import io.charybdis.protocol.Consistency;

import java.net.InetAddress;
import java.util.Map;

/**
 * READ_FAILURE (0x1300): a replica failed to execute the read, e.g. it scanned more tombstones than
 * tombstone_failure_threshold allows. {@code reasons}: per replica address, Cassandra's failure reason code
 * (1 = READ_TOO_MANY_TOMBSTONES).
 */
public final class ReadFailureException extends CqlException {
    public static final int READ_TOO_MANY_TOMBSTONES = 0x0001;

    private final Consistency consistency;
    private final int received;
    private final int blockFor;
    private final Map<InetAddress, Integer> reasons;

    public ReadFailureException(String message, Consistency consistency, int received, int blockFor,
                                Map<InetAddress, Integer> reasons) {
        super(0x1300, message);
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.reasons = Map.copyOf(reasons);
    }

    public Consistency consistency() {
        return consistency;
    }

    public int received() {
        return received;
    }

    public int blockFor() {
        return blockFor;
    }

    public Map<InetAddress, Integer> reasons() {
        return reasons;
    }
}
