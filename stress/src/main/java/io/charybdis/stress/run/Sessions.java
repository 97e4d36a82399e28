package io.charybdis.stress.run;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import io.charybdis.stress.settings.StressSettings;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Builds driver sessions from the {@code -node}, {@code -port}, {@code -mode} and {@code -transport} settings. */
final class Sessions {

    private Sessions() {
    }

    static CqlSession open(StressSettings s, String keyspace, int concurrency) throws Exception {
        int maxRequests = Math.max(s.mode().maxPendingPerConnection(),
                Math.min(32768, concurrency / Math.max(1, s.mode().connectionsPerHost()) + 1));
        ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, s.mode().connectionsPerHost())
                .withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE, s.mode().connectionsPerHost())
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, maxRequests)
                .withInt(DefaultDriverOption.CONNECTION_MAX_ORPHAN_REQUESTS, Math.max(1, maxRequests / 4))
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(12))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                .withBoolean(DefaultDriverOption.REQUEST_WARN_IF_SET_KEYSPACE, false);
        if (s.node().datacenter() == null) {
            config.withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, "DcInferringLoadBalancingPolicy");
        } else {
            config.withString(DefaultDriverOption.LOAD_BALANCING_LOCAL_DATACENTER, s.node().datacenter());
        }
        if (s.mode().protocolVersion() != null) {
            config.withString(DefaultDriverOption.PROTOCOL_VERSION, "V" + s.mode().protocolVersion());
        }
        if (!s.mode().compression().equals("none")) {
            config.withString(DefaultDriverOption.PROTOCOL_COMPRESSION, s.mode().compression());
        }
        CqlSessionBuilder b = CqlSession.builder().withConfigLoader(config.build());
        java.util.Set<InetSocketAddress> listed = new java.util.HashSet<>();
        for (String node : s.node().nodes()) {
            InetSocketAddress a = address(node, s.port().nativePort());
            b.addContactPoint(a);
            listed.add(a);
        }
        if (s.node().whitelist()) {
            // -node whitelist: requests go to the listed nodes only, never to the peers the driver discovers
            b.withNodeDistanceEvaluator((node, localDc) -> node.getEndPoint().resolve() instanceof InetSocketAddress a
                    && listed.contains(a) ? null : com.datastax.oss.driver.api.core.loadbalancing.NodeDistance.IGNORED);
        }
        if (s.mode().user() != null) {
            b.withAuthCredentials(s.mode().user(), s.mode().password() == null ? "" : s.mode().password());
        }
        if (s.transport().ssl()) {
            b.withSslContext(sslContext(s));
        }
        if (keyspace != null) {
            b.withKeyspace("\"" + keyspace + "\"");
        }
        return b.build();
    }

    static InetSocketAddress address(String node, int defaultPort) {
        int colon = node.lastIndexOf(':');
        if (colon > 0 && node.indexOf(':') == colon) {
            return new InetSocketAddress(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)));
        }
        return new InetSocketAddress(node, defaultPort);
    }

    private static SSLContext sslContext(StressSettings s) throws Exception {
        var t = s.transport();
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = new FileInputStream(t.truststore())) {
            trust.load(in, t.truststorePassword() == null ? null : t.truststorePassword().toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (t.keystore() != null) {
            KeyStore keys = KeyStore.getInstance(KeyStore.getDefaultType());
            char[] pw = t.keystorePassword() == null ? new char[0] : t.keystorePassword().toCharArray();
            try (InputStream in = new FileInputStream(t.keystore())) {
                keys.load(in, pw);
            }
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, pw);
        }
        SSLContext ctx = SSLContext.getInstance(t.protocol());
        ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return ctx;
    }
}
