package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The conformance topics of {@code src/test/resources/conformance-dropcs/}, recorded from Apache Cassandra 5.0.6
 * started with {@code drop_compact_storage_enabled: true}, run against an in-process node configured the same way:
 * {@code ALTER TABLE ... DROP COMPACT STORAGE} and what the table answers afterwards.
 */
@Timeout(120)
class DropCompactStorageConformanceTest {
    static final Path DIR = Path.of("src/test/resources/conformance-dropcs");
    static Path dir;
    static CharybdisNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-dropcs-conformance");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).dropCompactStorageEnabled(true).build());
        session = Sessions.open("127.0.0.1", node.nativePort());
    }

    @AfterAll
    static void stop() throws IOException {
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The shapes whose conversion is not built are refused naming the feature, and the table stays compact. */
    @Test
    void shapesNotBuiltAreRefusedNamingTheFeature() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS dropcs_refused WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE dropcs_refused.st (k int PRIMARY KEY, v int) WITH COMPACT STORAGE");
        session.execute("CREATE TABLE dropcs_refused.nv (k int, c int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE");
        assertThatThrownBy(() -> session.execute("ALTER TABLE dropcs_refused.st DROP COMPACT STORAGE"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("DROP COMPACT STORAGE statements on static COMPACT STORAGE tables (no clustering column)"
                        + " are not supported by Charybdis yet");
        assertThatThrownBy(() -> session.execute("ALTER TABLE dropcs_refused.nv DROP COMPACT STORAGE"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("DROP COMPACT STORAGE statements on COMPACT STORAGE tables without a value column"
                        + " are not supported by Charybdis yet");
        org.assertj.core.api.Assertions.assertThat(session.execute("SELECT table_name, flags FROM system_schema.tables"
                        + " WHERE keyspace_name = 'dropcs_refused'").all())
                .extracting(r -> r.getString(0) + "=" + r.getSet(1, String.class))
                .containsExactlyInAnyOrder("nv=[dense]", "st=[]");
        session.execute("DROP KEYSPACE dropcs_refused");
    }

    /** The table stays a regular table, with the rows written before, across a restart of the node. */
    @Test
    void theRegularTableAndItsEarlierRowsSurviveARestart() throws Exception {
        Path base = dir.resolve("restart");
        NodeConfig config = NodeConfig.builder().baseDirectory(base).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(1).dropCompactStorageEnabled(true).build();
        try (CharybdisNode n = CharybdisNode.start(config);
             CqlSession s = Sessions.open("127.0.0.1", n.nativePort())) {
            s.execute("CREATE KEYSPACE dropcs_restart WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE dropcs_restart.t (k int, c int, v int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE");
            s.execute("INSERT INTO dropcs_restart.t (k, c, v) VALUES (1, 1, 10)");
            s.execute("ALTER TABLE dropcs_restart.t DROP COMPACT STORAGE");
            s.execute("INSERT INTO dropcs_restart.t (k, c) VALUES (1, 2)");
        }
        try (CharybdisNode n = CharybdisNode.start(config);
             CqlSession s = Sessions.open("127.0.0.1", n.nativePort())) {
            org.assertj.core.api.Assertions.assertThat(s.execute("SELECT flags FROM system_schema.tables WHERE "
                    + "keyspace_name = 'dropcs_restart' AND table_name = 't'").one().getSet(0, String.class))
                    .containsExactly("compound");
            org.assertj.core.api.Assertions.assertThat(s.execute("SELECT * FROM dropcs_restart.t").all())
                    .extracting(r -> r.getInt("c") + "=" + (r.isNull("v") ? "null" : r.getInt("v")))
                    .containsExactly("1=10", "2=null");
            s.execute("ALTER TABLE dropcs_restart.t ADD w text");
        }
    }

    @TestFactory
    Stream<DynamicNode> corpus() {
        return Corpus.topics(DIR).stream().map(file -> ConformanceTest.topic(file, () -> session,
                "ConformanceRecorder from a reference started with drop_compact_storage_enabled: true"));
    }
}
