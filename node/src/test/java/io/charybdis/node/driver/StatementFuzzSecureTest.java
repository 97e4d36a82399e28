package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.tls.TestCertificates;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link StatementFuzzTest} with PasswordAuthenticator and required TLS with client certificates: random and mutated
 * statements over an authenticated TLS session never get a server error nor lose the connection. Shorter than the
 * plain run ({@code charybdis.fuzz.secure.seconds}, 15 s by default): the generator is the same.
 */
class StatementFuzzSecureTest extends StatementFuzzTest {
    static final long SECURE_SECONDS = Long.getLong("charybdis.fuzz.secure.seconds", 15);

    @BeforeAll
    static void start() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        SSLContext tls = certs.clientContext("client");
        startNode(b -> b.authenticator(AuthenticatorType.PASSWORD).clientEncryptionOptions(certs.requiredClientTls()),
                b -> b.withSslEngineFactory(new ProgrammaticSslEngineFactory(tls, null, true))
                        .withAuthCredentials("cassandra", "cassandra"));
    }

    @Override
    long fuzzSeconds() {
        return SECURE_SECONDS;
    }
}
