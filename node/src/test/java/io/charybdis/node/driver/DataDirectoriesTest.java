package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.storage.TableId;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node with two {@code data_file_directories}: writes flushed several times land in both, compaction and a
 * restart keep every row, and a snapshot (nodetool's JMX operation) covers the SSTables of both directories.
 */
@Timeout(120)
class DataDirectoriesTest {
    private static final String SS = "org.apache.cassandra.db:type=StorageService";

    private static long sstables(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith("-TOC.txt")).count();
        }
    }

    private static void checkRows(CqlSession session) {
        PreparedStatement select = session.prepare("SELECT v FROM dd.t WHERE k = ?");
        for (int i = 0; i < 500; i++) {
            Row r = session.execute(select.bind(i)).one();
            assertThat(r).as("row %d", i).isNotNull();
            assertThat(r.getString(0)).isEqualTo("value " + (i / 100) + "-" + i); // its last round
        }
    }

    @Test
    void shouldSpreadSSTablesOverBothDirectoriesAndKeepEveryRow(@TempDir Path dir) throws Exception {
        Path d1 = dir.resolve("disk1/data");
        Path d2 = dir.resolve("disk2/data");
        try (TestNode node = new TestNode(dir, b -> b.dataFileDirectories(List.of(d1, d2)))) {
            List<Path> tableDirs;
            try (CqlSession session = node.session()) {
                session.execute("CREATE KEYSPACE dd WITH replication = {'class': 'SimpleStrategy', "
                        + "'replication_factor': 1}");
                session.execute("CREATE TABLE dd.t (k int PRIMARY KEY, v text) WITH compaction = "
                        + "{'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
                PreparedStatement insert = session.prepare("INSERT INTO dd.t (k, v) VALUES (?, ?)");
                TableId id = new TableId(node.node.schemas().schema().keyspace("dd").tables().get("t").id());
                for (int round = 0; round < 5; round++) {
                    for (int i = round * 100; i < 500; i++) {
                        session.execute(insert.bind(i, "value " + round + "-" + i));
                    }
                    node.node.storage().flush(id).get();
                }
                tableDirs = node.node.storage().tableDirectories(id);
                assertThat(tableDirs).hasSize(2);
                assertThat(tableDirs.get(0)).startsWith(d1);
                assertThat(tableDirs.get(1)).startsWith(d2);
                assertThat(sstables(tableDirs.get(0))).isPositive();
                assertThat(sstables(tableDirs.get(1))).isPositive();
                checkRows(session);

                try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(node.node.jmx().serviceUrl()))) {
                    MBeanServerConnection conn = jmx.getMBeanServerConnection();
                    ObjectName ss = new ObjectName(SS);
                    conn.invoke(ss, "takeSnapshot", new Object[] {"both", Map.of(), new String[] {"dd"}},
                            new String[] {String.class.getName(), Map.class.getName(), String[].class.getName()});
                    for (Path t : tableDirs) {
                        assertThat(sstables(t.resolve("snapshots/both"))).isEqualTo(sstables(t)).isPositive();
                    }
                    @SuppressWarnings("unchecked")
                    Map<String, TabularData> details = (Map<String, TabularData>) conn.invoke(ss,
                            "getSnapshotDetails", new Object[] {Map.of()}, new String[] {Map.class.getName()});
                    assertThat(details).containsKey("both");
                    assertThat(details.get("both").values()).hasSize(1); // one row per table, both parts summed
                    conn.invoke(ss, "clearSnapshot", new Object[] {Map.of(), "both", new String[] {"dd"}},
                            new String[] {Map.class.getName(), String.class.getName(), String[].class.getName()});
                    for (Path t : tableDirs) {
                        assertThat(t.resolve("snapshots/both")).doesNotExist();
                    }
                }

                node.node.storage().forceMajorCompaction(id).get();
                assertThat(sstables(tableDirs.get(0)) + sstables(tableDirs.get(1))).isEqualTo(2); // one per shard
                checkRows(session);
            }
            node.restart();
            try (CqlSession session = node.session()) {
                checkRows(session);
                assertThat(session.execute("SELECT count(*) FROM dd.t").one().getLong(0)).isEqualTo(500);
            }
        }
    }
}
