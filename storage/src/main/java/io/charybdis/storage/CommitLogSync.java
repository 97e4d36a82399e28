package io.charybdis.storage;

/** When a write is acknowledged relative to the commit log fsync ({@code commitlog_sync}). */
public enum CommitLogSync {
    /** Acknowledge after the append; fsync every {@code commitLogSyncPeriodMillis}. */
    PERIODIC,
    /** Acknowledge only after the fsync covering the write; concurrent writes share one fsync. */
    BATCH,
    /** Like BATCH, but wait up to {@code commitLogGroupWindowMillis} to gather more writes into one fsync. */
    GROUP
}
