package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.internal.core.auth.PlainTextAuthProvider;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.AuthorizerType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PasswordAuthenticator and CassandraAuthorizer through the Java driver's PlainTextAuthProvider: the default superuser,
 * roles created with CQL (bcrypt hashes in system_auth), Cassandra's messages for bad credentials and for roles that
 * may not log in, permissions enforced, and roles, passwords and grants kept over a restart.
 */
@Timeout(120)
class AuthenticationTest {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode(b -> b.authenticator(AuthenticatorType.PASSWORD).authorizer(AuthorizerType.CASSANDRA));
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    /** A session authenticated by the driver's PlainTextAuthProvider, configured as an application would. */
    private static CqlSession login(String user, String password) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withClass(DefaultDriverOption.AUTH_PROVIDER_CLASS, PlainTextAuthProvider.class)
                .withString(DefaultDriverOption.AUTH_PROVIDER_USER_NAME, user)
                .withString(DefaultDriverOption.AUTH_PROVIDER_PASSWORD, password)
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .build();
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.node.nativePort()))
                .withLocalDatacenter("datacenter1").withConfigLoader(config).build();
    }

    private static Throwable loginFailure(String user, String password) {
        try (CqlSession s = login(user, password)) {
            throw new AssertionError("logged in as " + user);
        } catch (AllNodesFailedException e) {
            return e.getAllErrors().values().iterator().next().get(0);
        }
    }

    @Test
    void shouldLetTheDefaultSuperuserIn() {
        try (CqlSession s = login("cassandra", "cassandra")) {
            assertThat(s.execute("SELECT release_version FROM system.local").one().getString(0)).isEqualTo("5.0.6");
            Row r = s.execute("SELECT is_superuser, can_login, salted_hash FROM system_auth.roles WHERE role = "
                    + "'cassandra'").one();
            assertThat(r.getBoolean(0)).isTrue();
            assertThat(r.getBoolean(1)).isTrue();
            assertThat(r.getString(2)).startsWith("$2a$10$");
        }
    }

    @Test
    void shouldRejectBadCredentials() {
        assertThat(loginFailure("cassandra", "wrong")).isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Provided username cassandra and/or password are incorrect");
        assertThat(loginFailure("nobody", "x")).isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Provided username nobody and/or password are incorrect");
    }

    @Test
    void shouldRequireCredentials() {
        assertThatThrownBy(() -> CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", node.node.nativePort()))
                .withLocalDatacenter("datacenter1").build())
                .isInstanceOf(AllNodesFailedException.class);
    }

    @Test
    void shouldLogInAsCreatedRolesAndEnforceTheirPermissions() throws Exception {
        try (CqlSession admin = login("cassandra", "cassandra")) {
            admin.execute("CREATE KEYSPACE IF NOT EXISTS authdrv WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            admin.execute("CREATE TABLE IF NOT EXISTS authdrv.t (k int PRIMARY KEY, v text)");
            admin.execute("INSERT INTO authdrv.t (k, v) VALUES (1, 'one')");
            admin.execute("CREATE ROLE IF NOT EXISTS reader WITH PASSWORD = 'reader_pw' AND LOGIN = true");
            admin.execute("CREATE ROLE IF NOT EXISTS locked WITH PASSWORD = 'locked_pw' AND LOGIN = false");
            admin.execute("GRANT SELECT ON authdrv.t TO reader");
            // Cassandra's advice before replacing the default superuser: replicate system_auth as the cluster needs
            admin.execute("ALTER KEYSPACE system_auth WITH replication = "
                    + "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1}");
        }
        try (CqlSession reader = login("reader", "reader_pw")) {
            assertThat(reader.execute("SELECT v FROM authdrv.t WHERE k = 1").one().getString(0)).isEqualTo("one");
            assertThatThrownBy(() -> reader.execute("INSERT INTO authdrv.t (k, v) VALUES (2, 'two')"))
                    .isInstanceOf(UnauthorizedException.class)
                    .hasMessage("User reader has no MODIFY permission on <table authdrv.t> or any of its parents");
        }
        assertThat(loginFailure("reader", "wrong")).isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("Provided username reader and/or password are incorrect");
        assertThat(loginFailure("locked", "locked_pw")).isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("locked is not permitted to log in");

        node.restart();

        try (CqlSession reader = login("reader", "reader_pw")) {
            assertThat(reader.execute("SELECT v FROM authdrv.t WHERE k = 1").one().getString(0)).isEqualTo("one");
            assertThatThrownBy(() -> reader.execute("DELETE FROM authdrv.t WHERE k = 1"))
                    .isInstanceOf(UnauthorizedException.class);
        }
        try (CqlSession admin = login("cassandra", "cassandra")) {
            assertThat(admin.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = "
                    + "'system_auth'").one().getMap(0, String.class, String.class)).containsEntry("class",
                    "org.apache.cassandra.locator.NetworkTopologyStrategy").containsEntry("datacenter1", "1");
            List<Row> roles = admin.execute("LIST ROLES").all();
            assertThat(roles).extracting(r -> r.getString("role")).contains("cassandra", "locked", "reader");
            assertThat(admin.execute("LIST ALL PERMISSIONS OF reader").all())
                    .extracting(r -> r.getString("resource") + " " + r.getString("permission"))
                    .containsExactly("<table authdrv.t> SELECT");
            admin.execute("ALTER ROLE reader WITH PASSWORD = 'changed'");
        }
        assertThat(loginFailure("reader", "reader_pw")).isInstanceOf(AuthenticationException.class);
        try (CqlSession reader = login("reader", "changed")) {
            assertThat(reader.execute("SELECT v FROM authdrv.t WHERE k = 1").one().getString(0)).isEqualTo("one");
        }
    }
}
