package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two data centres of two nodes each, placed by GossipingPropertyFileSnitch (cassandra-rackdc.properties), in one
 * JVM on 127.0.0.1-4: NetworkTopologyStrategy keeps two copies in each, the driver sees each node's data centre
 * and rack, and with the other data centre down LOCAL_QUORUM reads and writes go on while QUORUM is unavailable.
 */
@Timeout(180)
class TwoDataCentresTest {
    @TempDir
    Path dir;

    final List<CharybdisNode> nodes = new ArrayList<>();

    CharybdisNode start(int i, String dc, String rack, String seeds, int storagePort, int metadataPort, int nativePort)
            throws Exception {
        String host = "127.0.0." + i;
        Path base = dir.resolve("n" + i);
        Files.createDirectories(base.resolve("conf"));
        Files.writeString(base.resolve("conf").resolve("cassandra-rackdc.properties"),
                "dc=" + dc + "\nrack=" + rack + "\n");
        NodeConfig config = NodeConfig.builder().baseDirectory(base).listenAddress(host).rpcAddress(host)
                .nativeTransportPort(nativePort).nativeShardAwareTransportPort(0).jmxPort(0).smp(2)
                .storagePort(storagePort).metadataPort(metadataPort).seeds(List.of(seeds.split(",")))
                .endpointSnitch("GossipingPropertyFileSnitch").build();
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

    @Test
    void localQuorumKeepsWorkingWithTheOtherDataCentreDown() throws Exception {
        int[] storage = new int[5];
        int[] meta = new int[5];
        int[] nat = new int[5];
        for (int i = 1; i <= 4; i++) {
            storage[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
            meta[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
            nat[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
        }
        String seeds = "127.0.0.1:" + storage[1] + ",127.0.0.3:" + storage[3];
        CharybdisNode n1 = start(1, "dc1", "r1", seeds, storage[1], meta[1], nat[1]);
        start(2, "dc1", "r2", seeds, storage[2], meta[2], nat[2]);
        start(3, "dc2", "r1", seeds, storage[3], meta[3], nat[3]);
        start(4, "dc2", "r2", seeds, storage[4], meta[4], nat[4]);

        try (CqlSession s = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", n1.nativePort()))
                .withLocalDatacenter("dc1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build()) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (s.getMetadata().getNodes().size() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Map<String, String> placement = new HashMap<>();
            s.getMetadata().getNodes().values().forEach(n -> placement.put(
                    ((InetSocketAddress) n.getEndPoint().resolve()).getAddress().getHostAddress(),
                    n.getDatacenter() + "/" + n.getRack()));
            assertThat(placement).containsExactlyInAnyOrderEntriesOf(Map.of("127.0.0.1", "dc1/r1",
                    "127.0.0.2", "dc1/r2", "127.0.0.3", "dc2/r1", "127.0.0.4", "dc2/r2"));
            for (var node : s.getMetadata().getNodes().values()) { // each local node says where it is
                if (!"dc1".equals(node.getDatacenter())) {
                    continue; // the driver keeps no connections to a remote data centre
                }
                Row local = s.execute(SimpleStatement.newInstance("SELECT data_center, rack FROM system.local")
                        .setNode(node)).one();
                assertThat(local.getString("data_center") + "/" + local.getString("rack"))
                        .isEqualTo(node.getDatacenter() + "/" + node.getRack());
            }

            // a data centre no node is in is refused, as Cassandra refuses it
            assertThatThrownBy(() -> s.execute("CREATE KEYSPACE bad WITH replication = "
                    + "{'class': 'NetworkTopologyStrategy', 'dc3': 1}"))
                    .isInstanceOf(InvalidConfigurationInQueryException.class)
                    .hasMessageContaining("Unrecognized strategy option {dc3}");
            s.execute("CREATE KEYSPACE ks WITH replication = "
                    + "{'class': 'NetworkTopologyStrategy', 'dc1': 2, 'dc2': 2}");
            s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            assertThat(s.checkSchemaAgreement()).isTrue();
            // replication_factor alone means every data centre
            s.execute("CREATE KEYSPACE every WITH replication = "
                    + "{'class': 'NetworkTopologyStrategy', 'replication_factor': 1}");
            Row every = s.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'every'").one();
            assertThat(every.getMap("replication", String.class, String.class)).containsEntry("dc1", "1")
                    .containsEntry("dc2", "1");

            PreparedStatement insert = s.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
            PreparedStatement select = s.prepare("SELECT v FROM ks.t WHERE k = ?");
            for (int k = 0; k < 50; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.EACH_QUORUM));
            }
            // every row has two copies in each data centre: dc2's nodes answer them alone at LOCAL_ONE
            for (int k = 0; k < 50; k++) {
                assertThat(s.execute(SimpleStatement.newInstance("SELECT v FROM ks.t WHERE k = " + k)
                        .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)).one().getString(0))
                        .isEqualTo("v" + k);
            }

            // dc2 goes down
            nodes.get(3).close();
            nodes.get(2).close();
            deadline = System.nanoTime() + 60_000_000_000L;
            boolean convicted = false;
            while (!convicted && System.nanoTime() < deadline) {
                try {
                    s.execute(insert.bind(999, "x").setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
                    Thread.sleep(200);
                } catch (UnavailableException e) {
                    convicted = true;
                    assertThat(e.getRequired()).isEqualTo(3);
                    assertThat(e.getAlive()).isEqualTo(2);
                } catch (com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException e) {
                    Thread.sleep(200); // not convicted yet: the write waited for dc2
                }
            }
            assertThat(convicted).as("dc2's nodes convicted by the failure detector").isTrue();
            for (int k = 50; k < 100; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
            }
            for (int k = 0; k < 100; k++) {
                Row r = s.execute(select.bind(k).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)).one();
                assertThat(r.getString(0)).isEqualTo("v" + k);
            }
            assertThatThrownBy(() -> s.execute(insert.bind(1000, "y")
                    .setConsistencyLevel(DefaultConsistencyLevel.EACH_QUORUM)))
                    .isInstanceOf(UnavailableException.class);
        }
    }
}
