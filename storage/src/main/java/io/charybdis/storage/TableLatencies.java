package io.charybdis.storage;

/**
 * A table's local latencies, summed over shards: single-partition reads (from the read's start on the shard to its
 * result; range scans are not counted, as in Cassandra's table ReadLatency) and writes (commit log append and memtable
 * insert, not the wait for a commit log sync).
 */
public record TableLatencies(LatencyHistogram.Snapshot reads, LatencyHistogram.Snapshot writes) {
}
