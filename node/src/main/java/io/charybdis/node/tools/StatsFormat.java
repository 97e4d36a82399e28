package io.charybdis.node.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.PrintStream;
import java.util.Map;

/**
 * Apache nodetool's {@code -F/--format json|yaml} (tpstats, tablestats, compactionhistory): the command's figures as
 * nested maps, written by Jackson's default pretty printer or by SnakeYAML in block style, each followed by a line
 * break, as Apache's {@code StatsPrinter} writes them. The maps' iteration order is the output's key order: the
 * commands build them as Apache's holders do (hash maps filled in the same order), so the keys come out in the same
 * order. In json, a non-finite double one level down (a keyspace's read latency before any read) is written as
 * null, as Apache's JsonPrinter does; yaml writes it as {@code .NaN}.
 */
final class StatsFormat {
    private StatsFormat() {
    }

    /** Refuses a format other than json or yaml (empty: text) with Apache's message. */
    static void check(String format) {
        if (!format.isEmpty() && !format.equals("json") && !format.equals("yaml")) {
            throw new IllegalArgumentException("arguments for -F are json,yaml only.");
        }
    }

    @SuppressWarnings("unchecked")
    static void print(String format, Map<String, Object> figures, PrintStream out) {
        if (format.equals("json")) {
            // as Apache's JsonPrinter: a non-finite double one level down (a keyspace's latency) is written as null
            for (Object v : figures.values()) {
                if (v instanceof Map<?, ?> inner) {
                    for (Map.Entry<?, Object> e : ((Map<?, Object>) inner).entrySet()) {
                        if (e.getValue() instanceof Double d && !Double.isFinite(d)) {
                            e.setValue(null);
                        }
                    }
                }
            }
            try {
                out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(figures));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("could not write json: " + e.getMessage(), e);
            }
        } else {
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            out.println(new Yaml(options).dump(figures));
        }
    }
}
