package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import io.charybdis.node.config.AuthenticatorType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PasswordAuthenticator over SASL PLAIN with the default superuser cassandra/cassandra. */
@Timeout(60)
class AuthenticationTest {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode(b -> b.authenticator(AuthenticatorType.PASSWORD));
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    private static CqlSession login(String user, String password) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.node.nativePort()))
                .withLocalDatacenter("datacenter1").withAuthCredentials(user, password).build();
    }

    @Test
    void shouldLetTheDefaultSuperuserIn() {
        try (CqlSession s = login("cassandra", "cassandra")) {
            assertThat(s.execute("SELECT release_version FROM system.local").one().getString(0)).isEqualTo("5.0.6");
        }
    }

    @Test
    void shouldRejectBadCredentials() {
        assertThatThrownBy(() -> login("cassandra", "wrong"))
                .isInstanceOf(AllNodesFailedException.class)
                .satisfies(e -> assertThat(((AllNodesFailedException) e).getAllErrors().values().iterator().next()
                        .get(0)).isInstanceOf(AuthenticationException.class)
                        .hasMessageContaining("Provided username cassandra and/or password are incorrect"));
    }

    @Test
    void shouldRequireCredentials() {
        assertThatThrownBy(() -> CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", node.node.nativePort()))
                .withLocalDatacenter("datacenter1").build())
                .isInstanceOf(AllNodesFailedException.class);
    }
}
