package io.charybdis.stress.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code -graph file=} report: one self-contained HTML page (inline SVG drawn by inline script, no network)
 * with throughput and latency percentiles over time, one line per run. Each run is stored in the page as one
 * JSON line prefixed with {@value #RUN_MARK}; writing to a file that already holds runs keeps them and appends
 * this one as a new revision, so the page overlays every revision stressed into it.
 */
public final class GraphWriter {

    static final String RUN_MARK = "/*RUN*/";

    private final String revision;
    private final String title;
    private final String operation;
    private final String commandLine;
    private final StringBuilder intervals = new StringBuilder();
    private String summary = "{}";

    public GraphWriter(String revision, String title, String operation, String commandLine) {
        this.revision = revision;
        this.title = title;
        this.operation = operation;
        this.commandLine = commandLine;
    }

    /** Adds the "total" line of an interval. */
    public void interval(IntervalStats s) {
        if (!intervals.isEmpty()) {
            intervals.append(',');
        }
        intervals.append(String.format(Locale.ROOT,
                "[%.3f,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d]", s.timeSeconds(), s.opRate(), s.meanMs(), s.medianMs(),
                s.p95Ms(), s.p99Ms(), s.p999Ms(), s.maxMs(), s.errors()));
    }

    public void summary(ReportFormatter.Summary t, double elapsedSeconds) {
        summary = String.format(Locale.ROOT,
                "{\"opRate\":%.1f,\"mean\":%.3f,\"median\":%.3f,\"p95\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"max\":%.3f,"
                        + "\"partitions\":%d,\"errors\":%d,\"seconds\":%.1f}",
                t.opRate(), t.meanMs(), t.medianMs(), t.p95Ms(), t.p99Ms(), t.p999Ms(), t.maxMs(), t.partitions(),
                t.errors(), elapsedSeconds);
    }

    String runJson() {
        return "{\"revision\":" + json(revision) + ",\"title\":" + json(title) + ",\"operation\":" + json(operation)
                + ",\"command\":" + json(commandLine) + ",\"summary\":" + summary
                + ",\"columns\":[\"time\",\"op/s\",\"mean\",\"median\",\".95\",\".99\",\".999\",\"max\",\"errors\"]"
                + ",\"intervals\":[" + intervals + "]}";
    }

    /** Writes the page: the runs already in {@code file} (if any), then this one. */
    public void write(Path file) throws IOException {
        List<String> runs = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith(RUN_MARK)) {
                    String r = line.substring(RUN_MARK.length());
                    runs.add(r.endsWith(",") ? r.substring(0, r.length() - 1) : r);
                }
            }
        }
        runs.add(runJson());
        Files.writeString(file, page(runs), StandardCharsets.UTF_8);
    }

    static List<String> storedRuns(String page) {
        List<String> out = new ArrayList<>();
        for (String line : page.split("\n")) {
            if (line.startsWith(RUN_MARK)) {
                out.add(line.substring(RUN_MARK.length()).replaceAll(",$", ""));
            }
        }
        return out;
    }

    private String page(List<String> runs) {
        StringBuilder sb = new StringBuilder();
        String heading = title != null ? title : "cassandra-stress compatible report";
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(heading))
                .append("</title>\n<style>body{font-family:sans-serif;margin:20px}svg{border:1px solid #ccc;background:#fff}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
                        + ".legend span{margin-right:12px}</style></head>\n<body>\n<h1>")
                .append(escape(heading)).append("</h1>\n")
                .append("<p>Metric: <select id=\"metric\"></select></p>\n<div id=\"chart\"></div>\n<div class=\"legend\" id=\"legend\"></div>\n"
                        + "<h2>Summary</h2>\n<table id=\"summary\"></table>\n<script>\nconst RUNS = [\n");
        for (String r : runs) {
            sb.append(RUN_MARK).append(r).append(",\n");
        }
        sb.append("];\n").append(SCRIPT).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    private static final String SCRIPT = """
            const COLORS = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22','#17becf'];
            const METRICS = [[1,'Throughput (op/s)'],[2,'Latency mean (ms)'],[3,'Latency median (ms)'],[4,'Latency 95th percentile (ms)'],
              [5,'Latency 99th percentile (ms)'],[6,'Latency 99.9th percentile (ms)'],[7,'Latency max (ms)'],[8,'Errors']];
            const sel = document.getElementById('metric');
            METRICS.forEach(m => { const o = document.createElement('option'); o.value = m[0]; o.textContent = m[1]; sel.appendChild(o); });
            function esc(s) { return String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c])); }
            function draw() {
              const col = +sel.value, W = 900, H = 420, L = 70, B = 40, T = 10, R = 20;
              let maxX = 1, maxY = 0;
              RUNS.forEach(r => r.intervals.forEach(p => { maxX = Math.max(maxX, p[0]); maxY = Math.max(maxY, p[col]); }));
              maxY = maxY > 0 ? maxY * 1.05 : 1;
              const x = v => L + (W - L - R) * v / maxX, y = v => H - B - (H - B - T) * v / maxY;
              let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">`;
              for (let i = 0; i <= 5; i++) {
                const vy = maxY * i / 5, vx = maxX * i / 5;
                s += `<line x1="${L}" x2="${W - R}" y1="${y(vy)}" y2="${y(vy)}" stroke="#eee"/>`;
                s += `<text x="${L - 5}" y="${y(vy) + 4}" font-size="11" text-anchor="end">${vy.toPrecision(3)}</text>`;
                s += `<text x="${x(vx)}" y="${H - B + 15}" font-size="11" text-anchor="middle">${vx.toFixed(0)}</text>`;
              }
              s += `<text x="${(W + L) / 2}" y="${H - 5}" font-size="12" text-anchor="middle">time (s)</text>`;
              RUNS.forEach((r, i) => {
                const pts = r.intervals.map(p => `${x(p[0]).toFixed(1)},${y(p[col]).toFixed(1)}`).join(' ');
                s += `<polyline fill="none" stroke-width="1.5" stroke="${COLORS[i % COLORS.length]}" points="${pts}"/>`;
              });
              document.getElementById('chart').innerHTML = s + '</svg>';
              document.getElementById('legend').innerHTML = RUNS.map((r, i) =>
                `<span style="color:${COLORS[i % COLORS.length]}">&#9632; ${esc(r.revision)} (${esc(r.operation)})</span>`).join('');
            }
            const head = ['revision','operation','op/s','mean','median','.95','.99','.999','max','partitions','errors','seconds','command'];
            document.getElementById('summary').innerHTML = '<tr>' + head.map(h => `<th>${h}</th>`).join('') + '</tr>' +
              RUNS.map(r => { const s = r.summary; return '<tr>' + [r.revision, r.operation, s.opRate, s.mean, s.median, s.p95, s.p99,
                s.p999, s.max, s.partitions, s.errors, s.seconds, r.command].map(v => `<td>${esc(v)}</td>`).join('') + '</tr>'; }).join('');
            sel.onchange = draw;
            draw();
            """;

    static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '<' -> sb.append("\\u003c");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
