package io.charybdis.node.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rules of tablestats' sort order that a node's own figures rarely reach (NaN latencies, -H sizes, tables without
 * a TWCS duration), as Apache nodetool 5.0.6's StatsTableComparator applies them; the comparison with Apache's
 * nodetool in test_nodetool.py checks the listings themselves.
 */
class TableOrderTest {
    private static TableOrder.Row row(String table, Map<String, Object> figures, Map<String, Object> raw) {
        return new TableOrder.Row(new String[] {"ks", table, "bean"}, figures, raw);
    }

    private static List<String> order(String key, boolean human, TableOrder.Row... rows) {
        List<TableOrder.Row> list = new ArrayList<>(List.of(rows));
        list.sort(new TableOrder(key, human));
        return list.stream().map(TableOrder.Row::fullName).toList();
    }

    @Test
    void descendingWithTiesByFullName() {
        assertThat(order("writes", false, row("b", Map.of("local_write_count", 5L), Map.of()),
                row("c", Map.of("local_write_count", 9L), Map.of()),
                row("a", Map.of("local_write_count", 5L), Map.of()))).containsExactly("ks.c", "ks.a", "ks.b");
    }

    @Test
    void aNaNLatencyCountsAsZero() {
        assertThat(order("read_latency", false, row("a", Map.of(), Map.of("local_read_latency_ms", Double.NaN)),
                row("b", Map.of(), Map.of("local_read_latency_ms", 0.5)),
                row("c", Map.of(), Map.of("local_read_latency_ms", -1.0)))).containsExactly("ks.b", "ks.a", "ks.c");
    }

    @Test
    void humanReadableSizesCompareAsBytes() {
        assertThat(order("space_used_live", true, row("a", Map.of("space_used_live", "900 bytes"), Map.of()),
                row("b", Map.of("space_used_live", "1.5 KiB"), Map.of()),
                row("c", Map.of("space_used_live", "1 MiB"), Map.of()))).containsExactly("ks.c", "ks.b", "ks.a");
    }

    @Test
    void tablesWithoutATwcsDurationKeepTheirListingOrder() {
        Map<String, Object> twcs = new HashMap<>();
        twcs.put(TableOrder.TWCS_MILLIS, 60_000L);
        assertThat(order("twcs_max_duration", false, row("z", Map.of(), Map.of()), row("y", Map.of(), Map.of()),
                row("x", Map.of(), twcs))).containsExactly("ks.x", "ks.z", "ks.y");
    }

    @Test
    void droppedMutationsIsAcceptedButCannotSort() {
        assertThat(TableOrder.KEYS).contains("dropped_mutations").hasSize(47);
        assertThatThrownBy(() -> order("dropped_mutations", false, row("a", Map.of(), Map.of()),
                row("b", Map.of(), Map.of()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unsupported sort key: dropped_mutations");
    }
}
