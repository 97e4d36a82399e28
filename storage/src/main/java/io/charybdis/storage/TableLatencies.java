package io.charybdis.storage;

/**
 * A table's local read and write histograms, summed over shards: latencies of single-partition reads (from the read's
 * start on the shard to its result; range scans are not counted, as in Cassandra's table ReadLatency) and of writes
 * (commit log append and memtable insert, not the wait for a commit log sync); per read (single partition or a
 * shard's part of a range scan), the rows with live data and the tombstones it went through (Cassandra's
 * LiveScannedHistogram and TombstoneScannedHistogram, which nodetool tablestats shows per slice).
 */
public record TableLatencies(LatencyHistogram.Snapshot reads, LatencyHistogram.Snapshot writes,
                             LatencyHistogram.Snapshot liveScanned, LatencyHistogram.Snapshot tombstonesScanned) {
}
