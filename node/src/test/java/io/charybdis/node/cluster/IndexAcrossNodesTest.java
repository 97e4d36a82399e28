package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.node.CharybdisNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries through native indexes on three nodes: each node indexes the rows it holds, and a query reads the local
 * index of enough nodes to cover the ring at its consistency level, then the base rows at that level. With
 * replication factor 1 the rows (and index entries) of one query are spread over all three nodes.
 */
@Timeout(240)
class IndexAcrossNodesTest {
    @TempDir
    Path dir;

    ClusterNodes cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Every (k, c) of the query's rows, through the given node, in pages of 7; checks there are no duplicates. */
    static List<String> query(CqlSession s, Node through, String cql, ConsistencyLevel cl) {
        List<String> out = new ArrayList<>();
        for (Row r : s.execute(SimpleStatement.newInstance(cql).setNode(through).setPageSize(7).setConsistencyLevel(cl))) {
            out.add(r.getInt("k") + ":" + r.getInt("c"));
        }
        assertThat(new HashSet<>(out)).as("no row twice").hasSize(out.size());
        return out;
    }

    @Test
    void indexQueriesReadEveryNodesIndexAndPage() throws Exception {
        cluster = new ClusterNodes(dir, FaultInjector.NONE);
        CharybdisNode n1 = cluster.start(1);
        cluster.start(2);
        CharybdisNode n3 = cluster.start(3);
        try (CqlSession s = ClusterNodes.session(n1)) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (s.getMetadata().getNodes().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(s.getMetadata().getNodes()).hasSize(3);
            s.execute("CREATE KEYSPACE ks1 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
            for (String ks : List.of("ks1", "ks2")) {
                s.execute("CREATE TABLE " + ks + ".t (k int, c int, v text, PRIMARY KEY (k, c))");
            }
            assertThat(s.checkSchemaAgreement()).isTrue();
            for (String ks : List.of("ks1", "ks2")) {
                PreparedStatement insert = s.prepare("INSERT INTO " + ks + ".t (k, c, v) VALUES (?, ?, ?)");
                for (int k = 0; k < 100; k++) {
                    for (int c = 0; c < 3; c++) {
                        s.execute(insert.bind(k, c, "g" + (k % 5)).setConsistencyLevel(DefaultConsistencyLevel.ALL));
                    }
                }
            }
            // one index built over existing rows, one kept from its creation
            s.execute("CREATE INDEX t_v ON ks1.t (v)");
            s.execute("CREATE INDEX t_v ON ks2.t (v)");
            s.execute("CREATE INDEX t_c ON ks1.t (c)");
            assertThat(s.checkSchemaAgreement()).isTrue();
            waitBuilt(s, "ks1", "t_v");
            waitBuilt(s, "ks2", "t_v");
            waitBuilt(s, "ks1", "t_c");

            for (CharybdisNode n : cluster.nodes) { // replication factor 1: each node holds part of the rows
                assertThat(ClusterNodes.contents(n, ClusterNodes.table(n, "ks1", "t"))).isNotEmpty();
            }

            for (Node through : s.getMetadata().getNodes().values()) {
                for (String ks : List.of("ks1", "ks2")) {
                    for (ConsistencyLevel cl : List.of(DefaultConsistencyLevel.ONE, DefaultConsistencyLevel.QUORUM,
                            DefaultConsistencyLevel.ALL)) {
                        List<String> rows = query(s, through, "SELECT k, c FROM " + ks + ".t WHERE v = 'g3'", cl);
                        assertThat(rows).as("%s at %s through %s", ks, cl, through).hasSize(60);
                        assertThat(rows).allMatch(r -> Integer.parseInt(r.split(":")[0]) % 5 == 3);
                    }
                }
                List<String> second = query(s, through, "SELECT k, c FROM ks1.t WHERE c = 2",
                        DefaultConsistencyLevel.ONE);
                assertThat(second).hasSize(100).allMatch(r -> r.endsWith(":2"));
            }
            // the same query in token order with a LIMIT, and restricted further with filtering
            List<Row> limited = s.execute("SELECT token(k), k FROM ks1.t WHERE v = 'g1' LIMIT 10").all();
            assertThat(limited).hasSize(10);
            for (int i = 1; i < limited.size(); i++) {
                assertThat(limited.get(i - 1).getLong(0)).isLessThanOrEqualTo(limited.get(i).getLong(0));
            }
            assertThat(s.execute("SELECT k FROM ks1.t WHERE v = 'g1' AND c = 1 ALLOW FILTERING").all()).hasSize(20);

            // an overwrite and a partition deletion: the stale entries match nothing, wherever they are
            s.execute("UPDATE ks1.t SET v = 'g4' WHERE k = 3 AND c = 0");
            s.execute("DELETE FROM ks1.t WHERE k = 8");
            for (Node through : s.getMetadata().getNodes().values()) {
                List<String> rows = query(s, through, "SELECT k, c FROM ks1.t WHERE v = 'g3'",
                        DefaultConsistencyLevel.ONE);
                assertThat(rows).hasSize(56).doesNotContain("3:0", "8:0", "8:1", "8:2");
                assertThat(query(s, through, "SELECT k, c FROM ks1.t WHERE v = 'g4'", DefaultConsistencyLevel.ONE))
                        .hasSize(61).contains("3:0");
            }

            // the third node stops: with replication factor 2 every range keeps a live replica (ONE answers all,
            // QUORUM is unavailable for the ranges it held); with replication factor 1 its ranges have none
            UUID dead = n3.cluster().self();
            n3.close();
            deadline = System.nanoTime() + 60_000_000_000L;
            while (n1.cluster().members().stream().anyMatch(m -> m.hostId().equals(dead) && m.alive())
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            Node first = s.getMetadata().getNodes().values().stream()
                    .filter(n -> n.getEndPoint().resolve().toString().contains("127.0.0.1")).findFirst().orElseThrow();
            assertThat(query(s, first, "SELECT k, c FROM ks2.t WHERE v = 'g3'", DefaultConsistencyLevel.ONE))
                    .hasSize(60);
            assertThatThrownBy(() -> query(s, first, "SELECT k, c FROM ks2.t WHERE v = 'g3'",
                    DefaultConsistencyLevel.QUORUM)).satisfies(IndexAcrossNodesTest::unavailable);
            assertThatThrownBy(() -> query(s, first, "SELECT k, c FROM ks1.t WHERE v = 'g3'",
                    DefaultConsistencyLevel.ONE)).satisfies(IndexAcrossNodesTest::unavailable);
        }
    }

    /** The node asked answered Unavailable (the driver wraps the error of a request sent to a chosen node). */
    static void unavailable(Throwable t) {
        Throwable e = t instanceof com.datastax.oss.driver.api.core.AllNodesFailedException all
                ? all.getAllErrors().values().iterator().next().get(0) : t;
        assertThat(e).isInstanceOf(UnavailableException.class);
    }

    static void waitBuilt(CqlSession s, String ks, String index) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        for (Node node : s.getMetadata().getNodes().values()) {
            while (System.nanoTime() < deadline && s.execute(SimpleStatement.newInstance(
                    "SELECT index_name FROM system.\"IndexInfo\" WHERE table_name = ? AND index_name = ?", ks, index)
                    .setNode(node)).all().isEmpty()) {
                Thread.sleep(100);
            }
        }
    }
}
