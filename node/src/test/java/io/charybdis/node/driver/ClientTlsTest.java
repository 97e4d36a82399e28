package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.ConfigurationException;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.tls.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS on the CQL ports with the Java driver: required TLS with the server certificate checked (trust and host
 * name), plain-text clients refused; client certificates required; optional TLS serving both; PKCS12, JKS and PEM
 * stores; TLS with PasswordAuthenticator; bad settings stop startup naming the option.
 */
@Timeout(180)
class ClientTlsTest {
    static Path dir;
    static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        dir = Files.createTempDirectory("charybdis-tls");
        certs = TestCertificates.shared();
    }

    @AfterAll
    static void cleanUp() throws Exception {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static EncryptionOptions client(Map<String, Object> options) {
        return EncryptionOptions.parse("client_encryption_options", options, false);
    }

    static Map<String, Object> required(String storeType) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enabled", true);
        String ext = storeType.equals("JKS") ? ".jks" : ".p12";
        m.put("keystore", certs.path("node" + ext).toString());
        m.put("keystore_password", TestCertificates.PASSWORD);
        m.put("truststore", certs.path("truststore" + ext).toString());
        m.put("truststore_password", TestCertificates.PASSWORD);
        m.put("store_type", storeType);
        return m;
    }

    /** A JDK SSL context trusting {@code trustCa}'s certificates; with {@code clientKey}'s certificate if not null. */
    static SSLContext sslContext(String clientKey, String trustStore) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(certs.path(trustStore)));
        KeyManagerFactory kmf = null;
        if (clientKey != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(certs.path(clientKey + ".p12")), TestCertificates.PASSWORD.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }

    static KeyStore load(Path p) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p)) {
            ks.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        return ks;
    }

    /** A session through TLS (host name checked against the certificate's SAN) or plain text when ssl is null. */
    static CqlSession session(TestNode node, SSLContext ssl, String user, int port) {
        CqlSessionBuilder b = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", port))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, false)
                        .build());
        if (ssl != null) {
            b.withSslEngineFactory(new ProgrammaticSslEngineFactory(ssl, null, true));
        }
        if (user != null) {
            b.withAuthCredentials(user, user);
        }
        return b.build();
    }

    static String releaseVersion(CqlSession s) {
        return s.execute("SELECT release_version FROM system.local").one().getString(0);
    }

    /** True when an OPTIONS request in plain text gets a SUPPORTED answer on {@code port}. */
    static boolean plainTextAnswered(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(new byte[] {0x04, 0, 0, 1, 0x05, 0, 0, 0, 0});
            byte[] header = s.getInputStream().readNBytes(9);
            return header.length == 9 && (header[0] & 0xff) == 0x84 && header[4] == 0x06;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The body of the SUPPORTED answer to an OPTIONS request over TLS, as ISO-8859-1 text. */
    static String supportedOverTls(SSLContext ssl, int port) throws Exception {
        try (Socket s = ssl.getSocketFactory().createSocket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(new byte[] {0x04, 0, 0, 1, 0x05, 0, 0, 0, 0});
            byte[] header = s.getInputStream().readNBytes(9);
            assertThat(header[4]).as("SUPPORTED").isEqualTo((byte) 0x06);
            int length = java.nio.ByteBuffer.wrap(header, 5, 4).getInt();
            return new String(s.getInputStream().readNBytes(length), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void requiredTlsServesTlsClientsCheckingTheServerCertificateAndRefusesPlainText() throws Exception {
        try (TestNode node = new TestNode(b -> b.clientEncryptionOptions(client(required("PKCS12"))))) {
            try (CqlSession s = session(node, sslContext(null, "truststore.p12"), null, node.node.nativePort())) {
                assertThat(releaseVersion(s)).isNotEmpty();
                s.execute("CREATE KEYSPACE tls WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
                s.execute("CREATE TABLE tls.t (k int PRIMARY KEY, v text)");
                s.execute("INSERT INTO tls.t (k, v) VALUES (1, 'over tls')");
                assertThat(s.execute("SELECT v FROM tls.t WHERE k = 1").one().getString(0)).isEqualTo("over tls");
            }
            // the shard-aware port is TLS too
            try (CqlSession s = session(node, sslContext(null, "truststore.p12"), null, node.node.cqlServer().shardAwarePort())) {
                assertThat(releaseVersion(s)).isNotEmpty();
            }
            String supported = supportedOverTls(sslContext(null, "truststore.p12"), node.node.nativePort());
            assertThat(supported).contains("SCYLLA_SHARD_AWARE_PORT_SSL")
                    .contains(Integer.toString(node.node.cqlServer().shardAwarePort()));
            assertThat(plainTextAnswered(node.node.nativePort())).isFalse();
            assertThat(plainTextAnswered(node.node.cqlServer().shardAwarePort())).isFalse();
            assertThatThrownBy(() -> session(node, null, null, node.node.nativePort()).close())
                    .isInstanceOf(AllNodesFailedException.class);
            // a client that does not trust the server's CA does not connect: the server certificate is checked
            KeyStore rogueTrust = KeyStore.getInstance("PKCS12");
            rogueTrust.load(null, null);
            rogueTrust.setCertificateEntry("rogue", load(certs.path("rogue-client.p12")).getCertificate("rogue-ca"));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(rogueTrust);
            SSLContext untrusting = SSLContext.getInstance("TLS");
            untrusting.init(null, tmf.getTrustManagers(), null);
            assertThatThrownBy(() -> session(node, untrusting, null, node.node.nativePort()).close())
                    .isInstanceOf(AllNodesFailedException.class);
        }
    }

    @Test
    void requiredClientCertificatesAreChecked() throws Exception {
        Map<String, Object> options = required("JKS");
        options.put("require_client_auth", true);
        options.put("accepted_protocols", List.of("TLSv1.2", "TLSv1.3"));
        try (TestNode node = new TestNode(b -> b.clientEncryptionOptions(client(options)))) {
            try (CqlSession s = session(node, sslContext("client", "truststore.p12"), null, node.node.nativePort())) {
                assertThat(releaseVersion(s)).isNotEmpty();
            }
            assertThatThrownBy(() -> session(node, sslContext(null, "truststore.p12"), null, node.node.nativePort()).close())
                    .as("no client certificate").isInstanceOf(AllNodesFailedException.class);
            assertThatThrownBy(() -> session(node, sslContext("rogue-client", "truststore.p12"), null,
                    node.node.nativePort()).close())
                    .as("a client certificate of an untrusted CA").isInstanceOf(AllNodesFailedException.class);
        }
    }

    @Test
    void optionalTlsServesBothOnOnePortWithPemFilesAndPasswords() throws Exception {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("enabled", true);
        options.put("optional", true);
        options.put("ssl_context_factory", Map.of("class_name", "org.apache.cassandra.security.PEMBasedSslContextFactory"));
        options.put("keystore", certs.path("node.pem").toString());
        options.put("truststore", certs.path("ca.pem").toString());
        try (TestNode node = new TestNode(b -> b.clientEncryptionOptions(client(options))
                .authenticator(AuthenticatorType.PASSWORD))) {
            try (CqlSession tls = session(node, sslContext(null, "truststore.p12"), "cassandra", node.node.nativePort());
                 CqlSession plain = session(node, null, "cassandra", node.node.nativePort())) {
                assertThat(releaseVersion(tls)).isEqualTo(releaseVersion(plain));
            }
            assertThat(plainTextAnswered(node.node.nativePort())).isTrue();
        }
    }

    @Test
    void inlinePemParametersWork() throws Exception {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("enabled", true);
        options.put("ssl_context_factory", Map.of("class_name", "PEMBasedSslContextFactory", "parameters",
                Map.of("private_key", Files.readString(certs.path("node.pem")),
                        "trusted_certificates", Files.readString(certs.path("ca.pem")))));
        try (TestNode node = new TestNode(b -> b.clientEncryptionOptions(client(options)));
             CqlSession s = session(node, sslContext(null, "truststore.p12"), null, node.node.nativePort())) {
            assertThat(releaseVersion(s)).isNotEmpty();
        }
    }

    @Test
    void badSettingsStopStartupNamingTheOption() {
        assertThatThrownBy(() -> client(Map.of("enabled", true, "keystore_type", "JKS")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("client_encryption_options.keystore_type");
        Map<String, Object> wrongPassword = required("PKCS12");
        wrongPassword.put("keystore_password", "wrong");
        assertThatThrownBy(() -> new TestNode(b -> b.clientEncryptionOptions(client(wrongPassword))).close())
                .hasMessageContaining("client_encryption_options.keystore");
        Map<String, Object> missing = required("PKCS12");
        missing.put("keystore", dir.resolve("nowhere.p12").toString());
        assertThatThrownBy(() -> new TestNode(b -> b.clientEncryptionOptions(client(missing))).close())
                .hasMessageContaining("does not exist");
        Map<String, Object> cipher = required("PKCS12");
        cipher.put("cipher_suites", List.of("TLS_NO_SUCH_CIPHER"));
        assertThatThrownBy(() -> new TestNode(b -> b.clientEncryptionOptions(client(cipher))).close())
                .hasMessageContaining("cipher_suites");
        Map<String, Object> noTrust = required("PKCS12");
        noTrust.remove("truststore");
        noTrust.put("require_client_auth", true);
        assertThatThrownBy(() -> new TestNode(b -> b.clientEncryptionOptions(client(noTrust))).close())
                .hasMessageContaining("require_client_auth");
        assertThatThrownBy(() -> EncryptionOptions.parse("server_encryption_options", Map.of("enabled", true), true))
                .hasMessageContaining("internode_encryption");
        assertThatThrownBy(() -> NodeConfig.builder().jmxAddress("0.0.0.0").build())
                .hasMessageContaining("jmx_password_file");
    }
}
