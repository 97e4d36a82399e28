package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigLoaderTest {

    @TempDir
    Path home;

    private final Map<String, String> env = new HashMap<>();
    private final Properties props = new Properties();

    private NodeConfigLoader loader() {
        props.setProperty("charybdis.home", home.toString());
        return new NodeConfigLoader(env, props);
    }

    private NodeConfig load(String yaml) {
        return loader().loadYaml(yaml, "test.yaml", Map.of());
    }

    @Test
    void shouldUseCassandraDefaultsWithoutAnyFile() {
        NodeConfig c = loader().load(null, Map.of());

        assertThat(c.clusterName()).isEqualTo("Test Cluster");
        assertThat(c.listenAddress()).isEqualTo("127.0.0.1");
        assertThat(c.rpcAddress()).isEqualTo("127.0.0.1");
        assertThat(c.broadcastRpcAddress()).isEqualTo("127.0.0.1");
        assertThat(c.nativeTransportPort()).isEqualTo(9042);
        assertThat(c.nativeShardAwareTransportPort()).isEqualTo(19042);
        assertThat(c.nativeTransportMaxFrameSize()).isEqualTo(DataSize.ofMebibytes(16));
        assertThat(c.storagePort()).isEqualTo(7000);
        assertThat(c.jmxPort()).isEqualTo(7199);
        assertThat(c.prometheusPort()).isEqualTo(9180);
        assertThat(c.dataFileDirectories()).containsExactly(home.resolve("data"));
        assertThat(c.commitlogDirectory()).isEqualTo(home.resolve("commitlog"));
        assertThat(c.savedCachesDirectory()).isEqualTo(home.resolve("saved_caches"));
        assertThat(c.hintsDirectory()).isEqualTo(home.resolve("hints"));
        assertThat(c.commitlogSync()).isEqualTo(CommitLogSync.PERIODIC);
        assertThat(c.commitlogSyncPeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.commitlogSegmentSize()).isEqualTo(DataSize.ofMebibytes(32));
        assertThat(c.authenticator()).isEqualTo(AuthenticatorType.ALLOW_ALL);
        assertThat(c.authorizer()).isEqualTo(AuthorizerType.ALLOW_ALL);
        assertThat(c.numTokens()).isEqualTo(16);
        assertThat(c.partitioner()).isEqualTo("org.apache.cassandra.dht.Murmur3Partitioner");
        assertThat(c.endpointSnitch()).isEqualTo("SimpleSnitch");
        assertThat(c.smp()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(c.ignoreCommitlogCorruption()).isFalse();
        assertThat(c.dropCompactStorageEnabled()).isFalse();
        assertThat(c.seeds()).containsExactly("127.0.0.1"); // this node, at its own storage_port
        assertThat(c.baseDirectory()).isEqualTo(home.toAbsolutePath().normalize());
    }

    @Test
    void shouldReadCassandraYamlKeys() {
        NodeConfig c = load("""
                cluster_name: 'Prod'
                listen_address: 10.0.0.1
                rpc_address: 0.0.0.0
                broadcast_rpc_address: 10.0.0.1
                native_transport_port: 9043
                native_shard_aware_transport_port: 19043
                native_transport_max_frame_size: 32MiB
                data_file_directories:
                    - rel/b
                commitlog_directory: /var/lib/commitlog
                commitlog_sync: group
                commitlog_sync_group_window: 2ms
                commitlog_segment_size: 64MiB
                authenticator: org.apache.cassandra.auth.PasswordAuthenticator
                authorizer: AllowAllAuthorizer
                num_tokens: 256
                partitioner: Murmur3Partitioner
                endpoint_snitch: org.apache.cassandra.locator.GossipingPropertyFileSnitch
                memory_budget: 512MiB
                smp: 3
                ignore_commitlog_corruption: true
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "10.0.0.1:7000, 10.0.0.2"
                """);

        assertThat(c.clusterName()).isEqualTo("Prod");
        assertThat(c.listenAddress()).isEqualTo("10.0.0.1");
        assertThat(c.broadcastAddress()).isEqualTo("10.0.0.1");
        assertThat(c.rpcAddress()).isEqualTo("0.0.0.0");
        assertThat(c.broadcastRpcAddress()).isEqualTo("10.0.0.1");
        assertThat(c.nativeTransportPort()).isEqualTo(9043);
        assertThat(c.nativeShardAwareTransportPort()).isEqualTo(19043);
        assertThat(c.nativeTransportMaxFrameSize().bytes()).isEqualTo(32L << 20);
        assertThat(c.dataFileDirectories()).containsExactly(home.resolve("rel/b"));
        assertThat(c.commitlogDirectory()).isEqualTo(Path.of("/var/lib/commitlog"));
        assertThat(c.commitlogSync()).isEqualTo(CommitLogSync.GROUP);
        assertThat(c.commitlogSyncGroupWindow()).isEqualTo(Duration.ofMillis(2));
        assertThat(c.commitlogSegmentSize()).isEqualTo(DataSize.ofMebibytes(64));
        assertThat(c.authenticator()).isEqualTo(AuthenticatorType.PASSWORD);
        assertThat(c.authenticator().qualifiedClassName()).isEqualTo("org.apache.cassandra.auth.PasswordAuthenticator");
        assertThat(c.authorizer()).isEqualTo(AuthorizerType.ALLOW_ALL);
        assertThat(c.numTokens()).isEqualTo(256);
        assertThat(c.partitioner()).isEqualTo(NodeConfig.MURMUR3_PARTITIONER);
        assertThat(c.endpointSnitch()).isEqualTo("GossipingPropertyFileSnitch");
        assertThat(c.memoryBudget()).isEqualTo(DataSize.ofMebibytes(512));
        assertThat(c.smp()).isEqualTo(3);
        assertThat(c.ignoreCommitlogCorruption()).isTrue();
        assertThat(c.seeds()).containsExactly("10.0.0.1:7000", "10.0.0.2");
    }

    @Test
    void shouldAcceptLegacyKeysInTheirOldUnits() {
        NodeConfig c = load("""
                native_transport_max_frame_size_in_mb: 8
                commitlog_sync_period_in_ms: 2500
                commitlog_segment_size_in_mb: 16
                read_request_timeout_in_ms: 700
                batch_size_warn_threshold_in_kb: 10
                prepared_statements_cache_size_mb: 20
                """);

        assertThat(c.nativeTransportMaxFrameSize()).isEqualTo(DataSize.ofMebibytes(8));
        assertThat(c.commitlogSyncPeriod()).isEqualTo(Duration.ofMillis(2500));
        assertThat(c.commitlogSegmentSize()).isEqualTo(DataSize.ofMebibytes(16));
        assertThat(c.readRequestTimeout()).isEqualTo(Duration.ofMillis(700));
        assertThat(c.batchSizeWarnThreshold()).isEqualTo(DataSize.ofKibibytes(10));
        assertThat(c.preparedStatementsCacheSize()).isEqualTo(DataSize.ofMebibytes(20));
    }

    @Test
    void shouldReadDropCompactStorageEnabledAndRefuseAnythingButABoolean() {
        NodeConfigLoader yamlLoader = loader();
        assertThat(yamlLoader.loadYaml("drop_compact_storage_enabled: true\n", "test.yaml", Map.of())
                .dropCompactStorageEnabled()).isTrue();
        assertThat(yamlLoader.warnings()).isEmpty();
        assertThat(load("drop_compact_storage_enabled: false\n").dropCompactStorageEnabled()).isFalse();
        env.put("CHARYBDIS_DROP_COMPACT_STORAGE_ENABLED", "true");
        assertThat(loader().load(null, Map.of()).dropCompactStorageEnabled()).isTrue();
        env.clear();
        assertThat(load("drop_compact_storage_enabled: true\n").asMap())
                .containsEntry("drop_compact_storage_enabled", "true");
        assertThatThrownBy(() -> load("drop_compact_storage_enabled: maybe\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("drop_compact_storage_enabled");
    }

    @Test
    void shouldAcceptAuthenticatorInParameterizedClassForm() {
        NodeConfig c = load("""
                authenticator:
                  class_name: org.apache.cassandra.auth.PasswordAuthenticator
                  parameters: {}
                """);

        assertThat(c.authenticator()).isEqualTo(AuthenticatorType.PASSWORD);
    }

    @Test
    void shouldReadTheAuthKeysAndRefuseWhatIsNotBuilt() {
        NodeConfig c = load("""
                authenticator: PasswordAuthenticator
                authorizer: org.apache.cassandra.auth.CassandraAuthorizer
                role_manager: org.apache.cassandra.auth.CassandraRoleManager
                network_authorizer: AllowAllNetworkAuthorizer
                roles_validity_in_ms: 500
                permissions_validity: 1s
                """);
        assertThat(c.authorizer()).isEqualTo(AuthorizerType.CASSANDRA);
        assertThat(c.roleManager()).isEqualTo("CassandraRoleManager");
        assertThat(c.rolesValidity()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.permissionsValidity()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.credentialsValidity()).isEqualTo(Duration.ofMillis(2000));

        assertThatThrownBy(() -> load("role_manager: com.example.LdapRoleManager\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("role_manager");
        assertThatThrownBy(() -> load("network_authorizer: CassandraNetworkAuthorizer\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("network_authorizer");
        assertThatThrownBy(() -> load("authorizer: CassandraAuthorizer\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("AllowAllAuthenticator can't be used with authorizer=CassandraAuthorizer");
    }

    @Test
    void shouldRejectNameAndLegacyAliasInTheSameSource() {
        assertThatThrownBy(() -> load("""
                commitlog_sync_period: 10s
                commitlog_sync_period_in_ms: 10000
                """))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("commitlog_sync_period in test.yaml")
                .hasMessageContaining("commitlog_sync_period_in_ms in test.yaml");
    }

    @Test
    void shouldApplyOverridesInOrderYamlEnvironmentSystemPropertyCommandLine() {
        String yaml = """
                native_transport_port: 1001
                storage_port: 1001
                jmx_port: 1001
                smp: 1
                """;
        env.put("CHARYBDIS_STORAGE_PORT", "2002");
        env.put("CHARYBDIS_JMX_PORT", "2002");
        env.put("CHARYBDIS_SMP", "2");
        props.setProperty("charybdis.jmx_port", "3003");
        props.setProperty("charybdis.smp", "3");

        NodeConfig c = loader().loadYaml(yaml, "test.yaml", Map.of("smp", "4"));

        assertThat(c.nativeTransportPort()).isEqualTo(1001);
        assertThat(c.storagePort()).isEqualTo(2002);
        assertThat(c.jmxPort()).isEqualTo(3003);
        assertThat(c.smp()).isEqualTo(4);
    }

    @Test
    void shouldLetANewNameOverrideALegacyNameFromALowerSource() {
        props.setProperty("charybdis.commitlog_sync_period", "1s");

        NodeConfig c = load("commitlog_sync_period_in_ms: 5000\n");

        assertThat(c.commitlogSyncPeriod()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldParseListsAndSeedsFromOverrideText() {
        env.put("CHARYBDIS_DATA_FILE_DIRECTORIES", "d1, /abs/d2");
        props.setProperty("charybdis.seeds", "10.0.0.5,10.0.0.6:7001");

        // both directories are read from the list
        assertThat(load("").dataFileDirectories()).containsExactly(home.resolve("d1"), Path.of("/abs/d2"));

        env.put("CHARYBDIS_DATA_FILE_DIRECTORIES", " d1 ");
        NodeConfig c = load("");
        assertThat(c.dataFileDirectories()).containsExactly(home.resolve("d1"));
        assertThat(c.seeds()).containsExactly("10.0.0.5", "10.0.0.6:7001");
    }

    @Test
    void shouldTreatBlankOverridesAsUnset() {
        env.put("CHARYBDIS_CLUSTER_NAME", " ");
        props.setProperty("charybdis.native_transport_port", "");

        NodeConfig c = load("cluster_name: yaml\n");

        assertThat(c.clusterName()).isEqualTo("yaml");
        assertThat(c.nativeTransportPort()).isEqualTo(9042);
    }

    @Test
    void shouldWarnAboutUnknownKeysAndIgnoreInapplicableOnes() {
        props.setProperty("charybdis.native_port", "1");
        props.setProperty("charybdis.logdir", "/tmp/logs");
        env.put("CHARYBDIS_HEAP", "4G");
        NodeConfigLoader loader = loader();

        NodeConfig c = loader.loadYaml("""
                native_transport_prot: 9043
                concurrent_reads: 32
                memtable_heap_space: 2048MiB
                """, "test.yaml", Map.of());

        assertThat(c.nativeTransportPort()).isEqualTo(9042);
        assertThat(loader.warnings()).containsExactlyInAnyOrder(
                "Ignoring unknown configuration keys [native_transport_prot] in test.yaml",
                "Ignoring unknown system properties [charybdis.native_port] (not configuration keys)");
    }

    @Test
    void shouldTakeCompactionThroughputAsACapWithNoneByDefault() {
        assertThat(load("").compactionThroughput()).isEqualTo(DataSize.ofBytes(0));
        assertThat(load("compaction_throughput: 64MiB/s\n").compactionThroughput()).isEqualTo(DataSize.ofMebibytes(64));
        assertThat(load("compaction_throughput: 512KiB/s\n").compactionThroughput()).isEqualTo(DataSize.ofKibibytes(512));
        assertThat(load("compaction_throughput_mb_per_sec: 16\n").compactionThroughput())
                .isEqualTo(DataSize.ofMebibytes(16));
        assertThatThrownBy(() -> load("compaction_throughput: 64MiB\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("invalid compaction_throughput in test.yaml: '64MiB' is not a data rate; expected a whole"
                        + " number with one of the units B/s, KiB/s, MiB/s, e.g. 64MiB/s");
    }

    @Test
    void shouldLimitOutboundStreamingAsCassandraDoesByDefault() {
        assertThat(load("").streamThroughputOutbound()).isEqualTo(DataSize.ofMebibytes(24));
        assertThat(load("stream_throughput_outbound: 64KiB/s\n").streamThroughputOutbound())
                .isEqualTo(DataSize.ofKibibytes(64));
        assertThat(load("stream_throughput_outbound: 0MiB/s\n").streamThroughputOutbound()).isEqualTo(DataSize.ofBytes(0));
        assertThat(load("stream_throughput_outbound_megabits_per_sec: 200\n").streamThroughputOutbound())
                .isEqualTo(DataSize.ofBytes(25_000_000));
    }

    @Test
    void shouldNameTheKeyAndSourceOfAnInvalidValue() {
        assertThatThrownBy(() -> load("native_transport_max_frame_size: 16\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("invalid native_transport_max_frame_size in test.yaml: 16 has no unit;"
                        + " write it with one of B, KiB, MiB, GiB, e.g. 16MiB");

        env.put("CHARYBDIS_COMMITLOG_SYNC_PERIOD", "10 seconds");
        assertThatThrownBy(() -> load(""))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("invalid environment variable CHARYBDIS_COMMITLOG_SYNC_PERIOD: '10 seconds'");
        env.clear();

        props.setProperty("charybdis.native_transport_port", "90x");
        assertThatThrownBy(() -> load(""))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("invalid system property charybdis.native_transport_port: '90x' is not a whole number");
    }

    @Test
    void shouldRejectUnsupportedSettingsClearly() {
        assertThatThrownBy(() -> load("partitioner: org.apache.cassandra.dht.RandomPartitioner\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("partitioner=org.apache.cassandra.dht.RandomPartitioner is not supported")
                .hasMessageContaining("Murmur3Partitioner");
        assertThatThrownBy(() -> load("partitioner: ByteOrderedPartitioner\n"))
                .hasMessageContaining("org.apache.cassandra.dht.ByteOrderedPartitioner is not supported");
        assertThatThrownBy(() -> load("authenticator: LdapAuthenticator\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unsupported authenticator 'LdapAuthenticator'");
        assertThatThrownBy(() -> load("commitlog_sync: sometimes\n"))
                .hasMessageContaining("expected periodic, batch or group");
        assertThatThrownBy(() -> load("native_transport_port: 70000\n"))
                .hasMessageContaining("native_transport_port=70000 is not a TCP port");
        assertThatThrownBy(() -> load("native_transport_port: 9042\nnative_shard_aware_transport_port: 9042\n"))
                .hasMessageContaining("must differ");
        assertThatThrownBy(() -> load("num_tokens: 0\n")).hasMessageContaining("num_tokens=0");
        assertThatThrownBy(() -> load("jmx_port: -2\n")).hasMessageContaining("jmx_port=-2 is not a TCP port");
        assertThatThrownBy(() -> load("start_native_transport: yes please\n")).hasMessageContaining("expected true or false");
        assertThatThrownBy(() -> load("cluster_name: [a, b]\n")).hasMessageContaining("expected a single value, found a list");
    }

    @Test
    void shouldReadHintedHandoffKeysWithCassandraDefaults() {
        NodeConfig d = load("");
        assertThat(d.hintedHandoffEnabled()).isTrue();
        assertThat(d.maxHintWindow()).isEqualTo(Duration.ofHours(3));
        assertThat(d.hintedHandoffThrottle()).isEqualTo(DataSize.ofKibibytes(1024));
        assertThat(d.maxHintsDeliveryThreads()).isEqualTo(2);
        assertThat(d.hintsFlushPeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.maxHintsFileSize()).isEqualTo(DataSize.ofMebibytes(128));
        assertThat(d.maxHintsSizePerHost()).isEqualTo(DataSize.ofBytes(0));
        assertThat(d.hintWindowPersistentEnabled()).isTrue();
        assertThat(d.autoHintsCleanupEnabled()).isFalse();
        assertThat(d.hintedHandoffDisabledDatacenters()).isEmpty();

        NodeConfig c = load("""
                hinted_handoff_enabled: false
                hinted_handoff_disabled_datacenters: [DC1, DC2]
                max_hint_window_in_ms: 60000
                hinted_handoff_throttle_in_kb: 2048
                max_hints_delivery_threads: 4
                hints_flush_period_in_ms: 5000
                max_hints_file_size_in_mb: 64
                max_hints_size_per_host: 1GiB
                hint_window_persistent_enabled: false
                auto_hints_cleanup_enabled: true
                use_creation_time_for_hint_ttl: true
                enforce_native_deadline_for_hints: false
                """);
        assertThat(c.hintedHandoffEnabled()).isFalse();
        assertThat(c.hintedHandoffDisabledDatacenters()).containsExactly("DC1", "DC2");
        assertThat(c.maxHintWindow()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.hintedHandoffThrottle()).isEqualTo(DataSize.ofMebibytes(2));
        assertThat(c.maxHintsDeliveryThreads()).isEqualTo(4);
        assertThat(c.hintsFlushPeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.maxHintsFileSize()).isEqualTo(DataSize.ofMebibytes(64));
        assertThat(c.maxHintsSizePerHost()).isEqualTo(DataSize.ofGibibytes(1));
        assertThat(c.hintWindowPersistentEnabled()).isFalse();
        assertThat(c.autoHintsCleanupEnabled()).isTrue();
        assertThat(load("max_hint_window: 10m\n").maxHintWindow()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void shouldRefuseHintSettingsThatAreNotBuiltNamingTheKey() {
        assertThatThrownBy(() -> load("hints_compression:\n  - class_name: LZ4Compressor\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("hints_compression in test.yaml");
        assertThatThrownBy(() -> load("transfer_hints_on_decommission: true\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("transfer_hints_on_decommission in test.yaml");
        assertThatThrownBy(() -> load("use_creation_time_for_hint_ttl: false\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("use_creation_time_for_hint_ttl=false in test.yaml is not supported");
        assertThatThrownBy(() -> load("enforce_native_deadline_for_hints: true\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("enforce_native_deadline_for_hints=true in test.yaml is not supported");
        assertThatThrownBy(() -> load("max_hints_delivery_threads: 0\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_hints_delivery_threads=0");
    }

    @Test
    void shouldTakeMinusOneAsNoJmxServer() {
        assertThat(load("jmx_port: -1\n").jmxPort()).isEqualTo(-1);
    }

    @Test
    void shouldRejectMalformedYaml() {
        assertThatThrownBy(() -> load("cluster_name: a\ncluster_name: b\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("cannot parse test.yaml")
                .hasMessageContaining("duplicate key");
        assertThatThrownBy(() -> load("- just\n- a list\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("must be a YAML mapping");
        assertThatThrownBy(() -> load("cluster_name: 'unterminated\n"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("cannot parse test.yaml");
    }

    @Test
    void shouldTreatAnEmptyFileAndEmptyValuesAsDefaults() {
        NodeConfig c = load("# nothing\nhints_directory:\n");

        assertThat(c.hintsDirectory()).isEqualTo(home.resolve("hints"));
    }

    @Test
    void shouldLoadAFileAndReportAMissingOne() throws IOException {
        Path file = Files.writeString(home.resolve("c.yaml"), "cluster_name: fromfile\n");

        assertThat(loader().load(file, Map.of()).clusterName()).isEqualTo("fromfile");
        assertThatThrownBy(() -> loader().load(home.resolve("missing.yaml"), Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("missing.yaml does not exist");
    }

    @Test
    void shouldLoadTheShippedConfigurationWithoutWarnings() {
        Path shipped = Path.of("..", "conf", "charybdis.yaml");
        if (!Files.exists(shipped)) {
            shipped = Path.of("conf", "charybdis.yaml");
        }
        NodeConfigLoader loader = loader();

        NodeConfig c = loader.load(shipped, Map.of());

        assertThat(loader.warnings()).isEmpty();
        NodeConfig defaults = loader().load(null, Map.of());
        assertThat(c.asMap()).isEqualTo(defaults.asMap());
    }

    @Test
    void shouldKnowEveryKeyItPrints() {
        NodeConfig c = loader().load(null, Map.of());
        List<String> printed = List.copyOf(c.asMap().keySet());

        for (String key : printed) {
            assertThat(ConfigKeys.allNames()).as("key %s", key).contains(key.equals("seeds") ? "seed_provider" : key);
        }
    }

    @Test
    void shouldRoundTripThroughItsOwnPrintedValues() {
        NodeConfig original = load("""
                commitlog_sync: batch
                native_transport_idle_timeout: 90s
                memory_budget: 300MiB
                smp: 2
                """);
        original.asMap().forEach((k, v) -> props.setProperty("charybdis." + k, v));

        NodeConfig reloaded = load("");

        assertThat(reloaded.asMap()).isEqualTo(original.asMap());
    }

    @Test
    void acceptsSeveralDataDirectoriesButNotTheSameTwiceOrOneInsideAnother() {
        assertThat(load("data_file_directories:\n  - /d1\n  - /d2\n").dataFileDirectories())
                .containsExactly(Path.of("/d1"), Path.of("/d2"));
        assertThatThrownBy(() -> load("data_file_directories:\n  - /d1\n  - /d1/\n"))
                .hasMessageContaining("data_file_directories lists /d1 twice");
        assertThatThrownBy(() -> load("data_file_directories:\n  - /d1\n  - /d1/more\n"))
                .hasMessageContaining("data_file_directories: /d1/more is inside /d1");
        assertThat(load("data_file_directories:\n  - /d1\n").dataFileDirectories()).containsExactly(Path.of("/d1"));
    }

    @Test
    void shouldTakeJmxLoginsAgainstTheRolesOnlyWithPasswordAuthentication() {
        NodeConfig c = load("""
                authenticator: PasswordAuthenticator
                authorizer: CassandraAuthorizer
                jmx_login_config: CassandraLogin
                jmx_authorizer: org.apache.cassandra.auth.jmx.AuthorizationProxy
                """);
        assertThat(c.jmxLoginConfig()).isEqualTo("CassandraLogin");
        assertThat(c.jmxAuthorizer()).isEqualTo(NodeConfig.JMX_AUTHORIZER);

        assertThatThrownBy(() -> load("authenticator: PasswordAuthenticator\njmx_login_config: OtherLogin\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("jmx_login_config=OtherLogin");
        assertThatThrownBy(() -> load("jmx_login_config: CassandraLogin\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("needs authenticator");
        assertThatThrownBy(() -> load("authenticator: PasswordAuthenticator\n"
                + "jmx_authorizer: org.apache.cassandra.auth.jmx.AuthorizationProxy\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("needs jmx_login_config");
        assertThatThrownBy(() -> load("authenticator: PasswordAuthenticator\nauthorizer: CassandraAuthorizer\n"
                + "jmx_login_config: CassandraLogin\njmx_authorizer: MyProxy\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("jmx_authorizer=MyProxy");
    }

    @Test
    void shouldReadAndWriteSystemAuthAtCassandrasConsistencyLevels() {
        NodeConfig defaults = load("");
        assertThat(defaults.authReadConsistencyLevel()).isEqualTo(io.charybdis.protocol.Consistency.LOCAL_QUORUM);
        assertThat(defaults.authWriteConsistencyLevel()).isEqualTo(io.charybdis.protocol.Consistency.EACH_QUORUM);
        NodeConfig c = load("auth_read_consistency_level: local_one\nauth_write_consistency_level: QUORUM\n");
        assertThat(c.authReadConsistencyLevel()).isEqualTo(io.charybdis.protocol.Consistency.LOCAL_ONE);
        assertThat(c.authWriteConsistencyLevel()).isEqualTo(io.charybdis.protocol.Consistency.QUORUM);
        assertThatThrownBy(() -> load("auth_read_consistency_level: EACH_QUORUM\n"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("auth_read_consistency_level");
        assertThatThrownBy(() -> load("auth_write_consistency_level: SOME\n"))
                .hasMessageContaining("auth_write_consistency_level").hasMessageContaining("not a consistency level");
    }
}
