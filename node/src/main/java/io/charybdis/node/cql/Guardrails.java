package io.charybdis.node.cql;

/**
 * The limits Cassandra puts on single requests, as cassandra.yaml sets them: batch sizes (batch_size_warn_threshold,
 * batch_size_fail_threshold) and tombstones scanned by a read (tombstone_warn_threshold,
 * tombstone_failure_threshold). One instance per node, read by every execution, so a change applies at once.
 */
public final class Guardrails {
    private volatile long batchSizeWarnBytes = 5 * 1024;
    private volatile long batchSizeFailBytes = 50 * 1024;
    private volatile int tombstoneWarn = 1000;
    private volatile int tombstoneFailure = 100_000;

    public long batchSizeWarnBytes() {
        return batchSizeWarnBytes;
    }

    public long batchSizeFailBytes() {
        return batchSizeFailBytes;
    }

    public void batchSize(long warnBytes, long failBytes) {
        this.batchSizeWarnBytes = warnBytes;
        this.batchSizeFailBytes = failBytes;
    }

    public int tombstoneWarn() {
        return tombstoneWarn;
    }

    public int tombstoneFailure() {
        return tombstoneFailure;
    }

    public void tombstones(int warn, int failure) {
        this.tombstoneWarn = warn;
        this.tombstoneFailure = failure;
    }
}
