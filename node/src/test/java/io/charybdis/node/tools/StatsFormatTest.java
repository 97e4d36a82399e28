package io.charybdis.node.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The writing side of {@code -F json|yaml}, which the comparison with Apache's nodetool (test_nodetool.py) checks
 * on whole documents: Jackson's pretty printer and SnakeYAML's block style, each followed by a line break, a
 * non-finite double one level down written as null in json only, and Apache's message for another format.
 */
class StatsFormatTest {
    private static String print(String format, Map<String, Object> figures) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StatsFormat.print(format, figures, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Map<String, Object> keyspace() {
        Map<String, Object> ks = new java.util.LinkedHashMap<>(); // the printer keeps the maps' order
        ks.put("read_latency", Double.NaN);
        ks.put("tables", Map.of("t", Map.of("local_read_latency_ms", "NaN")));
        Map<String, Object> figures = new HashMap<>();
        figures.put("ks", ks);
        return figures;
    }

    @Test
    void jsonWritesANonFiniteKeyspaceFigureAsNullAndKeepsStrings() {
        assertThat(print("json", keyspace())).isEqualTo("""
                {
                  "ks" : {
                    "read_latency" : null,
                    "tables" : {
                      "t" : {
                        "local_read_latency_ms" : "NaN"
                      }
                    }
                  }
                }
                """);
    }

    @Test
    void yamlWritesBlocksAndAnEmptyLineAfter() {
        assertThat(print("yaml", keyspace())).isEqualTo("""
                ks:
                  read_latency: .NaN
                  tables:
                    t:
                      local_read_latency_ms: NaN

                """);
        assertThat(print("yaml", Map.of("CompactionHistory", List.of(Map.of("rows_merged", "{1:2}")))))
                .isEqualTo("CompactionHistory:\n- rows_merged: '{1:2}'\n\n");
    }

    @Test
    void anEmptyDocumentIsAnEmptyObject() {
        assertThat(print("json", new HashMap<>())).isEqualTo("{ }\n");
        assertThat(print("yaml", new HashMap<>())).isEqualTo("{}\n\n");
    }

    @Test
    void onlyJsonAndYamlAreFormats() {
        StatsFormat.check("");
        StatsFormat.check("json");
        StatsFormat.check("yaml");
        assertThatThrownBy(() -> StatsFormat.check("xml")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("arguments for -F are json,yaml only.");
    }
}
