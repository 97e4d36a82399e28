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
 * A column dropped {@code USING TIMESTAMP} and added again shows only the values written after the drop time (as
 * the conformance topic {@code cq_schema_evolution} records from Cassandra), whether those cells are read from the
 * memtable or from SSTables: written before a flush, merged by a major compaction, and after a restart (the drop
 * time and the column's storage id come back with the schema).
 */
@Timeout(180)
class DroppedColumnTimestampTest {
    private static CqlSession open(CharybdisNode node) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").build();
    }

    private static CharybdisNode start(Path dir) throws Exception {
        return CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
    }

    private static List<String> rows(CqlSession session, String table) {
        List<String> out = new ArrayList<>();
        for (Row r : session.execute("SELECT id, c, v, d FROM dropts." + table)) {
            out.add(r.getInt(0) + " " + r.getInt(1) + " " + r.getInt(2) + " "
                    + (r.isNull(3) ? "null" : String.valueOf(r.getObject(3))));
        }
        return out;
    }

    private static TableId table(CharybdisNode node, String name) {
        return new TableId(node.schemas().schema().keyspace("dropts").tables().get(name).id());
    }

    private static void flushAndCompact(CharybdisNode node, String name) throws Exception {
        node.storage().flush(table(node, name)).get(30, TimeUnit.SECONDS);
        node.storage().forceMajorCompaction(table(node, name)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void valuesWrittenAfterTheDropTimeComeBackBeforeAndAfterFlushCompactionAndRestart() throws Exception {
        Path dir = Files.createTempDirectory("charybdis-dropts");
        List<String> regular = List.of("1 0 0 null", "1 1 1 null", "1 2 2 null", "1 3 3 3", "1 4 4 4",
                "1 100 100 100");
        List<String> statics = List.of("1 0 0 4", "1 1 1 4", "1 2 2 4", "1 3 3 4", "1 4 4 4", "1 100 100 4");
        try {
            try (CharybdisNode node = start(dir); CqlSession session = open(node)) {
                session.execute("CREATE KEYSPACE dropts WITH replication = {'class': 'SimpleStrategy', "
                        + "'replication_factor': 1}");
                session.execute("CREATE TABLE dropts.r (id int, c int, v int, d int, PRIMARY KEY (id, c)) "
                        + "WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
                session.execute("CREATE TABLE dropts.s (id int, c int, v int, d int static, PRIMARY KEY (id, c)) "
                        + "WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'enabled': 'false'}");
                for (String t : List.of("r", "s")) {
                    for (int i = 0; i < 5; i++) {
                        session.execute("INSERT INTO dropts." + t + " (id, c, v, d) VALUES (1, " + i + ", " + i + ", "
                                + i + ") USING TIMESTAMP " + (i * 10000));
                        if (i == 2) {
                            // some cells in an SSTable, the others in the memtable
                            node.storage().flush(table(node, t)).get(30, TimeUnit.SECONDS);
                        }
                    }
                    // a partition whose only data is an old static cell, and one whose only row is old dropped data
                    session.execute(t.equals("s") ? "INSERT INTO dropts.s (id, d) VALUES (2, 9) USING TIMESTAMP 5000"
                            : "UPDATE dropts.r USING TIMESTAMP 5000 SET d = 9 WHERE id = 2 AND c = 0");
                    session.execute("ALTER TABLE dropts." + t + " DROP d USING TIMESTAMP 20000");
                    session.execute("ALTER TABLE dropts." + t + " ADD d int" + (t.equals("s") ? " static" : ""));
                    session.execute("INSERT INTO dropts." + t + " (id, c, v, d) VALUES (1, 100, 100, 100) "
                            + "USING TIMESTAMP 30000");
                }
                // partition 2 of either table had only cells of the dropped column: it is not there
                assertThat(rows(session, "s")).containsExactlyElementsOf(statics);
                assertThat(rows(session, "r")).containsExactlyElementsOf(regular);
                flushAndCompact(node, "r");
                flushAndCompact(node, "s");
                assertThat(rows(session, "s")).containsExactlyElementsOf(statics);
                assertThat(rows(session, "r")).containsExactlyElementsOf(regular);
            }
            try (CharybdisNode node = start(dir); CqlSession session = open(node)) {
                assertThat(rows(session, "s")).containsExactlyElementsOf(statics);
                assertThat(rows(session, "r")).containsExactlyElementsOf(regular);
                // dropped again, without a timestamp: nothing written before shows, later writes do
                session.execute("ALTER TABLE dropts.r DROP d");
                session.execute("ALTER TABLE dropts.r ADD d int");
                assertThat(session.execute("SELECT d FROM dropts.r WHERE id = 1").all()).allMatch(r -> r.isNull(0));
                session.execute("UPDATE dropts.r SET d = 7 WHERE id = 1 AND c = 0");
                flushAndCompact(node, "r");
                assertThat(rows(session, "r")).containsExactly("1 0 0 7", "1 1 1 null", "1 2 2 null",
                        "1 3 3 null", "1 4 4 null", "1 100 100 null");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
