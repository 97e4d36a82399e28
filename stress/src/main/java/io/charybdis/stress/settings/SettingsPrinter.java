package io.charybdis.stress.settings;

import io.charybdis.stress.dist.RatioSpec;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;

/** The "Stress Settings" block printed before a run, in cassandra-stress 5.0's layout. */
public final class SettingsPrinter {

    private SettingsPrinter() {
    }

    /** Prints the dump; {@code commandDetails} adds lines to the Command section (a user profile's definitions). */
    public static void print(StressSettings s, Consumer<PrintStream> commandDetails, PrintStream out) {
        CommandSettings c = s.command();
        out.println("******************** Stress Settings ********************");
        out.println("Command:");
        out.println("  Type: " + c.type().lowerName());
        out.println("  Count: " + c.count());
        if (c.byDuration()) {
            out.println("  Duration: " + c.duration() + " " + c.durationUnit());
        }
        out.println("  No Warmup: " + c.noWarmup());
        out.println("  Consistency Level: " + c.consistencyLevel());
        out.println("  Target Uncertainty: " + (c.untilConverged() ? String.valueOf(c.targetUncertainty()) : "not applicable"));
        if (c.untilConverged()) {
            out.println("  Minimum Uncertainty Measurements: " + c.minUncertaintyMeasurements());
            out.println("  Maximum Uncertainty Measurements: " + c.maxUncertaintyMeasurements());
        }
        if (c.type() != Command.USER) {
            out.println("  Key Size (bytes): " + c.keySize());
            out.println("  Counter Increment Distibution: add=" + c.add());
        }
        if (c.type() == Command.MIXED) {
            out.println("  Command Ratios: " + c.ratios());
            out.println("  Command Clustering Distribution: clustering=" + c.clustering().toString().toUpperCase(Locale.ROOT));
        }
        if (c.type() == Command.USER) {
            out.println("  Profiles: " + c.profiles());
            out.println("  Command Ratios: " + c.ops());
            out.println("  Command Clustering Distribution: clustering=" + c.clustering().toString().toUpperCase(Locale.ROOT));
        }
        commandDetails.accept(out);
        RateSettings r = s.rate();
        out.println("Rate:");
        out.println("  Auto: " + r.auto());
        if (r.auto()) {
            out.println("  Min Threads: " + r.minThreads());
            out.println("  Max Threads: " + r.maxThreads());
        } else {
            out.println("  Thread Count: " + r.threads());
            out.println("  OpsPer Sec: " + r.opsPerSecond());
            if (r.opsPerSecond() > 0) {
                out.println("  Schedule: " + (r.fixed() ? "fixed (latency from intended start)" : "throttle"));
            }
        }
        PopulationSettings p = s.population();
        out.println("Population:");
        out.println("  Distribution: " + p.distribution().display());
        out.println("  Order: " + p.order());
        out.println("  Wrap: " + p.wrap());
        InsertSettings i = s.insert();
        out.println("Insert:");
        out.println("  Revisits: " + i.revisit().display());
        out.println("  Visits: " + i.visits().display());
        out.println("  Row Population Ratio: " + (i.rowPopulationRatio() == null ? RatioSpec.ONE : i.rowPopulationRatio()).display());
        out.println("  Batch Type: " + (i.batchType() == null ? "not batching" : i.batchType()));
        ColumnSettings col = s.columns();
        out.println("Columns:");
        out.println("  Max Columns Per Key: " + col.maxColumnsPerKey());
        out.println("  Column Names: " + col.names());
        out.println("  Comparator: " + col.comparator());
        out.println("  Timestamp: " + col.timestamp());
        out.println("  Variable Column Count: " + col.variableColumnCount());
        out.println("  Slice: " + col.slice());
        out.println("  Size Distribution: " + col.size().display());
        out.println("  Count Distribution: " + col.count().display());
        ErrorSettings e = s.errors();
        out.println("Errors:");
        out.println("  Ignore: " + e.ignore());
        out.println("  Tries: " + e.tries());
        LogSettings l = s.log();
        out.println("Log:");
        out.println("  No Summary: " + l.noSummary());
        out.println("  No Settings: " + l.noSettings());
        out.println("  File: " + l.file());
        out.println("  Interval Millis: " + l.intervalMillis());
        out.println("  Level: " + l.level());
        ModeSettings m = s.mode();
        out.println("Mode:");
        out.println("  API: JAVA_DRIVER_NATIVE");
        out.println("  Connection Style: " + (m.prepared() ? "CQL_PREPARED" : "CQL"));
        out.println("  Protocol Version: " + (m.protocolVersion() == null ? "NEWEST_SUPPORTED" : "V" + m.protocolVersion()));
        out.println("  Username: " + m.user());
        out.println("  Password: " + (m.password() == null ? "null" : "*suppressed*"));
        out.println("  Auth Provide Class: " + m.authProvider());
        out.println("  Max Pending Per Connection: " + m.maxPendingPerConnection());
        out.println("  Connections Per Host: " + m.connectionsPerHost());
        out.println("  Compression: " + m.compression().toUpperCase(Locale.ROOT));
        NodeSettings n = s.node();
        out.println("Node:");
        out.println("  Nodes: " + n.nodes());
        out.println("  Is White List: " + n.whitelist());
        out.println("  Datacenter: " + n.datacenter());
        SchemaSettings sc = s.schema();
        out.println("Schema:");
        out.println("  Keyspace: " + sc.keyspace());
        out.println("  Replication Strategy: " + sc.replicationStrategy());
        out.println("  Replication Strategy Options: " + sc.replicationOptions().toString());
        out.println("  Table Compression: " + sc.compression());
        out.println("  Table Compaction Strategy: " + sc.compactionStrategy());
        out.println("  Table Compaction Strategy Options: " + sc.compactionOptions());
        TransportSettings t = s.transport();
        out.println("Transport:");
        out.println("  Truststore: " + t.truststore());
        out.println("  Truststore Password: " + (t.truststorePassword() == null ? "null" : "*suppressed*"));
        out.println("  Keystore: " + t.keystore());
        out.println("  Keystore Password: " + (t.keystorePassword() == null ? "null" : "*suppressed*"));
        out.println("  SSL Protocol: " + t.protocol());
        out.println("  SSL Algorithm: " + t.algorithm());
        out.println("  SSL Ciphers: " + String.join(",", t.ciphers()));
        out.println("Port:");
        out.println("  Native Port: " + s.port().nativePort());
        out.println("  JMX Port: " + s.port().jmxPort());
        MiscSettings misc = s.misc();
        out.println("JMX:");
        out.println("  Username: " + misc.jmxUser());
        out.println("  Password: " + (misc.jmxPassword() == null ? "*not set*" : "*suppressed*"));
        GraphSettings g = s.graph();
        out.println("Graph:");
        out.println("  File: " + g.file());
        out.println("  Revision: " + g.revision());
        out.println("  Title: " + g.title());
        out.println("  Operation: " + g.operation());
        out.println("TokenRange:");
        out.println("  Wrap: " + misc.tokenRangeWrap());
        out.println("  Split Factor: " + misc.tokenRangeSplitFactor());
        out.println("Credentials file:");
        out.println("  File: " + (misc.credentialsFile() == null ? "*not set*" : misc.credentialsFile()));
        out.println("Reporting:");
        out.println("  Output frequency: " + millis(misc.outputFrequencyMillis()));
        out.println("  Header frequency: " + (misc.headerFrequencyMillis() == null ? "*not set*" : millis(misc.headerFrequencyMillis())));
        out.println();
    }

    private static String millis(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }
}
