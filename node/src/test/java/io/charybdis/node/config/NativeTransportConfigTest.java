package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native-transport limit keys: defaults, both spellings, and values refused at startup. */
class NativeTransportConfigTest {

    @TempDir
    Path home;

    private NodeConfig load(String yaml) {
        Properties props = new Properties();
        props.setProperty("charybdis.home", home.toString());
        return new NodeConfigLoader(new HashMap<>(), props).loadYaml(yaml, "test.yaml", Map.of());
    }

    @Test
    void shouldHaveCassandraDefaults() {
        NodeConfig c = load("");
        long heap = Runtime.getRuntime().maxMemory();
        assertThat(c.nativeTransportMaxConcurrentConnections()).isEqualTo(-1);
        assertThat(c.nativeTransportMaxConcurrentConnectionsPerIp()).isEqualTo(-1);
        assertThat(c.nativeTransportMaxRequestDataInFlight().bytes()).isEqualTo(heap / 10);
        assertThat(c.nativeTransportMaxRequestDataInFlightPerIp().bytes()).isEqualTo(heap / 40);
        assertThat(c.nativeTransportIdleTimeout()).isEqualTo(Duration.ZERO);
        assertThat(c.nativeTransportRateLimitingEnabled()).isFalse();
        assertThat(c.nativeTransportMaxRequestsPerSecond()).isEqualTo(1_000_000);
        assertThat(c.nativeTransportAllowOlderProtocols()).isTrue();
    }

    @Test
    void shouldReadEveryKey() {
        NodeConfig c = load("""
                native_transport_max_concurrent_connections: 100
                native_transport_max_concurrent_connections_per_ip: 10
                native_transport_max_request_data_in_flight: 64MiB
                native_transport_max_request_data_in_flight_per_ip: 16MiB
                native_transport_idle_timeout: 60s
                native_transport_rate_limiting_enabled: true
                native_transport_max_requests_per_second: 5000
                native_transport_allow_older_protocols: false
                """);
        assertThat(c.nativeTransportMaxConcurrentConnections()).isEqualTo(100);
        assertThat(c.nativeTransportMaxConcurrentConnectionsPerIp()).isEqualTo(10);
        assertThat(c.nativeTransportMaxRequestDataInFlight()).isEqualTo(DataSize.ofMebibytes(64));
        assertThat(c.nativeTransportMaxRequestDataInFlightPerIp()).isEqualTo(DataSize.ofMebibytes(16));
        assertThat(c.nativeTransportIdleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.nativeTransportRateLimitingEnabled()).isTrue();
        assertThat(c.nativeTransportMaxRequestsPerSecond()).isEqualTo(5000);
        assertThat(c.nativeTransportAllowOlderProtocols()).isFalse();
    }

    @Test
    void shouldReadCassandra40Names() {
        NodeConfig c = load("""
                native_transport_max_concurrent_requests_in_bytes: 1000000
                native_transport_max_concurrent_requests_in_bytes_per_ip: 250000
                native_transport_idle_timeout_in_ms: 1500
                """);
        assertThat(c.nativeTransportMaxRequestDataInFlight().bytes()).isEqualTo(1_000_000);
        assertThat(c.nativeTransportMaxRequestDataInFlightPerIp().bytes()).isEqualTo(250_000);
        assertThat(c.nativeTransportIdleTimeout()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void shouldRefuseValuesThatCannotWork() {
        assertThatThrownBy(() -> load("native_transport_max_requests_per_second: 0\n"))
                .hasMessageContaining("native_transport_max_requests_per_second=0");
        assertThatThrownBy(() -> load("native_transport_max_request_data_in_flight: 0B\n"))
                .hasMessageContaining("native_transport_max_request_data_in_flight=");
        assertThatThrownBy(() -> load("start_native_transport: false\n"))
                .hasMessageContaining("start_native_transport=false is not supported");
    }

    @Test
    void shouldRefuseClientTlsItCannotProvideButAcceptItsDisabledForm() {
        load("client_encryption_options:\n  enabled: false\n  optional: false\n  keystore: conf/.keystore\n");
        assertThatThrownBy(() -> load("client_encryption_options:\n  enabled: true\n"))
                .hasMessageContaining("client_encryption_options.enabled=true in test.yaml is not supported");
        assertThatThrownBy(() -> load("client_encryption_options:\n  optional: true\n"))
                .hasMessageContaining("client_encryption_options.optional=true");
        assertThatThrownBy(() -> load("native_transport_port_ssl: 9142\n"))
                .hasMessageContaining("native_transport_port_ssl=9142 in test.yaml is not supported");
    }
}
