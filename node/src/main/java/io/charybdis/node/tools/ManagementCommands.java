package io.charybdis.node.tools;

import io.charybdis.node.jmx.FileSizes;
import java.io.PrintStream;
import java.lang.management.MemoryUsage;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.TabularData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * bin/nodetool's management commands beyond the first ones: each reads the beans Apache's nodetool 5.0 reads and
 * prints what it prints, in the same order (where Apache's order comes from a hash map, from the same kind of map
 * built the same way, so both tools list the same order).
 */
final class ManagementCommands {
    private ManagementCommands() {
    }

    static final String CM = "org.apache.cassandra.db:type=CompactionManager";
    static final String MS = "org.apache.cassandra.net:type=MessagingService";

    private static final String[] KS_TABLES = {String.class.getName(), String[].class.getName()};

    /** Apache's parseOptionalKeyspace: the named keyspace, else all; each must exist. */
    @SuppressWarnings("unchecked")
    static List<String> keyspaces(NodeTool.Probe probe, List<String> args) throws Exception {
        List<String> all = (List<String>) probe.get(NodeTool.SS, "Keyspaces");
        List<String> r = args.isEmpty() ? new ArrayList<>(all) : List.of(args.get(0));
        for (String ks : r) {
            if (!all.contains(ks)) {
                throw new IllegalArgumentException("Keyspace [" + ks + "] does not exist.");
            }
        }
        return r;
    }

    static String[] tables(List<String> args) {
        return args.size() <= 1 ? new String[0] : args.subList(1, args.size()).toArray(String[]::new);
    }

    @Command(name = "getcompactionthroughput", description = "Print the MiB/s throughput cap for compaction in the system")
    static final class GetCompactionThroughput extends NodeTool.Sub {
        @Option(names = {"-d", "--precise-mib"}, description = "Print the MiB/s throughput cap as a precise number")
        boolean precise;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            double mib = (Double) probe.get(NodeTool.SS, "CompactionThroughtputMibPerSecAsDouble");
            if (precise) {
                out.println("Current compaction throughput: " + mib + " MiB/s");
            } else {
                if (mib != Math.rint(mib)) {
                    throw new RuntimeException("Use the -d flag to quiet this error and get the exact throughput in MiB/s");
                }
                out.println("Current compaction throughput: " + probe.get(NodeTool.SS, "CompactionThroughputMbPerSec")
                        + " MB/s");
            }
        }
    }

    @Command(name = "setcompactionthroughput", description = "Set the MiB/s throughput cap for compaction in the system, "
            + "or 0 to disable throttling")
    static final class SetCompactionThroughput extends NodeTool.Sub {
        @Parameters(arity = "1", description = "<value_in_mb>")
        int value;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            probe.set(NodeTool.SS, "CompactionThroughputMbPerSec", value);
        }
    }

    abstract static class KeyspaceTablesCommand extends NodeTool.Sub {
        @Parameters(description = "[<keyspace> <tables>...]")
        List<String> args = new ArrayList<>();
    }

    @Command(name = "enableautocompaction", description = "Enable autocompaction for the given keyspace and table")
    static final class EnableAutoCompaction extends KeyspaceTablesCommand {
        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            for (String ks : keyspaces(probe, args)) {
                probe.invoke(NodeTool.SS, "enableAutoCompaction", new Object[] {ks, tables(args)}, KS_TABLES);
            }
        }
    }

    @Command(name = "disableautocompaction", description = "Disable autocompaction for the given keyspace and table")
    static final class DisableAutoCompaction extends KeyspaceTablesCommand {
        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            for (String ks : keyspaces(probe, args)) {
                probe.invoke(NodeTool.SS, "disableAutoCompaction", new Object[] {ks, tables(args)}, KS_TABLES);
            }
        }
    }

    @Command(name = "statusautocompaction", description = "status of autocompaction of the given keyspace and table")
    static final class StatusAutoCompaction extends KeyspaceTablesCommand {
        @Option(names = {"-a", "--all"}, description = "Show auto compaction status for each keyspace/table")
        boolean showAll;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            boolean allDisabled = true;
            boolean allEnabled = true;
            TextTable table = new TextTable(" ");
            table.add("Keyspace", "Table", "Status");
            for (String ks : keyspaces(probe, args)) {
                Map<String, Boolean> statuses = (Map<String, Boolean>) probe.invoke(NodeTool.SS,
                        "getAutoCompactionStatus", new Object[] {ks, tables(args)}, KS_TABLES);
                for (Map.Entry<String, Boolean> e : statuses.entrySet()) {
                    boolean disabled = e.getValue();
                    allDisabled &= disabled;
                    allEnabled &= !disabled;
                    table.add(ks, e.getKey(), !disabled ? "running" : "not running");
                }
            }
            if (showAll) {
                table.printTo(out);
            } else {
                out.println(allEnabled ? "running" : allDisabled ? "not running" : "partially running");
            }
        }
    }

    @Command(name = "garbagecollect", description = "Remove deleted data from one or more tables")
    static final class GarbageCollect extends KeyspaceTablesCommand {
        @Option(names = {"-g", "--granularity"}, description = "ROW (default) or CELL")
        String granularity = "ROW";
        @Option(names = {"-j", "--jobs"}, description = "Number of sstables to cleanup simultanously")
        int jobs = 2;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            if (!granularity.equals("ROW") && !granularity.equals("CELL")) {
                throw new IllegalArgumentException("granularity: " + granularity + " not in [ROW, CELL]");
            }
            for (String ks : keyspaces(probe, args)) {
                int status = (Integer) probe.invoke(NodeTool.SS, "garbageCollect",
                        new Object[] {granularity, jobs, ks, tables(args)}, new String[] {String.class.getName(),
                                int.class.getName(), String.class.getName(), String[].class.getName()});
                if (status != 0) {
                    out.println("Aborted garbage collection for at least one table in keyspace " + ks
                            + ", check server logs for more information.");
                    throw new RuntimeException("nodetool failed, check server logs");
                }
            }
        }
    }

    @Command(name = "refresh", description = "Load newly placed SSTables to the system without restart")
    static final class Refresh extends NodeTool.Sub {
        @Parameters(description = "<keyspace> <table>")
        List<String> args = new ArrayList<>();

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            out.println("nodetool refresh is deprecated, use nodetool import instead");
            if (args.size() != 2) {
                throw new IllegalArgumentException("refresh requires ks and cf args");
            }
            probe.invoke(NodeTool.SS, "loadNewSSTables", new Object[] {args.get(0), args.get(1)},
                    new String[] {String.class.getName(), String.class.getName()});
        }
    }

    @Command(name = "import", description = "Import new SSTables to the system")
    static final class Import extends NodeTool.Sub {
        @Parameters(description = "<keyspace> <table> <directory> ...")
        List<String> args = new ArrayList<>();
        @Option(names = {"-l", "--keep-level"})
        boolean keepLevel;
        @Option(names = {"-r", "--keep-repaired"})
        boolean keepRepaired;
        @Option(names = {"-v", "--no-verify"})
        boolean noVerify;
        @Option(names = {"-t", "--no-tokens"})
        boolean noVerifyTokens;
        @Option(names = {"-c", "--no-invalidate-caches"})
        boolean noInvalidateCaches;
        @Option(names = {"-q", "--quick"})
        boolean quick;
        @Option(names = {"-e", "--extended-verify"})
        boolean extendedVerify;
        @Option(names = {"-p", "--copy-data"})
        boolean copyData;
        @Option(names = {"-ri", "--require-index-components"})
        boolean failOnMissingIndex;
        @Option(names = {"-niv", "--no-index-validation"})
        boolean noIndexValidation;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            if (args.size() < 3) {
                throw new IllegalArgumentException("import requires keyspace, table name and directories");
            }
            if (quick) {
                out.println("Doing a quick import - skipping sstable verification and row cache invalidation");
                noVerifyTokens = true;
                noInvalidateCaches = true;
                noVerify = true;
                extendedVerify = false;
                noIndexValidation = true;
            }
            String bean = "org.apache.cassandra.db:type=Tables,keyspace=" + args.get(0) + ",table=" + args.get(1);
            String b = boolean.class.getName();
            List<String> failed = (List<String>) probe.invoke(bean, "importNewSSTables", new Object[] {
                    new HashSet<>(args.subList(2, args.size())), !keepLevel, !keepRepaired, !noVerify, !noVerifyTokens,
                    !noInvalidateCaches, extendedVerify, copyData, failOnMissingIndex, !noIndexValidation},
                    new String[] {Set.class.getName(), b, b, b, b, b, b, b, b, b});
            if (!failed.isEmpty()) {
                System.err.println("Some directories failed to import, check server logs for details:");
                failed.forEach(System.err::println);
                throw new NodeTool.Failed();
            }
        }
    }

    @Command(name = "describering", description = "Shows the token ranges info of a given keyspace")
    static final class DescribeRing extends NodeTool.Sub {
        @Parameters(arity = "1", description = "The keyspace name")
        String keyspace;
        @Option(names = {"-pp", "--print-port"}, description = "Operate in 4.0 mode with hosts disambiguated by port number")
        boolean printPort;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            out.println("Schema Version:" + probe.get(NodeTool.SS, "SchemaVersion"));
            out.println("TokenRange: ");
            List<String> ranges = (List<String>) probe.invoke(NodeTool.SS, printPort ? "describeRingWithPortJMX"
                    : "describeRingJMX", new Object[] {keyspace}, new String[] {String.class.getName()});
            for (String r : ranges) {
                out.println("\t" + r);
            }
        }
    }

    @Command(name = "compactionhistory", description = "Print history of compaction")
    static final class CompactionHistory extends NodeTool.Sub {
        @Option(names = {"-F", "--format"}, description = "Output format (json, yaml)")
        String format = "";

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            StatsFormat.check(format);
            TabularData data = (TabularData) probe.get(CM, "CompactionHistory");
            if (!format.isEmpty()) {
                StatsFormat.print(format, figures(data), out);
                return;
            }
            out.println("Compaction History: ");
            if (data.isEmpty()) {
                out.print("There is no compaction history");
                return;
            }
            List<String> names = data.getTabularType().getIndexNames();
            // newest first, as Apache's: a stable sort of the table's own order (its values follow its keys)
            List<CompositeData> ordered = new ArrayList<>();
            for (Object row : data.values()) {
                ordered.add((CompositeData) row);
            }
            ordered.sort((a, c) -> Long.signum((Long) a.get("compacted_at") - (Long) c.get("compacted_at")) * -1);
            TextTable table = new TextTable(" ");
            table.add(names.toArray(String[]::new));
            for (CompositeData cd : ordered) {
                table.add((String) cd.get("id"), (String) cd.get("keyspace_name"), (String) cd.get("columnfamily_name"),
                        LocalDateTime.ofInstant(Instant.ofEpochMilli((Long) cd.get("compacted_at")),
                                ZoneId.systemDefault()).toString(),
                        cd.get("bytes_in").toString(), cd.get("bytes_out").toString(), (String) cd.get("rows_merged"),
                        (String) cd.get("compaction_properties"));
            }
            table.printTo(out);
        }

        /**
         * Apache's CompactionHistoryHolder: {"CompactionHistory": [row...]}, newest first (a stable sort of the
         * table's key order), each row a hash map; an empty history is an empty map.
         */
        static Map<String, Object> figures(TabularData data) {
            HashMap<String, Object> result = new HashMap<>();
            if (data.isEmpty()) {
                return result;
            }
            List<List<?>> rows = new ArrayList<>();
            for (Object key : data.keySet()) {
                rows.add((List<?>) key);
            }
            rows.sort((a, c) -> Long.signum((Long) c.get(3) - (Long) a.get(3)));
            List<Map<String, Object>> compactions = new ArrayList<>();
            for (List<?> r : rows) {
                HashMap<String, Object> row = new HashMap<>();
                row.put("id", r.get(0));
                row.put("keyspace_name", r.get(1));
                row.put("columnfamily_name", r.get(2));
                row.put("compacted_at", LocalDateTime.ofInstant(Instant.ofEpochMilli((Long) r.get(3)),
                        ZoneId.systemDefault()).toString());
                row.put("bytes_in", r.get(4));
                row.put("bytes_out", r.get(5));
                row.put("rows_merged", r.get(6));
                row.put("compaction_properties", r.get(7));
                compactions.add(row);
            }
            result.put("CompactionHistory", compactions);
            return result;
        }
    }

    /** A JMX metric bean's attribute ({@code org.apache.cassandra.metrics:...}). */
    static Object metric(NodeTool.Probe probe, String name, String attribute) throws Exception {
        return probe.get(name, attribute);
    }

    static Double[] percentiles(NodeTool.Probe probe, String bean) throws Exception {
        String[] attrs = {"50thPercentile", "75thPercentile", "95thPercentile", "98thPercentile", "99thPercentile",
                "Min", "Max"};
        Double[] r = new Double[attrs.length];
        for (int i = 0; i < attrs.length; i++) {
            r[i] = ((Number) probe.get(bean, attrs[i])).doubleValue();
        }
        return r;
    }

    @Command(name = "proxyhistograms", description = "Print statistic histograms for network operations")
    static final class ProxyHistograms extends NodeTool.Sub {
        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            String[] labels = {"50%", "75%", "95%", "98%", "99%", "Min", "Max"};
            String p = "org.apache.cassandra.metrics:type=ClientRequest,scope=";
            List<Double[]> cols = new ArrayList<>();
            for (String scope : List.of("Read", "Write", "RangeSlice", "CASRead", "CASWrite", "ViewWrite")) {
                cols.add(percentiles(probe, p + scope + ",name=Latency"));
            }
            out.println("proxy histograms");
            out.println(String.format("%-10s%19s%19s%19s%19s%19s%19s", "Percentile", "Read Latency", "Write Latency",
                    "Range Latency", "CAS Read Latency", "CAS Write Latency", "View Write Latency"));
            out.println(String.format("%-10s%19s%19s%19s%19s%19s%19s", "", "(micros)", "(micros)", "(micros)",
                    "(micros)", "(micros)", "(micros)"));
            for (int i = 0; i < labels.length; i++) {
                out.println(String.format("%-10s%19.2f%19.2f%19.2f%19.2f%19.2f%19.2f", labels[i], cols.get(0)[i],
                        cols.get(1)[i], cols.get(2)[i], cols.get(3)[i], cols.get(4)[i], cols.get(5)[i]));
            }
            out.println();
        }
    }

    @Command(name = "tpstats", description = "Print usage statistics of thread pools")
    static final class TpStats extends NodeTool.Sub {
        @Option(names = {"-F", "--format"}, description = "Output format (json, yaml)")
        String format = "";

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            StatsFormat.check(format);
            // path -> pools, in a map and sets sized as Guava's HashMultimap.create() sizes them (Apache's order)
            Map<String, Set<String>> pools = new HashMap<>(16);
            for (ObjectName n : probe.mbs.queryNames(new ObjectName("org.apache.cassandra.metrics:type=ThreadPools,*"),
                    null)) {
                NodeTool.multimapValues(pools, n.getKeyProperty("path"), () -> new HashSet<>(3)).add(n.getKeyProperty("scope"));
            }
            if (!format.isEmpty()) {
                StatsFormat.print(format, figures(probe, pools), out);
                return;
            }
            TextTable table = new TextTable(" ");
            table.add("Pool Name", "Active", "Pending", "Completed", "Blocked", "All time blocked");
            for (Map.Entry<String, Set<String>> e : pools.entrySet()) {
                for (String pool : e.getValue()) {
                    table.add(pool, pool(probe, e.getKey(), pool, "ActiveTasks"),
                            pool(probe, e.getKey(), pool, "PendingTasks"), pool(probe, e.getKey(), pool, "CompletedTasks"),
                            pool(probe, e.getKey(), pool, "CurrentlyBlockedTasks"),
                            pool(probe, e.getKey(), pool, "TotalBlockedTasks"));
                }
            }
            table.printTo(out);
            out.println("\nLatencies waiting in queue (micros) per dropped message types");
            TextTable dropped = new TextTable(" ");
            dropped.add("Message type", "Dropped    ", "50%     ", "95%     ", "99%     ", "Max");
            Map<String, Integer> counts = (Map<String, Integer>) probe.get(MS, "DroppedMessages");
            Map<String, Object> byVerb = new HashMap<>(counts);
            for (Map.Entry<String, Object> e : byVerb.entrySet()) {
                List<String> cells = new ArrayList<>(List.of(e.getKey(), e.getValue().toString()));
                String wait = "org.apache.cassandra.metrics:name=" + e.getKey() + "-WaitLatency,type=Messaging";
                if (probe.mbs.isRegistered(new ObjectName(wait))) {
                    Double[] l = percentiles(probe, wait);
                    cells.addAll(List.of(l[0].toString(), l[2].toString(), l[4].toString(), l[6].toString()));
                } else {
                    cells.addAll(List.of("N/A", "N/A", "N/A", "N/A"));
                }
                dropped.add(cells.toArray(String[]::new));
            }
            dropped.printTo(out);
        }

        /**
         * Apache's TpStatsHolder: ThreadPools (pool -> its five task figures, "N/A" where the pool has no such
         * metric), DroppedMessage (verb -> count) and WaitLatencies (verb -> the queue wait percentiles 50, 75, 95,
         * 98, 99, min, max, for the verbs that have them), in hash maps filled in Apache's order.
         */
        @SuppressWarnings("unchecked")
        private static Map<String, Object> figures(NodeTool.Probe probe, Map<String, Set<String>> pools)
                throws Exception {
            HashMap<String, Object> result = new HashMap<>();
            HashMap<String, Map<String, Object>> threadPools = new HashMap<>();
            HashMap<String, Object> dropped = new HashMap<>();
            HashMap<String, Object> waits = new HashMap<>();
            for (Map.Entry<String, Set<String>> e : pools.entrySet()) {
                for (String pool : e.getValue()) {
                    HashMap<String, Object> p = new HashMap<>();
                    for (String metric : List.of("ActiveTasks", "PendingTasks", "CompletedTasks",
                            "CurrentlyBlockedTasks", "TotalBlockedTasks")) {
                        p.put(metric, poolValue(probe, e.getKey(), pool, metric));
                    }
                    threadPools.put(pool, p);
                }
            }
            result.put("ThreadPools", threadPools);
            for (Map.Entry<String, Integer> e : ((Map<String, Integer>) probe.get(MS, "DroppedMessages")).entrySet()) {
                dropped.put(e.getKey(), e.getValue());
                String wait = "org.apache.cassandra.metrics:name=" + e.getKey() + "-WaitLatency,type=Messaging";
                if (probe.mbs.isRegistered(new ObjectName(wait))) {
                    waits.put(e.getKey(), percentiles(probe, wait));
                }
            }
            result.put("DroppedMessage", dropped);
            result.put("WaitLatencies", waits);
            return result;
        }

        private static Object poolValue(NodeTool.Probe probe, String path, String pool, String metric)
                throws Exception {
            String name = "org.apache.cassandra.metrics:type=ThreadPools,path=" + path + ",scope=" + pool + ",name="
                    + metric;
            if (!probe.mbs.isRegistered(new ObjectName(name))) {
                return "N/A";
            }
            return probe.get(name, metric.endsWith("BlockedTasks") ? "Count" : "Value");
        }

        private static String pool(NodeTool.Probe probe, String path, String pool, String metric) throws Exception {
            String name = "org.apache.cassandra.metrics:type=ThreadPools,path=" + path + ",scope=" + pool + ",name="
                    + metric;
            if (!probe.mbs.isRegistered(new ObjectName(name))) {
                return "N/A";
            }
            return probe.get(name, metric.endsWith("BlockedTasks") ? "Count" : "Value").toString();
        }
    }

    @Command(name = "info", description = "Print node information (uptime, load, ...)")
    static final class Info extends NodeTool.Sub {
        @Option(names = {"-T", "--tokens"}, description = "Display all tokens")
        boolean tokens;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            String ss = NodeTool.SS;
            boolean gossip = (Boolean) probe.get(ss, "GossipRunning");
            out.printf("%-23s: %s%n", "ID", probe.get(ss, "LocalHostId"));
            out.printf("%-23s: %s%n", "Gossip active", gossip);
            out.printf("%-23s: %s%n", "Native Transport active", probe.get(ss, "NativeTransportRunning"));
            out.printf("%-23s: %s%n", "Load", probe.get(ss, "LoadString"));
            out.printf("%-23s: %s%n", "Uncompressed load", probe.get(ss, "UncompressedLoadString"));
            out.printf("%-23s: %s%n", "Generation No", gossip ? probe.get(ss, "CurrentGenerationNumber") : 0);
            out.printf("%-23s: %d%n", "Uptime (seconds)", (Long) probe.get("java.lang:type=Runtime", "Uptime") / 1000);
            MemoryUsage heap = MemoryUsage.from((CompositeDataSupport) probe.get("java.lang:type=Memory",
                    "HeapMemoryUsage"));
            out.printf("%-23s: %.2f / %.2f%n", "Heap Memory (MB)", heap.getUsed() / (1024d * 1024),
                    heap.getMax() / (1024d * 1024));
            long offHeap = 0;
            for (ObjectName n : probe.mbs.queryNames(new ObjectName("org.apache.cassandra.db:type=ColumnFamilies,*"),
                    null)) {
                String p = "org.apache.cassandra.metrics:type=Table,keyspace=" + n.getKeyProperty("keyspace") + ",scope="
                        + n.getKeyProperty("columnfamily") + ",name=";
                for (String m : List.of("MemtableOffHeapSize", "BloomFilterOffHeapMemoryUsed",
                        "IndexSummaryOffHeapMemoryUsed", "CompressionMetadataOffHeapMemoryUsed")) {
                    offHeap += (Long) probe.get(p + m, "Value");
                }
            }
            out.printf("%-23s: %.2f%n", "Off Heap Memory (MB)", offHeap / (1024d * 1024));
            String snitch = "org.apache.cassandra.db:type=EndpointSnitchInfo";
            out.printf("%-23s: %s%n", "Data Center", probe.get(snitch, "Datacenter"));
            out.printf("%-23s: %s%n", "Rack", probe.get(snitch, "Rack"));
            out.printf("%-23s: %s%n", "Exceptions", probe.get("org.apache.cassandra.metrics:type=Storage,name=Exceptions",
                    "Count"));
            String caches = "org.apache.cassandra.db:type=Caches";
            cache(probe, out, "Key Cache", "KeyCache", probe.get(caches, "KeyCacheSavePeriodInSeconds"));
            cache(probe, out, "Row Cache", "RowCache", probe.get(caches, "RowCacheSavePeriodInSeconds"));
            cache(probe, out, "Counter Cache", "CounterCache", probe.get(caches, "CounterCacheSavePeriodInSeconds"));
            String net = "org.apache.cassandra.metrics:type=BufferPool,scope=networking,name=";
            out.printf("%-23s: size %s, overflow size: %s, capacity %s%n", "Network Cache",
                    FileSizes.stringify((Long) probe.get(net + "Size", "Value")),
                    FileSizes.stringify((Long) probe.get(net + "OverflowSize", "Value")),
                    FileSizes.stringify((Long) probe.get(net + "Capacity", "Value")));
            out.printf("%-23s: %s%%%n", "Percent Repaired",
                    probe.get("org.apache.cassandra.metrics:type=Table,name=PercentRepaired", "Value"));
            if ((Boolean) probe.get(ss, "Joined")) {
                List<String> ts = (List<String>) probe.get(ss, "Tokens");
                if (ts.size() == 1 || tokens) {
                    for (String t : ts) {
                        out.printf("%-23s: %s%n", "Token", t);
                    }
                } else {
                    out.printf("%-23s: (invoke with -T/--tokens to see all %d tokens)%n", "Token", ts.size());
                }
            } else {
                out.printf("%-23s: (node is not joined to the cluster)%n", "Token");
            }
            out.printf("%-23s: %s%n", "Bootstrap state", probe.get(ss, "BootstrapState"));
            out.printf("%-23s: %s%n", "Bootstrap failed", probe.get(ss, "BootstrapFailed"));
            out.printf("%-23s: %s%n", "Decommissioning", probe.get(ss, "Decommissioning"));
            out.printf("%-23s: %s%n", "Decommission failed", probe.get(ss, "DecommissionFailed"));
            // Charybdis's own lines (Apache's nodetool has no place for them): how memory_budget is split now
            String mb = "io.charybdis:type=MemoryBudget";
            out.printf("%-23s: %s%n", "Memory budget", FileSizes.stringify((Long) probe.get(mb, "BudgetBytes")));
            out.printf("%-23s: %s%n", "  Memtables", FileSizes.stringify((Long) probe.get(mb, "MemtableBytes")));
            out.printf("%-23s: %s%n", "  Row cache", FileSizes.stringify((Long) probe.get(mb, "RowCacheBytes")));
            out.printf("%-23s: %s%n", "Index structures", FileSizes.stringify((Long) probe.get(mb, "IndexBytes")));
        }

        private static void cache(NodeTool.Probe probe, PrintStream out, String label, String scope, Object savePeriod)
                throws Exception {
            String p = "org.apache.cassandra.metrics:type=Cache,scope=" + scope + ",name=";
            out.printf(Locale.getDefault(), "%-23s: entries %d, size %s, capacity %s, %d hits, %d requests, %.3f recent "
                            + "hit rate, %d save period in seconds%n", label, probe.get(p + "Entries", "Value"),
                    FileSizes.stringify((Long) probe.get(p + "Size", "Value")),
                    FileSizes.stringify((Long) probe.get(p + "Capacity", "Value")),
                    probe.get(p + "Hits", "Count"), probe.get(p + "Requests", "Count"), probe.get(p + "HitRate", "Value"),
                    savePeriod);
        }
    }

    @Command(name = "getlogginglevels", description = "Get the runtime logging levels")
    static final class GetLoggingLevels extends NodeTool.Sub {
        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            out.printf("%n%-50s%10s%n", "Logger Name", "Log Level");
            Map<String, String> levels = (Map<String, String>) probe.get(NodeTool.SS, "LoggingLevels");
            for (Map.Entry<String, String> e : levels.entrySet()) {
                out.printf("%-50s%10s%n", e.getKey(), e.getValue());
            }
        }
    }

    @Command(name = "setlogginglevel", description = "Set the log level threshold for a given component or class. Will "
            + "reset to the initial configuration if called with no parameters.")
    static final class SetLoggingLevel extends NodeTool.Sub {
        @Parameters(description = "<component|class> <level>")
        List<String> args = new ArrayList<>();

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            String target = args.size() >= 1 ? args.get(0) : "";
            String level = args.size() == 2 ? args.get(1) : "";
            // Apache's group names (bootstrap, repair, ...) name Cassandra's own classes: here a target is a logger
            List<String> classes = List.of(target);
            for (String c : classes) {
                probe.invoke(NodeTool.SS, "setLoggingLevel", new Object[] {c, level},
                        new String[] {String.class.getName(), String.class.getName()});
            }
        }
    }

    // ------------------------------------------------------------------ the cluster commands

    @Command(name = "describecluster", description = "Print the name, snitch, partitioner and schema version of a cluster")
    static final class DescribeCluster extends NodeTool.Sub {
        @Option(names = {"-pp", "--print-port"}, description = "Operate in 4.0 mode with hosts disambiguated by port number")
        boolean printPort;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            String ss = NodeTool.SS;
            out.println("Cluster Information:");
            out.println("\tName: " + probe.get(ss, "ClusterName"));
            out.println("\tSnitch: " + probe.get(NodeTool.SNITCH, "SnitchName"));
            out.println("\tDynamicEndPointSnitch: disabled");
            out.println("\tPartitioner: " + probe.get(ss, "PartitionerName"));
            out.println("\tSchema versions:");
            Map<String, List<String>> versions = (Map<String, List<String>>) probe.get(
                    "org.apache.cassandra.db:type=StorageProxy", printPort ? "SchemaVersionsWithPort" : "SchemaVersions");
            for (Map.Entry<String, List<String>> e : versions.entrySet()) {
                out.printf("\t\t%s: %s%n%n", e.getKey(), e.getValue());
            }
            List<String> joining = (List<String>) probe.get(ss, "JoiningNodesWithPort");
            List<String> leaving = (List<String>) probe.get(ss, "LeavingNodesWithPort");
            List<String> moving = (List<String>) probe.get(ss, "MovingNodesWithPort");
            List<String> live = (List<String>) probe.get(ss, "LiveNodesWithPort");
            List<String> unreachable = (List<String>) probe.get(ss, "UnreachableNodesWithPort");
            List<String> keyspaces = (List<String>) probe.get(ss, "Keyspaces");
            out.println("Stats for all nodes:");
            out.println("\tLive: " + live.size());
            out.println("\tJoining: " + joining.size());
            out.println("\tMoving: " + moving.size());
            out.println("\tLeaving: " + leaving.size());
            out.println("\tUnreachable: " + unreachable.size());
            Map<String, String> tokens = (Map<String, String>) probe.get(ss, "TokenToEndpointWithPortMap");
            String note = null;
            try {
                probe.invoke(ss, "effectiveOwnershipWithPort", new Object[] {null}, new String[] {String.class.getName()});
            } catch (javax.management.MBeanException | javax.management.RuntimeMBeanException e) {
                if (!(e.getCause() instanceof IllegalStateException)) {
                    throw e;
                }
                note = e.getCause().getMessage();
            }
            Map<String, Set<String>> byDc = new java.util.TreeMap<>();
            for (String endpoint : tokens.values()) {
                String dc = (String) probe.invoke(NodeTool.SNITCH, "getDatacenter", new Object[] {endpoint},
                        new String[] {String.class.getName()});
                byDc.computeIfAbsent(dc, k -> new java.util.LinkedHashSet<>()).add(endpoint);
            }
            out.println("\nData Centers: ");
            for (Map.Entry<String, Set<String>> dc : byDc.entrySet()) {
                out.print('\t' + dc.getKey());
                int down = 0;
                for (String endpoint : dc.getValue()) {
                    if (unreachable.contains(endpoint)) {
                        down++;
                    }
                }
                out.print(" #Nodes: " + dc.getValue().size());
                out.println(" #Down: " + down);
            }
            out.println("\nDatabase versions:");
            Map<String, List<String>> releases = (Map<String, List<String>>) probe.get(
                    "org.apache.cassandra.net:type=Gossiper", "ReleaseVersionsWithPort");
            for (Map.Entry<String, List<String>> e : releases.entrySet()) {
                out.printf("\t%s: %s%n%n", e.getKey(), e.getValue());
            }
            out.println("Keyspaces:");
            for (String ks : keyspaces) {
                out.printf("\t%s -> Replication class: %s%n", ks, probe.invoke(ss, "getKeyspaceReplicationInfo",
                        new Object[] {ks}, new String[] {String.class.getName()}));
            }
            if (note != null) {
                out.printf("%nNote: " + note + "%n");
            }
        }
    }

    @Command(name = "gossipinfo", description = "Shows the gossip information for the cluster")
    static final class GossipInfo extends NodeTool.Sub {
        @Option(names = {"-pp", "--print-port"}, description = "Operate in 4.0 mode with hosts disambiguated by port number")
        boolean printPort;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            out.println(probe.get("org.apache.cassandra.net:type=FailureDetector",
                    printPort ? "AllEndpointStatesWithPort" : "AllEndpointStates"));
        }
    }

    @Command(name = "getendpoints", description = "Print the end points that owns the key")
    static final class GetEndpoints extends NodeTool.Sub {
        @Parameters(description = "<keyspace> <table> <key>")
        List<String> args = new ArrayList<>();
        @Option(names = {"-pp", "--print-port"}, description = "Operate in 4.0 mode with hosts disambiguated by port number")
        boolean printPort;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            if (args.size() != 3) {
                throw new IllegalArgumentException("getendpoints requires keyspace, table and partition key arguments");
            }
            String[] sig = {String.class.getName(), String.class.getName(), String.class.getName()};
            Object[] a = {args.get(0), args.get(1), args.get(2)};
            if (printPort) {
                for (String e : (List<String>) probe.invoke(NodeTool.SS, "getNaturalEndpointsWithPort", a, sig)) {
                    out.println(e);
                }
            } else {
                for (java.net.InetAddress e : (List<java.net.InetAddress>) probe.invoke(NodeTool.SS,
                        "getNaturalEndpoints", a, sig)) {
                    out.println(e.getHostAddress());
                }
            }
        }
    }

    @Command(name = "compact", description = "Force a (major) compaction on one or more tables or user-defined "
            + "compaction on given SSTables")
    static final class Compact extends KeyspaceTablesCommand {
        @Option(names = {"-s", "--split-output"}, description = "Use -s to not create a single big file")
        boolean splitOutput;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            for (String ks : keyspaces(probe, args)) {
                try {
                    probe.invoke(NodeTool.SS, "forceKeyspaceCompaction", new Object[] {splitOutput, ks, tables(args)},
                            new String[] {boolean.class.getName(), String.class.getName(), String[].class.getName()});
                } catch (Exception e) {
                    throw new RuntimeException("Error occurred during compaction", e);
                }
            }
        }
    }

    @Command(name = "cleanup", description = "Triggers the immediate cleanup of keys no longer belonging to a node. By "
            + "default, clean all keyspaces")
    static final class Cleanup extends KeyspaceTablesCommand {
        @Option(names = {"-j", "--jobs"}, description = "Number of sstables to cleanup simultanously")
        int jobs = 2;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            List<String> keyspaces;
            if (args.isEmpty()) {
                keyspaces = (List<String>) probe.get(NodeTool.SS, "NonLocalStrategyKeyspaces");
            } else {
                keyspaces = keyspaces(probe, args);
            }
            for (String ks : keyspaces) {
                int compactors = (Integer) probe.get(NodeTool.SS, "ConcurrentCompactors");
                if (jobs > compactors) {
                    out.println(String.format("jobs (%d) is bigger than configured concurrent_compactors (%d) on the "
                            + "host, using at most %d threads", jobs, compactors, compactors));
                }
                int status;
                try {
                    status = (Integer) probe.invoke(NodeTool.SS, "forceKeyspaceCleanup", new Object[] {jobs, ks,
                            tables(args)}, new String[] {int.class.getName(), String.class.getName(),
                            String[].class.getName()});
                } catch (Exception e) {
                    throw new RuntimeException("Error occurred during cleanup", e);
                }
                if (status == 1) {
                    out.printf("Aborted cleaning up for at least one table in keyspace %s, check server logs for more "
                            + "information.\n", ks);
                } else if (status == 2) {
                    out.printf("Failed marking some sstables compacting in keyspace %s, check server logs for more "
                            + "information.\n", ks);
                    throw new RuntimeException("nodetool failed, check server logs");
                }
            }
        }
    }

    @Command(name = "decommission", description = "Decommission the *node I am connecting to*")
    static final class Decommission extends NodeTool.Sub {
        @Option(names = {"-f", "--force"}, description = "Force decommission of this node even when it reduces the "
                + "number of replicas to below configured RF")
        boolean force;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            if ((Boolean) probe.get(NodeTool.SS, "Decommissioning")) {
                out.println("This node is still decommissioning.");
                return;
            }
            if ("DECOMMISSIONED".equals(probe.get(NodeTool.SS, "BootstrapState"))) {
                out.println("Node was already decommissioned.");
                return;
            }
            probe.invoke(NodeTool.SS, "decommission", new Object[] {force}, new String[] {boolean.class.getName()});
        }
    }

    @Command(name = "removenode", description = "Show status of current node removal, abort removal or remove provided ID")
    static final class RemoveNode extends NodeTool.Sub {
        @Parameters(arity = "1", description = "<status>|<force>|<ID>")
        String operation;
        @Option(names = {"-pp", "--print-port"}, description = "Operate in 4.0 mode with hosts disambiguated by port number")
        boolean printPort;

        @Override
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            switch (operation) {
                case "status" -> out.println("RemovalStatus: " + probe.get(NodeTool.SS, printPort
                        ? "RemovalStatusWithPort" : "RemovalStatus"));
                case "force" -> throw new IllegalStateException("removenode force is not supported by Charybdis: a "
                        + "removal either completes or fails and leaves the node in the ring (run it again)");
                default -> probe.invoke(NodeTool.SS, "removeNode", new Object[] {operation},
                        new String[] {String.class.getName()});
            }
        }
    }

    @Command(name = "compactionstats", description = "Print statistics on compactions")
    static final class CompactionStats extends NodeTool.Sub {
        @Option(names = {"-H", "--human-readable"}, description = "Display bytes in human readable form")
        boolean humanReadable;
        @Option(names = {"-V", "--vtable"}, description = "Display fields matching vtable output")
        boolean vtable;

        @Override
        @SuppressWarnings("unchecked")
        void execute(NodeTool.Probe probe, PrintStream out) throws Exception {
            String c = "org.apache.cassandra.metrics:type=Compaction,name=";
            Map<String, Map<String, Integer>> pending = (Map<String, Map<String, Integer>>) probe.get(
                    c + "PendingTasksByTableName", "Value");
            TextTable table = new TextTable(" ");
            table.add("concurrent compactors", probe.get(NodeTool.SS, "ConcurrentCompactors").toString());
            int total = 0;
            for (Map<String, Integer> t : pending.values()) {
                for (int n : t.values()) {
                    total += n;
                }
            }
            table.add("pending tasks", Integer.toString(total));
            for (Map.Entry<String, Map<String, Integer>> ks : pending.entrySet()) {
                for (Map.Entry<String, Integer> t : ks.getValue().entrySet()) {
                    table.add(ks.getKey(), t.getKey(), t.getValue().toString());
                }
            }
            table.add("compactions completed", probe.get(c + "TotalCompactionsCompleted", "Count").toString());
            long compacted = (Long) probe.get(c + "BytesCompacted", "Count");
            table.add("data compacted", humanReadable ? FileSizes.stringify(compacted) : Long.toString(compacted));
            table.add("compactions aborted", probe.get(c + "CompactionsAborted", "Count").toString());
            table.add("compactions reduced", probe.get(c + "CompactionsReduced", "Count").toString());
            table.add("sstables dropped from compaction", probe.get(c + "SSTablesDroppedFromCompaction", "Count")
                    .toString());
            java.text.DecimalFormat two = new java.text.DecimalFormat("0.00");
            table.add("15 minute rate", String.format("%s/minute", two.format(
                    (Double) probe.get(c + "TotalCompactionsCompleted", "FifteenMinuteRate") * 60)));
            table.add("mean rate", String.format("%s/hour", two.format(
                    (Double) probe.get(c + "TotalCompactionsCompleted", "MeanRate") * 60 * 60)));
            double configured = (Double) probe.get(NodeTool.SS, "CompactionThroughtputMibPerSecAsDouble");
            table.add("compaction throughput (MiB/s)", configured == 0 ? "throttling disabled (0)"
                    : Double.toString(configured));
            List<Map<String, String>> running = (List<Map<String, String>>) probe.get(CM, "Compactions");
            if (running.isEmpty()) {
                table.printTo(out);
                return;
            }
            long throughput = (Long) probe.get(NodeTool.SS, "CompactionThroughtputBytesPerSec");
            long remaining = 0;
            if (vtable) {
                table.add("keyspace", "table", "task id", "completion ratio", "kind", "progress", "sstables", "total",
                        "unit", "target directory");
            } else {
                table.add("id", "compaction type", "keyspace", "table", "completed", "total", "unit", "progress");
            }
            for (Map<String, String> r : running) {
                long all = Long.parseLong(r.get("total"));
                long done = Long.parseLong(r.get("completed"));
                boolean sizes = humanReadable && r.get("unit").equals("bytes");
                String doneStr = sizes ? FileSizes.stringify(done) : Long.toString(done);
                String allStr = sizes ? FileSizes.stringify(all) : Long.toString(all);
                String pct = all == 0 ? "n/a" : two.format((double) done / all * 100) + '%';
                if (vtable) {
                    table.add(r.get("keyspace"), r.get("columnfamily"), r.get("compactionId"), pct, r.get("taskType"),
                            doneStr, String.valueOf(r.get("sstables").split(",").length), allStr, r.get("unit"),
                            r.get("targetDirectory"));
                } else {
                    table.add(r.get("compactionId"), r.get("taskType"), r.get("keyspace"), r.get("columnfamily"),
                            doneStr, allStr, r.get("unit"), pct);
                }
                remaining += all - done;
            }
            String time = "n/a";
            if (throughput != 0) {
                long secs = remaining / throughput;
                time = String.format("%dh%02dm%02ds", secs / 3600, (secs % 3600) / 60, secs % 60);
            }
            table.add("active compaction remaining time", time);
            table.printTo(out);
        }
    }
}
