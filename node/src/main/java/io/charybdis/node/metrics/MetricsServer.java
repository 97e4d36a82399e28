package io.charybdis.node.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code http://<rpc_address>:<prometheus_port>/metrics}: the Prometheus Java client's HTTP exporter over a registry
 * of this node's own (several nodes in one JVM each have theirs), serving {@link ScyllaMetrics}. Scrapes run on one
 * thread of the exporter's, never on a shard.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);

    private final HTTPServer http;
    private final ExecutorService executor;
    private final String host;

    private MetricsServer(HTTPServer http, ExecutorService executor, String host) {
        this.http = http;
        this.executor = executor;
        this.host = host;
    }

    /**
     * Listens on {@code port} (0: a free one) at {@code address}. Never throws: returns null, with an error logged,
     * when the port cannot be bound (the node still serves CQL), as JMX does.
     */
    public static MetricsServer start(InetAddress address, int port, ScyllaMetrics metrics) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(metrics);
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            HTTPServer http = HTTPServer.builder().inetAddress(address).port(port).registry(registry)
                    .executorService(executor).buildAndStart();
            MetricsServer server = new MetricsServer(http, executor, address.getHostAddress());
            log.info("Prometheus metrics on http://{}:{}/metrics", server.host, http.getPort());
            return server;
        } catch (IOException | RuntimeException | LinkageError e) { // LinkageError: a runtime without jdk.httpserver
            executor.shutdownNow();
            log.error("Metrics are disabled: cannot listen on {}:{} for prometheus_port ({})", address.getHostAddress(),
                    port, e.toString());
            return null;
        }
    }

    public int port() {
        return http.getPort();
    }

    public String host() {
        return host;
    }

    @Override
    public void close() {
        http.close();
        executor.shutdownNow();
    }
}
