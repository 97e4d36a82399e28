package io.charybdis.node.index;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native index across restarts: recorded as built, it answers at once after a restart; with another shard count
 * (its entries sit in the old shards' token slices) it is built again and answers right.
 */
@Timeout(180)
class NativeIndexRestartTest {
    private static List<Integer> query(CqlSession session) {
        List<Integer> out = new ArrayList<>();
        for (Row r : session.execute("SELECT k FROM ix.t WHERE v = 'x'")) {
            out.add(r.getInt(0));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static CqlSession open(CharybdisNode node) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
                        .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_TIMEOUT,
                                java.time.Duration.ofSeconds(30)).build())
                .build();
    }

    private static CharybdisNode start(Path dir, int smp) throws Exception {
        return CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(smp).build());
    }

    private static List<Integer> awaitAnswer(CqlSession session) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                return query(session);
            } catch (com.datastax.oss.driver.api.core.servererrors.ReadFailureException e) {
                assertThat(System.nanoTime()).isLessThan(deadline); // the index is being built
                Thread.sleep(50);
            }
        }
    }

    @Test
    void indexSurvivesRestartsAndShardCountChanges() throws Exception {
        Path dir = Files.createTempDirectory("charybdis-index-restart");
        List<Integer> expected = new ArrayList<>();
        try {
            try (CharybdisNode node = start(dir, 2); CqlSession session = open(node)) {
                session.execute("CREATE KEYSPACE ix WITH replication = {'class': 'SimpleStrategy', "
                        + "'replication_factor': 1}");
                session.execute("CREATE TABLE ix.t (k int PRIMARY KEY, v text)");
                session.execute("CREATE INDEX t_v ON ix.t (v)");
                for (int k = 0; k < 200; k++) {
                    session.execute("INSERT INTO ix.t (k, v) VALUES (" + k + ", '" + (k % 4 == 0 ? "x" : "y") + "')");
                    if (k % 4 == 0) {
                        expected.add(k);
                    }
                }
                assertThat(awaitAnswer(session)).isEqualTo(expected);
            }
            try (CharybdisNode node = start(dir, 2); CqlSession session = open(node)) {
                assertThat(query(session)).isEqualTo(expected); // built before: no wait
            }
            try (CharybdisNode node = start(dir, 3); CqlSession session = open(node)) {
                assertThat(awaitAnswer(session)).isEqualTo(expected);
                session.execute("INSERT INTO ix.t (k, v) VALUES (1000, 'x')");
                List<Integer> more = new ArrayList<>(expected);
                more.add(1000);
                assertThat(query(session)).isEqualTo(more);
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
