package io.charybdis.node.tools;

import io.charybdis.node.jmx.FileSizes;
import java.io.PrintStream;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeSet;
import javax.management.ObjectName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * bin/nodetool's table and network statistics and repair: tablestats, ring, netstats, tablehistograms and repair, over
 * the beans Apache's nodetool 5.0 reads, printed as it prints them. Apache 5.0.6 has no cfstats or cfhistograms alias
 * any more (it answers them as unknown commands), and neither does this.
 */
final class StatsCommands {
    private StatsCommands() {
    }

    /** A table's metric bean ({@code org.apache.cassandra.metrics:type=Table,...}). */
    static String tableMetric(String ks, String table, String name) {
        String type = table.contains(".") ? "IndexTable" : "Table";
        return "org.apache.cassandra.metrics:type=" + type + ",keyspace=" + ks + ",scope=" + table + ",name=" + name;
    }

    /** A gauge's value, or a counter's count (as Apache's NodeProbe reads each kind of table metric). */
    static Object value(NodeTool.Probe probe, String ks, String table, String name) throws Exception {
        try {
            return probe.get(tableMetric(ks, table, name), "Value");
        } catch (javax.management.AttributeNotFoundException e) {
            return probe.get(tableMetric(ks, table, name), "Count");
        }
    }

    static long number(NodeTool.Probe probe, String ks, String table, String name) throws Exception {
        return ((Number) value(probe, ks, table, name)).longValue();
    }

    static long count(NodeTool.Probe probe, String ks, String table, String name) throws Exception {
        return ((Number) probe.get(tableMetric(ks, table, name), "Count")).longValue();
    }

    /** Apache's byte sizes with a binary prefix and no space ("0B", "6.793KiB"). */
    static String prettyMemory(long size) {
        int prefix = (63 - Long.numberOfLeadingZeros(Math.abs(size))) / 10;
        if (prefix == 0) {
            return String.format("%dB", size);
        }
        return String.format("%.3f%ciB", Math.scalb((double) size, -prefix * 10), " KMGTPE".charAt(prefix));
    }

    /** The tables' beans as Apache's nodetool lists them: keyspace, then table name (tables before indexes). */
    static List<String[]> tableBeans(NodeTool.Probe probe) throws Exception {
        TreeSet<String> sorted = new TreeSet<>();
        List<String[]> r = new ArrayList<>();
        for (String type : List.of("ColumnFamilies", "IndexColumnFamilies")) {
            for (ObjectName n : probe.mbs.queryNames(new ObjectName("org.apache.cassandra.db:type=" + type
                    + ",keyspace=*,columnfamily=*"), null)) {
                sorted.add(n.getKeyProperty("keyspace") + "\u0000" + n.getKeyProperty("columnfamily") + "\u0000"
                        + n);
            }
        }
        for (String s : sorted) {
            r.add(s.split("\u0000", 3));
        }
        return r;
    }

    @Command(name = "tablestats", description = "Print statistics on tables")
    static final class TableStats extends NodeTool.Sub {
        @Parameters(description = "[<keyspace.table>...]")
        List<String> filters = new ArrayList<>();
        @Option(names = {"-i"}, description = "Ignore the list of tables and display the remaining tables")
        boolean ignore;
        @Option(names = {"-H", "--human-readable"}, description = "Display bytes in human readable form")
        boolean human;
        @Option(names = {"-F", "--format"}, description = "Output format (json, yaml)")
        String format = "";
        @Option(names = {"-s", "--sort"}, description = "Sort tables by a metric")
        String sortKey = "";
        @Option(names = {"-t", "--top"}, description = "Show only the top K tables for the sort key")
        int top;
        @Option(names = {"-l", "--sstable-location-check"}, description = "Check whether SSTables are in the right "
                + "location")
        boolean locationCheck;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            StatsFormat.check(format);
            if (!sortKey.isEmpty() && !TableOrder.KEYS.contains(sortKey)) {
                throw new IllegalArgumentException("argument for sort must be one of: "
                        + String.join(", ", TableOrder.KEYS));
            }
            if (top > 0 && sortKey.isEmpty()) {
                throw new IllegalArgumentException("cannot filter top K tables without specifying a sort key.");
            }
            if (top < 0) {
                throw new IllegalArgumentException("argument for top must be a positive integer.");
            }
            Map<String, List<String>> filter = new HashMap<>();
            Map<String, List<String>> unseen = new HashMap<>();
            for (String f : filters) {
                String[] kt = f.split("\\.", 2);
                filter.computeIfAbsent(kt[0], k -> new ArrayList<>());
                unseen.computeIfAbsent(kt[0], k -> new ArrayList<>());
                if (kt.length == 2) {
                    filter.get(kt[0]).add(kt[1]);
                    unseen.get(kt[0]).add(kt[1]);
                }
            }
            // keyspace -> its selected tables, in a map sized as Guava's ArrayListMultimap sizes it (Apache's order)
            Map<String, List<String[]>> selected = new HashMap<>(16);
            Map<String, long[]> ksCounts = new HashMap<>();
            Map<String, double[]> ksTimes = new HashMap<>();
            int numberOfTables = 0;
            for (String[] bean : tableBeans(probe)) {
                String ks = bean[0];
                String table = bean[1];
                boolean ksIncluded = filters.isEmpty() ? !ignore : filter.get(ks) != null || ignore;
                if (!ksIncluded) {
                    continue;
                }
                long[] c = ksCounts.computeIfAbsent(ks, k -> new long[3]);
                double[] t = ksTimes.computeIfAbsent(ks, k -> new double[2]);
                long reads = count(probe, ks, table, "ReadLatency");
                long writes = count(probe, ks, table, "WriteLatency");
                if (reads > 0) {
                    c[0] += reads;
                    t[0] += count(probe, ks, table, "ReadTotalLatency");
                }
                if (writes > 0) {
                    c[1] += writes;
                    t[1] += count(probe, ks, table, "WriteTotalLatency");
                }
                c[2] += count(probe, ks, table, "PendingFlushes");
                boolean included;
                if (filters.isEmpty()) {
                    included = !ignore;
                } else {
                    List<String> tables = filter.get(ks);
                    if (tables == null) {
                        included = ignore;
                    } else if (tables.isEmpty()) {
                        included = !ignore;
                    } else {
                        unseen.get(ks).remove(table);
                        included = ignore ^ tables.contains(table);
                    }
                }
                if (included) {
                    numberOfTables++;
                    NodeTool.multimapValues(selected, ks, ArrayList::new).add(bean);
                }
            }
            List<String> keyspaces = (List<String>) probe.get(NodeTool.SS, "Keyspaces");
            for (String ks : unseen.keySet()) {
                if (!keyspaces.contains(ks)) {
                    throw new IllegalArgumentException("Unknown keyspace: " + ks);
                }
            }
            for (String ks : filter.keySet()) {
                if (!unseen.get(ks).isEmpty()) {
                    throw new IllegalArgumentException("Unknown tables: " + unseen.get(ks) + " in keyspace: " + ks);
                }
            }
            if (!sortKey.isEmpty()) {
                sorted(probe, selected, numberOfTables, out);
                return;
            }
            if (!format.isEmpty()) {
                // Apache's TableStatsHolder: the number of tables, then each keyspace's figures with its tables'
                HashMap<String, Object> figures = new HashMap<>();
                figures.put("total_number_of_tables", numberOfTables);
                for (Map.Entry<String, List<String[]>> e : selected.entrySet()) {
                    long[] c = ksCounts.get(e.getKey());
                    double[] t = ksTimes.get(e.getKey());
                    double readLatency = c[0] > 0 ? t[0] / c[0] / 1000 : Double.NaN;
                    HashMap<String, Object> keyspace = new HashMap<>();
                    keyspace.put("read_latency", readLatency);
                    keyspace.put("read_count", c[0]);
                    keyspace.put("read_latency_ms", readLatency);
                    keyspace.put("write_count", c[1]);
                    keyspace.put("write_latency_ms", c[1] > 0 ? t[1] / c[1] / 1000 : Double.NaN);
                    keyspace.put("pending_flushes", (int) c[2]);
                    HashMap<String, Object> tables = new HashMap<>();
                    for (String[] bean : e.getValue()) {
                        tables.put(bean[1], tableFigures(probe, bean, new HashMap<>()));
                    }
                    keyspace.put("tables", tables);
                    figures.put(e.getKey(), keyspace);
                }
                StatsFormat.print(format, figures, out);
                return;
            }
            StringBuilder text = new StringBuilder();
            text.append("Total number of tables: ").append(numberOfTables).append('\n');
            text.append("----------------\n");
            for (Map.Entry<String, List<String[]>> e : selected.entrySet()) {
                String ks = e.getKey();
                long[] c = ksCounts.get(ks);
                double[] t = ksTimes.get(ks);
                text.append("Keyspace: ").append(ks).append('\n');
                text.append("\tRead Count: ").append(c[0]).append('\n');
                text.append("\tRead Latency: ").append(c[0] > 0 ? t[0] / c[0] / 1000 : Double.NaN).append(" ms\n");
                text.append("\tWrite Count: ").append(c[1]).append('\n');
                text.append("\tWrite Latency: ").append(c[1] > 0 ? t[1] / c[1] / 1000 : Double.NaN).append(" ms\n");
                text.append("\tPending Flushes: ").append((int) c[2]).append('\n');
                for (String[] bean : e.getValue()) {
                    table(probe, bean, text, "\t\t", bean[1]);
                }
                text.append("----------------\n");
            }
            out.print(text);
        }

        private String bytes(long n) {
            return human ? FileSizes.stringify(n) : Long.toString(n);
        }

        @SuppressWarnings("unchecked")
        private void table(NodeTool.Probe probe, String[] bean, StringBuilder text, String in, String displayName)
                throws Exception {
            String ks = bean[0];
            String t = bean[1];
            String cfs = bean[2];
            List<String> lines = new ArrayList<>();
            lines.add("Table" + (t.contains(".") ? " (index): " : ": ") + displayName);
            lines.add("SSTable count: " + value(probe, ks, t, "LiveSSTableCount"));
            lines.add("Old SSTable count: " + value(probe, ks, t, "OldVersionSSTableCount"));
            Object max = value(probe, ks, t, "MaxSSTableSize");
            lines.add("Max SSTable size: " + prettyMemory(max == null ? 0 : ((Number) max).longValue()));
            Map<String, String> compaction = (Map<String, String>) probe.get(cfs, "CompactionParameters");
            String strategy = compaction == null ? null : compaction.get("class");
            if (strategy != null && strategy.endsWith("TimeWindowCompactionStrategy")) {
                long millis = ((Number) value(probe, ks, t, "MaxSSTableDuration")).longValue();
                lines.add(String.format("SSTables Time Window: %s %s, max duration: %s",
                        compaction.get("compaction_window_size"), compaction.get("compaction_window_unit"),
                        durationWords(millis)));
            }
            int[] levels = (int[]) probe.get(cfs, "SSTableCountPerLevel");
            long[] levelBytes = (long[]) probe.get(cfs, "PerLevelSizeBytes");
            if (levels != null || levelBytes != null) {
                List<String> counts = new ArrayList<>();
                if (levels != null) {
                    counts.addAll(levelCounts(levels, (Integer) probe.get(cfs, "LevelFanoutSize")));
                }
                List<String> sizes = new ArrayList<>();
                if (levelBytes != null) {
                    for (long b : levelBytes) {
                        sizes.add(bytes(b));
                    }
                }
                lines.add("SSTables in each level: [" + String.join(", ", counts) + "]");
                lines.add("SSTable bytes in each level: [" + String.join(", ", sizes) + "]");
            }
            long memtableOffHeap = ((Number) value(probe, ks, t, "MemtableOffHeapSize")).longValue();
            long bloomOffHeap = ((Number) value(probe, ks, t, "BloomFilterOffHeapMemoryUsed")).longValue();
            long summaryOffHeap = ((Number) value(probe, ks, t, "IndexSummaryOffHeapMemoryUsed")).longValue();
            long compressionOffHeap = number(probe, ks, t, "CompressionMetadataOffHeapMemoryUsed");
            double repaired = ((Number) value(probe, ks, t, "PercentRepaired")).doubleValue();
            lines.add("Space used (live): " + bytes(((Number) value(probe, ks, t, "LiveDiskSpaceUsed")).longValue()));
            lines.add("Space used (total): " + bytes(((Number) value(probe, ks, t, "TotalDiskSpaceUsed")).longValue()));
            lines.add("Space used by snapshots (total): "
                    + bytes(((Number) value(probe, ks, t, "SnapshotsSize")).longValue()));
            lines.add("Off heap memory used (total): "
                    + bytes(memtableOffHeap + bloomOffHeap + summaryOffHeap + compressionOffHeap));
            lines.add(String.format("SSTable Compression Ratio: %01.5f", value(probe, ks, t, "CompressionRatio")));
            Object partitions = value(probe, ks, t, "EstimatedPartitionCount");
            lines.add("Number of partitions (estimate): " + (Long.valueOf(-1L).equals(partitions) ? 0L : partitions));
            lines.add("Memtable cell count: " + value(probe, ks, t, "MemtableColumnsCount"));
            lines.add("Memtable data size: " + bytes(number(probe, ks, t, "MemtableLiveDataSize")));
            lines.add("Memtable off heap memory used: " + bytes(memtableOffHeap));
            lines.add("Memtable switch count: " + count(probe, ks, t, "MemtableSwitchCount"));
            lines.add("Speculative retries: " + count(probe, ks, t, "SpeculativeRetries"));
            String read = tableMetric(ks, t, "ReadLatency");
            String write = tableMetric(ks, t, "WriteLatency");
            long reads = ((Number) probe.get(read, "Count")).longValue();
            long writes = ((Number) probe.get(write, "Count")).longValue();
            double readMs = ((Number) probe.get(read, "Mean")).doubleValue() / 1000;
            double writeMs = ((Number) probe.get(write, "Mean")).doubleValue() / 1000;
            lines.add("Local read count: " + reads);
            lines.add(String.format("Local read latency: %01.3f ms", readMs > 0 ? readMs : Double.NaN));
            lines.add("Local write count: " + writes);
            lines.add(String.format("Local write latency: %01.3f ms", writeMs > 0 ? writeMs : Double.NaN));
            lines.add(String.format("Local read/write ratio: %01.5f", writes > 0 ? reads / (double) writes : 0d));
            lines.add("Pending flushes: " + count(probe, ks, t, "PendingFlushes"));
            lines.add("Percent repaired: " + Math.round(100 * repaired) / 100.0);
            lines.add("Bytes repaired: " + prettyMemory(((Number) value(probe, ks, t, "BytesRepaired")).longValue()));
            lines.add("Bytes unrepaired: " + prettyMemory(number(probe, ks, t, "BytesUnrepaired")));
            lines.add("Bytes pending repair: "
                    + prettyMemory(((Number) value(probe, ks, t, "BytesPendingRepair")).longValue()));
            lines.add("Bloom filter false positives: " + value(probe, ks, t, "BloomFilterFalsePositives"));
            lines.add(String.format("Bloom filter false ratio: %01.5f",
                    value(probe, ks, t, "RecentBloomFilterFalseRatio")));
            lines.add("Bloom filter space used: "
                    + bytes(((Number) value(probe, ks, t, "BloomFilterDiskSpaceUsed")).longValue()));
            lines.add("Bloom filter off heap memory used: " + bytes(bloomOffHeap));
            lines.add("Index summary off heap memory used: " + bytes(summaryOffHeap));
            lines.add("Compression metadata off heap memory used: " + bytes(compressionOffHeap));
            lines.add("Compacted partition minimum bytes: " + value(probe, ks, t, "MinPartitionSize"));
            lines.add("Compacted partition maximum bytes: " + value(probe, ks, t, "MaxPartitionSize"));
            lines.add("Compacted partition mean bytes: " + value(probe, ks, t, "MeanPartitionSize"));
            String live = tableMetric(ks, t, "LiveScannedHistogram");
            String tombstones = tableMetric(ks, t, "TombstoneScannedHistogram");
            lines.add("Average live cells per slice (last five minutes): " + probe.get(live, "Mean"));
            lines.add("Maximum live cells per slice (last five minutes): " + probe.get(live, "Max"));
            lines.add("Average tombstones per slice (last five minutes): " + probe.get(tombstones, "Mean"));
            lines.add("Maximum tombstones per slice (last five minutes): " + probe.get(tombstones, "Max"));
            lines.add(String.format("Droppable tombstone ratio: %01.5f", probe.get(cfs, "DroppableTombstoneRatio")));
            if (locationCheck) {
                lines.add("SSTables in correct location: " + inCorrectLocation(probe, cfs));
            }
            Map<String, Long> bySize = (Map<String, Long>) probe.get(cfs, "TopSizePartitions");
            if (bySize != null && !bySize.isEmpty()) {
                Map<String, String> formatted = new LinkedHashMap<>();
                bySize.forEach((k, v) -> formatted.put(k, bytes(v)));
                lines.add(String.format("Top partitions by size (last update: %s):",
                        utc((Long) probe.get(cfs, "TopSizePartitionsLastUpdate"))));
                top(lines, formatted, "Size");
            }
            Map<String, Long> byTombstones = (Map<String, Long>) probe.get(cfs, "TopTombstonePartitions");
            if (byTombstones != null && !byTombstones.isEmpty()) {
                lines.add(String.format("Top partitions by tombstone count (last update: %s):",
                        utc((Long) probe.get(cfs, "TopTombstonePartitionsLastUpdate"))));
                top(lines, byTombstones, "Count");
            }
            for (String line : lines) {
                text.append(in).append(line).append('\n');
            }
            text.append('\n');
        }

        /**
         * One table's figures as Apache's TableStatsHolder puts them in its map (-F json|yaml): a hash map filled in
         * Apache's order, sizes as text (bytes, or -H's human form), latencies and ratios formatted as Apache
         * formats them, the SAI figures at their values for a table without SAI indexes (Charybdis has none).
         */
        @SuppressWarnings("unchecked")
        private Map<String, Object> tableFigures(NodeTool.Probe probe, String[] bean, Map<String, Object> raw)
                throws Exception {
            String ks = bean[0];
            String t = bean[1];
            String cfs = bean[2];
            List<String> levels = new ArrayList<>();
            int[] perLevel = (int[]) probe.get(cfs, "SSTableCountPerLevel");
            if (perLevel != null) {
                levels.addAll(levelCounts(perLevel, (Integer) probe.get(cfs, "LevelFanoutSize")));
            }
            List<String> levelBytes = new ArrayList<>();
            long[] perLevelBytes = (long[]) probe.get(cfs, "PerLevelSizeBytes");
            if (perLevelBytes != null) {
                for (long b : perLevelBytes) {
                    levelBytes.add(bytes(b));
                }
            }
            String twcs = null;
            Map<String, String> compaction = (Map<String, String>) probe.get(cfs, "CompactionParameters");
            String strategy = compaction == null ? null : compaction.get("class");
            if (strategy != null && strategy.endsWith("TimeWindowCompactionStrategy")) {
                long millis = ((Number) value(probe, ks, t, "MaxSSTableDuration")).longValue();
                raw.put(TableOrder.TWCS_MILLIS, millis);
                twcs = String.format("%s %s, max duration: %s", compaction.get("compaction_window_size"),
                        compaction.get("compaction_window_unit"), durationWords(millis));
            }
            long memtableOffHeap = ((Number) value(probe, ks, t, "MemtableOffHeapSize")).longValue();
            long bloomOffHeap = ((Number) value(probe, ks, t, "BloomFilterOffHeapMemoryUsed")).longValue();
            long summaryOffHeap = ((Number) value(probe, ks, t, "IndexSummaryOffHeapMemoryUsed")).longValue();
            long compressionOffHeap = number(probe, ks, t, "CompressionMetadataOffHeapMemoryUsed");
            Object max = value(probe, ks, t, "MaxSSTableSize");
            Object partitions = value(probe, ks, t, "EstimatedPartitionCount");
            String read = tableMetric(ks, t, "ReadLatency");
            String write = tableMetric(ks, t, "WriteLatency");
            long reads = ((Number) probe.get(read, "Count")).longValue();
            long writes = ((Number) probe.get(write, "Count")).longValue();
            double readMs = ((Number) probe.get(read, "Mean")).doubleValue() / 1000;
            double writeMs = ((Number) probe.get(write, "Mean")).doubleValue() / 1000;
            String live = tableMetric(ks, t, "LiveScannedHistogram");
            String tombstones = tableMetric(ks, t, "TombstoneScannedHistogram");
            Map<String, Long> bySize = (Map<String, Long>) probe.get(cfs, "TopSizePartitions");
            Map<String, String> bySizeText = null;
            if (bySize != null) {
                bySizeText = new LinkedHashMap<>();
                for (Map.Entry<String, Long> e : bySize.entrySet()) {
                    bySizeText.put(e.getKey(), bytes(e.getValue()));
                }
            }
            Object bloomRatio = value(probe, ks, t, "RecentBloomFilterFalseRatio");
            raw.put("bloom_filter_false_ratio", bloomRatio);
            raw.put("local_read_latency_ms", readMs > 0 ? readMs : Double.NaN);
            raw.put("local_write_latency_ms", writeMs > 0 ? writeMs : Double.NaN);
            raw.put("local_read_write_ratio", writes > 0 ? reads / (double) writes : 0d);
            Map<String, Object> m = new HashMap<>();
            m.put("sstable_count", value(probe, ks, t, "LiveSSTableCount"));
            m.put("old_sstable_count", value(probe, ks, t, "OldVersionSSTableCount"));
            m.put("sstables_in_each_level", levels);
            m.put("sstable_bytes_in_each_level", levelBytes);
            m.put("max_sstable_size", max == null ? 0L : ((Number) max).longValue());
            m.put("twcs", twcs);
            m.put("space_used_live", bytes(((Number) value(probe, ks, t, "LiveDiskSpaceUsed")).longValue()));
            m.put("space_used_total", bytes(((Number) value(probe, ks, t, "TotalDiskSpaceUsed")).longValue()));
            m.put("space_used_by_snapshots_total", bytes(((Number) value(probe, ks, t, "SnapshotsSize")).longValue()));
            m.put("off_heap_memory_used_total", bytes(memtableOffHeap + bloomOffHeap + summaryOffHeap
                    + compressionOffHeap));
            m.put("sstable_compression_ratio", value(probe, ks, t, "CompressionRatio"));
            m.put("number_of_partitions_estimate", Long.valueOf(-1L).equals(partitions) ? 0L : partitions);
            m.put("memtable_cell_count", value(probe, ks, t, "MemtableColumnsCount"));
            m.put("memtable_data_size", bytes(number(probe, ks, t, "MemtableLiveDataSize")));
            m.put("memtable_off_heap_memory_used", bytes(memtableOffHeap));
            m.put("memtable_switch_count", value(probe, ks, t, "MemtableSwitchCount"));
            m.put("speculative_retries", value(probe, ks, t, "SpeculativeRetries"));
            m.put("local_read_count", reads);
            m.put("local_read_latency_ms", String.format("%01.3f", readMs > 0 ? readMs : Double.NaN));
            m.put("local_write_count", writes);
            m.put("local_write_latency_ms", String.format("%01.3f", writeMs > 0 ? writeMs : Double.NaN));
            m.put("local_read_write_ratio", String.format("%01.5f", writes > 0 ? reads / (double) writes : 0d));
            m.put("pending_flushes", value(probe, ks, t, "PendingFlushes"));
            m.put("percent_repaired",
                    Math.round(100 * ((Number) value(probe, ks, t, "PercentRepaired")).doubleValue()) / 100.0);
            m.put("bytes_repaired", ((Number) value(probe, ks, t, "BytesRepaired")).longValue());
            m.put("bytes_unrepaired", number(probe, ks, t, "BytesUnrepaired"));
            m.put("bytes_pending_repair", ((Number) value(probe, ks, t, "BytesPendingRepair")).longValue());
            m.put("bloom_filter_false_positives", value(probe, ks, t, "BloomFilterFalsePositives"));
            m.put("bloom_filter_false_ratio", String.format("%01.5f", bloomRatio));
            m.put("bloom_filter_space_used", bytes(((Number) value(probe, ks, t, "BloomFilterDiskSpaceUsed"))
                    .longValue()));
            m.put("bloom_filter_off_heap_memory_used", bytes(bloomOffHeap));
            m.put("index_summary_off_heap_memory_used", bytes(summaryOffHeap));
            m.put("compression_metadata_off_heap_memory_used", bytes(compressionOffHeap));
            m.put("compacted_partition_minimum_bytes", ((Number) value(probe, ks, t, "MinPartitionSize")).longValue());
            m.put("compacted_partition_maximum_bytes", ((Number) value(probe, ks, t, "MaxPartitionSize")).longValue());
            m.put("compacted_partition_mean_bytes", ((Number) value(probe, ks, t, "MeanPartitionSize")).longValue());
            m.put("average_live_cells_per_slice_last_five_minutes", ((Number) probe.get(live, "Mean")).doubleValue());
            m.put("maximum_live_cells_per_slice_last_five_minutes", ((Number) probe.get(live, "Max")).longValue());
            m.put("average_tombstones_per_slice_last_five_minutes",
                    ((Number) probe.get(tombstones, "Mean")).doubleValue());
            m.put("maximum_tombstones_per_slice_last_five_minutes",
                    ((Number) probe.get(tombstones, "Max")).longValue());
            m.put("droppable_tombstone_ratio", String.format("%01.5f", probe.get(cfs, "DroppableTombstoneRatio")));
            m.put("top_size_partitions", bySizeText);
            m.put("top_tombstone_partitions", probe.get(cfs, "TopTombstonePartitions"));
            if (locationCheck) {
                m.put("sstables_in_correct_location", inCorrectLocation(probe, cfs));
            }
            m.put("sai_local_query_latency_ms", String.format("%01.3f", 0d));
            m.put("sai_post_filtering_read_latency", String.format("%01.3f", 0d));
            m.put("sai_disk_used_bytes", null);
            m.put("sai_sstable_indexes_hit", 0d);
            m.put("sai_index_segments_hit", 0d);
            m.put("sai_rows_filtered", 0d);
            m.put("sai_total_query_timeouts", 0L);
            m.put("sai_total_queryable_index_ratio", null);
            return m;
        }

        /**
         * {@code -s/--sort} (and {@code -t/--top}): every selected table, sorted by the key as Apache's
         * StatsTableComparator sorts (descending, ties by full name), the first K of them; as text (Apache's
         * SortedDefaultPrinter: each table under its full name) or as one map keyed by full name.
         */
        private void sorted(NodeTool.Probe probe, Map<String, List<String[]>> selected, int numberOfTables,
                            PrintStream out) throws Exception {
            List<TableOrder.Row> rows = new ArrayList<>();
            for (List<String[]> beans : selected.values()) {
                for (String[] bean : beans) {
                    Map<String, Object> raw = new HashMap<>();
                    rows.add(new TableOrder.Row(bean, tableFigures(probe, bean, raw), raw));
                }
            }
            rows.sort(new TableOrder(sortKey, human));
            if (top > 0 && top < rows.size()) {
                rows = rows.subList(0, top);
            }
            if (!format.isEmpty()) {
                HashMap<String, Object> figures = new HashMap<>();
                figures.put("total_number_of_tables", numberOfTables);
                for (TableOrder.Row r : rows) {
                    figures.put(r.fullName(), r.figures());
                }
                StatsFormat.print(format, figures, out);
                return;
            }
            if (rows.isEmpty()) {
                return;
            }
            StringBuilder text = new StringBuilder("Total number of tables: " + numberOfTables);
            if (top > 0) {
                text.append(String.format(" (showing top %d by %s)", Math.min(top, numberOfTables), sortKey));
            }
            text.append("\n----------------\n");
            for (TableOrder.Row r : rows) {
                table(probe, r.bean(), text, "\t", r.fullName());
            }
            text.append("----------------\n");
            out.print(text);
        }

        /** -l: whether the table's SSTables are all in the data directory they belong to (hasMisplacedSSTables). */
        private static boolean inCorrectLocation(NodeTool.Probe probe, String cfs) throws Exception {
            return !(Boolean) probe.invoke(cfs, "hasMisplacedSSTables", new Object[0], new String[0]);
        }

        private static void top(List<String> lines, Map<String, ?> entries, String header) {
            int width = 5;
            for (String k : entries.keySet()) {
                width = Math.max(width, k.length() + 3);
            }
            lines.add(String.format("  %-" + width + "s %s", "Key", header));
            for (Map.Entry<String, ?> e : entries.entrySet()) {
                lines.add(String.format("  %-" + width + "s %s", e.getKey(), e.getValue()));
            }
        }

        private static String utc(Long millis) {
            if (millis == null) {
                return "null";
            }
            SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
            f.setTimeZone(TimeZone.getTimeZone("UTC"));
            return f.format(new Date(millis));
        }

        /** A duration in words, leading and trailing zero parts left out ("1 day 2 hours"). */
        static String durationWords(long millis) {
            long[] parts = {millis / 86_400_000L, millis / 3_600_000L % 24, millis / 60_000L % 60, millis / 1000 % 60};
            String[] units = {"day", "hour", "minute", "second"};
            int first = 0;
            while (first < 3 && parts[first] == 0) {
                first++;
            }
            int last = 3;
            while (last > first && parts[last] == 0) {
                last--;
            }
            StringBuilder s = new StringBuilder();
            for (int i = first; i <= last; i++) {
                if (s.length() > 0) {
                    s.append(' ');
                }
                s.append(parts[i]).append(' ').append(units[i]).append(parts[i] == 1 ? "" : "s");
            }
            return s.toString();
        }
    }

    @Command(name = "ring", description = "Print information about the token ring")
    static final class Ring extends NodeTool.Sub {
        @Parameters(arity = "0..1", description = "Specify a keyspace for accurate ownership information (topology "
                + "awareness)")
        String keyspace;
        @Option(names = {"-r", "--resolve-ip"}, description = "Show node domain names instead of IPs")
        boolean resolveIp;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            List<String> live = (List<String>) probe.get(NodeTool.SS, "LiveNodesWithPort");
            List<String> dead = (List<String>) probe.get(NodeTool.SS, "UnreachableNodesWithPort");
            List<String> joining = (List<String>) probe.get(NodeTool.SS, "JoiningNodesWithPort");
            List<String> leaving = (List<String>) probe.get(NodeTool.SS, "LeavingNodesWithPort");
            List<String> moving = (List<String>) probe.get(NodeTool.SS, "MovingNodesWithPort");
            Map<String, String> loads = (Map<String, String>) probe.get(NodeTool.SS, "LoadMapWithPort");
            Map<String, String> tokens = (Map<String, String>) probe.get(NodeTool.SS, "TokenToEndpointWithPortMap");
            // endpoint -> its tokens, in the token map's order; vnodes when an endpoint has more than one
            Map<String, List<String>> byEndpoint = new LinkedHashMap<>();
            boolean vnodes = false;
            int width = 0;
            for (Map.Entry<String, String> e : tokens.entrySet()) {
                vnodes |= byEndpoint.containsKey(e.getValue());
                byEndpoint.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
                width = Math.max(width, e.getValue().length());
            }
            String format = "%-" + width + "s  %-12s%-7s%-8s%-16s%-20s%-44s%n";
            StringBuilder errors = new StringBuilder();
            boolean effective = true;
            Map<String, Float> ownership;
            try {
                ownership = (Map<String, Float>) probe.invoke(NodeTool.SS, "effectiveOwnershipWithPort",
                        new Object[] {keyspace}, new String[] {String.class.getName()});
            } catch (javax.management.MBeanException | javax.management.RuntimeMBeanException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IllegalStateException) {
                    ownership = (Map<String, Float>) probe.invoke(NodeTool.SS, "getOwnershipWithPort",
                            new Object[0], new String[0]);
                    errors.append("Note: ").append(cause.getMessage()).append("%n");
                    effective = false;
                } else if (cause instanceof IllegalArgumentException) {
                    out.printf("%nError: %s%n", cause.getMessage());
                    throw new NodeTool.Failed();
                } else {
                    throw e;
                }
            }
            // datacenter -> (token, endpoint) in token order, datacenters as first met
            Map<String, List<String[]>> byDc = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : tokens.entrySet()) {
                String dc = (String) probe.invoke(NodeTool.SNITCH, "getDatacenter", new Object[] {e.getValue()},
                        new String[] {String.class.getName()});
                byDc.computeIfAbsent(dc, k -> new ArrayList<>()).add(new String[] {e.getKey(), e.getValue()});
            }
            out.println();
            java.text.DecimalFormat pct = new java.text.DecimalFormat("##0.00%");
            for (Map.Entry<String, List<String[]>> dc : byDc.entrySet()) {
                out.println("Datacenter: " + dc.getKey());
                out.println("==========");
                List<String[]> stats = dc.getValue();
                List<String> last = byEndpoint.get(stats.get(stats.size() - 1)[1]);
                out.printf(format, "Address", "Rack", "Status", "State", "Load", "Owns", "Token");
                if (stats.size() > 1) {
                    out.printf(format, "", "", "", "", "", "", last.get(last.size() - 1));
                } else {
                    out.println();
                }
                for (String[] stat : stats) {
                    String endpoint = stat[1];
                    String rack = (String) probe.invoke(NodeTool.SNITCH, "getRack", new Object[] {endpoint},
                            new String[] {String.class.getName()});
                    String status = live.contains(endpoint) ? "Up" : dead.contains(endpoint) ? "Down" : "?";
                    String state = joining.contains(endpoint) ? "Joining" : leaving.contains(endpoint) ? "Leaving"
                            : moving.contains(endpoint) ? "Moving" : "Normal";
                    Float owns = ownership.get(endpoint);
                    String host = endpoint.lastIndexOf(':') > 0 ? endpoint.substring(0, endpoint.lastIndexOf(':'))
                            : endpoint;
                    if (resolveIp) {
                        host = java.net.InetAddress.getByName(host).getHostName();
                    }
                    out.printf(format, host, rack, status, state, loads.getOrDefault(endpoint, "?"),
                            owns != null && effective ? pct.format(owns) : "?", stat[0]);
                }
                out.println();
            }
            if (vnodes) {
                out.println("  Warning: \"nodetool ring\" is used to output all the tokens of a node.");
                out.println("  To view status related info of a node use \"nodetool status\" instead.\n");
            }
            out.printf("%n  " + errors);
        }
    }

    @Command(name = "netstats", description = "Print network information on provided host (connecting node by default)")
    static final class NetStats extends NodeTool.Sub {
        @Option(names = {"-H", "--human-readable"}, description = "Display bytes in human readable form, i.e. KiB, MiB, "
                + "GiB, TiB")
        boolean human;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            out.printf("Mode: %s%n", probe.get(NodeTool.SS, "OperationMode"));
            java.util.Set<javax.management.openmbean.CompositeData> streams =
                    (java.util.Set<javax.management.openmbean.CompositeData>) probe.get(
                            "org.apache.cassandra.net:type=StreamManager", "CurrentStreams");
            if (streams.isEmpty()) {
                out.println("Not sending any streams.");
            }
            for (javax.management.openmbean.CompositeData state : streams) {
                out.printf("%s %s%n", state.get("description"), state.get("planId"));
                for (javax.management.openmbean.CompositeData session
                        : (javax.management.openmbean.CompositeData[]) state.get("sessions")) {
                    out.printf("    /%s", session.get("peer"));
                    if (!session.get("peer").equals(session.get("connecting"))) {
                        out.printf(" (using /%s)", session.get("connecting"));
                    }
                    out.printf("%n");
                    summaries(out, session, "receiving", "Receiving", "received");
                    summaries(out, session, "sending", "Sending", "sent");
                }
            }
            if (!(Boolean) probe.get(NodeTool.SS, "Starting")) {
                String sp = "org.apache.cassandra.db:type=StorageProxy";
                out.printf("Read Repair Statistics:%nAttempted: %d%nMismatch (Blocking): %d%nMismatch (Background): %d%n",
                        probe.get(sp, "ReadRepairAttempted"), probe.get(sp, "ReadRepairRepairedBlocking"),
                        probe.get(sp, "ReadRepairRepairedBackground"));
                out.printf("%-25s%10s%10s%15s%10s%n", "Pool Name", "Active", "Pending", "Completed", "Dropped");
                for (String pool : List.of("Large", "Small", "Gossip")) {
                    out.printf("%-25s%10s%10s%15s%10s%n", pool + " messages", "n/a", sum(probe, pool, "Pending"),
                            sum(probe, pool, "Completed"), sum(probe, pool, "Dropped"));
                }
            }
        }

        private static long sum(NodeTool.Probe probe, String pool, String what) throws Exception {
            long n = 0;
            for (Object v : ((Map<String, ?>) probe.get(ManagementCommands.MS, pool + "Message" + what
                    + "TasksWithPort")).values()) {
                n += ((Number) v).longValue();
            }
            return n;
        }

        /** A session's files one way: the totals, then each file's progress (Apache's ProgressInfo line). */
        private void summaries(PrintStream out, javax.management.openmbean.CompositeData session, String way,
                String verb, String done) {
            javax.management.openmbean.CompositeData[] sums =
                    (javax.management.openmbean.CompositeData[]) session.get(way + "Summaries");
            if (sums.length == 0) {
                return;
            }
            javax.management.openmbean.CompositeData[] files =
                    (javax.management.openmbean.CompositeData[]) session.get(way + "Files");
            long totalFiles = 0;
            long totalBytes = 0;
            for (javax.management.openmbean.CompositeData sum : sums) {
                totalFiles += ((Number) sum.get("files")).longValue();
                totalBytes += ((Number) sum.get("totalSize")).longValue();
            }
            long doneFiles = 0;
            long doneBytes = 0;
            for (javax.management.openmbean.CompositeData f : files) {
                long current = ((Number) f.get("currentBytes")).longValue();
                doneBytes += current;
                if (current == ((Number) f.get("totalBytes")).longValue()) {
                    doneFiles++;
                }
            }
            out.printf("        %s %d files, %s total. Already %s %d files (%.2f%%), %s total (%.2f%%)%n", verb,
                    totalFiles, human ? FileSizes.stringify(totalBytes) : totalBytes + " bytes", done, doneFiles,
                    (double) doneFiles / totalFiles * 100, human ? FileSizes.stringify(doneBytes) : doneBytes + " bytes",
                    (double) doneBytes / totalBytes * 100);
            for (javax.management.openmbean.CompositeData f : files) {
                long current = ((Number) f.get("currentBytes")).longValue();
                long total = ((Number) f.get("totalBytes")).longValue();
                out.printf("            %s %d/%d bytes (%d%%) %s idx:%s/%s%n", f.get("fileName"), current, total,
                        total == 0 ? 0 : current * 100 / total, "OUT".equals(f.get("direction")) ? "sent to"
                                : "received from", f.get("sessionIndex"), f.get("peer"));
            }
        }
    }

    @Command(name = "tablehistograms", description = "Print statistic histograms for a given table")
    static final class TableHistograms extends NodeTool.Sub {
        @Parameters(description = "[<keyspace> <table> | <keyspace.table>]")
        List<String> args = new ArrayList<>();

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            // keyspace -> tables, in a map and sets sized as Guava's HashMultimap.create() sizes them (Apache's order)
            Map<String, java.util.Set<String>> all = new HashMap<>(16);
            for (String[] bean : tableBeans(probe)) {
                NodeTool.multimapValues(all, bean[0], () -> new java.util.HashSet<>(3)).add(bean[1]);
            }
            Map<String, java.util.Set<String>> chosen = new HashMap<>(16);
            if (args.size() == 2 && args.stream().noneMatch(a -> a.contains("."))) {
                NodeTool.multimapValues(chosen, args.get(0), () -> new java.util.HashSet<>(3)).add(args.get(1));
            } else if (args.size() == 1) {
                String[] kt = args.get(0).split("\\.");
                if (kt.length != 2) {
                    throw new IllegalArgumentException("tablehistograms requires keyspace and table name arguments");
                }
                NodeTool.multimapValues(chosen, kt[0], () -> new java.util.HashSet<>(3)).add(kt[1]);
            } else if (args.isEmpty()) {
                chosen = all;
            } else {
                throw new IllegalArgumentException("tablehistograms requires <keyspace> <table> or <keyspace.table> "
                        + "format argument.");
            }
            for (Map.Entry<String, java.util.Set<String>> e : chosen.entrySet()) {
                for (String table : e.getValue()) {
                    if (!all.getOrDefault(e.getKey(), java.util.Set.of()).contains(table)) {
                        throw new IllegalArgumentException("Unknown table " + e.getKey() + '.' + table);
                    }
                }
            }
            for (Map.Entry<String, java.util.Set<String>> e : chosen.entrySet()) {
                for (String table : e.getValue()) {
                    histograms(probe, out, e.getKey(), table);
                }
            }
        }

        private static void histograms(NodeTool.Probe probe, PrintStream out, String ks, String table)
                throws Exception {
            long[] sizes = (long[]) value(probe, ks, table, "EstimatedPartitionSizeHistogram");
            long[] cells = (long[]) value(probe, ks, table, "EstimatedColumnCountHistogram");
            double[] sizeP = new double[7];
            double[] cellP = new double[7];
            double[] at = {0.5, 0.75, 0.95, 0.98, 0.99};
            if (sizes == null || sizes.length == 0 || cells == null || cells.length == 0) {
                out.println("No SSTables exists, unable to calculate 'Partition Size' and 'Cell Count' percentiles");
                java.util.Arrays.fill(sizeP, Double.NaN);
                java.util.Arrays.fill(cellP, Double.NaN);
            } else {
                Buckets size = new Buckets(sizes);
                Buckets cell = new Buckets(cells);
                if (size.overflowed()) {
                    out.printf("Row sizes are larger than %s, unable to calculate percentiles%n", size.largestOffset());
                    java.util.Arrays.fill(sizeP, 0, at.length, Double.NaN);
                } else {
                    for (int i = 0; i < at.length; i++) {
                        sizeP[i] = size.percentile(at[i]);
                    }
                }
                if (cell.overflowed()) {
                    out.printf("Column counts are larger than %s, unable to calculate percentiles%n",
                            cell.largestOffset());
                    java.util.Arrays.fill(cellP, Double.NaN);
                } else {
                    for (int i = 0; i < at.length; i++) {
                        cellP[i] = cell.percentile(at[i]);
                    }
                }
                sizeP[5] = size.min();
                cellP[5] = cell.min();
                sizeP[6] = size.max();
                cellP[6] = cell.max();
            }
            String[] labels = {"50%", "75%", "95%", "98%", "99%", "Min", "Max"};
            Double[] read = ManagementCommands.percentiles(probe, tableMetric(ks, table, "ReadLatency"));
            Double[] write = ManagementCommands.percentiles(probe, tableMetric(ks, table, "WriteLatency"));
            Double[] sstables = ManagementCommands.percentiles(probe,
                    tableMetric(ks, table, "SSTablesPerReadHistogram"));
            out.println(String.format("%s/%s histograms", ks, table));
            out.println(String.format("%-10s%18s%18s%18s%18s%18s", "Percentile", "Read Latency", "Write Latency",
                    "SSTables", "Partition Size", "Cell Count"));
            out.println(String.format("%-10s%18s%18s%18s%18s%18s", "", "(micros)", "(micros)", "", "(bytes)", ""));
            for (int i = 0; i < labels.length; i++) {
                out.println(String.format("%-10s%18.2f%18.2f%18.2f%18.0f%18.0f", labels[i], read[i], write[i],
                        sstables[i], sizeP[i], cellP[i]));
            }
            out.println();
        }
    }

    /**
     * Cassandra's estimated histogram as its bean hands it over: counts per bucket, bucket i ending at the i-th offset
     * of the series 1, 2, 3, ... growing by 1.2 (rounded); the last bucket counts what overflowed them all.
     */
    static final class Buckets {
        final long[] counts;
        final long[] offsets;

        Buckets(long[] counts) {
            this.counts = counts;
            this.offsets = new long[counts.length - 1];
            long last = 1;
            for (int i = 0; i < offsets.length; i++) {
                if (i > 0) {
                    long next = Math.round(last * 1.2);
                    last = next == last ? next + 1 : next;
                }
                offsets[i] = last;
            }
        }

        boolean overflowed() {
            return counts[counts.length - 1] > 0;
        }

        long largestOffset() {
            return offsets[offsets.length - 1];
        }

        long percentile(double p) {
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            long wanted = (long) Math.ceil(total * p);
            if (wanted == 0) {
                return 0;
            }
            long seen = 0;
            for (int i = 0; i < counts.length - 1; i++) {
                seen += counts[i];
                if (seen >= wanted) {
                    return offsets[i];
                }
            }
            return 0;
        }

        long min() {
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    return i == 0 ? 0 : 1 + offsets[i - 1];
                }
            }
            return 0;
        }

        long max() {
            if (overflowed()) {
                return Long.MAX_VALUE;
            }
            for (int i = counts.length - 2; i >= 0; i--) {
                if (counts[i] > 0) {
                    return offsets[i];
                }
            }
            return 0;
        }
    }

    @Command(name = "repair", description = "Repair one or more tables")
    static final class Repair extends NodeTool.Sub {
        @Parameters(description = "[<keyspace> <tables>...]")
        List<String> args = new ArrayList<>();
        @Option(names = {"-seq", "--sequential"}, description = "Use -seq to carry out a sequential repair")
        boolean sequential;
        @Option(names = {"-dcpar", "--dc-parallel"}, description = "Use -dcpar to repair data centers in parallel.")
        boolean dcParallel;
        @Option(names = {"-local", "--in-local-dc"}, description = "Use -local to only repair against nodes in the "
                + "same datacenter")
        boolean localDc;
        @Option(names = {"-dc", "--in-dc"}, description = "Use -dc to repair specific datacenters")
        List<String> dataCenters = new ArrayList<>();
        @Option(names = {"-hosts", "--in-hosts"}, description = "Use -hosts to repair specific hosts")
        List<String> hosts = new ArrayList<>();
        @Option(names = {"-st", "--start-token"}, description = "Use -st to specify a token at which the repair range "
                + "starts (exclusive)")
        String startToken = "";
        @Option(names = {"-et", "--end-token"}, description = "Use -et to specify a token at which repair range ends "
                + "(inclusive)")
        String endToken = "";
        @Option(names = {"-pr", "--partitioner-range"}, description = "Use -pr to repair only the first range returned "
                + "by the partitioner")
        boolean primaryRange;
        @Option(names = {"-full", "--full"}, description = "Use -full to issue a full repair.")
        boolean full;
        @Option(names = {"-force", "--force"}, description = "Use -force to filter out down endpoints")
        boolean force;
        @Option(names = {"-prv", "--preview"}, description = "Determine ranges and amount of data to be streamed, but "
                + "don't actually perform repair")
        boolean preview;
        @Option(names = {"-vd", "--validate"}, description = "Checks that repaired data is in sync between nodes.")
        boolean validate;
        @Option(names = {"-j", "--job-threads"}, description = "Number of threads to run repair jobs (default: 1, max: "
                + "4)")
        int jobThreads = 1;
        @Option(names = {"-tr", "--trace"}, description = "Use -tr to trace the repair.")
        boolean trace;
        @Option(names = {"-pl", "--pull"}, description = "Use --pull to perform a one way repair where data is only "
                + "streamed from a remote node to this node.")
        boolean pull;
        @Option(names = {"-os", "--optimise-streams"}, description = "Use --optimise-streams to try to reduce the number "
                + "of streams we do")
        boolean optimiseStreams;
        @Option(names = {"-skip-paxos", "--skip-paxos"}, description = "Skip the paxos repair step")
        boolean skipPaxos;
        @Option(names = {"-paxos-only", "--paxos-only"}, description = "Repair only paxos operations, no table data")
        boolean paxosOnly;
        @Option(names = {"-iuk", "--ignore-unreplicated-keyspaces"}, description = "Use --ignore-unreplicated-keyspaces "
                + "to ignore keyspaces which are not replicated, otherwise the repair will fail")
        boolean ignoreUnreplicated;

        private final SimpleDateFormat clock = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss,SSS");

        private String previewKind() {
            return validate ? "REPAIRED" : preview && full ? "ALL" : preview ? "UNREPAIRED" : "NONE";
        }

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            List<String> keyspaces;
            if (args.isEmpty()) {
                keyspaces = (List<String>) probe.get(NodeTool.SS, "NonLocalStrategyKeyspaces");
            } else {
                keyspaces = ManagementCommands.keyspaces(probe, args);
            }
            if (primaryRange && (!dataCenters.isEmpty() || !hosts.isEmpty())) {
                throw new RuntimeException("Primary range repair should be performed on all nodes in the cluster.");
            }
            for (String ks : keyspaces) {
                if (args.isEmpty() && ks.equals("system_distributed")) { // repaired only when named
                    continue;
                }
                run(probe, out, ks, options(probe));
            }
        }

        private Map<String, String> options(NodeTool.Probe probe) throws Exception {
            String preview = previewKind();
            Map<String, String> o = new HashMap<>();
            o.put("parallelism", sequential ? "sequential" : dcParallel ? "dc_parallel" : "parallel");
            o.put("primaryRange", Boolean.toString(primaryRange));
            o.put("incremental", Boolean.toString(!full && !(paxosOnly && preview.equals("NONE"))));
            o.put("jobThreads", Integer.toString(jobThreads));
            o.put("trace", Boolean.toString(trace));
            o.put("columnFamilies", String.join(",", args.size() <= 1 ? List.of() : args.subList(1, args.size())));
            o.put("pullRepair", Boolean.toString(pull));
            o.put("forceRepair", Boolean.toString(force));
            o.put("previewKind", preview);
            o.put("optimiseStreams", Boolean.toString(optimiseStreams));
            o.put("ignoreUnreplicatedKeyspaces", Boolean.toString(ignoreUnreplicated));
            o.put("repairPaxos", Boolean.toString(!skipPaxos && preview.equals("NONE")));
            o.put("paxosOnly", Boolean.toString(paxosOnly && preview.equals("NONE")));
            if (!startToken.isEmpty() || !endToken.isEmpty()) {
                o.put("ranges", startToken + ":" + endToken);
            }
            o.put("dataCenters", localDc ? (String) probe.get(NodeTool.SNITCH, "Datacenter")
                    : String.join(",", dataCenters));
            o.put("hosts", String.join(",", hosts));
            return o;
        }

        private void print(PrintStream out, String message) {
            synchronized (clock) {
                out.println(String.format("[%s] %s", clock.format(System.currentTimeMillis()), message));
            }
        }

        /**
         * One keyspace's repair: started with repairAsync, followed through the node's progress notifications for
         * {@code repair:N} until COMPLETE, then its parent status asked once more (notifications may be lost).
         */
        @SuppressWarnings("unchecked")
        private void run(NodeTool.Probe probe, PrintStream out, String ks, Map<String, String> options)
                throws Exception {
            ObjectName ss = new ObjectName(NodeTool.SS);
            int[] cmd = {-1};
            Exception[] error = {null};
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            java.util.List<javax.management.Notification> early = new ArrayList<>();
            javax.management.NotificationListener listener = (n, handback) -> {
                String type = n.getType();
                if (type.equals("progress")) {
                    synchronized (early) {
                        if (cmd[0] < 0) {
                            early.add(n);
                            return;
                        }
                    }
                    if (!("repair:" + cmd[0]).equals(n.getSource())) {
                        return;
                    }
                    Map<String, Integer> data = (Map<String, Integer>) n.getUserData();
                    int kind = data.get("type");
                    String message = n.getMessage();
                    if (kind == 1) { // PROGRESS
                        int total = data.get("total");
                        message = message + " (progress: " + (total == 0 ? 0 : data.get("progressCount") * 100 / total)
                                + "%)";
                    }
                    print(out, message);
                    if (kind == 2) { // ERROR
                        error[0] = new RuntimeException(String.format("Repair job has failed with the error message: "
                                + "%s. Check the logs on the repair participants for further details", message));
                    }
                    if (kind == 5) { // COMPLETE
                        done.countDown();
                    }
                } else if (type.equals(javax.management.remote.JMXConnectionNotification.FAILED)
                        || type.equals(javax.management.remote.JMXConnectionNotification.CLOSED)) {
                    synchronized (clock) {
                        error[0] = new java.io.IOException(String.format("[%s] JMX connection closed. You should check "
                                + "server log for repair status of keyspace %s(Subsequent keyspaces are not going to be "
                                + "repaired).", clock.format(n.getTimeStamp()), ks));
                    }
                    done.countDown();
                }
            };
            probe.connector.addConnectionNotificationListener(listener, null, null);
            probe.mbs.addNotificationListener(ss, listener, null, null);
            try {
                int command = (Integer) probe.invoke(NodeTool.SS, "repairAsync", new Object[] {ks, options},
                        new String[] {String.class.getName(), Map.class.getName()});
                List<javax.management.Notification> pending;
                synchronized (early) {
                    cmd[0] = command;
                    pending = new ArrayList<>(early);
                }
                for (javax.management.Notification n : pending) {
                    listener.handleNotification(n, null);
                }
                if (command <= 0) {
                    print(out, String.format("Replication factor is 1. No repair is needed for keyspace '%s'", ks));
                    return;
                }
                while (!done.await(300, java.util.concurrent.TimeUnit.SECONDS)) {
                    status(probe, out, command, "After waiting for poll interval of 300 seconds", error, done);
                }
                if (error[0] == null) {
                    status(probe, out, command, "condition satisfied", error, done);
                }
                if (error[0] != null) {
                    throw error[0];
                }
            } finally {
                try {
                    probe.mbs.removeNotificationListener(ss, listener);
                    probe.connector.removeConnectionNotificationListener(listener);
                } catch (Exception e) {
                    // the connection is gone already
                }
            }
        }

        @SuppressWarnings("unchecked")
        private void status(NodeTool.Probe probe, PrintStream out, int cmd, String trigger, Exception[] error,
                java.util.concurrent.CountDownLatch done) throws Exception {
            List<String> status = (List<String>) probe.invoke(NodeTool.SS, "getParentRepairStatus", new Object[] {cmd},
                    new String[] {int.class.getName()});
            String queried = "queried for parent session status and";
            if (status == null) {
                print(out, String.format("%s %s couldn't find repair status for cmd: %s", trigger, queried, cmd));
                return;
            }
            List<String> messages = status.subList(1, status.size());
            switch (status.get(0)) {
                case "COMPLETED", "FAILED" -> {
                    print(out, String.format("%s %s discovered repair %s.", trigger, queried,
                            status.get(0).toLowerCase(java.util.Locale.ROOT)));
                    if (status.get(0).equals("FAILED")) {
                        error[0] = new java.io.IOException(messages.get(0));
                    }
                    messages.forEach(m -> print(out, m));
                    done.countDown();
                }
                case "IN_PROGRESS" -> { }
                default -> {
                    print(out, String.format("WARNING Encountered unexpected RepairRunnable.ParentRepairStatus: %s",
                            status.get(0)));
                    messages.forEach(m -> print(out, m));
                }
            }
        }
    }

    /** SSTables per level as tablestats prints them: a level over its limit (4 for L0, fanout^L above) as "n/limit". */
    static List<String> levelCounts(int[] perLevel, int fanout) {
        List<String> out = new ArrayList<>(perLevel.length);
        for (int level = 0; level < perLevel.length; level++) {
            long limit = level == 0 ? 4L : (long) Math.pow(fanout, level);
            out.add(perLevel[level] + (perLevel[level] > limit ? "/" + limit : ""));
        }
        return out;
    }
}
