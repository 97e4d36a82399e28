package io.charybdis.node.schema;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Table options ({@code WITH ...}), with Apache Cassandra 5.0's defaults. Maps are kept sorted by key, as
 * Cassandra shows them.
 */
public record TableParams(String additionalWritePolicy, boolean allowAutoSnapshot, double bloomFilterFpChance,
                          Map<String, String> caching, boolean cdc, String comment, Map<String, String> compaction,
                          Map<String, String> compression, String memtable, double crcCheckChance,
                          int defaultTimeToLive, Map<String, String> extensions, int gcGraceSeconds,
                          boolean incrementalBackups, int maxIndexInterval, int memtableFlushPeriodInMs,
                          int minIndexInterval, String readRepair, String speculativeRetry) {

    public static final String STCS = "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy";
    public static final String LZ4 = "org.apache.cassandra.io.compress.LZ4Compressor";

    public static TableParams defaults() {
        return new TableParams("99p", true, 0.01,
                sorted(Map.of("keys", "ALL", "rows_per_partition", "NONE")), false, "",
                sorted(Map.of("class", STCS, "max_threshold", "32", "min_threshold", "4")),
                sorted(Map.of("chunk_length_in_kb", "16", "class", LZ4)), "default", 1.0, 0, Map.of(), 864000,
                true, 2048, 0, 128, "BLOCKING", "99p");
    }

    public static Map<String, String> sorted(Map<String, String> m) {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(m));
    }

    /** Options as a name → CQL-literal-ready value map, in the order DESCRIBE prints them. */
    public Map<String, Object> asOptionMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("additional_write_policy", additionalWritePolicy);
        m.put("allow_auto_snapshot", allowAutoSnapshot);
        m.put("bloom_filter_fp_chance", bloomFilterFpChance);
        m.put("caching", caching);
        m.put("cdc", cdc);
        m.put("comment", comment);
        m.put("compaction", compaction);
        m.put("compression", compression);
        m.put("memtable", memtable);
        m.put("crc_check_chance", crcCheckChance);
        m.put("default_time_to_live", defaultTimeToLive);
        m.put("extensions", extensions);
        m.put("gc_grace_seconds", gcGraceSeconds);
        m.put("incremental_backups", incrementalBackups);
        m.put("max_index_interval", maxIndexInterval);
        m.put("memtable_flush_period_in_ms", memtableFlushPeriodInMs);
        m.put("min_index_interval", minIndexInterval);
        m.put("read_repair", readRepair);
        m.put("speculative_retry", speculativeRetry);
        return m;
    }
}
