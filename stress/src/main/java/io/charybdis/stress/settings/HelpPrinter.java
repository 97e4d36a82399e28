package io.charybdis.stress.settings;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code help} and {@code help <command|option>}: the overview of commands and option groups, or the usage forms
 * and parameters of one, laid out as cassandra-stress lays them out (our own wording).
 */
public final class HelpPrinter {

    private static final String DIST = "DIST";
    private static final List<String[]> DISTRIBUTIONS = List.of(
            new String[] {"EXP(min..max)", "Exponential over [min..max]"},
            new String[] {"EXTREME(min..max,shape)", "Extreme value (Weibull) over [min..max]"},
            new String[] {"QEXTREME(min..max,shape,quantas)", "Extreme value cut into quantas, uniform inside each"},
            new String[] {"GAUSSIAN(min..max,stdvrng)", "Normal with mean (min+max)/2 and stdev (mean-min)/stdvrng"},
            new String[] {"GAUSSIAN(min..max,mean,stdev)", "Normal with the given mean and stdev"},
            new String[] {"UNIFORM(min..max)", "Uniform over [min, max]"},
            new String[] {"FIXED(val)", "Always val"},
            new String[] {"SEQ(min..max)", "min, min+1, ... max, then again from min"});

    private static final String[] BASIC_USAGE = {
        "[err<?] [n>?] [n<?] [no-warmup] [truncate=?] [cl=?]",
        "n=? [no-warmup] [truncate=?] [cl=?]",
        "duration=? [no-warmup] [truncate=?] [cl=?]"};
    private static final String[][] BASIC_OPTIONS = {
        {"err<? (default=0.02)", "Stop once the standard error of the mean throughput is below this fraction"},
        {"n>? (default=30)", "Measure at least this many intervals before stopping on err<"},
        {"n<? (default=200)", "Measure at most this many intervals when stopping on err<"},
        {"no-warmup", "Skip the warmup"},
        {"truncate=? (default=never)", "Truncate the tables: never, once before the run, or always before each round"},
        {"cl=? (default=LOCAL_ONE)", "Consistency level of every operation"},
        {"n=?", "Number of operations to run (k, m, b suffixes allowed)"},
        {"duration=?", "How long to run: a number followed by s, m, h or d"}};

    private HelpPrinter() {
    }

    public static void print(String topic, PrintStream out) {
        if (topic == null || topic.isEmpty()) {
            overview(out);
            return;
        }
        String t = topic.toLowerCase(Locale.ROOT);
        Command c = Command.find(t);
        if (c != null) {
            command(c, out);
        } else if (StressSettings.GROUPS.containsKey(t) || StressSettings.GROUPS.containsKey("-" + t)) {
            group(t.startsWith("-") ? t : "-" + t, out);
        } else {
            out.println("No help for " + topic);
            overview(out);
        }
    }

    public static void overview(PrintStream out) {
        out.println("Usage:      charybdis-stress <command> [options]");
        out.println("Help usage: charybdis-stress help <command>");
        out.println();
        out.println("---Commands---");
        for (Command c : Command.values()) {
            out.printf("%-20s : %s%n", c.lowerName(), c.description());
        }
        out.println();
        out.println("---Options---");
        StressSettings.GROUPS.forEach((k, v) -> out.printf("%-21s : %s%n", k, v));
    }

    private static void usage(PrintStream out, String name, String... forms) {
        out.println();
        for (int i = 0; i < forms.length; i++) {
            if (i > 0) {
                out.println(" OR ");
            }
            out.println("Usage: " + name + " " + forms[i]);
        }
        out.println();
    }

    private static void option(PrintStream out, String name, String description) {
        out.printf("  %-40s %s%n", name, description);
    }

    private static void distOption(PrintStream out, String name, String description) {
        out.println("  " + name + ": " + description);
        for (String[] d : DISTRIBUTIONS) {
            out.printf("      %-36s %s%n", d[0], d[1]);
        }
        out.println("      A leading ~ inverts the distribution: ~exp(1..10) yields 10 most often");
        out.println("      Aliases: extr, qextr, gauss, normal, norm, weibull");
    }

    private static void command(Command c, PrintStream out) {
        switch (c) {
            case HELP -> out.println("Usage: help [command|option]");
            case PRINT -> {
                out.println("Usage: print dist=" + DIST + "(?)");
                distOption(out, "dist=DIST(?)", "The distribution whose percentiles to print");
            }
            case VERSION -> out.println("Usage: version");
            case MIXED -> {
                String extra = " [clustering=DIST(?)] [ratio(?)] [add=DIST(?)] [keysize=?]";
                usage(out, "mixed", BASIC_USAGE[0] + extra, BASIC_USAGE[1] + extra, BASIC_USAGE[2] + extra);
                distOption(out, "[clustering=DIST(?)]", "How many operations of the same kind run back to back");
                out.println("  ratio([read=?][write=?][counter_write=?][counter_read=?]): Relative weight of each operation, e.g. ratio(read=3,write=1)");
                basicOptions(out);
                distOption(out, "[add=DIST(?)]", "Counter increment values");
                option(out, "keysize=? (default=10)", "Partition key size in bytes");
            }
            case USER -> {
                String pre = "profile=? ops(?) [clustering=DIST(?)] ";
                usage(out, "user", pre + BASIC_USAGE[0], pre + BASIC_USAGE[1], pre + BASIC_USAGE[2]);
                option(out, "profile=?", "YAML profile(s) defining keyspace, table, columns, inserts and queries (comma separated)");
                out.println("  ops(?): Relative weight of inserts and named queries, e.g. ops(insert=1,simple1=3)");
                distOption(out, "[clustering=DIST(?)]", "How many operations of the same kind run back to back");
                basicOptions(out);
            }
            default -> {
                usage(out, c.lowerName(), BASIC_USAGE);
                basicOptions(out);
            }
        }
    }

    private static void basicOptions(PrintStream out) {
        for (String[] o : BASIC_OPTIONS) {
            option(out, o[0], o[1]);
        }
    }

    private static final Map<String, String[]> GROUP_USAGE = Map.ofEntries(
            Map.entry("-pop", new String[] {"seq=? [no-wrap] [read-lookback=DIST(?)] [contents=?]", "[dist=DIST(?)] [contents=?]"}),
            Map.entry("-insert", new String[] {"[revisit=DIST(?)] [visits=DIST(?)] [partitions=DIST(?)] [batchtype=?] [select-ratio=DIST(?)] [row-population-ratio=DIST(?)]"}),
            Map.entry("-col", new String[] {"names=? [slice] [super=?] [comparator=?] [timestamp=?] [size=DIST(?)]",
                "[n=DIST(?)] [slice] [super=?] [comparator=?] [timestamp=?] [size=DIST(?)]"}),
            Map.entry("-rate", new String[] {"threads=? [throttle=?|limit=?] [fixed=?]", "[threads>=?] [threads<=?] [auto]"}),
            Map.entry("-mode", new String[] {"[native] [cql3] [user=?] [password=?] [port=?] [auth-provider=?] [maxPending=?] [compression=?] [connectionsPerHost=?] [prepared] [unprepared] [protocolVersion=?] [simplenative]"}),
            Map.entry("-errors", new String[] {"[retries=?] [ignore] [skip-read-validation]"}),
            Map.entry("-schema", new String[] {"[replication(?)] [keyspace=?] [compaction(?)] [compression=?]"}),
            Map.entry("-node", new String[] {"[datacenter=?] [whitelist] [file=?] [host1,host2,...]"}),
            Map.entry("-log", new String[] {"[level=?] [no-summary] [file=?] [hdrfile=?] [interval=?] [no-settings]"}),
            Map.entry("-transport", new String[] {"[truststore=?] [truststore-password=?] [keystore=?] [keystore-password=?] [ssl-protocol=?] [ssl-alg=?] [ssl-ciphers=?]"}),
            Map.entry("-port", new String[] {"[native=?] [jmx=?]"}),
            Map.entry("-jmx", new String[] {"[user=?] [password=?]"}),
            Map.entry("-graph", new String[] {"file=? [revision=?] [title=?] [op=?]"}),
            Map.entry("-tokenrange", new String[] {"[wrap] [split-factor=?]"}),
            Map.entry("-credentials-file", new String[] {"<file>"}),
            Map.entry("-reporting", new String[] {"[output-frequency=?] [header-frequency=?]"}),
            Map.entry("-sendto", new String[] {"<host>"}));

    private static final Map<String, String[][]> GROUP_OPTIONS = Map.ofEntries(
            Map.entry("-pop", new String[][] {{"seq=? (default=1..N)", "Visit the seeds min..max in order, shared by all threads"},
                {"no-wrap", "Stop once every seed of the sequence has been visited"},
                {"read-lookback=DIST(?)", "Reads pick among recently written seeds"},
                {"contents=?", "SORTED or SHUFFLED order within a partition"},
                {"dist=DIST(?)", "Each thread draws seeds from this distribution"}}),
            Map.entry("-insert", new String[][] {{"revisit=DIST(?)", "How partially written partitions are revisited"},
                {"visits=DIST(?)", "In how many inserts a partition is written"},
                {"partitions=DIST(?)", "Partitions per batch"},
                {"batchtype=?", "LOGGED, UNLOGGED or COUNTER"},
                {"select-ratio=DIST(?)/divisor", "Share of a partition's rows each insert writes"},
                {"row-population-ratio=DIST(?)/divisor", "Share of a row's columns each insert writes"}}),
            Map.entry("-col", new String[][] {{"names=?", "Comma separated column names"},
                {"n=DIST(?) (default=FIXED(5))", "How many columns each write sets"},
                {"size=DIST(?) (default=FIXED(34))", "Size of each value in bytes"},
                {"slice", "Read with a slice instead of by names"},
                {"super=? (default=0)", "Super columns (accepted, not used)"},
                {"comparator=? (default=AsciiType)", "Column comparator (accepted, not used)"},
                {"timestamp=?", "Write every cell with this timestamp"}}),
            Map.entry("-rate", new String[][] {{"threads=?", "Number of client threads, each with one operation in flight"},
                {"throttle=? / limit=? (default=0/s)", "At most this many op/s in total; latency from the actual send"},
                {"fixed=? (default=0/s)", "This many op/s on a fixed schedule; latency from each operation's intended start"},
                {"threads>=? (default=4)", "Auto mode: first thread count"},
                {"threads<=? (default=1000)", "Auto mode: last thread count"},
                {"auto", "Auto mode: stop growing the thread count once throughput stops improving"}}),
            Map.entry("-mode", new String[][] {{"native, cql3", "Accepted and ignored (the native protocol is the only one)"},
                {"user=?", "CQL user"}, {"password=?", "CQL password"}, {"port=?", "Native port (see -port native=)"},
                {"auth-provider=?", "Accepted, not used"}, {"maxPending=? (default=128)", "Requests in flight per connection"},
                {"compression=? (default=none)", "none, lz4 or snappy"}, {"connectionsPerHost=? (default=8)", "Connections to each node"},
                {"prepared", "Prepared statements (the default)"}, {"unprepared", "Plain statements with bound values"},
                {"protocolVersion=? (default=NEWEST_SUPPORTED)", "Native protocol version: 3, 4 or 5"},
                {"simplenative", "Accepted, same as native"}}),
            Map.entry("-errors", new String[][] {{"retries=? (default=9)", "Retries of a failed operation"},
                {"ignore", "Count failures instead of stopping the run"},
                {"skip-read-validation", "Do not treat a read that finds nothing as a failure"}}),
            Map.entry("-schema", new String[][] {{"replication([strategy=?][factor=?][<option>=?])", "Keyspace replication (default SimpleStrategy, factor 1)"},
                {"keyspace=? (default=keyspace1)", "Keyspace name"},
                {"compaction([strategy=?][<option>=?])", "Table compaction strategy and options"},
                {"compression=?", "Table compression class (default: none)"}}),
            Map.entry("-node", new String[][] {{"datacenter=?", "Local datacenter for load balancing"},
                {"whitelist", "Talk only to the listed nodes"}, {"file=?", "File with one node per line"},
                {"host1,host2 (default=localhost)", "Comma separated nodes, optionally host:port"}}),
            Map.entry("-log", new String[][] {{"level=? (default=normal)", "minimal, normal or verbose"},
                {"no-summary", "Skip the Results block"}, {"file=?", "Also write the output to this file"},
                {"hdrfile=?", "Write interval latency histograms to this HdrHistogram log"},
                {"interval=? (default=1s)", "Reporting interval: 1s, 500ms, 10 (seconds)"},
                {"no-settings", "Skip the settings dump"}}),
            Map.entry("-transport", new String[][] {{"truststore=?", "TLS truststore (enables TLS)"},
                {"truststore-password=?", "Its password"}, {"keystore=?", "TLS client keystore"},
                {"keystore-password=?", "Its password"}, {"ssl-protocol=? (default=TLS)", "SSLContext protocol"},
                {"ssl-alg=?", "Accepted, not used"}, {"ssl-ciphers=?", "Accepted, not used"}}),
            Map.entry("-port", new String[][] {{"native=? (default=9042)", "Native protocol port"},
                {"jmx=? (default=7199)", "JMX port the GC columns are read from"}}),
            Map.entry("-jmx", new String[][] {{"user=?", "JMX user"}, {"password=?", "JMX password"}}),
            Map.entry("-graph", new String[][] {{"file=?", "HTML report to create, or to add this run to"},
                {"revision=? (default=unknown)", "Name of this run in the report"},
                {"title=?", "Report title"}, {"op=?", "Operation name shown for this run"}}),
            Map.entry("-tokenrange", new String[][] {{"wrap", "Accepted, not used"}, {"split-factor=? (default=1)", "Accepted, not used"}}),
            Map.entry("-credentials-file", new String[][] {{"<file>", "Properties file with cql.username, cql.password, jmx.username, jmx.password"}}),
            Map.entry("-reporting", new String[][] {{"output-frequency=? (default=1s)", "Accepted; see -log interval="},
                {"header-frequency=?", "Accepted, the header is printed once"}}),
            Map.entry("-sendto", new String[][] {{"<host>", "Accepted for old command lines; ignored"}}));

    private static void group(String g, PrintStream out) {
        usage(out, g, GROUP_USAGE.get(g));
        for (String[] o : GROUP_OPTIONS.get(g)) {
            if (o[0].contains("DIST(?)") && !o[0].contains("/divisor")) {
                distOption(out, o[0], o[1]);
            } else {
                option(out, o[0], o[1]);
            }
        }
    }
}
