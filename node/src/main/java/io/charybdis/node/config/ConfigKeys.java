package io.charybdis.node.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * Every configuration key: its YAML name, legacy aliases (Cassandra's pre-4.1 {@code *_in_ms} / {@code *_in_mb}
 * names, in their old units), how a raw value (YAML scalar, list or map; or override text) is parsed, and the
 * builder setter it feeds. Parsers throw {@link IllegalArgumentException} with what was expected.
 */
final class ConfigKeys {

    @FunctionalInterface
    interface Parser<T> {
        T parse(Object raw);
    }

    record Alias<T>(String name, Parser<T> parser) {
    }

    record Key<T>(String name, BiConsumer<NodeConfig.Builder, T> setter, List<Alias<T>> names) {
    }

    // One instance per parser, shared by every key that uses it: a method reference written at each key would be a
    // class of its own (each spun up when the configuration is first read, which a cold start pays).
    private static final Parser<Boolean> BOOL = ConfigKeys::bool;
    private static final Parser<String> CLASS_NAME = ConfigKeys::className;
    private static final Parser<DataSize> DATA_RATE = ConfigKeys::dataRate;
    private static final Parser<DataSize> DATA_SIZE = ConfigKeys::dataSize;
    private static final Parser<Duration> DURATION = ConfigKeys::duration;
    private static final Parser<Integer> INTEGER = ConfigKeys::integer;
    private static final Parser<Long> LONG_INT = ConfigKeys::longInt;
    private static final Parser<Path> PATH = ConfigKeys::path;
    private static final Parser<List<Path>> PATH_LIST = ConfigKeys::pathList;
    private static final Parser<List<String>> SEEDS = ConfigKeys::seeds;
    private static final Parser<String> STRING = ConfigKeys::string;
    private static final Parser<List<String>> STRING_LIST = ConfigKeys::stringList;

    static final List<Key<?>> ALL = List.of(
            key("cluster_name", STRING, NodeConfig.Builder::clusterName),
            key("listen_address", STRING, NodeConfig.Builder::listenAddress),
            key("broadcast_address", STRING, NodeConfig.Builder::broadcastAddress),
            key("rpc_address", STRING, NodeConfig.Builder::rpcAddress),
            key("broadcast_rpc_address", STRING, NodeConfig.Builder::broadcastRpcAddress),
            key("seed_provider", SEEDS, NodeConfig.Builder::seeds, new Alias<>("seeds", SEEDS)),
            key("start_native_transport", BOOL, NodeConfig.Builder::startNativeTransport),
            key("native_transport_port", INTEGER, NodeConfig.Builder::nativeTransportPort),
            key("native_shard_aware_transport_port", INTEGER, NodeConfig.Builder::nativeShardAwareTransportPort),
            key("native_transport_max_frame_size", DATA_SIZE, NodeConfig.Builder::nativeTransportMaxFrameSize,
                    legacySize("native_transport_max_frame_size_in_mb", DataSize.MIB)),
            key("native_transport_max_concurrent_connections", LONG_INT,
                    NodeConfig.Builder::nativeTransportMaxConcurrentConnections),
            key("native_transport_max_concurrent_connections_per_ip", LONG_INT,
                    NodeConfig.Builder::nativeTransportMaxConcurrentConnectionsPerIp),
            key("native_transport_max_request_data_in_flight", DATA_SIZE,
                    NodeConfig.Builder::nativeTransportMaxRequestDataInFlight,
                    legacySize("native_transport_max_concurrent_requests_in_bytes", 1)),
            key("native_transport_max_request_data_in_flight_per_ip", DATA_SIZE,
                    NodeConfig.Builder::nativeTransportMaxRequestDataInFlightPerIp,
                    legacySize("native_transport_max_concurrent_requests_in_bytes_per_ip", 1)),
            key("native_transport_idle_timeout", DURATION, NodeConfig.Builder::nativeTransportIdleTimeout,
                    legacyMillis("native_transport_idle_timeout_in_ms")),
            key("native_transport_allow_older_protocols", BOOL,
                    NodeConfig.Builder::nativeTransportAllowOlderProtocols),
            key("native_transport_rate_limiting_enabled", BOOL,
                    NodeConfig.Builder::nativeTransportRateLimitingEnabled),
            key("native_transport_max_requests_per_second", LONG_INT,
                    NodeConfig.Builder::nativeTransportMaxRequestsPerSecond),
            key("storage_port", INTEGER, NodeConfig.Builder::storagePort),
            key("metadata_port", INTEGER, NodeConfig.Builder::metadataPort),
            key("jmx_port", INTEGER, NodeConfig.Builder::jmxPort),
            key("jmx_address", STRING, NodeConfig.Builder::jmxAddress),
            key("jmx_password_file", PATH, NodeConfig.Builder::jmxPasswordFile),
            key("jmx_access_file", PATH, NodeConfig.Builder::jmxAccessFile),
            key("jmx_login_config", STRING, NodeConfig.Builder::jmxLoginConfig),
            key("jmx_authorizer", STRING, NodeConfig.Builder::jmxAuthorizer),
            key("jmx_encryption_options", raw -> EncryptionOptions.parse("jmx_encryption_options", raw, false),
                    NodeConfig.Builder::jmxEncryptionOptions),
            key("client_encryption_options", raw -> EncryptionOptions.parse("client_encryption_options", raw, false),
                    NodeConfig.Builder::clientEncryptionOptions),
            key("server_encryption_options", raw -> EncryptionOptions.parse("server_encryption_options", raw, true),
                    NodeConfig.Builder::serverEncryptionOptions),
            key("prometheus_port", INTEGER, NodeConfig.Builder::prometheusPort),
            key("data_file_directories", PATH_LIST, NodeConfig.Builder::dataFileDirectories),
            key("commitlog_directory", PATH, NodeConfig.Builder::commitlogDirectory),
            key("saved_caches_directory", PATH, NodeConfig.Builder::savedCachesDirectory),
            key("hints_directory", PATH, NodeConfig.Builder::hintsDirectory),
            key("hinted_handoff_enabled", BOOL, NodeConfig.Builder::hintedHandoffEnabled),
            key("hinted_handoff_disabled_datacenters", STRING_LIST,
                    NodeConfig.Builder::hintedHandoffDisabledDatacenters),
            key("max_hint_window", DURATION, NodeConfig.Builder::maxHintWindow,
                    legacyMillis("max_hint_window_in_ms")),
            key("hinted_handoff_throttle", DATA_SIZE, NodeConfig.Builder::hintedHandoffThrottle,
                    legacySize("hinted_handoff_throttle_in_kb", DataSize.KIB)),
            key("max_hints_delivery_threads", INTEGER, NodeConfig.Builder::maxHintsDeliveryThreads),
            key("hints_flush_period", DURATION, NodeConfig.Builder::hintsFlushPeriod,
                    legacyMillis("hints_flush_period_in_ms")),
            key("max_hints_file_size", DATA_SIZE, NodeConfig.Builder::maxHintsFileSize,
                    legacySize("max_hints_file_size_in_mb", DataSize.MIB)),
            key("max_hints_size_per_host", DATA_SIZE, NodeConfig.Builder::maxHintsSizePerHost),
            key("hint_window_persistent_enabled", BOOL, NodeConfig.Builder::hintWindowPersistentEnabled),
            key("auto_hints_cleanup_enabled", BOOL, NodeConfig.Builder::autoHintsCleanupEnabled),
            key("commitlog_sync", raw -> CommitLogSync.parse(string(raw)), NodeConfig.Builder::commitlogSync),
            key("commitlog_sync_period", DURATION, NodeConfig.Builder::commitlogSyncPeriod,
                    legacyMillis("commitlog_sync_period_in_ms")),
            key("commitlog_sync_group_window", DURATION, NodeConfig.Builder::commitlogSyncGroupWindow,
                    legacyMillis("commitlog_sync_group_window_in_ms")),
            key("commitlog_segment_size", DATA_SIZE, NodeConfig.Builder::commitlogSegmentSize,
                    legacySize("commitlog_segment_size_in_mb", DataSize.MIB)),
            key("commitlog_total_space", DATA_SIZE, NodeConfig.Builder::commitlogTotalSpace,
                    legacySize("commitlog_total_space_in_mb", DataSize.MIB)),
            key("ignore_commitlog_corruption", BOOL, NodeConfig.Builder::ignoreCommitlogCorruption),
            key("auto_bootstrap", BOOL, NodeConfig.Builder::autoBootstrap),
            key("drop_compact_storage_enabled", BOOL, NodeConfig.Builder::dropCompactStorageEnabled),
            key("authenticator", raw -> AuthenticatorType.parse(className(raw)), NodeConfig.Builder::authenticator),
            key("authorizer", raw -> AuthorizerType.parse(className(raw)), NodeConfig.Builder::authorizer),
            key("role_manager", raw -> onlyClass(className(raw), "role_manager", "CassandraRoleManager"),
                    NodeConfig.Builder::roleManager),
            key("network_authorizer", raw -> onlyClass(className(raw), "network_authorizer",
                    "AllowAllNetworkAuthorizer"), NodeConfig.Builder::networkAuthorizer),
            key("roles_validity", DURATION, NodeConfig.Builder::rolesValidity,
                    legacyMillis("roles_validity_in_ms")),
            key("permissions_validity", DURATION, NodeConfig.Builder::permissionsValidity,
                    legacyMillis("permissions_validity_in_ms")),
            key("credentials_validity", DURATION, NodeConfig.Builder::credentialsValidity,
                    legacyMillis("credentials_validity_in_ms")),
            key("auth_read_consistency_level", raw -> consistency("auth_read_consistency_level", raw),
                    NodeConfig.Builder::authReadConsistencyLevel),
            key("auth_write_consistency_level", raw -> consistency("auth_write_consistency_level", raw),
                    NodeConfig.Builder::authWriteConsistencyLevel),
            key("num_tokens", INTEGER, NodeConfig.Builder::numTokens),
            key("partitioner", STRING, NodeConfig.Builder::partitioner),
            key("endpoint_snitch", CLASS_NAME, NodeConfig.Builder::endpointSnitch),
            key("memory_budget", DATA_SIZE, NodeConfig.Builder::memoryBudget),
            key("compaction_throughput", DATA_RATE, NodeConfig.Builder::compactionThroughput,
                    legacySize("compaction_throughput_mb_per_sec", DataSize.MIB)),
            key("stream_throughput_outbound", DATA_RATE, NodeConfig.Builder::streamThroughputOutbound,
                    legacySize("stream_throughput_outbound_megabits_per_sec", 125_000)),
            key("smp", INTEGER, NodeConfig.Builder::smp),
            key("prepared_statements_cache_size", DATA_SIZE, NodeConfig.Builder::preparedStatementsCacheSize,
                    legacySize("prepared_statements_cache_size_mb", DataSize.MIB)),
            key("read_request_timeout", DURATION, NodeConfig.Builder::readRequestTimeout,
                    legacyMillis("read_request_timeout_in_ms")),
            key("range_request_timeout", DURATION, NodeConfig.Builder::rangeRequestTimeout,
                    legacyMillis("range_request_timeout_in_ms")),
            key("write_request_timeout", DURATION, NodeConfig.Builder::writeRequestTimeout,
                    legacyMillis("write_request_timeout_in_ms")),
            key("counter_write_request_timeout", DURATION, NodeConfig.Builder::counterWriteRequestTimeout,
                    legacyMillis("counter_write_request_timeout_in_ms")),
            key("cas_contention_timeout", DURATION, NodeConfig.Builder::casContentionTimeout,
                    legacyMillis("cas_contention_timeout_in_ms")),
            key("truncate_request_timeout", DURATION, NodeConfig.Builder::truncateRequestTimeout,
                    legacyMillis("truncate_request_timeout_in_ms")),
            key("request_timeout", DURATION, NodeConfig.Builder::requestTimeout,
                    legacyMillis("request_timeout_in_ms")),
            key("batch_size_warn_threshold", DATA_SIZE, NodeConfig.Builder::batchSizeWarnThreshold,
                    legacySize("batch_size_warn_threshold_in_kb", DataSize.KIB)),
            key("batch_size_fail_threshold", DATA_SIZE, NodeConfig.Builder::batchSizeFailThreshold,
                    legacySize("batch_size_fail_threshold_in_kb", DataSize.KIB)),
            key("tombstone_warn_threshold", INTEGER, NodeConfig.Builder::tombstoneWarnThreshold),
            key("tombstone_failure_threshold", INTEGER, NodeConfig.Builder::tombstoneFailureThreshold));

    /**
     * cassandra.yaml keys accepted without effect: thread pools and heap sizing that thread-per-core and the
     * memory budget replace, throughput knobs the self-tuning controllers replace, features not built yet.
     */
    static final Set<String> IGNORED = Set.of(
            "concurrent_reads", "concurrent_writes", "concurrent_counter_writes", "concurrent_materialized_view_writes",
            "concurrent_compactors", "native_transport_max_threads", "memtable_allocation_type",
            "memtable_heap_space", "memtable_offheap_space", "memtable_heap_space_in_mb", "memtable_offheap_space_in_mb",
            "memtable_flush_writers", "memtable_cleanup_threshold", "key_cache_size", "key_cache_size_in_mb",
            "row_cache_size", "row_cache_size_in_mb", "counter_cache_size", "counter_cache_size_in_mb",
            "disk_access_mode", "disk_optimization_strategy", "commitlog_sync_batch_window_in_ms", "commit_failure_policy",
            "disk_failure_policy",
            "auto_snapshot", "incremental_backups", "snapshot_before_compaction", "column_index_size",
            "column_index_size_in_kb", "internode_compression",
            "dynamic_snitch", "dynamic_snitch_update_interval", "dynamic_snitch_reset_interval",
            "dynamic_snitch_badness_threshold", "phi_convict_threshold", "trickle_fsync", "trickle_fsync_interval",
            "native_transport_port_ssl", "listen_interface", "rpc_interface", "cdc_enabled", "gc_warn_threshold",
            "gc_log_threshold", "materialized_views_enabled", "sasi_indexes_enabled", "transient_replication_enabled",
            "user_defined_functions_enabled", "scripted_user_defined_functions_enabled", "storage_compatibility_mode",
            "default_secondary_index", "default_secondary_index_enabled", "start_rpc", "rpc_port");

    private ConfigKeys() {
    }

    /**
     * {@code native_transport_port_ssl} (Cassandra's deprecated separate TLS port) is refused: Charybdis serves TLS
     * and plain text on {@code native_transport_port} with {@code client_encryption_options.optional: true}.
     */
    static void refuseUnsupportedTransportSettings(Map<String, Object> yaml, String source) {
        Object sslPort = yaml.get("native_transport_port_ssl");
        if (sslPort != null && !sslPort.toString().isBlank()) {
            throw new ConfigurationException("native_transport_port_ssl=" + sslPort + " in " + source
                    + " is not supported: set client_encryption_options.optional: true to serve TLS and plain text"
                    + " on native_transport_port");
        }
    }

    /**
     * Cassandra's hinted handoff keys whose values Charybdis does not build stop startup naming the key: hint file
     * compression, handing hints over at decommission, a hint TTL counted from anything but the hint's creation,
     * and native-transport deadlines for hints. Their defaults (and an absent key) are accepted.
     */
    static void refuseUnsupportedHintSettings(Map<String, Object> yaml, String source) {
        Object compression = yaml.get("hints_compression");
        if (compression != null && !(compression instanceof String s && s.isBlank())) {
            throw new ConfigurationException("hints_compression in " + source + " is not supported: Charybdis writes"
                    + " hints files uncompressed");
        }
        if (yaml.containsKey("transfer_hints_on_decommission")) {
            throw new ConfigurationException("transfer_hints_on_decommission in " + source + " is not supported: hints"
                    + " are not handed over to other nodes at decommission in Charybdis");
        }
        refuseUnless(yaml, "use_creation_time_for_hint_ttl", true, source,
                "a hint's time to live always counts from its creation");
        refuseUnless(yaml, "enforce_native_deadline_for_hints", false, source,
                "hints are written regardless of the client request's deadline");
    }

    private static void refuseUnless(Map<String, Object> yaml, String key, boolean accepted, String source, String why) {
        Object v = yaml.get(key);
        boolean value;
        try {
            value = v == null ? accepted : bool(v);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("invalid " + key + " in " + source + ": " + e.getMessage(), e);
        }
        if (value != accepted) {
            throw new ConfigurationException(key + "=" + v + " in " + source + " is not supported: " + why);
        }
    }

    /** Every name a key can be given under: primary names and legacy aliases. */
    static Set<String> allNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Key<?> k : ALL) {
            for (Alias<?> a : k.names()) {
                names.add(a.name());
            }
        }
        return names;
    }

    private static <T> Key<T> key(String name, Parser<T> parser, BiConsumer<NodeConfig.Builder, T> setter) {
        return new Key<>(name, setter, List.of(new Alias<>(name, parser)));
    }

    private static <T> Key<T> key(String name, Parser<T> parser, BiConsumer<NodeConfig.Builder, T> setter, Alias<T> legacy) {
        return new Key<>(name, setter, List.of(new Alias<>(name, parser), legacy));
    }

    private static Alias<DataSize> legacySize(String name, long unit) {
        return new Alias<>(name, raw -> DataSize.ofBytes(Math.multiplyExact(longInt(raw), unit)));
    }

    private static Alias<Duration> legacyMillis(String name) {
        return new Alias<>(name, raw -> Duration.ofMillis(longInt(raw)));
    }

    // ---------------------------------------------------------------- parsers

    /** A consistency level by its name (case ignored), as Cassandra's yaml gives it. */
    static io.charybdis.protocol.Consistency consistency(String key, Object raw) {
        String name = string(raw).trim().toUpperCase(java.util.Locale.ROOT);
        try {
            return io.charybdis.protocol.Consistency.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a consistency level: " + raw + " (one of "
                    + java.util.Arrays.toString(io.charybdis.protocol.Consistency.values()) + ")");
        }
    }

    static String string(Object raw) {
        if (raw instanceof String || raw instanceof Number || raw instanceof Boolean) {
            return raw.toString();
        }
        throw new IllegalArgumentException("expected a single value, found " + NodeConfigLoader.typeName(raw));
    }

    static int integer(Object raw) {
        return Math.toIntExact(longInt(raw));
    }

    static long longInt(Object raw) {
        if (raw instanceof Integer || raw instanceof Long) {
            return ((Number) raw).longValue();
        }
        if (raw instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not a whole number");
            }
        }
        throw new IllegalArgumentException("expected a whole number, found " + NodeConfigLoader.typeName(raw));
    }

    static boolean bool(Object raw) {
        if (raw instanceof Boolean b) {
            return b;
        }
        if (raw instanceof String s) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true":
                    return true;
                case "false":
                    return false;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("expected true or false, found " + NodeConfigLoader.typeName(raw));
    }

    static DataSize dataSize(Object raw) {
        if (raw instanceof Number n) {
            throw new IllegalArgumentException(n + " has no unit; write it with one of B, KiB, MiB, GiB, e.g. " + n + "MiB");
        }
        return DataSize.parse(string(raw));
    }

    /**
     * A data rate as Cassandra 5.0's {@code DataRateSpec} writes it: a data size per second, {@code 64MiB/s}
     * ({@code B/s}, {@code KiB/s}, {@code MiB/s}); the amount per second is returned.
     */
    static DataSize dataRate(Object raw) {
        String text = string(raw).trim();
        if (raw instanceof Number || !text.endsWith("/s")) {
            throw new IllegalArgumentException("'" + text + "' is not a data rate; expected a whole number with one of"
                    + " the units B/s, KiB/s, MiB/s, e.g. 64MiB/s");
        }
        return DataSize.parse(text.substring(0, text.length() - 2));
    }

    /** A Cassandra auth class of which only one is built: its short name, or a failure naming the key. */
    static String onlyClass(String text, String key, String expected) {
        String shortName = ConfigNames.stripPackage(text.trim(), ConfigNames.CASSANDRA_AUTH_PACKAGE);
        if (!shortName.equalsIgnoreCase(expected)) {
            throw new IllegalArgumentException("unsupported " + key + " '" + text + "'; Charybdis has only "
                    + expected);
        }
        return expected;
    }

    static Duration duration(Object raw) {
        if (raw instanceof Number n) {
            throw new IllegalArgumentException(n + " has no unit; write it with one of ms, s, m, h, d, e.g. " + n + "ms");
        }
        return Durations.parse(string(raw));
    }

    static Path path(Object raw) {
        String s = string(raw).trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty path");
        }
        return Path.of(s);
    }

    /** A YAML list of strings, or (from overrides) a comma-separated string; may be empty. */
    static List<String> stringList(Object raw) {
        if (raw == null) {
            return List.of();
        }
        Stream<?> items = raw instanceof List<?> list ? list.stream() : Arrays.stream(string(raw).split(","));
        return items.map(ConfigKeys::string).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** A YAML list of paths, or (from overrides) a comma-separated string. */
    static List<Path> pathList(Object raw) {
        Stream<?> items = raw instanceof List<?> list ? list.stream() : Arrays.stream(string(raw).split(","));
        List<Path> paths = items.map(ConfigKeys::string).map(String::trim).filter(s -> !s.isEmpty()).map(Path::of).toList();
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no directory given");
        }
        return paths;
    }

    /** A class name, or Cassandra 5.0's parameterized form {@code {class_name: X, parameters: {...}}}. */
    static String className(Object raw) {
        if (raw instanceof Map<?, ?> map) {
            Object name = map.get("class_name");
            if (name == null) {
                throw new IllegalArgumentException("expected class_name in " + map);
            }
            return string(name).trim();
        }
        return string(raw).trim();
    }

    /**
     * cassandra.yaml's {@code seed_provider: [{class_name: ..., parameters: [{seeds: "a,b:7000"}]}]}, or (from
     * overrides) just {@code "a,b:7000"}.
     */
    static List<String> seeds(Object raw) {
        String seeds = null;
        if (raw instanceof String s) {
            seeds = s;
        } else if (raw instanceof List<?> providers && !providers.isEmpty() && providers.get(0) instanceof Map<?, ?> provider) {
            Object params = provider.get("parameters");
            if (params instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Map<?, ?> p) {
                params = p;
            }
            if (params instanceof Map<?, ?> p && p.get("seeds") != null) {
                seeds = string(p.get("seeds"));
            }
        }
        if (seeds == null) {
            throw new IllegalArgumentException("expected [{class_name: ..., parameters: [{seeds: \"host1,host2\"}]}]"
                    + " or a comma-separated list of hosts");
        }
        List<String> hosts = Arrays.stream(seeds.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList();
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no seed given");
        }
        return hosts;
    }
}
