package io.charybdis.node.tools;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order of {@code tablestats -s KEY}, as Apache nodetool 5.0.6's StatsTableComparator sorts: descending by the
 * key; a NaN double counts as 0; sizes compare as numbers (parsed back from -H's form); ties by full name
 * ({@code ks.table}, ascending), except where Apache returns a tie early (both tables without a TWCS duration or a
 * SAI index ratio), which keeps the listing order. {@code full_name} and {@code table_name} sort by name only.
 * {@code dropped_mutations} is a key Apache accepts but cannot sort by: it fails the same way.
 *
 * <p>A row's figures are those of {@code -F}'s table map; the few a map holds as formatted text (latencies, the
 * Bloom filter ratio, the TWCS duration) come raw beside them.
 */
final class TableOrder implements Comparator<TableOrder.Row> {
    /** Apache's list of sort keys, in its order (its error message lists them so). */
    static final List<String> KEYS = List.of("average_live_cells_per_slice_last_five_minutes",
            "average_tombstones_per_slice_last_five_minutes", "bloom_filter_false_positives",
            "bloom_filter_false_ratio", "bloom_filter_off_heap_memory_used", "bloom_filter_space_used",
            "compacted_partition_maximum_bytes", "compacted_partition_mean_bytes", "compacted_partition_minimum_bytes",
            "compression_metadata_off_heap_memory_used", "dropped_mutations", "full_name",
            "index_summary_off_heap_memory_used", "local_read_count", "local_read_latency_ms",
            "local_write_latency_ms", "maximum_live_cells_per_slice_last_five_minutes",
            "maximum_tombstones_per_slice_last_five_minutes", "memtable_cell_count", "memtable_data_size",
            "memtable_off_heap_memory_used", "memtable_switch_count", "number_of_partitions_estimate",
            "off_heap_memory_used_total", "pending_flushes", "percent_repaired", "read_latency", "reads",
            "space_used_by_snapshots_total", "space_used_live", "space_used_total", "sstable_compression_ratio",
            "sstable_count", "table_name", "write_latency", "writes", "max_sstable_size", "local_read_write_ratio",
            "twcs_max_duration", "sai_local_query_latency_ms", "sai_post_filtering_read_latency",
            "sai_disk_used_bytes", "sai_sstable_indexes_hit", "sai_index_segments_hit", "sai_rows_filtered",
            "sai_total_query_timeouts", "sai_total_queryable_index_ratio");
    static final String TWCS_MILLIS = "twcs_max_duration";
    private static final int SIGN = -1; // descending

    /** A selected table: its bean {keyspace, table, name}, its -F figures, and the raw values beside them. */
    record Row(String[] bean, Map<String, Object> figures, Map<String, Object> raw) {
        String fullName() {
            return bean[0] + "." + bean[1];
        }
    }

    private final String key;
    private final boolean human;

    TableOrder(String key, boolean human) {
        this.key = key;
        this.human = human;
    }

    @Override
    public int compare(Row x, Row y) {
        Map<String, Object> a = x.figures();
        Map<String, Object> b = y.figures();
        int result;
        switch (key) {
            case "full_name" -> {
                return SIGN * x.fullName().compareTo(y.fullName());
            }
            case "table_name" -> {
                return SIGN * x.bean()[1].compareTo(y.bean()[1]);
            }
            case "twcs_max_duration" -> {
                Long dx = (Long) x.raw().get(TWCS_MILLIS);
                Long dy = (Long) y.raw().get(TWCS_MILLIS);
                if (dx == null || dy == null) {
                    return dx != null ? SIGN : dy != null ? -SIGN : 0;
                }
                result = SIGN * dx.compareTo(dy);
            }
            case "sai_total_queryable_index_ratio" -> {
                return 0; // no table here has SAI indexes: both ratios are null, a tie Apache returns at once
            }
            case "average_live_cells_per_slice_last_five_minutes", "average_tombstones_per_slice_last_five_minutes",
                 "percent_repaired", "sstable_compression_ratio", "sai_sstable_indexes_hit", "sai_index_segments_hit",
                 "sai_rows_filtered" -> result = doubles(number(a, key), number(b, key));
            case "bloom_filter_false_ratio", "local_read_latency_ms", "local_write_latency_ms",
                 "local_read_write_ratio" -> result = doubles(number(x.raw(), key), number(y.raw(), key));
            case "read_latency" -> result = doubles(number(x.raw(), "local_read_latency_ms"),
                    number(y.raw(), "local_read_latency_ms"));
            case "write_latency" -> result = doubles(number(x.raw(), "local_write_latency_ms"),
                    number(y.raw(), "local_write_latency_ms"));
            case "sai_local_query_latency_ms", "sai_post_filtering_read_latency" -> result = 0; // 0.0 for every table
            case "reads" -> result = longs(a, b, "local_read_count");
            case "writes" -> result = longs(a, b, "local_write_count");
            case "bloom_filter_false_positives", "compacted_partition_maximum_bytes", "compacted_partition_mean_bytes",
                 "compacted_partition_minimum_bytes", "local_read_count", "maximum_live_cells_per_slice_last_five_minutes",
                 "maximum_tombstones_per_slice_last_five_minutes", "memtable_cell_count", "memtable_switch_count",
                 "number_of_partitions_estimate", "pending_flushes", "max_sstable_size", "sstable_count",
                 "sai_total_query_timeouts" -> result = longs(a, b, key);
            case "bloom_filter_off_heap_memory_used", "bloom_filter_space_used",
                 "compression_metadata_off_heap_memory_used", "index_summary_off_heap_memory_used",
                 "memtable_data_size", "memtable_off_heap_memory_used", "off_heap_memory_used_total",
                 "space_used_by_snapshots_total", "space_used_live", "space_used_total", "sai_disk_used_bytes" ->
                    result = sizes((String) a.get(key), (String) b.get(key));
            // Apache's nodetool answers its IllegalStateException as a command-line error (exit 1): so do we
            default -> throw new IllegalArgumentException(String.format("Unsupported sort key: %s", key));
        }
        return result == 0 ? x.fullName().compareTo(y.fullName()) : result;
    }

    private static double number(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v == null ? Double.NaN : ((Number) v).doubleValue();
    }

    private static int longs(Map<String, Object> a, Map<String, Object> b, String key) {
        return SIGN * Long.compare(((Number) a.get(key)).longValue(), ((Number) b.get(key)).longValue());
    }

    /** Apache's compareDoubles: NaN against a number counts as 0, two NaNs tie. */
    private static int doubles(double x, double y) {
        if (Double.isNaN(x) && Double.isNaN(y)) {
            return 0;
        }
        return SIGN * Double.compare(Double.isNaN(x) ? 0d : x, Double.isNaN(y) ? 0d : y);
    }

    private int sizes(String x, String y) {
        if (x == null || y == null) {
            return x != null ? SIGN : y != null ? -SIGN : 0;
        }
        return SIGN * Long.compare(parse(x), parse(y));
    }

    /** A size as tablestats printed it: bytes, or -H's "1.5 KiB" (Cassandra's FileUtils.parseFileSize). */
    private long parse(String size) {
        if (!human) {
            return Long.parseLong(size);
        }
        String[] parts = size.split(" ");
        double n = Double.parseDouble(parts[0]);
        long unit = switch (parts[1]) {
            case "KiB" -> 1L << 10;
            case "MiB" -> 1L << 20;
            case "GiB" -> 1L << 30;
            case "TiB" -> 1L << 40;
            default -> 1L;
        };
        return Math.round(n * unit);
    }
}
