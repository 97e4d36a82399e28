package io.charybdis.node.system;

import io.charybdis.node.describe.GoldenSchema;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rows of {@code system_schema.*} and {@code system_virtual_schema.*} equal what Apache Cassandra 5.0.6 showed:
 * for its own system keyspaces ({@code golden/system/system_schema_reference.json}) and for the user keyspaces of
 * {@code golden/describe/schema.cql} ({@code golden/describe/system_schema.json}).
 */
class SystemSchemaGoldenTest {
    @TempDir
    static Path dir;
    static Schema schema;
    static NodeInfo node;

    @BeforeAll
    static void buildSchema() {
        schema = GoldenSchema.build(dir);
        node = GoldenSchema.node(List.of("-1", "1"));
    }

    @Test
    void shouldShowUserKeyspacesAsCassandra() {
        Map<String, Object> golden = map(GoldenSchema.json("describe/system_schema.json"));
        for (String table : List.of("keyspaces", "tables", "columns", "dropped_columns", "types", "indexes")) {
            List<Map<String, Object>> expected = sortedRows(list(golden.get(table)));
            List<Map<String, Object>> actual = sortedRows(rows("system_schema", table, Set.of("system", "system_schema",
                    "system_auth", "system_distributed", "system_traces")));
            if (table.equals("dropped_columns")) {
                expected.forEach(r -> r.remove("dropped_time"));
                actual.forEach(r -> r.remove("dropped_time"));
            }
            assertThat(actual).as(table).isEqualTo(expected);
        }
    }

    @Test
    void shouldShowSystemKeyspacesAsCassandra() {
        Map<String, Object> golden = map(GoldenSchema.json("system/system_schema_reference.json"));
        Set<String> user = Set.of("ks1", "ks2", "QuotedKs");
        for (String qualified : List.of("system_schema.keyspaces", "system_schema.tables", "system_schema.columns",
                "system_schema.indexes", "system_schema.dropped_columns", "system_virtual_schema.keyspaces",
                "system_virtual_schema.tables", "system_virtual_schema.columns")) {
            String[] parts = qualified.split("\\.");
            List<Map<String, Object>> expected = new ArrayList<>();
            for (Object o : list(golden.get(qualified))) {
                Map<String, Object> r = new TreeMap<>(map(o));
                r.replaceAll((k, v) -> v instanceof String s && s.startsWith("UUID('") ? s.substring(6, s.length() - 2) : v);
                r.remove("column_name_bytes");
                expected.add(normalize(r));
            }
            List<Map<String, Object>> actual = rows(parts[0], parts[1], user);
            actual.forEach(r -> r.remove("column_name_bytes"));
            if (parts[1].equals("dropped_columns")) {
                actual.forEach(r -> r.put("dropped_time", ((Number) r.get("dropped_time")).longValue()));
                expected.forEach(r -> r.put("dropped_time", ((Number) r.get("dropped_time")).longValue()));
            }
            assertThat(sortedRows(actual)).as(qualified).isEqualTo(sortedRows(expected));
        }
    }

    @Test
    void shouldBuildEverySystemKeyspaceAsVirtualButSystemAuthSystemTracesAndCompactionHistory() {
        Map<String, KeyspaceMetadata> builtIn = SystemKeyspaces.builtIn();
        assertThat(builtIn.keySet()).containsExactlyInAnyOrder("system", "system_schema", "system_auth",
                "system_distributed", "system_traces", "system_views", "system_virtual_schema");
        for (KeyspaceMetadata ks : builtIn.values()) {
            if (ks.name().equals("system_auth")) {
                // roles and permissions: stored tables, written and read through the coordinator
                assertThat(ks.virtual()).isFalse();
                assertThat(ks.tables().values()).allSatisfy(t -> {
                    assertThat(t.isVirtual()).as(t.toString()).isFalse();
                    assertThat(SystemKeyspaces.find(ks.name(), t.name())).isNull();
                });
                assertThat(ks.tables().keySet()).contains("roles", "role_members", "role_permissions",
                        "resource_role_permissons_index", "network_permissions", "cidr_permissions");
                continue;
            }
            if (ks.name().equals("system_traces")) {
                // query tracing writes its sessions and events: stored tables too
                assertThat(ks.virtual()).isFalse();
                assertThat(ks.tables().keySet()).containsExactlyInAnyOrder("sessions", "events");
                assertThat(ks.tables().values()).allSatisfy(t -> {
                    assertThat(t.isVirtual()).as(t.toString()).isFalse();
                    assertThat(SystemKeyspaces.find(ks.name(), t.name())).isNull();
                });
                continue;
            }
            assertThat(ks.virtual()).as(ks.name()).isTrue();
            for (TableMetadata t : ks.tables().values()) {
                if (ks.name().equals("system") && t.name().equals("compaction_history")) {
                    // each finished compaction is written there: a stored table of the built-in keyspace system
                    assertThat(t.isVirtual()).as(t.toString()).isFalse();
                    assertThat(SystemKeyspaces.find(ks.name(), t.name())).isNull();
                    assertThat(t.params().defaultTimeToLive()).isEqualTo(604_800);
                    continue;
                }
                assertThat(t.isVirtual()).as(t.toString()).isTrue();
                assertThat(SystemKeyspaces.find(ks.name(), t.name()).metadata()).isSameAs(t);
            }
        }
        assertThat(SystemKeyspaces.find("ks1", "simple")).isNull();
        assertThat(builtIn.get("system").table("local").id())
                .isEqualTo(UUID.fromString("7ad54392-bcdd-35a6-8417-4e047860b377"));
    }

    @Test
    void shouldDescribeThisNodeInSystemLocal() throws Exception {
        VirtualTable local = SystemKeyspaces.find("system", "local");
        List<ByteBuffer[]> rows = local.rows(schema, node);
        assertThat(rows).hasSize(1);
        Map<String, Object> row = decode(local.metadata(), rows.get(0));
        assertThat(row).containsEntry("key", "local")
                .containsEntry("cluster_name", "Anchor Cluster")
                .containsEntry("rpc_port", 9042)
                .containsEntry("listen_port", 7000)
                .containsEntry("release_version", "5.0.6")
                .containsEntry("schema_version", schema.version().toString())
                .containsEntry("tokens", List.of("-1", "1"))
                .containsEntry("rpc_address", java.net.InetAddress.getByName("127.0.0.2").toString())
                .containsEntry("partitioner", "org.apache.cassandra.dht.Murmur3Partitioner");
        assertThat(SystemKeyspaces.find("system", "peers").rows(schema, node)).isEmpty();
        assertThat(SystemKeyspaces.find("system", "peers_v2").rows(schema, node)).isEmpty();
    }

    @Test
    void shouldSortRowsByPartitionThenClustering() {
        VirtualTable columns = SystemKeyspaces.find("system_schema", "columns");
        List<String> keys = new ArrayList<>();
        for (ByteBuffer[] r : columns.rows(schema, node)) {
            Map<String, Object> row = decode(columns.metadata(), r);
            keys.add(row.get("keyspace_name") + "/" + row.get("table_name") + "/" + row.get("column_name"));
        }
        assertThat(keys).contains("ks1/MyTable/Key").isSorted();
    }

    private static List<Map<String, Object>> rows(String keyspace, String table, Set<String> excludedKeyspaces) {
        VirtualTable vt = SystemKeyspaces.find(keyspace, table);
        List<Map<String, Object>> out = new ArrayList<>();
        for (ByteBuffer[] r : vt.rows(schema, node)) {
            Map<String, Object> row = decode(vt.metadata(), r);
            if (!excludedKeyspaces.contains((String) row.get("keyspace_name"))) {
                out.add(row);
            }
        }
        return out;
    }

    private static Map<String, Object> decode(TableMetadata t, ByteBuffer[] row) {
        Map<String, Object> out = new TreeMap<>();
        List<ColumnMetadata> columns = t.allColumns();
        for (int i = 0; i < columns.size(); i++) {
            Object v = row[i] == null ? null : columns.get(i).type().compose(row[i].duplicate());
            out.put(columns.get(i).name(), v);
        }
        return normalize(out);
    }

    private static Map<String, Object> normalize(Map<String, Object> row) {
        Map<String, Object> out = new TreeMap<>();
        row.forEach((k, v) -> out.put(k, value(v)));
        return out;
    }

    private static Object value(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Double) {
            return v;
        }
        if (v instanceof java.time.Instant i) {
            return i.toEpochMilli();
        }
        if (v instanceof Long l && (l > Integer.MAX_VALUE || l < Integer.MIN_VALUE)) {
            return l;
        }
        if (v instanceof Number n) {
            return n instanceof Float ? (Object) n.doubleValue() : (Object) n.intValue();
        }
        if (v instanceof ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return "0x" + HexFormat.of().formatHex(bytes);
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), value(x)));
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>();
            c.forEach(x -> out.add(value(x)));
            return out;
        }
        return v.toString();
    }

    private static List<Map<String, Object>> sortedRows(List<Map<String, Object>> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        rows.forEach(r -> out.add(normalize(r)));
        out.sort(java.util.Comparator.comparing(Object::toString));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }
}
