package io.charybdis.node.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.tls.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMX with {@code jmx_password_file}, {@code jmx_access_file} and {@code jmx_encryption_options}: a client over TLS
 * with the right credentials reads StorageService, a wrong password and a plain-text client are refused. The client
 * runs in a child JVM, because an RMI client over TLS uses the JVM-wide default SSL context (as nodetool does).
 */
@Timeout(180)
class JmxSecurityTest {
    @TempDir
    Path dir;

    /** A JMX client as nodetool --ssl connects: registry and connector over SslRMIClientSocketFactory. */
    private static final String PROBE = """
            import javax.management.*;
            import javax.management.remote.*;
            import javax.rmi.ssl.SslRMIClientSocketFactory;
            import java.util.*;
            public class JmxProbe {
                public static void main(String[] a) throws Exception {
                    Map<String, Object> env = new HashMap<>();
                    env.put(JMXConnector.CREDENTIALS, new String[] {a[1], a[2]});
                    if (a[3].equals("ssl")) {
                        env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
                    }
                    try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(a[0]), env)) {
                        Object v = c.getMBeanServerConnection().getAttribute(
                                new ObjectName("org.apache.cassandra.db:type=StorageService"), "ReleaseVersion");
                        System.out.println("RELEASE " + v);
                    }
                }
            }
            """;

    @Test
    void passwordsAndTlsAreRequired() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        Path passwords = dir.resolve("jmxremote.password");
        Files.writeString(passwords, "operator s3cret-pw\n");
        Path access = dir.resolve("jmxremote.access");
        Files.writeString(access, "operator readwrite\n");
        Path probe = dir.resolve("JmxProbe.java");
        Files.writeString(probe, PROBE);
        EncryptionOptions tls = EncryptionOptions.parse("jmx_encryption_options", Map.of("enabled", true,
                "keystore", certs.path("node.p12").toString(), "keystore_password", TestCertificates.PASSWORD,
                "store_type", "PKCS12"), false);
        Path base = dir.resolve("node");
        try (CharybdisNode node = CharybdisNode.start(NodeConfig.builder().baseDirectory(base).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(1).jmxPasswordFile(passwords).jmxAccessFile(access)
                .jmxEncryptionOptions(tls).build())) {
            String url = node.jmx().serviceUrl();
            assertThat(node.jmx().host()).isEqualTo("127.0.0.1");
            Result ok = probe(probe, certs, url, "operator", "s3cret-pw", "ssl");
            assertThat(ok.output).contains("RELEASE ");
            assertThat(ok.exit).isZero();
            Result wrongPassword = probe(probe, certs, url, "operator", "guess", "ssl");
            assertThat(wrongPassword.exit).isNotZero();
            assertThat(wrongPassword.output).containsIgnoringCase("SecurityException");
            Result plain = probe(probe, certs, url, "operator", "s3cret-pw", "plain");
            assertThat(plain.exit).isNotZero();
            assertThat(plain.output).doesNotContain("RELEASE ");
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result probe(Path source, TestCertificates certs, String url, String user, String password,
                                String mode) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djavax.net.ssl.trustStore=" + certs.path("truststore.p12"),
                "-Djavax.net.ssl.trustStorePassword=" + TestCertificates.PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12",
                source.toString(), url, user, password, mode));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
