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
    void shouldReadClientTlsAndRefuseWhatItDoesNotKnow() {
        NodeConfig off = load("client_encryption_options:\n  enabled: false\n  optional: false\n  keystore: conf/.keystore\n");
        assertThat(off.clientEncryptionOptions().policy()).isEqualTo(EncryptionOptions.Policy.UNENCRYPTED);
        NodeConfig on = load("client_encryption_options:\n  enabled: true\n  keystore: k.p12\n  store_type: pkcs12\n"
                + "  accepted_protocols: [TLSv1.3]\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n");
        assertThat(on.clientEncryptionOptions().policy()).isEqualTo(EncryptionOptions.Policy.ENCRYPTED);
        assertThat(on.clientEncryptionOptions().storeType()).isEqualTo("PKCS12");
        assertThat(on.clientEncryptionOptions().enabledProtocols()).containsExactly("TLSv1.3");
        assertThat(load("client_encryption_options:\n  enabled: true\n  optional: true\n")
                .clientEncryptionOptions().policy()).isEqualTo(EncryptionOptions.Policy.OPTIONAL);
        assertThatThrownBy(() -> load("client_encryption_options:\n  enabled: true\n  keystore_type: JKS\n"))
                .hasMessageContaining("client_encryption_options.keystore_type");
        assertThatThrownBy(() -> load("client_encryption_options:\n  store_type: BKS\n"))
                .hasMessageContaining("store_type=BKS");
        assertThatThrownBy(() -> load("client_encryption_options:\n  ssl_context_factory:\n"
                + "    class_name: com.example.MyFactory\n"))
                .hasMessageContaining("com.example.MyFactory");
        assertThatThrownBy(() -> load("server_encryption_options:\n  internode_encryption: everywhere\n"))
                .hasMessageContaining("internode_encryption=everywhere");
        assertThatThrownBy(() -> load("server_encryption_options:\n  internode_encryption: all\n"))
                .hasMessageContaining("needs a keystore");
        assertThatThrownBy(() -> load("native_transport_port_ssl: 9142\n"))
                .hasMessageContaining("native_transport_port_ssl=9142 in test.yaml is not supported");
    }

    @Test
    void shouldTakeEncryptionOptionsAsAYamlFlowMappingInOverrides() {
        Properties props = new Properties();
        props.setProperty("charybdis.home", home.toString());
        props.setProperty("charybdis.client_encryption_options", "{enabled: true, optional: true, keystore: 'a b.pem',"
                + " ssl_context_factory: {class_name: PEMBasedSslContextFactory}}");
        NodeConfig c = new NodeConfigLoader(new HashMap<>(), props).loadYaml("", "test.yaml", Map.of());
        assertThat(c.clientEncryptionOptions().policy()).isEqualTo(EncryptionOptions.Policy.OPTIONAL);
        assertThat(c.clientEncryptionOptions().keystore()).isEqualTo("a b.pem");
        assertThat(c.clientEncryptionOptions().pem()).isTrue();
    }

    @Test
    void shouldKeepJmxOnLoopbackUnlessPasswordsAreRequired() {
        assertThat(load("").jmxAddress()).isEqualTo("127.0.0.1");
        assertThatThrownBy(() -> load("jmx_address: 0.0.0.0\n")).hasMessageContaining("jmx_password_file");
        assertThatThrownBy(() -> load("jmx_address: 0.0.0.0\njmx_password_file: nowhere/jmx.password\n"))
                .hasMessageContaining("does not exist");
        assertThat(load("jmx_address: 0.0.0.0\njmx_port: -1\n").jmxAddress()).isEqualTo("0.0.0.0");
    }
}
