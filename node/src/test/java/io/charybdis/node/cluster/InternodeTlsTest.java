package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.tls.TestCertificates;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes in one JVM with {@code server_encryption_options: {internode_encryption: all, require_client_auth: true}}:
 * they form a cluster (metadata log over TLS), replicate rows at ALL over TLS messaging, and both internode ports
 * speak TLS only, to peers holding a certificate of the trusted CA.
 */
@Timeout(240)
class InternodeTlsTest {
    @TempDir
    Path dir;

    final List<CharybdisNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }

    @Test
    void twoNodesTalkOverTlsOnly() throws Exception {
        TestCertificates certs = TestCertificates.shared();
        Map<String, Object> tls = new LinkedHashMap<>();
        tls.put("internode_encryption", "all");
        tls.put("keystore", certs.path("node.p12").toString());
        tls.put("keystore_password", TestCertificates.PASSWORD);
        tls.put("truststore", certs.path("truststore.p12").toString());
        tls.put("truststore_password", TestCertificates.PASSWORD);
        tls.put("store_type", "PKCS12");
        tls.put("require_client_auth", true);
        EncryptionOptions options = EncryptionOptions.parse("server_encryption_options", tls, true);
        int[] storage = new int[3];
        int[] meta = new int[3];
        int[] nat = new int[3];
        for (int i = 1; i <= 2; i++) {
            storage[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
            meta[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
            nat[i] = ThreeNodeClusterTest.freePort("127.0.0." + i);
        }
        String seeds = "127.0.0.1:" + storage[1] + ",127.0.0.2:" + storage[2];
        for (int i = 1; i <= 2; i++) {
            String host = "127.0.0." + i;
            Path base = dir.resolve("n" + i);
            Files.createDirectories(base);
            nodes.add(CharybdisNode.start(NodeConfig.builder().baseDirectory(base).listenAddress(host).rpcAddress(host)
                    .nativeTransportPort(nat[i]).nativeShardAwareTransportPort(0).jmxPort(0).smp(2)
                    .storagePort(storage[i]).metadataPort(meta[i]).seeds(List.of(seeds.split(",")))
                    .serverEncryptionOptions(options).build()));
        }
        try (CqlSession s = ThreeNodeClusterTest.session(nodes.get(0), "127.0.0.1")) {
            assertThat(s.getMetadata().getNodes()).hasSize(2);
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
            s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            for (int k = 0; k < 50; k++) {
                s.execute(SimpleStatement.newInstance("INSERT INTO ks.t (k, v) VALUES (?, ?)", k, "v" + k)
                        .setConsistencyLevel(DefaultConsistencyLevel.ALL));
            }
        }
        try (CqlSession s = ThreeNodeClusterTest.session(nodes.get(1), "127.0.0.2")) {
            for (int k = 0; k < 50; k++) {
                var row = s.execute(SimpleStatement.newInstance("SELECT v FROM ks.t WHERE k = ?", k)
                        .setConsistencyLevel(DefaultConsistencyLevel.ALL)).one();
                assertThat(row).isNotNull();
                assertThat(row.getString(0)).isEqualTo("v" + k);
            }
        }
        // both internode ports serve TLS to a peer with a trusted certificate, and refuse one without
        SSLContext withCert = context(certs, "node");
        SSLContext withoutCert = context(certs, null);
        for (int port : new int[] {storage[1], meta[1]}) {
            handshake(withCert, port);
            assertThatThrownBy(() -> {
                handshake(withoutCert, port);
                handshake(withoutCert, port); // TLS 1.3 reports a refused client certificate on the first read
            }).as("no client certificate on port %d", port).isInstanceOf(java.io.IOException.class);
        }
    }

    private static void handshake(SSLContext ctx, int port) throws Exception {
        try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.startHandshake();
            // with TLS 1.3 a refused client certificate shows on the first read, as an SSLException
            s.getOutputStream().write(new byte[1]);
            s.getOutputStream().flush();
            s.getInputStream().read(); // one byte is no frame: the peer waits (timeout) or closes (-1)
        } catch (java.net.SocketTimeoutException e) {
            // the handshake held and the peer waits for a whole frame
        }
    }

    private static SSLContext context(TestCertificates certs, String key) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certs.path("truststore.p12"))) {
            trust.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (key != null) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(certs.path(key + ".p12"))) {
                ks.load(in, TestCertificates.PASSWORD.toCharArray());
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, TestCertificates.PASSWORD.toCharArray());
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }
}
