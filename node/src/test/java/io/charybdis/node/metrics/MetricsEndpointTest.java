package io.charybdis.node.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code /metrics} on prometheus_port after a workload through the Java driver on a two-shard node: ScyllaDB's
 * series names with {@code instance} and {@code shard}, request counters and latency histograms moving on every
 * shard, and every name of the ScyllaDB Monitoring Stack's list present. (tests/python/test_metrics.py parses the
 * same endpoint with the Prometheus client's own text-format parser.)
 */
@Timeout(120)
class MetricsEndpointTest {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})? (\\S+)$");
    private static Path dir;
    private static CharybdisNode node;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-metrics");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(-1).prometheusPort(0).smp(2).build());
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 4)
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .build()).build()) {
            session.execute("CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE m.t (k int, c int, v text, PRIMARY KEY (k, c))");
            PreparedStatement insert = session.prepare("INSERT INTO m.t (k, c, v) VALUES (?, ?, ?)");
            PreparedStatement update = session.prepare("UPDATE m.t SET v = ? WHERE k = ? AND c = ?");
            PreparedStatement delete = session.prepare("DELETE FROM m.t WHERE k = ? AND c = ?");
            PreparedStatement select = session.prepare("SELECT v FROM m.t WHERE k = ?");
            // many requests in flight at once, so that the driver uses all its connections (spread over the shards)
            for (int round = 0; round < 4; round++) {
                List<CompletionStage<?>> inFlight = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    inFlight.add(session.executeAsync(insert.bind(i, round, "v" + i)));
                    inFlight.add(session.executeAsync(update.bind("w" + i, i, round)));
                    inFlight.add(session.executeAsync(select.bind(i)));
                }
                for (CompletionStage<?> f : inFlight) {
                    f.toCompletableFuture().join();
                }
            }
            session.execute(delete.bind(1, 0));
            session.execute("SELECT * FROM m.t WHERE v = 'x' ALLOW FILTERING");
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static String scrape() throws Exception {
        MetricsServer m = node.metrics();
        assertThat(m).as("metrics endpoint").isNotNull();
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + m.host() + ":" + m.port() + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** name → samples, each as (labels text, value). */
    private static Map<String, List<String[]>> samples(String text) {
        Map<String, List<String[]>> r = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as("sample line: %s", line).isTrue();
            r.computeIfAbsent(m.group(1), k -> new ArrayList<>())
                    .add(new String[] {m.group(3) == null ? "" : m.group(3), m.group(4)});
        }
        return r;
    }

    /** The sum of the samples whose labels contain every one of {@code labelParts}. */
    private static double sumFor(List<String[]> samples, String... labelParts) {
        double sum = 0;
        next:
        for (String[] s : samples) {
            for (String part : labelParts) {
                if (!s[0].contains(part)) {
                    continue next;
                }
            }
            sum += Double.parseDouble(s[1]);
        }
        return sum;
    }

    @Test
    void servesEveryNameTheMonitoringStackQueries() throws Exception {
        Map<String, List<String[]>> samples = samples(scrape());
        List<String> missing = new ArrayList<>();
        for (String name : expectedNames()) {
            if (!samples.containsKey(name)) {
                missing.add(name);
            }
        }
        assertThat(missing).as("series missing from /metrics").isEmpty();
    }

    @Test
    void countsRequestsAndLatenciesOnEveryShard() throws Exception {
        Map<String, List<String[]>> samples = samples(scrape());
        for (int shard = 0; shard < 2; shard++) {
            String s = "shard=\"" + shard + "\"";
            assertThat(sumFor(samples.get("scylla_cql_reads"), s)).as("reads on shard %d", shard).isPositive();
            assertThat(sumFor(samples.get("scylla_cql_inserts"), s, "conditional=\"no\"")).isPositive();
            assertThat(sumFor(samples.get("scylla_cql_updates"), s, "conditional=\"no\"")).isPositive();
            assertThat(sumFor(samples.get("scylla_transport_requests_served"), s)).isPositive();
            assertThat(sumFor(samples.get("scylla_storage_proxy_coordinator_read_latency_count"), s)).isPositive();
            assertThat(sumFor(samples.get("scylla_storage_proxy_coordinator_write_latency_count"), s)).isPositive();
            assertThat(sumFor(samples.get("scylla_storage_proxy_coordinator_write_latency_sum"), s)).isPositive();
            assertThat(sumFor(samples.get("scylla_query_processor_queries"), s, "consistency_level=\"LOCAL_ONE\""))
                    .isPositive();
        }
        // the driver's own reads of the system tables count too
        assertThat(sumFor(samples.get("scylla_cql_reads"), "")).isGreaterThanOrEqualTo(4 * 200 + 1);
        assertThat(sumFor(samples.get("scylla_cql_inserts"), "conditional=\"no\"")).isEqualTo(4 * 200);
        assertThat(sumFor(samples.get("scylla_cql_deletes"), "conditional=\"no\"")).isEqualTo(1);
        assertThat(sumFor(samples.get("scylla_cql_filtered_read_requests"), "")).isEqualTo(1);
        // the +Inf bucket of each shard's histogram equals its count; every sample has instance and shard
        for (String[] s : samples.get("scylla_storage_proxy_coordinator_write_latency_bucket")) {
            assertThat(s[0]).contains("instance=\"127.0.0.1\"").contains("scheduling_group_name=\"sl:default\"");
        }
        assertThat(samples.get("scylla_node_operation_mode").getFirst()[1]).isEqualTo("3.0");
        assertThat(sumFor(samples.get("scylla_memory_dirty_bytes"), "")).isPositive();
    }

    @Test
    void bucketsAreMicrosecondPowersOfTwo() {
        assertThat(ShardRequestMetrics.bucketOf(0)).isZero();
        assertThat(ShardRequestMetrics.bucketOf(1)).isZero();
        assertThat(ShardRequestMetrics.bucketOf(2)).isEqualTo(1);
        assertThat(ShardRequestMetrics.bucketOf(3)).isEqualTo(2);
        assertThat(ShardRequestMetrics.bucketOf(1024)).isEqualTo(10);
        assertThat(ShardRequestMetrics.bucketOf(1025)).isEqualTo(11);
        assertThat(ShardRequestMetrics.bucketOf(Long.MAX_VALUE)).isEqualTo(ShardRequestMetrics.LATENCY_BUCKETS - 1);
        double[] bounds = {1, 2, 4, Double.POSITIVE_INFINITY};
        assertThat(ScyllaMetrics.quantile(new long[] {0, 90, 9, 1}, 100, 0.5, bounds)).isEqualTo(2);
        assertThat(ScyllaMetrics.quantile(new long[] {0, 90, 9, 1}, 100, 0.99, bounds)).isEqualTo(4);
        assertThat(ScyllaMetrics.quantile(new long[] {0, 0, 0, 0}, 0, 0.99, bounds)).isZero();
    }

    static List<String> expectedNames() throws IOException {
        try (InputStream in = MetricsEndpointTest.class.getResourceAsStream("/metrics/scylla-monitoring-series.txt")) {
            assertThat(in).isNotNull();
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    names.add(t);
                }
            }
            return names;
        }
    }
}
