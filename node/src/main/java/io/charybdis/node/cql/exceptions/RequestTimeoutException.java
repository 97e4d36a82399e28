package io.charybdis.node.cql.exceptions;

import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.response.WriteType;

/**
 * READ_TIMEOUT (0x1200) or WRITE_TIMEOUT (0x1100): the request did not complete within its timeout (a statement's
 * {@code USING TIMEOUT}). {@code writeType} is null for a read.
 */
public final class RequestTimeoutException extends CqlException {
    private final Consistency consistency;
    private final int received;
    private final int blockFor;
    private final WriteType writeType;

    private RequestTimeoutException(int code, Consistency consistency, int received, int blockFor,
                                    WriteType writeType) {
        super(code, "Operation timed out - received only " + received + " responses.");
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.writeType = writeType;
    }

    public static RequestTimeoutException read(Consistency consistency, int blockFor) {
        return new RequestTimeoutException(0x1200, consistency, 0, blockFor, null);
    }

    public static RequestTimeoutException write(Consistency consistency, int blockFor, WriteType writeType) {
        return new RequestTimeoutException(0x1100, consistency, 0, blockFor, writeType);
    }

    public boolean isRead() {
        return writeType == null;
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

    public WriteType writeType() {
        return writeType;
    }
}
