package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.storage.TableId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decimal clustering values keep the scale of the row's first write (as the conformance topic {@code decimal_scale}
 * records from Cassandra) beyond the memtable: read from SSTables, across a flush between the writes, after a
 * restart and after a major compaction.
 */
@Timeout(180)
class DecimalClusteringScaleTest {
    private static CqlSession open(CharybdisNode node) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").build();
    }

    private static CharybdisNode start(Path dir) throws Exception {
        return CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
    }

    private static List<String> rows(CqlSession session) {
        List<String> out = new ArrayList<>();
        for (Row r : session.execute("SELECT k, c, v FROM decscale.t WHERE k IN (1, 2)")) {
            out.add(r.getInt(0) + " " + r.getBigDecimal(1) + " " + r.getInt(2));
        }
        return out;
    }

    private static TableId table(CharybdisNode node) {
        return new TableId(node.schemas().schema().keyspace("decscale").tables().get("t").id());
    }

    @Test
    void scaleOfFirstWriteSurvivesFlushRestartAndCompaction() throws Exception {
        Path dir = Files.createTempDirectory("charybdis-decscale");
        try {
            try (CharybdisNode node = start(dir); CqlSession session = open(node)) {
                session.execute("CREATE KEYSPACE decscale WITH replication = {'class': 'SimpleStrategy', "
                        + "'replication_factor': 1}");
                session.execute("CREATE TABLE decscale.t (k int, c decimal, v int, PRIMARY KEY (k, c)) "
                        + "WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (1, 1.0, 1)");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (2, 1E+1, 1)");
                node.storage().flush(table(node)).get(30, TimeUnit.SECONDS);
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (1, 1.00, 2)");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (2, 10, 2)");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (2, 2.50, 3)");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (2, 2.5, 4)");
                assertThat(rows(session)).containsExactly("1 1.0 2", "2 2.50 4", "2 1E+1 2");
            }
            try (CharybdisNode node = start(dir); CqlSession session = open(node)) {
                assertThat(rows(session)).containsExactly("1 1.0 2", "2 2.50 4", "2 1E+1 2");
                session.execute("INSERT INTO decscale.t (k, c, v) VALUES (1, 1, 3)");
                node.storage().forceMajorCompaction(table(node)).get(30, TimeUnit.SECONDS);
                assertThat(rows(session)).containsExactly("1 1.0 3", "2 2.50 4", "2 1E+1 2");
                node.storage().flush(table(node)).get(30, TimeUnit.SECONDS);
                node.storage().forceMajorCompaction(table(node)).get(30, TimeUnit.SECONDS);
                assertThat(rows(session)).containsExactly("1 1.0 3", "2 2.50 4", "2 1E+1 2");
                session.execute("DELETE FROM decscale.t WHERE k = 2 AND c = 2.500");
                assertThat(rows(session)).containsExactly("1 1.0 3", "2 1E+1 2");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
