package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.tls.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BadInputTest}'s malformed input with PasswordAuthenticator and required TLS (client certificates too): the
 * raw connections go through a TLS handshake and log in as cassandra/cassandra, and get the same answers; the
 * well-behaved client keeps working over TLS.
 */
@Timeout(180)
class BadInputSecureTest extends BadInputTest {
    @BeforeAll
    static void start() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        tls = certs.clientContext("client");
        authenticate = true;
        startNode(b -> b.authenticator(AuthenticatorType.PASSWORD).clientEncryptionOptions(certs.requiredClientTls()),
                b -> b.withSslEngineFactory(new ProgrammaticSslEngineFactory(tls, null, true))
                        .withAuthCredentials("cassandra", "cassandra"));
    }

    @AfterAll
    static void plainAgain() {
        tls = null;
        authenticate = false;
    }
}
