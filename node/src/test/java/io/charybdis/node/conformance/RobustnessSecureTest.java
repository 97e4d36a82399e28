package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.tls.TestCertificates;
import java.nio.file.Files;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The robustness corpus ({@code conformance/robustness.cql}: client input that once got Server_error) run as
 * {@link ConformanceTest} runs it, but with PasswordAuthenticator (logged in as the superuser cassandra) and TLS
 * required with client certificates: the same answers as Cassandra 5.0.6 recorded.
 */
@Timeout(120)
class RobustnessSecureTest extends ConformanceTest {

    @BeforeAll
    static void start() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        SSLContext tls = certs.clientContext("client");
        dir = Files.createTempDirectory("charybdis-robustness-secure");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).authenticator(AuthenticatorType.PASSWORD)
                .clientEncryptionOptions(certs.requiredClientTls()).build());
        session = Sessions.open("127.0.0.1", node.nativePort(), b -> b
                .withSslEngineFactory(new ProgrammaticSslEngineFactory(tls, null, true))
                .withAuthCredentials("cassandra", "cassandra"));
    }

    @Override
    @TestFactory
    Stream<DynamicNode> corpus() {
        return Stream.of(topic(Corpus.DIR.resolve("robustness.cql"), () -> session, "ConformanceRecorder"));
    }
}
