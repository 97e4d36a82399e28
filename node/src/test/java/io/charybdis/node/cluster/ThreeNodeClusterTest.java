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
            tracingAcrossNodes(s, insert);
            rangeReadsAcrossNodes(s);
            countersAcrossNodes(s);
            // a LOGGED batch over partitions on different nodes goes through the batchlog (system.batches)
            s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance("BEGIN BATCH "
                    + "INSERT INTO ks1.t (k, c, v) VALUES (1000, 0, 'b0'); INSERT INTO ks1.t (k, c, v) VALUES (1001, 0, 'b1'); "
                    + "INSERT INTO ks1.t (k, c, v) VALUES (1002, 0, 'b2'); APPLY BATCH"));
            for (int k = 1000; k < 1003; k++) {
                assertThat(s.execute(s.prepare("SELECT v FROM ks1.t WHERE k = ?").bind(k)).one().getString(0))
                        .isEqualTo("b" + (k - 1000));
            }
            s.execute("TRUNCATE ks1.t"); // on every node
            assertThat(s.execute("SELECT count(*) FROM ks1.t").one().getLong(0)).isZero();
            // a native index is kept on every replica (built for the rows already there) and queried on each node
            s.execute("CREATE INDEX t_v ON ks.t (v)");
            assertThat(s.checkSchemaAgreement()).isTrue();
            s.execute(insert.bind(1000, "v5").setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
            for (Node node : s.getMetadata().getNodes().values()) {
                Set<Integer> found = new HashSet<>();
                s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                        "SELECT k FROM ks.t WHERE v = 'v5'").setNode(node)
                        .setConsistencyLevel(DefaultConsistencyLevel.QUORUM)).forEach(r -> found.add(r.getInt(0)));
                assertThat(found).as("through %s", node).containsExactlyInAnyOrder(5, 1000);
            }
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
            // its own index alone answers at ONE (every range has a live replica: this node)
            List<Integer> found = new ArrayList<>();
            s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance("SELECT k FROM ks.t WHERE v = 'v5'")
                    .setConsistencyLevel(DefaultConsistencyLevel.ONE)).forEach(r -> found.add(r.getInt(0)));
            assertThat(found).containsExactlyInAnyOrder(5, 1000);
            // the counters' shards reached the third replica too (the read at ALL repaired what it had missed)
            assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                    "SELECT sum(views) FROM ks.hits WHERE page = 'p0'").setConsistencyLevel(DefaultConsistencyLevel.ONE))
                    .one().getLong(0)).isEqualTo(COUNTER_PAGE_TOTAL);
        }
    }

    static final long COUNTER_PAGE_TOTAL = 4 * 30 * 3;

    /**
     * Counters at replication factor 3: increments through every node at once (each node leads its own updates and
     * replicates its shard), a counter batch over partitions on different nodes, reads at QUORUM and ALL that add up
     * exactly; at replication factor 1, updates sent to nodes that are not the replica go to the one that is.
     */
    private static void countersAcrossNodes(CqlSession s) {
        s.execute("CREATE TABLE ks.hits (page text, day int, views counter, clicks counter, PRIMARY KEY (page, day))");
        assertThat(s.checkSchemaAgreement()).isTrue();
        PreparedStatement inc = s.prepare("UPDATE ks.hits SET views = views + ?, clicks = clicks - 1 WHERE page = ? "
                + "AND day = ?");
        List<java.util.concurrent.CompletableFuture<?>> inFlight = new ArrayList<>();
        Set<Node> coordinators = java.util.concurrent.ConcurrentHashMap.newKeySet();
        for (int round = 0; round < 30; round++) {
            for (int page = 0; page < 10; page++) {
                for (int day = 0; day < 3; day++) {
                    inFlight.add(s.executeAsync(inc.bind(4L, "p" + page, day)
                            .setConsistencyLevel(DefaultConsistencyLevel.QUORUM)).toCompletableFuture()
                            .thenAccept(rs -> coordinators.add(rs.getExecutionInfo().getCoordinator())));
                }
            }
            inFlight.forEach(java.util.concurrent.CompletableFuture::join);
            inFlight.clear();
        }
        assertThat(coordinators).hasSize(3);
        s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance("BEGIN COUNTER BATCH "
                + "UPDATE ks.hits SET views = views + 1000 WHERE page = 'b1' AND day = 0; "
                + "UPDATE ks.hits SET views = views + 2000 WHERE page = 'b2' AND day = 0; "
                + "UPDATE ks.hits SET views = views - 1 WHERE page = 'b1' AND day = 0; APPLY BATCH")
                .setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
        for (DefaultConsistencyLevel cl : List.of(DefaultConsistencyLevel.QUORUM, DefaultConsistencyLevel.ALL)) {
            for (int page = 0; page < 10; page++) {
                List<Row> rows = s.execute(s.prepare("SELECT day, views, clicks FROM ks.hits WHERE page = ?")
                        .bind("p" + page).setConsistencyLevel(cl)).all();
                assertThat(rows).hasSize(3);
                for (Row r : rows) {
                    assertThat(r.getLong("views")).isEqualTo(4 * 30);
                    assertThat(r.getLong("clicks")).isEqualTo(-30);
                }
            }
            assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                    "SELECT page, views FROM ks.hits WHERE page IN ('b1', 'b2')").setConsistencyLevel(cl)).all()
                    .stream().map(r -> r.getString(0) + "=" + r.getLong(1)).toList()).containsExactly("b1=999", "b2=2000");
            assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                    "SELECT sum(views) FROM ks.hits").setConsistencyLevel(cl)).one().getLong(0))
                    .isEqualTo(10 * COUNTER_PAGE_TOTAL + 2999);
        }
        // replication factor 1: each node in turn coordinates updates of one partition, whose replica is one of them
        s.execute("CREATE TABLE ks1.c (k int PRIMARY KEY, n counter)");
        assertThat(s.checkSchemaAgreement()).isTrue();
        for (Node node : s.getMetadata().getNodes().values()) {
            for (int i = 0; i < 5; i++) {
                s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                        "UPDATE ks1.c SET n = n + 2 WHERE k = 7").setNode(node));
            }
        }
        assertThat(s.execute("SELECT n FROM ks1.c WHERE k = 7").one().getLong(0)).isEqualTo(30);
        s.execute("DELETE n FROM ks1.c WHERE k = 7");
        assertThat(s.execute("SELECT n FROM ks1.c WHERE k = 7").all()).isEmpty();
    }

    /**
     * A traced write at QUORUM and a traced read at ALL: the coordinator records the messages it sends to the other
     * replicas (their session is read at ALL: system_traces has two replicas of three nodes).
     */
    private static void tracingAcrossNodes(CqlSession s, PreparedStatement insert) throws InterruptedException {
        java.util.UUID write = s.execute(insert.bind(7, "v7").setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                .setTracing(true)).getExecutionInfo().getTracingId();
        List<String> events = traceEvents(s, write, "Determining replicas for mutation");
        assertThat(events).anyMatch(a -> a.matches("Sending MUTATION_REQ message to /127\\.0\\.0\\.[123]:\\d+"));
        java.util.UUID read = s.execute(s.prepare("SELECT v FROM ks.t WHERE k = ?").bind(7)
                .setConsistencyLevel(DefaultConsistencyLevel.ALL).setTracing(true)).getExecutionInfo().getTracingId();
        events = traceEvents(s, read, "Executing single-partition query on t");
        // digest reads: the data from this node, digests from the other replicas (as Cassandra's traces say)
        assertThat(events).anyMatch(a -> a.matches("reading digest from /127\\.0\\.0\\.[123]:\\d+"));
        assertThat(events).anyMatch(a -> a.matches("Sending READ_REQ message to /127\\.0\\.0\\.[123]:\\d+"));
        // the answer is read from the coordinator itself (a replica of every row), with its storage steps
        assertThat(events).contains("reading data from this node").anyMatch(a ->
                a.matches("Merged data from memtables and \\d+ sstables") || a.equals("Row cache hit"));
    }

    /** The activities of a trace session once it holds {@code expected} (read at ALL, waiting up to 10 s). */
    private static List<String> traceEvents(CqlSession s, java.util.UUID session, String expected)
            throws InterruptedException {
        assertThat(session).isNotNull();
        List<String> events = List.of();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            events = s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                    "SELECT activity FROM system_traces.events WHERE session_id = ?", session)
                    .setConsistencyLevel(DefaultConsistencyLevel.ALL)).all().stream().map(r -> r.getString(0)).toList();
            if (events.contains(expected)) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(events).contains(expected);
        return events;
    }

    /**
     * Reads without a partition key over nodes that each own part of the ring (replication factor 1) and at QUORUM
     * (replication factor 3): full scans in token order with pages that resume on another node, token ranges,
     * LIMIT, PER PARTITION LIMIT, DISTINCT and ALLOW FILTERING.
     */
    private static void rangeReadsAcrossNodes(CqlSession s) {
        s.execute("CREATE KEYSPACE ks1 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE ks1.t (k int, c int, v text, PRIMARY KEY (k, c))");
        assertThat(s.checkSchemaAgreement()).isTrue();
        PreparedStatement insert = s.prepare("INSERT INTO ks1.t (k, c, v) VALUES (?, ?, ?)");
        for (int k = 0; k < 100; k++) {
            for (int c = 0; c < 3; c++) {
                s.execute(insert.bind(k, c, "v" + k + "." + c));
            }
        }
        com.datastax.oss.driver.api.core.cql.SimpleStatement all = com.datastax.oss.driver.api.core.cql.SimpleStatement
                .newInstance("SELECT token(k), k, c, v FROM ks1.t").setPageSize(7);
        List<Row> rows = s.execute(all).all();
        assertThat(rows).hasSize(300);
        for (int i = 1; i < rows.size(); i++) { // token order, clustering order within a partition
            Row a = rows.get(i - 1);
            Row b = rows.get(i);
            assertThat(a.getLong(0) < b.getLong(0) || (a.getLong(0) == b.getLong(0) && a.getInt(2) < b.getInt(2)))
                    .as("row %d after row %d", i, i - 1).isTrue();
        }
        Set<Integer> keys = new HashSet<>();
        rows.forEach(r -> keys.add(r.getInt(1)));
        assertThat(keys).hasSize(100);

        long mid = rows.get(150).getLong(0);
        long low = rows.get(30).getLong(0);
        List<Row> slice = s.execute(s.prepare("SELECT k FROM ks1.t WHERE token(k) > ? AND token(k) <= ?")
                .bind(low, mid).setPageSize(5)).all();
        long expected = rows.stream().filter(r -> r.getLong(0) > low && r.getLong(0) <= mid).count();
        assertThat(slice).hasSize((int) expected);

        assertThat(s.execute("SELECT k FROM ks1.t LIMIT 10").all()).hasSize(10);
        assertThat(s.execute("SELECT k, c FROM ks1.t PER PARTITION LIMIT 1").all()).hasSize(100)
                .allSatisfy(r -> assertThat(r.getInt(1)).isZero());
        assertThat(s.execute("SELECT DISTINCT k FROM ks1.t").all()).hasSize(100);
        assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                .newInstance("SELECT k, c FROM ks1.t WHERE v = 'v42.2' ALLOW FILTERING").setPageSize(3)).all())
                .singleElement().satisfies(r -> {
                    assertThat(r.getInt(0)).isEqualTo(42);
                    assertThat(r.getInt(1)).isEqualTo(2);
                });
        assertThat(s.execute("SELECT count(*) FROM ks1.t").one().getLong(0)).isEqualTo(300);
        assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                .newInstance("SELECT count(*) FROM ks.t").setConsistencyLevel(DefaultConsistencyLevel.QUORUM))
                .one().getLong(0)).isEqualTo(200);
        assertThat(s.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                .newInstance("SELECT k FROM ks.t").setConsistencyLevel(DefaultConsistencyLevel.ALL).setPageSize(9))
                .all()).hasSize(200);
    }
}
