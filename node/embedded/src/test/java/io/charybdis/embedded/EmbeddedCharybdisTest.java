package io.charybdis.embedded;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.cqlscript.CqlScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class EmbeddedCharybdisTest {

    @Test
    void shouldServeSchemaWritesAndReadsAndKeepThemAcrossARestart() {
        try (EmbeddedCharybdis node = EmbeddedCharybdis.startNew(); CqlSession session = node.newSession()) {
            int port = node.port();
            session.execute("CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE shop.orders (id int PRIMARY KEY, item text, qty int)");
            session.execute("INSERT INTO shop.orders (id, item, qty) VALUES (1, 'book', 2)");
            session.execute(session.prepare("INSERT INTO shop.orders (id, item, qty) VALUES (?, ?, ?)").bind(2, "pen", 5));

            assertThat(session.execute("SELECT item, qty FROM shop.orders WHERE id = 1").one().getString("item"))
                    .isEqualTo("book");

            node.restart();

            assertThat(node.port()).isEqualTo(port);
            List<Row> rows = session.execute("SELECT id, item, qty FROM shop.orders").all();
            assertThat(rows).extracting(r -> r.getInt("id") + ":" + r.getString("item") + ":" + r.getInt("qty"))
                    .containsExactlyInAnyOrder("1:book:2", "2:pen:5");
        }
    }

    @Test
    void shouldRunTwoIndependentNodesInOneJvm() {
        try (EmbeddedCharybdis a = EmbeddedCharybdis.startNew(); EmbeddedCharybdis b = EmbeddedCharybdis.startNew();
             CqlSession sa = a.newSession(); CqlSession sb = b.newSession()) {
            assertThat(a.port()).isNotEqualTo(b.port());
            assertThat(a.directory()).isNotEqualTo(b.directory());
            for (CqlSession s : List.of(sa, sb)) {
                s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                s.execute("CREATE TABLE ks.t (k text PRIMARY KEY, v text)");
            }
            sa.execute("INSERT INTO ks.t (k, v) VALUES ('who', 'a')");
            sb.execute("INSERT INTO ks.t (k, v) VALUES ('who', 'b')");

            b.restart();

            assertThat(sa.execute("SELECT v FROM ks.t WHERE k = 'who'").one().getString("v")).isEqualTo("a");
            assertThat(sb.execute("SELECT v FROM ks.t WHERE k = 'who'").one().getString("v")).isEqualTo("b");
            assertThat(sa.execute("SELECT host_id FROM system.local").one().getUuid("host_id"))
                    .isNotEqualTo(sb.execute("SELECT host_id FROM system.local").one().getUuid("host_id"));
        }
    }

    @Test
    void shouldKeepDataInAGivenDirectoryForTheNextNode(@TempDir Path dir) {
        try (EmbeddedCharybdis node = EmbeddedCharybdis.builder().directory(dir).build().start()) {
            node.execute(CqlScript.of("""
                    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
                    CREATE TABLE ks.t (k int PRIMARY KEY, v text);
                    INSERT INTO ks.t (k, v) VALUES (7, 'kept; across nodes');
                    """));
        }
        assertThat(Files.isDirectory(dir.resolve("data"))).isTrue();
        try (EmbeddedCharybdis node = EmbeddedCharybdis.builder().directory(dir).shards(2).build().start();
             CqlSession session = node.newSession("ks")) {
            assertThat(session.execute("SELECT v FROM t WHERE k = 7").one().getString("v"))
                    .isEqualTo("kept; across nodes");
        }
    }

    @Test
    void shouldDeleteItsTemporaryDirectoryOnClose() {
        EmbeddedCharybdis node = EmbeddedCharybdis.startNew();
        Path dir = node.directory();
        assertThat(dir).isDirectory();
        node.close();
        assertThat(dir).doesNotExist();
        assertThatThrownBy(node::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void shouldApplyConfigurationKeys() {
        try (EmbeddedCharybdis node = EmbeddedCharybdis.builder().config("cluster_name", "Orders Test")
                .config("authenticator", "PasswordAuthenticator").build().start();
             CqlSession session = node.sessionBuilder().withAuthCredentials("cassandra", "cassandra").build()) {
            assertThat(session.execute("SELECT cluster_name FROM system.local").one().getString("cluster_name"))
                    .isEqualTo("Orders Test");
        }
    }

    @Test
    void shouldRefuseToChooseAddressesItOwns() {
        assertThatThrownBy(() -> EmbeddedCharybdis.builder().config("native_transport_port", "9042"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port(int)");
    }

    @Test
    void shouldStopAndStartAgainOnTheSamePort() {
        try (EmbeddedCharybdis node = EmbeddedCharybdis.startNew()) {
            int port = node.port();
            node.stop();
            assertThat(node.isRunning()).isFalse();
            node.start();
            try (CqlSession session = node.newSession()) {
                assertThat(node.port()).isEqualTo(port);
                assertThat(session.execute("SELECT release_version FROM system.local").one().getString(0)).isNotBlank();
            }
        }
    }

    @Test
    void shouldTruncateAndDropEverythingOutsideTheSystemKeyspaces() {
        try (EmbeddedCharybdis node = EmbeddedCharybdis.startNew(); CqlSession session = node.newSession()) {
            node.execute(CqlScript.fromClasspath("shop.cql"));
            assertThat(session.execute("SELECT count(*) FROM shop.orders").one().getLong(0)).isEqualTo(1);

            node.truncateAllTables();

            assertThat(session.execute("SELECT count(*) FROM shop.orders").one().getLong(0)).isZero();
            assertThat(session.execute("SELECT count(*) FROM system_schema.tables WHERE keyspace_name = 'system_schema'")
                    .one().getLong(0)).isPositive();

            node.dropAllKeyspaces();

            assertThat(session.execute("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'shop'")
                    .one()).isNull();
        }
    }

    @Test
    void shouldStartJmxOnlyWhenAsked() {
        try (EmbeddedCharybdis plain = EmbeddedCharybdis.startNew();
             EmbeddedCharybdis withJmx = EmbeddedCharybdis.builder().config("jmx_port", "0").build().start()) {
            assertThat(plain.node().jmx()).isNull();
            assertThat(withJmx.node().jmx()).isNotNull();
        }
    }
}
