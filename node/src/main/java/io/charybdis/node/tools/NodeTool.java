package io.charybdis.node.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import javax.management.Attribute;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/nodetool}: Charybdis's own nodetool, over the same JMX beans Apache Cassandra's nodetool uses, with its
 * command names, options, output and exit codes for the commands it has (0: done; 1: bad command line or no
 * connection; 2: the node refused or failed the operation, "error: ..." and the stack trace on stderr).
 */
@Command(name = "nodetool", mixinStandardHelpOptions = false, subcommands = {
        NodeTool.Version.class, NodeTool.Flush.class, NodeTool.Status.class, NodeTool.Snapshot.class,
        NodeTool.ListSnapshots.class, NodeTool.ClearSnapshot.class, NodeTool.Drain.class, NodeTool.StopDaemon.class,
        NodeTool.EnableBinary.class, NodeTool.DisableBinary.class, NodeTool.StatusBinary.class,
        NodeTool.RefreshSizeEstimates.class,
        ManagementCommands.Info.class, ManagementCommands.TpStats.class, ManagementCommands.ProxyHistograms.class,
        ManagementCommands.CompactionHistory.class, ManagementCommands.DescribeRing.class,
        ManagementCommands.GarbageCollect.class, ManagementCommands.EnableAutoCompaction.class,
        ManagementCommands.DisableAutoCompaction.class, ManagementCommands.GetCompactionThroughput.class,
        ManagementCommands.SetCompactionThroughput.class, ManagementCommands.Refresh.class,
        ManagementCommands.Import.class, ManagementCommands.GetLoggingLevels.class,
        ManagementCommands.SetLoggingLevel.class, ManagementCommands.DescribeCluster.class,
        ManagementCommands.GossipInfo.class, ManagementCommands.GetEndpoints.class, ManagementCommands.Compact.class,
        ManagementCommands.Cleanup.class, ManagementCommands.Decommission.class, ManagementCommands.RemoveNode.class, ManagementCommands.CompactionStats.class,
        ManagementCommands.StatusAutoCompaction.class, StatsCommands.TableStats.class, StatsCommands.Ring.class,
        StatsCommands.NetStats.class, StatsCommands.TableHistograms.class, StatsCommands.Repair.class,
        CommandLine.HelpCommand.class})
public final class NodeTool implements Callable<Integer> {
    static final String SS = "org.apache.cassandra.db:type=StorageService";
    static final String SNITCH = "org.apache.cassandra.db:type=EndpointSnitchInfo";

    @Option(names = {"-h", "--host"}, defaultValue = "127.0.0.1", description = "Node hostname or ip address")
    String host;
    @Option(names = {"-p", "--port"}, defaultValue = "7199", description = "Remote jmx agent port number")
    int port;
    @Option(names = {"-u", "--username"}, description = "Remote jmx agent username")
    String username;
    @Option(names = {"-pw", "--password"}, description = "Remote jmx agent password")
    String password;

    final PrintStream out;

    NodeTool(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line; returns the exit status. */
    /**
     * The values of {@code key} in a map that stands for a Guava multimap ({@code HashMultimap},
     * {@code ArrayListMultimap}), made if absent the way Guava adds a key: {@code put}, which appends to the hash
     * bucket, where {@code computeIfAbsent} would prepend, and keys of one bucket would then be listed in another
     * order than Apache's nodetool lists them.
     */
    static <K, V> V multimapValues(Map<K, V> map, K key, java.util.function.Supplier<V> make) {
        V v = map.get(key);
        if (v == null) {
            v = make.get();
            map.put(key, v);
        }
        return v;
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        NodeTool tool = new NodeTool(out);
        CommandLine cl = new CommandLine(tool);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((e, a) -> {
            // Apache's nodetool prints command-line errors on stdout, in airline's words
            String message = e instanceof CommandLine.UnmatchedArgumentException u
                    ? "Found unexpected parameters: " + u.getUnmatched() : e.getMessage();
            out.println("nodetool: " + message);
            out.println("See 'nodetool help' or 'nodetool help <command>'.");
            return 1;
        });
        cl.setExecutionExceptionHandler((thrown, commandLine, parsed) -> {
            // a bean's own IllegalArgumentException reaches Apache's nodetool as itself (through its MBean proxies)
            Exception e = thrown instanceof javax.management.RuntimeMBeanException r
                    && r.getCause() instanceof IllegalArgumentException iae ? iae : thrown;
            if (e instanceof Failed) { // the command printed why (Apache's nodetool exits with 1 there)
                return 1;
            }
            if (e instanceof ConnectionFailure cf) {
                err.println("nodetool: " + cf.getMessage());
                return 1;
            }
            if (e instanceof IllegalArgumentException bad) { // a command's own check of its arguments
                out.println("nodetool: " + bad.getMessage());
                out.println("See 'nodetool help' or 'nodetool help <command>'.");
                return 1;
            }
            Throwable t = e instanceof MBeanException m && m.getCause() != null ? m.getCause() : e;
            err.println("error: " + t.getMessage());
            err.println("-- StackTrace --");
            StringWriter trace = new StringWriter();
            t.printStackTrace(new PrintWriter(trace));
            err.print(trace);
            return 2;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(new CommandLine(this), "No command given");
    }

    /** A command that printed its failure itself and ends with exit status 1 (nodetool import's failed directories). */
    static final class Failed extends RuntimeException {
        Failed() {
            super(null, null, false, false);
        }
    }

    /** Could not reach the node: Apache's nodetool says so and exits with 1. */
    static final class ConnectionFailure extends RuntimeException {
        ConnectionFailure(String message) {
            super(message);
        }
    }

    /** A JMX connection to the node, closed after the command. */
    static final class Probe implements AutoCloseable {
        final JMXConnector connector;
        final MBeanServerConnection mbs;

        Probe(NodeTool tool) {
            try {
                JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + tool.host + ":" + tool.port
                        + "/jmxrmi");
                Map<String, Object> env = new HashMap<>();
                if (tool.username != null) {
                    env.put(JMXConnector.CREDENTIALS, new String[] {tool.username, tool.password});
                }
                this.connector = JMXConnectorFactory.connect(url, env);
                this.mbs = connector.getMBeanServerConnection();
            } catch (IOException e) {
                Throwable root = e;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                throw new ConnectionFailure("Failed to connect to '" + tool.host + ":" + tool.port + "' - "
                        + root.getClass().getSimpleName() + ": '" + root.getMessage() + "'.");
            }
        }

        Object get(String bean, String attribute) throws Exception {
            return mbs.getAttribute(new ObjectName(bean), attribute);
        }

        Object invoke(String bean, String operation, Object[] args, String[] signature) throws Exception {
            return mbs.invoke(new ObjectName(bean), operation, args, signature);
        }

        void set(String bean, String attribute, Object value) throws Exception {
            mbs.setAttribute(new ObjectName(bean), new Attribute(attribute, value));
        }

        @Override
        public void close() {
            try {
                connector.close();
            } catch (IOException | RuntimeException e) {
                // the node may be gone (stopdaemon)
            }
        }
    }

    abstract static class Sub implements Callable<Integer> {
        @CommandLine.ParentCommand
        NodeTool tool;

        @Override
        public Integer call() throws Exception {
            try (Probe probe = new Probe(tool)) {
                execute(probe, tool.out);
            }
            return 0;
        }

        abstract void execute(Probe probe, PrintStream out) throws Exception;
    }

    @Command(name = "version", description = "Print cassandra version")
    static final class Version extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            out.println("ReleaseVersion: " + probe.get(SS, "ReleaseVersion"));
        }
    }

    @Command(name = "flush", description = "Flush one or more tables")
    static final class Flush extends Sub {
        @Parameters(description = "[<keyspace> <tables>...]")
        List<String> args = new ArrayList<>();

        @Override
        @SuppressWarnings("unchecked")
        void execute(Probe probe, PrintStream out) throws Exception {
            List<String> keyspaces = args.isEmpty() ? (List<String>) probe.get(SS, "Keyspaces") : List.of(args.get(0));
            String[] tables = args.size() > 1 ? args.subList(1, args.size()).toArray(String[]::new) : new String[0];
            for (String ks : keyspaces) {
                probe.invoke(SS, "forceKeyspaceFlush", new Object[] {ks, tables},
                        new String[] {String.class.getName(), String[].class.getName()});
            }
        }
    }

    @Command(name = "refreshsizeestimates", description = "Refresh system.size_estimates")
    static final class RefreshSizeEstimates extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            probe.invoke(SS, "refreshSizeEstimates", new Object[0], new String[0]);
        }
    }

    @Command(name = "enablebinary", description = "Reenable native transport (binary protocol)")
    static final class EnableBinary extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            probe.invoke(SS, "startNativeTransport", new Object[0], new String[0]);
        }
    }

    @Command(name = "disablebinary", description = "Disable native transport (binary protocol)")
    static final class DisableBinary extends Sub {
        @Option(names = {"-f", "--force"}, description = "Use -f to interrupt client requests that have already "
                + "started")
        boolean force;

        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            probe.invoke(SS, "stopNativeTransport", new Object[] {force}, new String[] {boolean.class.getName()});
        }
    }

    @Command(name = "statusbinary", description = "Status of native transport (binary protocol)")
    static final class StatusBinary extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            out.println(Boolean.TRUE.equals(probe.get(SS, "NativeTransportRunning")) ? "running" : "not running");
        }
    }

    @Command(name = "drain", description = "Drain the node (stop accepting writes and flush all tables)")
    static final class Drain extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            probe.invoke(SS, "drain", new Object[0], new String[0]);
        }
    }

    @Command(name = "stopdaemon", description = "Stop cassandra daemon")
    static final class StopDaemon extends Sub {
        @Override
        void execute(Probe probe, PrintStream out) {
            try {
                probe.invoke(SS, "stopDaemon", new Object[0], new String[0]);
            } catch (Exception e) {
                // the node closes the connection as it stops, as Cassandra's does
            }
        }
    }

    @Command(name = "snapshot", description = "Take a snapshot of specified keyspaces or a snapshot of the specified "
            + "table")
    static final class Snapshot extends Sub {
        @Parameters(description = "[<keyspaces...>]")
        List<String> keyspaces = new ArrayList<>();
        @Option(names = {"-t", "--tag"}, description = "The name of the snapshot")
        String tag = Long.toString(System.currentTimeMillis());
        @Option(names = {"-cf", "--column-family", "--table"}, description = "The table name")
        String table;
        @Option(names = {"-kt", "--kt-list", "-kc", "--kc.list"}, description = "The list of Keyspace.table to take "
                + "snapshot")
        String ktList;
        @Option(names = {"-sf", "--skip-flush"}, description = "Do not flush memtables before snapshotting")
        boolean skipFlush;
        @Option(names = {"--ttl"}, description = "Specify a TTL of created snapshot")
        String ttl;

        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            Map<String, String> options = new HashMap<>();
            options.put("skipFlush", Boolean.toString(skipFlush));
            if (ttl != null) {
                // Apache's nodetool checks the form of a duration; its unit (seconds at least) and its floor of a
                // minute are the node's to check
                if (!ttl.matches("\\d+(d|h|s|ms|us|µs|ns|m)")) {
                    throw new IllegalArgumentException("Invalid duration: " + ttl + " Accepted units:[NANOSECONDS, "
                            + "MICROSECONDS, MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS] where case matters and "
                            + "only non-negative values.");
                }
                options.put("ttl", ttl);
            }
            String[] entities;
            String what;
            if (ktList != null && !ktList.isEmpty()) {
                if (!keyspaces.isEmpty()) {
                    throw new IOException("When specifying the Keyspace table list (using -kt,--kt-list,-kc,--kc.list), "
                            + "you must not also specify keyspaces to snapshot");
                }
                entities = ktList.replace(" ", "").split(",");
                what = "[" + ktList + "]";
            } else {
                if (table != null) {
                    entities = new String[] {keyspaces.getFirst() + "." + table};
                } else {
                    entities = keyspaces.toArray(String[]::new);
                }
                what = keyspaces.isEmpty() ? "[all keyspaces]" : "[" + String.join(", ", keyspaces) + "]";
            }
            out.println("Requested creating snapshot(s) for " + what + " with snapshot name [" + tag
                    + "] and options " + options);
            probe.invoke(SS, "takeSnapshot", new Object[] {tag, options, entities}, new String[] {
                    String.class.getName(), Map.class.getName(), String[].class.getName()});
            out.println("Snapshot directory: " + tag);
        }
    }

    @Command(name = "listsnapshots", description = "Lists all the snapshots along with the size on disk and true size.")
    static final class ListSnapshots extends Sub {
        @Option(names = {"-e", "--ephemeral"}, description = "Include ephememeral snapshots")
        boolean ephemeral;
        @Option(names = {"-nt", "--no-ttl"}, description = "Skip snapshots with TTL")
        boolean noTtl;

        @Override
        @SuppressWarnings("unchecked")
        void execute(Probe probe, PrintStream out) throws Exception {
            out.println("Snapshot Details: ");
            Map<String, String> options = new HashMap<>();
            options.put("no_ttl", Boolean.toString(noTtl));
            options.put("include_ephemeral", Boolean.toString(ephemeral));
            Map<String, TabularData> details = (Map<String, TabularData>) probe.invoke(SS, "getSnapshotDetails",
                    new Object[] {options}, new String[] {Map.class.getName()});
            if (details.isEmpty()) {
                out.println("There are no snapshots");
                return;
            }
            long trueSize = (Long) probe.invoke(SS, "trueSnapshotsSize", new Object[0], new String[0]);
            TextTable table = new TextTable(" ");
            List<String> header = new ArrayList<>(details.values().iterator().next().getTabularType().getRowType()
                    .keySet());
            // the column order of Cassandra's SnapshotDetails, the ephemeral flag only when asked for
            List<String> columns = new ArrayList<>(List.of("Snapshot name", "Keyspace name", "Column family name",
                    "True size", "Size on disk", "Creation time", "Expiration time"));
            if (ephemeral) {
                columns.add("Ephemeral");
            }
            columns.retainAll(header);
            table.add(columns.toArray(String[]::new));
            for (TabularData td : new TreeMap<>(details).values()) {
                for (Object row : td.values()) {
                    CompositeData cd = (CompositeData) row;
                    String[] cells = new String[columns.size()];
                    for (int i = 0; i < cells.length; i++) {
                        Object v = cd.get(columns.get(i));
                        cells[i] = v == null ? "" : v.toString();
                    }
                    table.add(cells);
                }
            }
            table.printTo(out);
            out.println();
            out.println("Total TrueDiskSpaceUsed: " + io.charybdis.node.jmx.FileSizes.stringify(trueSize));
            out.println();
        }
    }

    @Command(name = "clearsnapshot", description = "Remove the snapshot with the given name from the given keyspaces")
    static final class ClearSnapshot extends Sub {
        @Parameters(description = "[<keyspaces>...]")
        List<String> keyspaces = new ArrayList<>();
        @Option(names = {"-t"}, description = "Remove the snapshot with a given name")
        String tag = "";
        @Option(names = {"--all"}, description = "Removes all snapshots")
        boolean all;

        @Override
        void execute(Probe probe, PrintStream out) throws Exception {
            if (tag.isEmpty() && !all) {
                throw new IllegalArgumentException("Specify snapshot name or --all");
            }
            if (!tag.isEmpty() && all) {
                throw new IllegalArgumentException("Specify only one of snapshot name or --all");
            }
            StringBuilder msg = new StringBuilder("Requested clearing snapshot(s) for ");
            msg.append(keyspaces.isEmpty() ? "[all keyspaces]" : "[" + String.join(", ", keyspaces) + "]");
            msg.append(all ? " with [all snapshots]" : " with snapshot name [" + tag + "]");
            out.println(msg);
            probe.invoke(SS, "clearSnapshot", new Object[] {new HashMap<String, Object>(), tag,
                    keyspaces.toArray(String[]::new)}, new String[] {Map.class.getName(), String.class.getName(),
                    String[].class.getName()});
        }
    }

    @Command(name = "status", description = "Print cluster information (state, load, IDs, ...)")
    static final class Status extends Sub {
        @Parameters(arity = "0..1", description = "[<keyspace>]")
        String keyspace;
        @Option(names = {"-r", "--resolve-ip"}, description = "Show node domain names instead of IPs")
        boolean resolveIp;

        @Override
        @SuppressWarnings("unchecked")
        void execute(Probe probe, PrintStream out) throws Exception {
            List<String> live = (List<String>) probe.get(SS, "LiveNodesWithPort");
            List<String> joining = (List<String>) probe.get(SS, "JoiningNodesWithPort");
            List<String> leaving = (List<String>) probe.get(SS, "LeavingNodesWithPort");
            List<String> moving = (List<String>) probe.get(SS, "MovingNodesWithPort");
            Map<String, String> loads = (Map<String, String>) probe.get(SS, "LoadMapWithPort");
            Map<String, String> tokens = (Map<String, String>) probe.get(SS, "TokenToEndpointWithPortMap");
            Map<String, String> hostIds = (Map<String, String>) probe.get(SS, "EndpointWithPortToHostId");
            boolean effective = true;
            Map<String, Float> ownership;
            String note = null;
            try {
                ownership = (Map<String, Float>) probe.invoke(SS, "effectiveOwnershipWithPort",
                        new Object[] {keyspace}, new String[] {String.class.getName()});
            } catch (MBeanException | javax.management.RuntimeMBeanException e) {
                Throwable cause = e.getCause();
                if (!(cause instanceof IllegalStateException)) {
                    throw e;
                }
                ownership = (Map<String, Float>) probe.invoke(SS, "getOwnershipWithPort", new Object[0],
                        new String[0]);
                effective = false;
                note = cause.getMessage();
            }
            Map<String, List<String>> byDc = new TreeMap<>();
            for (String endpoint : new java.util.TreeSet<>(tokens.values())) {
                String dc = (String) probe.invoke(SNITCH, "getDatacenter", new Object[] {endpoint},
                        new String[] {String.class.getName()});
                byDc.computeIfAbsent(dc, k -> new ArrayList<>()).add(endpoint);
            }
            DecimalFormat pct = new DecimalFormat("##0.0%", DecimalFormatSymbols.getInstance(Locale.ROOT));
            for (Map.Entry<String, List<String>> dc : byDc.entrySet()) {
                String title = "Datacenter: " + dc.getKey();
                out.print(String.format("%s%n", title));
                out.println("=".repeat(title.length()));
                out.println("Status=Up/Down");
                out.println("|/ State=Normal/Leaving/Joining/Moving");
                TextTable table = new TextTable("  ");
                table.add("--", "Address", "Load", "Tokens", effective ? "Owns (effective)" : "Owns", "Host ID",
                        "Rack");
                for (String endpoint : dc.getValue()) {
                    String status = live.contains(endpoint) ? "U" : "D";
                    String state = joining.contains(endpoint) ? "J" : leaving.contains(endpoint) ? "L"
                            : moving.contains(endpoint) ? "M" : "N";
                    int count = 0;
                    for (String e : tokens.values()) {
                        if (e.equals(endpoint)) {
                            count++;
                        }
                    }
                    Float owns = ownership.get(endpoint);
                    String rack = (String) probe.invoke(SNITCH, "getRack", new Object[] {endpoint},
                            new String[] {String.class.getName()});
                    String address = endpoint.lastIndexOf(':') > 0 ? endpoint.substring(0, endpoint.lastIndexOf(':'))
                            : endpoint;
                    table.add(status + state, address, loads.getOrDefault(endpoint, "?"), Integer.toString(count),
                            owns == null ? "?" : pct.format(owns), hostIds.getOrDefault(endpoint, "?"), rack);
                }
                table.printTo(out);
                out.println();
            }
            if (note != null) {
                out.printf("%nNote: %s%n", note);
            }
        }
    }

}
