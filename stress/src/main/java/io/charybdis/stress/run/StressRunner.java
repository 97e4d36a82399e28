package io.charybdis.stress.run;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.charybdis.stress.ops.Workload;
import io.charybdis.stress.report.GraphWriter;
import io.charybdis.stress.report.JmxGcSampler;
import io.charybdis.stress.report.ReportFormatter;
import io.charybdis.stress.settings.CommandSettings;
import io.charybdis.stress.settings.RateSettings;
import io.charybdis.stress.settings.StressSettings;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A whole run: connect, create the schema, warm up, run the load (several rounds of growing thread counts in auto
 * mode), print the Results block, and write the graph and HdrHistogram log if asked.
 */
public final class StressRunner {

    /** Operations each thread keeps in flight; 1 makes {@code threads=N} mean N concurrent requests, as in cassandra-stress. */
    static final int IN_FLIGHT_PER_THREAD = Integer.getInteger("charybdis.stress.inflight", 1);
    private static final int WARMUP_ITERATIONS = 50_000;

    private final StressSettings settings;
    private final Workload workload;
    private final PrintStream out;
    private final String commandLine;

    public StressRunner(StressSettings settings, Workload workload, PrintStream out, String commandLine) {
        this.settings = settings;
        this.workload = workload;
        this.out = out;
        this.commandLine = commandLine;
    }

    /** Runs; returns the results of the last (or only) round, or null if nothing ran. */
    public PhaseResult run() throws Exception {
        RateSettings rate = settings.rate();
        int maxConcurrency = (rate.auto() ? rate.maxThreads() : rate.threads()) * IN_FLIGHT_PER_THREAD;
        boolean created;
        try (CqlSession admin = Sessions.open(settings, null, 16)) {
            out.printf("Connected to cluster: %s, max pending requests per connection %d, max connections per host %d%n",
                    admin.getMetadata().getClusterName().orElse("unknown"), settings.mode().maxPendingPerConnection(),
                    settings.mode().connectionsPerHost());
            for (Node n : admin.getMetadata().getNodes().values()) {
                out.printf("Datacenter: %s; Host: %s; Rack: %s%n", n.getDatacenter(), n.getEndPoint().resolve(), n.getRack());
            }
            out.println(DriverInfo.describe(admin));
            created = workload.createSchema(admin, out);
        }
        if (created) {
            out.println("Sleeping 2s...");
            Thread.sleep(2000);
        }
        try (CqlSession session = Sessions.open(settings, workload.keyspace(), maxConcurrency);
             JmxGcSampler gc = JmxGcSampler.connect(settings.node().nodes(), settings.port().jmxPort(),
                     settings.misc().jmxUser(), settings.misc().jmxPassword())) {
            workload.prepare(session, out);
            if (settings.command().truncate() == CommandSettings.Truncate.ONCE) {
                workload.truncate(session);
            }
            if (!settings.command().noWarmup()) {
                warmup(session);
            }
            HistogramLogWriter hdr = null;
            PrintStream hdrStream = null;
            if (settings.log().hdrFile() != null) {
                hdrStream = new PrintStream(new FileOutputStream(settings.log().hdrFile()), true, "UTF-8");
                hdr = new HistogramLogWriter(hdrStream);
                hdr.outputLogFormatVersion();
                hdr.outputStartTime(System.currentTimeMillis());
                hdr.outputLegend();
            }
            try {
                return rate.auto() ? auto(session, gc, hdr) : once(session, gc, hdr, rate.threads(), rateGate());
            } finally {
                if (hdrStream != null) {
                    hdrStream.close();
                }
            }
        }
    }

    private RateGate rateGate() {
        RateSettings r = settings.rate();
        return r.opsPerSecond() > 0 ? new RateGate(r.opsPerSecond(), r.fixed(), System::nanoTime) : null;
    }

    private void warmup(CqlSession session) throws InterruptedException {
        List<String> names = workload.operationNames();
        double[] weights = workload.weights();
        long count = settings.command().byCount() ? Math.min(WARMUP_ITERATIONS, settings.command().count()) : WARMUP_ITERATIONS;
        int threads = Math.max(1, Math.min(settings.rate().auto() ? settings.rate().minThreads() : settings.rate().threads(), 200));
        for (int k = 0; k < names.size(); k++) {
            if (weights[k] <= 0) {
                continue;
            }
            out.printf("Warming up %s with %d iterations...%n", names.get(k), count);
            int only = k;
            PhaseConfig c = phase(threads, null, count, 0, -1, false, only);
            new LoadPhase(session, c, List.of(names.get(k)), out, null, null, null).run();
        }
    }

    private PhaseConfig phase(int threads, RateGate gate, long count, long durationNanos, double uncertainty,
                              boolean print, int onlyKind) {
        var cmd = settings.command();
        var pop = settings.population();
        double[] weights = onlyKind < 0 ? workload.weights() : new double[] {1};
        java.util.function.Supplier<List<io.charybdis.stress.ops.Operation>> ops = onlyKind < 0
                ? workload::newOperations : () -> List.of(workload.newOperations().get(onlyKind));
        return new PhaseConfig(ops, weights, pop.distribution(), pop.sequential(), pop.wrap(), threads,
                IN_FLIGHT_PER_THREAD, gate, count, durationNanos, uncertainty, cmd.minUncertaintyMeasurements(),
                cmd.maxUncertaintyMeasurements(), settings.errors().tries(), print ? settings.errors().ignore() : true,
                onlyKind < 0 && weights.length > 1 ? cmd.clustering() : null, settings.log().intervalMillis(), print);
    }

    private String runningWhat() {
        List<String> names = workload.operationNames();
        return names.size() == 1 ? names.get(0) : names.toString();
    }

    private PhaseResult once(CqlSession session, JmxGcSampler gc, HistogramLogWriter hdr, int threads, RateGate gate)
            throws Exception {
        var cmd = settings.command();
        String how;
        if (cmd.byDuration()) {
            how = cmd.duration() + " " + cmd.durationUnit().name().toLowerCase(Locale.ROOT);
        } else if (cmd.byCount()) {
            how = "for " + cmd.count() + " iteration";
        } else {
            how = "until stderr of mean < " + cmd.targetUncertainty();
        }
        out.printf("Running %s with %d threads %s%n", runningWhat(), threads, how);
        out.println(ReportFormatter.header());
        GraphWriter graph = settings.graph().file() == null ? null : new GraphWriter(settings.graph().revision(),
                settings.graph().title(), settings.graph().operation(), commandLine);
        PhaseConfig c = phase(threads, gate, cmd.count(),
                cmd.byDuration() ? TimeUnit.SECONDS.toNanos(cmd.durationSeconds()) : 0, cmd.targetUncertainty(), true, -1);
        PhaseResult r = new LoadPhase(session, c, workload.operationNames(), out, gc, hdr, graph).run();
        if (r.failure() != null) {
            out.println(r.failure());
        }
        out.println();
        out.println();
        if (!settings.log().noSummary()) {
            out.print(ReportFormatter.results(r.total(), r.perKind(), r.gc(), r.elapsedSeconds()));
        }
        out.println();
        out.println("END");
        if (graph != null) {
            graph.summary(r.total(), r.elapsedSeconds());
            graph.write(Path.of(settings.graph().file()));
        }
        return r;
    }

    private int nextThreadCount(int threads) {
        int max = settings.rate().maxThreads();
        if (threads >= max) {
            return Integer.MAX_VALUE;
        }
        return Math.min(max, threads < 16 ? threads * 2 : threads * 3 / 2);
    }

    /** Auto mode: 4, 8, 16, 24, 36, ... threads until the throughput stops improving (or the maximum). */
    private PhaseResult auto(CqlSession session, JmxGcSampler gc, HistogramLogWriter hdr) throws Exception {
        RateSettings rate = settings.rate();
        List<String> summary = new ArrayList<>();
        PhaseResult best = null;
        PhaseResult last = null;
        int sinceImprovement = 0;
        for (int threads = rate.minThreads(); threads <= rate.maxThreads(); threads = nextThreadCount(threads)) {
            out.printf("Running with %d threadCount%n", threads);
            if (settings.command().truncate() == CommandSettings.Truncate.ALWAYS) {
                workload.truncate(session);
            }
            PhaseResult r = once(session, gc, hdr, threads, null);
            last = r;
            var t = r.total();
            summary.add(String.format(Locale.ROOT, "%4d threadCount, %s", threads, String.format(Locale.ROOT,
                    "%.0f op/s, %.1f ms mean, %.1f ms .95, %.1f ms .99, %.1f ms max, %d errors", t.opRate(), t.meanMs(),
                    t.p95Ms(), t.p99Ms(), t.maxMs(), t.errors())));
            if (r.failure() != null) {
                break;
            }
            if (best != null) {
                double gain = t.opRate() / Math.max(1e-9, best.total().opRate()) - 1;
                out.printf("Improvement over %d threadCount: %.0f%%%n", threads, gain * 100);
                if (gain < 0.05) {
                    sinceImprovement++;
                } else {
                    sinceImprovement = 0;
                }
            }
            if (best == null || t.opRate() > best.total().opRate()) {
                best = r;
            }
            if (rate.autoStopOnSaturation() && sinceImprovement >= 3) {
                break;
            }
        }
        out.println();
        summary.forEach(out::println);
        return last;
    }
}
