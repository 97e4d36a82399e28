package io.charybdis.protocol.response;

/** The {@code writeType} string of WRITE_TIMEOUT and WRITE_FAILURE errors. */
public enum WriteType {
    SIMPLE,
    BATCH,
    UNLOGGED_BATCH,
    COUNTER,
    BATCH_LOG,
    CAS,
    VIEW,
    CDC
}
