package io.charybdis.protocol;

/**
 * A v5 frame whose header CRC24 or payload CRC32 does not match. Always fatal: the connection is closed, as
 * Cassandra does, since after a bad header the frame boundaries are lost.
 */
public class CrcMismatchException extends ProtocolException {
    private final long expected;
    private final long actual;
    private final boolean header;

    public CrcMismatchException(boolean header, long expected, long actual) {
        super((header ? "Frame header" : "Frame payload") + " CRC mismatch: read=0x" + Long.toHexString(expected)
                + " computed=0x" + Long.toHexString(actual), 0, true);
        this.expected = expected;
        this.actual = actual;
        this.header = header;
    }

    /** True for the CRC24 of the header, false for the CRC32 of the payload. */
    public boolean isHeader() {
        return header;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }

    @Override
    public CrcMismatchException withStreamId(int newStreamId) {
        return this;
    }
}
