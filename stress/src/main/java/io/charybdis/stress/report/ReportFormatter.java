package io.charybdis.stress.report;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The text of cassandra-stress's report: the column header, one line per kind per interval, and the Results
 * block. Column widths follow cassandra-stress 5.0 exactly so that scripts parsing its output parse ours.
 */
public final class ReportFormatter {

    private static final String HEADER_FORMAT = "%-50s%10s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%8s,%7s,%9s,%7s,%7s,%8s,%8s,%8s,%8s";
    private static final String ROW_FORMAT =
            "%-50s%10d,%8.0f,%8.0f,%8.0f,%8.1f,%8.1f,%8.1f,%8.1f,%8.1f,%8.1f,%7.1f,%9.5f,%7d,%7d,%8.0f,%8.0f,%8.0f,%8.0f";

    private ReportFormatter() {
    }

    public static String header() {
        return String.format(Locale.ROOT, HEADER_FORMAT, "type", "total ops", "op/s", "pk/s", "row/s", "mean", "med",
                ".95", ".99", ".999", "max", "time", "stderr", "errors", "gc: #", "max ms", "sum ms", "sdv ms", "mb");
    }

    public static String row(IntervalStats s) {
        GcStats gc = s.gc() == null ? GcStats.NONE : s.gc();
        return String.format(Locale.ROOT, ROW_FORMAT, s.name() + ",", s.totalOps(), s.opRate(), s.partitionRate(),
                s.rowRate(), s.meanMs(), s.medianMs(), s.p95Ms(), s.p99Ms(), s.p999Ms(), s.maxMs(), s.timeSeconds(),
                s.stderr(), s.errors(), gc.count(), gc.maxMs(), gc.sumMs(), gc.stdevMs(), gc.megabytes());
    }

    /**
     * The Results block. {@code total} covers the whole run; {@code perKind} has one entry per operation kind (its
     * {@code totalOps} is the kind's total, and {@code errors} its total errors); totalPartitions per entry.
     */
    public static String results(Summary total, List<Summary> perKind, GcStats gc, double elapsedSeconds) {
        StringBuilder sb = new StringBuilder();
        sb.append("Results:\n");
        line(sb, "Op rate", String.format(Locale.ROOT, "%,8.0f op/s ", total.opRate()),
                perKind, k -> k.opRate(), "%,.0f op/s");
        line(sb, "Partition rate", String.format(Locale.ROOT, "%,8.0f pk/s ", total.partitionRate()),
                perKind, k -> k.partitionRate(), "%,.0f pk/s");
        line(sb, "Row rate", String.format(Locale.ROOT, "%,8.0f row/s", total.rowRate()),
                perKind, k -> k.rowRate(), "%,.0f row/s");
        latency(sb, "Latency mean", total.meanMs(), perKind, Summary::meanMs);
        latency(sb, "Latency median", total.medianMs(), perKind, Summary::medianMs);
        latency(sb, "Latency 95th percentile", total.p95Ms(), perKind, Summary::p95Ms);
        latency(sb, "Latency 99th percentile", total.p99Ms(), perKind, Summary::p99Ms);
        latency(sb, "Latency 99.9th percentile", total.p999Ms(), perKind, Summary::p999Ms);
        latency(sb, "Latency max", total.maxMs(), perKind, Summary::maxMs);
        line(sb, "Total partitions", String.format(Locale.ROOT, "%,10d", total.partitions()),
                perKind, k -> k.partitions(), "%,.0f");
        line(sb, "Total errors", String.format(Locale.ROOT, "%,10d", total.errors()),
                perKind, k -> k.errors(), "%,.0f");
        label(sb, "Total GC count").append(gc.count()).append('\n');
        label(sb, "Total GC memory").append(prettyMemory(gc.bytes())).append('\n');
        label(sb, "Total GC time").append(String.format(Locale.ROOT, "%6.1f seconds", gc.sumMs() / 1000d)).append('\n');
        label(sb, "Avg GC time").append(String.format(Locale.ROOT, "%6.1f ms", gc.count() == 0 ? 0 : gc.sumMs() / gc.count()))
                .append('\n');
        label(sb, "StdDev GC time").append(String.format(Locale.ROOT, "%6.1f ms", gc.stdevMs())).append('\n');
        label(sb, "Total operation time").append(duration(elapsedSeconds)).append('\n');
        return sb.toString();
    }

    private static StringBuilder label(StringBuilder sb, String label) {
        return sb.append(String.format(Locale.ROOT, "%-26s: ", label));
    }

    private static void line(StringBuilder sb, String label, String total, List<Summary> perKind,
                             ToDoubleFunction<Summary> value, String kindFormat) {
        label(sb, label).append(total).append(" [");
        for (int i = 0; i < perKind.size(); i++) {
            Summary k = perKind.get(i);
            sb.append(i == 0 ? "" : ", ").append(k.name()).append(": ")
                    .append(String.format(Locale.ROOT, kindFormat, value.applyAsDouble(k)));
        }
        sb.append("]\n");
    }

    private static void latency(StringBuilder sb, String label, double totalMs, List<Summary> perKind,
                                ToDoubleFunction<Summary> value) {
        line(sb, label, String.format(Locale.ROOT, "%6.1f ms", totalMs), perKind, value, "%.1f ms");
    }

    /** "00:01:00". */
    public static String duration(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }

    /** Memory as cassandra-stress prints it: "5.615 GiB", "12.000 MiB", "0 bytes". */
    public static String prettyMemory(double bytes) {
        if (bytes < 1024) {
            return String.format(Locale.ROOT, "%.0f bytes", bytes);
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes / 1024;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.3f %s", v, units[u]);
    }

    /** Whole-run figures of one kind (or of all, named "total"). Latencies in ms. */
    public record Summary(String name, double opRate, double partitionRate, double rowRate, double meanMs,
                          double medianMs, double p95Ms, double p99Ms, double p999Ms, double maxMs, long partitions,
                          long errors) {
    }
}
