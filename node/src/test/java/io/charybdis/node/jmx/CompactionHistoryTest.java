package io.charybdis.node.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * system.compaction_history as Cassandra 5.0 keeps it: every finished compaction is a row of that table (with the
 * table's one-week TTL), CQL reads it, CompactionManager's CompactionHistory attribute (nodetool compactionhistory)
 * is read from it, and both still list the compaction after the node restarted.
 */
@Timeout(180)
class CompactionHistoryTest {
    private static final String SS = "org.apache.cassandra.db:type=StorageService";
    private static final String CM = "org.apache.cassandra.db:type=CompactionManager";

    @TempDir
    Path dir;

    private NodeConfig config() {
        return NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0).nativeShardAwareTransportPort(0)
                .jmxPort(0).smp(2).build();
    }

    private static CqlSession connect(CharybdisNode node) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .build()).build();
    }

    /** The CompactionHistory attribute's rows for keyspace ntfmt_ch, by id. */
    private static Map<String, CompositeData> history(CharybdisNode node) throws Exception {
        try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(node.jmx().serviceUrl()))) {
            MBeanServerConnection conn = jmx.getMBeanServerConnection();
            TabularData t = (TabularData) conn.getAttribute(new ObjectName(CM), "CompactionHistory");
            Map<String, CompositeData> out = new java.util.TreeMap<>();
            for (Object o : t.values()) {
                CompositeData row = (CompositeData) o;
                if (row.get("keyspace_name").equals("ntfmt_ch")) {
                    out.put((String) row.get("id"), row);
                }
            }
            return out;
        }
    }

    private static List<Row> rows(CqlSession session) {
        List<Row> out = new ArrayList<>();
        for (Row r : session.execute("SELECT id, keyspace_name, columnfamily_name, compacted_at, bytes_in, bytes_out, "
                + "rows_merged, compaction_properties, TTL(bytes_in) FROM system.compaction_history")) {
            if ("ntfmt_ch".equals(r.getString("keyspace_name"))) {
                out.add(r);
            }
        }
        return out;
    }

    @Test
    void aFinishedCompactionIsARowOfSystemCompactionHistoryThatSurvivesARestart() throws Exception {
        Map<String, CompositeData> before;
        try (CharybdisNode node = CharybdisNode.start(config()); CqlSession session = connect(node)) {
            session.execute("CREATE KEYSPACE ntfmt_ch WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE ntfmt_ch.t (k int PRIMARY KEY, v text)");
            assertThat(rows(session)).isEmpty();
            PreparedStatement insert = session.prepare("INSERT INTO ntfmt_ch.t (k, v) VALUES (?, ?)");
            try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(node.jmx().serviceUrl()))) {
                MBeanServerConnection conn = jmx.getMBeanServerConnection();
                for (int f = 0; f < 3; f++) {
                    for (int i = 0; i < 50; i++) {
                        session.execute(insert.bind(i + f * 25, "v" + i));
                    }
                    conn.invoke(new ObjectName(SS), "forceKeyspaceFlush", new Object[] {"ntfmt_ch", new String[] {"t"}},
                            new String[] {"java.lang.String", "[Ljava.lang.String;"});
                }
                conn.invoke(new ObjectName(SS), "forceKeyspaceCompaction",
                        new Object[] {false, "ntfmt_ch", new String[] {"t"}},
                        new String[] {"boolean", "java.lang.String", "[Ljava.lang.String;"});
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (rows(session).size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            List<Row> rows = rows(session);
            assertThat(rows).hasSize(2); // one major compaction on each of the two shards
            for (Row r : rows) {
                assertThat(r.getUuid("id").version()).isEqualTo(1);
                assertThat(r.getString("columnfamily_name")).isEqualTo("t");
                assertThat(r.getLong("bytes_in")).isPositive();
                assertThat(r.getLong("bytes_out")).isPositive();
                assertThat(r.getInstant("compacted_at")).isBefore(java.time.Instant.now().plusSeconds(1));
                assertThat(r.getMap("rows_merged", Integer.class, Long.class)).isNotEmpty();
                assertThat(r.getMap("compaction_properties", String.class, String.class))
                        .containsEntry("compaction_type", "Major compaction");
                // the table's default_time_to_live: a week
                assertThat(r.getInt(8)).isBetween(604_000, 604_800);
            }
            before = history(node);
            assertThat(before).hasSize(2);
            for (Row r : rows) {
                CompositeData c = before.get(r.getUuid("id").toString());
                assertThat(c).isNotNull();
                assertThat(c.get("columnfamily_name")).isEqualTo("t");
                assertThat(c.get("bytes_in")).isEqualTo(r.getLong("bytes_in"));
                assertThat(c.get("compacted_at")).isEqualTo(r.getInstant("compacted_at").toEpochMilli());
            }
        }
        try (CharybdisNode node = CharybdisNode.start(config()); CqlSession session = connect(node)) {
            Map<String, CompositeData> after = history(node);
            assertThat(after.keySet()).containsAll(before.keySet());
            for (String id : before.keySet()) {
                assertThat(after.get(id)).isEqualTo(before.get(id));
            }
            assertThat(rows(session)).extracting(r -> r.getUuid("id").toString()).containsAll(before.keySet());
        }
    }
}
