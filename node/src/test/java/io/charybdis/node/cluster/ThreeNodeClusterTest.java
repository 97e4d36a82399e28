package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes in one JVM on 127.0.0.1-3 forming a cluster through a seed: drivers see the ring, schema reaches
 * every node through the metadata log, and rows written at QUORUM are on every replica.
 */
@Timeout(180)
class ThreeNodeClusterTest {
    @TempDir
    Path dir;

    final List<CharybdisNode> nodes = new ArrayList<>();

    static int freePort(String host) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }

    CharybdisNode start(int i, String seeds, int storagePort, int metadataPort, int nativePort) throws Exception {
        String host = "127.0.0." + i;
        Path base = dir.resolve("n" + i);
        Files.createDirectories(base);
        NodeConfig config = NodeConfig.builder().baseDirectory(base).listenAddress(host).rpcAddress(host)
                .nativeTransportPort(nativePort).nativeShardAwareTransportPort(0).jmxPort(0).smp(2)
                .storagePort(storagePort).metadataPort(metadataPort).seeds(List.of(seeds.split(","))).build();
        CharybdisNode n = CharybdisNode.start(config);
        nodes.add(n);
        return n;
    }

    @AfterEach
    void stop() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }

    static CqlSession session(CharybdisNode n, String host) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress(host, n.nativePort()))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build();
    }

    @Test
    void threeNodesFormARingAndReplicateAtQuorum() throws Exception {
        int[] storage = new int[4];
        int[] meta = new int[4];
        int[] nat = new int[4];
        for (int i = 1; i <= 3; i++) {
            storage[i] = freePort("127.0.0." + i);
            meta[i] = freePort("127.0.0." + i);
            nat[i] = freePort("127.0.0." + i);
        }
        String seeds = "127.0.0.1:" + storage[1] + ",127.0.0.2:" + storage[2];
        CharybdisNode n1 = start(1, seeds, storage[1], meta[1], nat[1]);
        start(2, seeds, storage[2], meta[2], nat[2]);

        try (CqlSession s = session(n1, "127.0.0.1")) {
            assertThat(s.getMetadata().getNodes()).hasSize(2);
            CharybdisNode n3 = start(3, seeds, storage[3], meta[3], nat[3]);
            // the driver hears of the third node through a TOPOLOGY_CHANGE event (NEW_NODE) and adds it
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (s.getMetadata().getNodes().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(s.getMetadata().getNodes()).hasSize(3);
            Set<InetAddress> all = Set.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("127.0.0.2"),
                    InetAddress.getByName("127.0.0.3"));
            for (Node node : s.getMetadata().getNodes().values()) { // ask each node for its peers
                List<Row> peers = s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                        "SELECT peer, peer_port, native_address, native_port, host_id, tokens FROM system.peers_v2")
                        .setNode(node)).all();
                Set<InetAddress> addresses = new HashSet<>();
                for (Row r : peers) {
                    addresses.add(r.getInetAddress("peer"));
                    assertThat(r.getSet("tokens", String.class)).hasSize(16);
                    assertThat(r.getInt("native_port")).isPositive();
                }
                InetAddress self = ((InetSocketAddress) node.getEndPoint().resolve()).getAddress();
                Set<InetAddress> others = new HashSet<>(all);
                others.remove(self);
                assertThat(addresses).isEqualTo(others);
            }
            assertThat(s.execute("SELECT peer FROM system.peers").all()).hasSize(2);

            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            assertThat(s.checkSchemaAgreement()).isTrue();
            PreparedStatement insert = s.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
            for (int k = 0; k < 200; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
            }
            Set<Node> coordinators = new HashSet<>();
            for (int k = 0; k < 200; k++) {
                var rs = s.execute(s.prepare("SELECT v FROM ks.t WHERE k = ?").bind(k)
                        .setConsistencyLevel(DefaultConsistencyLevel.ONE));
                assertThat(rs.one().getString(0)).isEqualTo("v" + k);
                coordinators.add(rs.getExecutionInfo().getCoordinator());
            }
            assertThat(coordinators).hasSize(3); // the driver spread the requests over the ring
            // a native index is kept on every replica; querying it is a range read over all nodes, not built yet
            s.execute("CREATE INDEX t_v ON ks.t (v)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.execute("SELECT k FROM ks.t WHERE v = 'v5'"))
                    .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.InvalidQueryException.class)
                    .hasMessageContaining("range reads across nodes are not built yet");
            s.execute(insert.bind(1000, "v5").setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
        }
        // every node holds every row: with the first two gone, the third answers everything alone at ONE
        CharybdisNode n3 = nodes.get(2);
        nodes.get(0).close();
        nodes.get(1).close();
        try (CqlSession s = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.3", n3.nativePort()))
                .withLocalDatacenter("datacenter1").build()) {
            var rows = s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                    .newInstance("SELECT count(*) FROM ks.t").setConsistencyLevel(DefaultConsistencyLevel.ONE));
            assertThat(rows.one().getLong(0)).isEqualTo(201); // with the row written after CREATE INDEX
        }
    }
}
