package io.charybdis.node.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * nodetool's operations on a running node, through the StorageService bean as Apache's nodetool calls them:
 * disablebinary / enablebinary really close and reopen the CQL listener, and snapshots taken with a TTL carry
 * Cassandra's manifest, are listed with their expiry and are deleted once it has passed.
 */
@Timeout(120)
class NodeOperationsTest {
    private static final String SS = "org.apache.cassandra.db:type=StorageService";
    private static final String[] TAKE = {String.class.getName(), Map.class.getName(), String[].class.getName()};
    private static Path dir;
    private static CharybdisNode node;
    private static JMXConnector jmx;
    private static MBeanServerConnection conn;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-ops");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
        try (CqlSession session = session()) {
            session.execute("CREATE KEYSPACE ops WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': 1}");
            session.execute("CREATE TABLE ops.t (k int PRIMARY KEY, v text)");
            for (int i = 0; i < 20; i++) {
                session.execute("INSERT INTO ops.t (k, v) VALUES (" + i + ", 'v')");
            }
        }
        jmx = JMXConnectorFactory.connect(new JMXServiceURL(node.jmx().serviceUrl()));
        conn = jmx.getMBeanServerConnection();
    }

    @AfterAll
    static void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (node != null) {
            node.close();
        }
        if (dir != null) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static CqlSession session() {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").build();
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void disableBinaryClosesTheListenerAndEnableBinaryReopensItOnTheSamePort() throws Exception {
        int port = node.nativePort();
        ObjectName ss = new ObjectName(SS);
        assertThat((Boolean) conn.getAttribute(ss, "NativeTransportRunning")).isTrue();
        try (CqlSession session = session()) {
            assertThat(session.execute("SELECT v FROM ops.t WHERE k = 1").one().getString(0)).isEqualTo("v");
            conn.invoke(ss, "stopNativeTransport", new Object[] {false}, new String[] {boolean.class.getName()});
            assertThat((Boolean) conn.getAttribute(ss, "NativeTransportRunning")).isFalse();
            assertThat(accepts(port)).isFalse();
            assertThat(node.cqlServer().connectionCount()).isZero();

            conn.invoke(ss, "startNativeTransport", new Object[0], new String[0]);
            assertThat((Boolean) conn.getAttribute(ss, "NativeTransportRunning")).isTrue();
            assertThat(node.nativePort()).isEqualTo(port);
            assertThat(accepts(port)).isTrue();
        }
        try (CqlSession again = session()) {
            assertThat(again.execute("SELECT v FROM ops.t WHERE k = 2").one().getString(0)).isEqualTo("v");
        }
        // nodetool's own commands, with Apache's output
        assertThat(nodetool("statusbinary")).isEqualTo("running\n");
        assertThat(nodetool("disablebinary", "--force")).isEmpty();
        assertThat(nodetool("statusbinary")).isEqualTo("not running\n");
        assertThat(nodetool("enablebinary")).isEmpty();
        assertThat(nodetool("statusbinary")).isEqualTo("running\n");
    }

    private static String nodetool(String... command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = Stream.concat(Stream.of("-h", "127.0.0.1", "-p",
                Integer.toString(new JMXServiceURLPort(node.jmx().serviceUrl()).port)), Stream.of(command))
                .toArray(String[]::new);
        int rc = io.charybdis.node.tools.NodeToolAccess.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(rc).as("nodetool %s: %s", List.of(command), out).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The port of a {@code service:jmx:rmi:///jndi/rmi://host:port/jmxrmi} URL. */
    private record JMXServiceURLPort(int port) {
        JMXServiceURLPort(String url) {
            this(Integer.parseInt(url.replaceAll(".*rmi://[^:/]+:(\\d+)/jmxrmi$", "$1")));
        }
    }

    @Test
    void refreshSizeEstimatesRecordsTheFlushedPartitionsPerPrimaryRange() throws Exception {
        ObjectName ss = new ObjectName(SS);
        node.storage().flush(new io.charybdis.storage.TableId(
                node.schemas().schema().keyspace("ops").tables().get("t").id())).get();
        try (CqlSession session = session()) {
            conn.invoke(ss, "refreshSizeEstimates", new Object[0], new String[0]);
            var rows = session.execute("SELECT range_start, range_end, mean_partition_size, partitions_count FROM "
                    + "system.size_estimates WHERE keyspace_name = 'ops' AND table_name = 't'").all();
            assertThat(rows).hasSize(node.info().tokens().size() + 1); // the wrapping range is split
            long count = rows.stream().mapToLong(r -> r.getLong("partitions_count")).sum();
            assertThat(count).isBetween(20L - rows.size() / 2, 20L + rows.size() / 2); // each range rounded
            assertThat(rows).allSatisfy(r -> assertThat(r.getLong("mean_partition_size") > 0)
                    .isEqualTo(r.getLong("partitions_count") > 0));
            var types = session.execute("SELECT range_type FROM system.table_estimates WHERE keyspace_name = 'ops' "
                    + "AND table_name = 't'").all().stream().map(r -> r.getString(0)).distinct().toList();
            assertThat(types).containsExactly("local_primary", "primary");
            // a dropped table is left out at once
            session.execute("CREATE TABLE ops.gone (k int PRIMARY KEY)");
            conn.invoke(ss, "refreshSizeEstimates", new Object[0], new String[0]);
            String q = "SELECT * FROM system.size_estimates WHERE keyspace_name = 'ops' AND table_name = 'gone'";
            assertThat(session.execute(q).all()).isNotEmpty();
            session.execute("DROP TABLE ops.gone");
            assertThat(session.execute(q).all()).isEmpty();
        }
    }

    @Test
    void ttlsAreCheckedAsCassandraChecksThem() {
        assertThat(Snapshots.ttlSeconds("60s")).isEqualTo(60);
        assertThat(Snapshots.ttlSeconds("1m")).isEqualTo(60);
        assertThat(Snapshots.ttlSeconds("2h")).isEqualTo(7200);
        assertThat(Snapshots.ttlSeconds("1d")).isEqualTo(86_400);
        assertThatThrownBy(() -> Snapshots.ttlSeconds("59s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ttl for snapshot must be at least 60 seconds");
        assertThatThrownBy(() -> Snapshots.ttlSeconds("60000ms")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid duration: 60000ms Accepted units:[SECONDS, MINUTES, HOURS, DAYS]");
        assertThatThrownBy(() -> Snapshots.ttlSeconds("1x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid duration: 1x Accepted units:[NANOSECONDS,");
        assertThatThrownBy(() -> Snapshots.ttlSeconds("1H")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSnapshotWithATtlIsListedWithItsExpiryAndDeletedOnceItHasPassed() throws Exception {
        ObjectName ss = new ObjectName(SS);
        assertThatThrownBy(() -> conn.invoke(ss, "takeSnapshot", new Object[] {"short", Map.of("ttl", "30s"),
                new String[] {"ops.t"}}, TAKE)).isInstanceOf(RuntimeMBeanException.class)
                .cause().isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ttl for snapshot must be at least 60 seconds");

        Instant before = Instant.now().minusMillis(1);
        conn.invoke(ss, "takeSnapshot", new Object[] {"withttl", Map.of("ttl", "1h"), new String[] {"ops.t"}}, TAKE);
        conn.invoke(ss, "takeSnapshot", new Object[] {"forever", Map.of(), new String[] {"ops.t"}}, TAKE);
        Path table = node.storage().tableDirectories(new io.charybdis.storage.TableId(
                node.schemas().schema().keyspace("ops").tables().get("t").id())).get(0);
        String manifest = Files.readString(table.resolve("snapshots/withttl/manifest.json"));
        assertThat(manifest).contains("\"files\" : [ \"").contains("-Data.db\"").contains("\"created_at\" : \"")
                .contains("\"ephemeral\" : false");
        assertThat(Files.readString(table.resolve("snapshots/forever/manifest.json")))
                .contains("\"expires_at\" : null");

        Map<String, TabularData> details = (Map<String, TabularData>) conn.invoke(ss, "getSnapshotDetails",
                new Object[] {Map.of()}, new String[] {Map.class.getName()});
        CompositeData row = (CompositeData) details.get("withttl").values().iterator().next();
        Instant created = Instant.parse((String) row.get("Creation time"));
        Instant expires = Instant.parse((String) row.get("Expiration time"));
        assertThat(created).isAfter(before).isBefore(Instant.now().plusMillis(1));
        assertThat(expires).isEqualTo(created.plusSeconds(3600));
        CompositeData forever = (CompositeData) details.get("forever").values().iterator().next();
        assertThat(forever.get("Expiration time")).isEqualTo("");

        Map<String, TabularData> noTtl = (Map<String, TabularData>) conn.invoke(ss, "getSnapshotDetails",
                new Object[] {Map.of("no_ttl", "true")}, new String[] {Map.class.getName()});
        assertThat(noTtl).containsKey("forever").doesNotContainKey("withttl");

        Snapshots snapshots = node.jmx().storageServiceBean().snapshots();
        snapshots.clearExpired(expires.minusSeconds(1));
        assertThat(table.resolve("snapshots/withttl")).exists();
        snapshots.clearExpired(expires);
        assertThat(table.resolve("snapshots/withttl")).doesNotExist();
        assertThat(table.resolve("snapshots/forever")).exists();
        conn.invoke(ss, "clearSnapshot", new Object[] {Map.of(), "forever", new String[] {"ops"}},
                new String[] {Map.class.getName(), String.class.getName(), String[].class.getName()});
    }
}
