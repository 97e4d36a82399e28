package io.charybdis.storage;

/** Row cache figures summed over shards (a snapshot; counters are monotonic). */
public record RowCacheStats(long entries, long bytes, long hits, long misses, long evictions, long invalidations) {
}
