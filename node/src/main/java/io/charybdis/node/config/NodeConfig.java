package io.charybdis.node.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The node's configuration: typed, immutable, built once at startup and passed down (never a static
 * singleton, so tests can run several nodes in one JVM).
 *
 * <p>Sources, lowest precedence first (see {@link NodeConfigLoader}):
 * <ol>
 *   <li>built-in defaults (those of Cassandra 5.0 where the key exists there),</li>
 *   <li>the YAML file ({@code conf/charybdis.yaml}, cassandra.yaml key names),</li>
 *   <li>environment variables {@code CHARYBDIS_<KEY>}, e.g. {@code CHARYBDIS_NATIVE_TRANSPORT_PORT=9043},</li>
 *   <li>system properties {@code charybdis.<key>}, e.g. {@code -Dcharybdis.native_transport_port=9043},</li>
 *   <li>command-line flags ({@code --smp N}).</li>
 * </ol>
 * Relative directories resolve against the base directory: the {@code charybdis.home} system property, or the
 * working directory. In-process tests build one directly with {@link #builder()}.
 */
public final class NodeConfig {

    public static final String MURMUR3_PARTITIONER = ConfigNames.CASSANDRA_DHT_PACKAGE + "Murmur3Partitioner";

    private final Path baseDirectory;
    private final String clusterName;
    private final String listenAddress;
    private final String broadcastAddress;
    private final String rpcAddress;
    private final String broadcastRpcAddress;
    private final List<String> seeds;
    private final boolean startNativeTransport;
    private final int nativeTransportPort;
    private final int nativeShardAwareTransportPort;
    private final DataSize nativeTransportMaxFrameSize;
    private final long nativeTransportMaxConcurrentConnections;
    private final long nativeTransportMaxConcurrentConnectionsPerIp;
    private final DataSize nativeTransportMaxRequestDataInFlight;
    private final DataSize nativeTransportMaxRequestDataInFlightPerIp;
    private final Duration nativeTransportIdleTimeout;
    private final boolean nativeTransportAllowOlderProtocols;
    private final boolean nativeTransportRateLimitingEnabled;
    private final long nativeTransportMaxRequestsPerSecond;
    private final int storagePort;
    private final int metadataPort;
    private final int jmxPort;
    private final String jmxAddress;
    private final Path jmxPasswordFile;
    private final Path jmxAccessFile;
    private final String jmxLoginConfig;
    private final String jmxAuthorizer;
    private final EncryptionOptions jmxEncryptionOptions;
    private final EncryptionOptions clientEncryptionOptions;
    private final EncryptionOptions serverEncryptionOptions;
    private final int prometheusPort;
    private final List<Path> dataFileDirectories;
    private final Path commitlogDirectory;
    private final Path savedCachesDirectory;
    private final Path hintsDirectory;
    private final boolean hintedHandoffEnabled;
    private final List<String> hintedHandoffDisabledDatacenters;
    private final Duration maxHintWindow;
    private final DataSize hintedHandoffThrottle;
    private final int maxHintsDeliveryThreads;
    private final Duration hintsFlushPeriod;
    private final DataSize maxHintsFileSize;
    private final DataSize maxHintsSizePerHost;
    private final boolean hintWindowPersistentEnabled;
    private final boolean autoHintsCleanupEnabled;
    private final CommitLogSync commitlogSync;
    private final Duration commitlogSyncPeriod;
    private final Duration commitlogSyncGroupWindow;
    private final DataSize commitlogSegmentSize;
    private final DataSize commitlogTotalSpace;
    private final boolean ignoreCommitlogCorruption;
    private final boolean autoBootstrap;
    private final boolean dropCompactStorageEnabled;
    private final AuthenticatorType authenticator;
    private final AuthorizerType authorizer;
    private final String roleManager;
    private final String networkAuthorizer;
    private final Duration rolesValidity;
    private final Duration permissionsValidity;
    private final Duration credentialsValidity;
    private final io.charybdis.protocol.Consistency authReadConsistencyLevel;
    private final io.charybdis.protocol.Consistency authWriteConsistencyLevel;
    private final int numTokens;
    private final String partitioner;
    private final String endpointSnitch;
    private final DataSize memoryBudget;
    private final DataSize compactionThroughput;
    private final DataSize streamThroughputOutbound;
    private final int smp;
    private final DataSize preparedStatementsCacheSize;
    private final Duration readRequestTimeout;
    private final Duration rangeRequestTimeout;
    private final Duration writeRequestTimeout;
    private final Duration counterWriteRequestTimeout;
    private final Duration casContentionTimeout;
    private final Duration truncateRequestTimeout;
    private final Duration requestTimeout;
    private final DataSize batchSizeWarnThreshold;
    private final DataSize batchSizeFailThreshold;
    private final int tombstoneWarnThreshold;
    private final int tombstoneFailureThreshold;

    private final Path configDirectory;

    private NodeConfig(Builder b, Machine machine) {
        baseDirectory = b.baseDirectory.toAbsolutePath().normalize();
        configDirectory = b.configDirectory;
        clusterName = b.clusterName;
        listenAddress = b.listenAddress;
        broadcastAddress = b.broadcastAddress != null ? b.broadcastAddress : b.listenAddress;
        rpcAddress = b.rpcAddress;
        broadcastRpcAddress = b.broadcastRpcAddress != null ? b.broadcastRpcAddress : b.rpcAddress;
        seeds = List.copyOf(b.seeds != null ? b.seeds : List.of(listenAddress)); // at this node's storage_port
        startNativeTransport = b.startNativeTransport;
        nativeTransportPort = b.nativeTransportPort;
        nativeShardAwareTransportPort = b.nativeShardAwareTransportPort;
        nativeTransportMaxFrameSize = b.nativeTransportMaxFrameSize;
        nativeTransportMaxConcurrentConnections = b.nativeTransportMaxConcurrentConnections;
        nativeTransportMaxConcurrentConnectionsPerIp = b.nativeTransportMaxConcurrentConnectionsPerIp;
        nativeTransportMaxRequestDataInFlight = b.nativeTransportMaxRequestDataInFlight != null
                ? b.nativeTransportMaxRequestDataInFlight : DataSize.ofBytes(machine.maxHeap() / 10);
        nativeTransportMaxRequestDataInFlightPerIp = b.nativeTransportMaxRequestDataInFlightPerIp != null
                ? b.nativeTransportMaxRequestDataInFlightPerIp : DataSize.ofBytes(machine.maxHeap() / 40);
        nativeTransportIdleTimeout = b.nativeTransportIdleTimeout;
        nativeTransportAllowOlderProtocols = b.nativeTransportAllowOlderProtocols;
        nativeTransportRateLimitingEnabled = b.nativeTransportRateLimitingEnabled;
        nativeTransportMaxRequestsPerSecond = b.nativeTransportMaxRequestsPerSecond;
        storagePort = b.storagePort;
        metadataPort = b.metadataPort;
        jmxPort = b.jmxPort;
        jmxAddress = b.jmxAddress;
        jmxPasswordFile = b.jmxPasswordFile == null ? null : resolve(b.jmxPasswordFile);
        jmxAccessFile = b.jmxAccessFile == null ? null : resolve(b.jmxAccessFile);
        jmxLoginConfig = b.jmxLoginConfig;
        jmxAuthorizer = b.jmxAuthorizer;
        jmxEncryptionOptions = b.jmxEncryptionOptions;
        clientEncryptionOptions = b.clientEncryptionOptions;
        serverEncryptionOptions = b.serverEncryptionOptions;
        prometheusPort = b.prometheusPort;
        List<Path> dirs = b.dataFileDirectories != null && !b.dataFileDirectories.isEmpty()
                ? b.dataFileDirectories : List.of(Path.of("data"));
        dataFileDirectories = dirs.stream().map(this::resolve).toList();
        commitlogDirectory = resolve(Objects.requireNonNullElse(b.commitlogDirectory, Path.of("commitlog")));
        savedCachesDirectory = resolve(Objects.requireNonNullElse(b.savedCachesDirectory, Path.of("saved_caches")));
        hintsDirectory = resolve(Objects.requireNonNullElse(b.hintsDirectory, Path.of("hints")));
        hintedHandoffEnabled = b.hintedHandoffEnabled;
        hintedHandoffDisabledDatacenters = b.hintedHandoffDisabledDatacenters;
        maxHintWindow = b.maxHintWindow;
        hintedHandoffThrottle = b.hintedHandoffThrottle;
        maxHintsDeliveryThreads = b.maxHintsDeliveryThreads;
        hintsFlushPeriod = b.hintsFlushPeriod;
        maxHintsFileSize = b.maxHintsFileSize;
        maxHintsSizePerHost = b.maxHintsSizePerHost;
        hintWindowPersistentEnabled = b.hintWindowPersistentEnabled;
        autoHintsCleanupEnabled = b.autoHintsCleanupEnabled;
        commitlogSync = b.commitlogSync;
        commitlogSyncPeriod = b.commitlogSyncPeriod;
        commitlogSyncGroupWindow = b.commitlogSyncGroupWindow;
        commitlogSegmentSize = b.commitlogSegmentSize;
        commitlogTotalSpace = b.commitlogTotalSpace;
        ignoreCommitlogCorruption = b.ignoreCommitlogCorruption;
        autoBootstrap = b.autoBootstrap;
        dropCompactStorageEnabled = b.dropCompactStorageEnabled;
        authenticator = b.authenticator;
        authorizer = b.authorizer;
        roleManager = b.roleManager;
        networkAuthorizer = b.networkAuthorizer;
        rolesValidity = b.rolesValidity;
        permissionsValidity = b.permissionsValidity;
        credentialsValidity = b.credentialsValidity;
        authReadConsistencyLevel = b.authReadConsistencyLevel;
        authWriteConsistencyLevel = b.authWriteConsistencyLevel;
        switch (authReadConsistencyLevel) {
            case ANY, EACH_QUORUM, SERIAL, LOCAL_SERIAL -> throw new ConfigurationException(
                    "auth_read_consistency_level=" + authReadConsistencyLevel + " cannot be used for reads");
            default -> {
            }
        }
        if (authWriteConsistencyLevel.isSerial()) {
            throw new ConfigurationException("auth_write_consistency_level=" + authWriteConsistencyLevel
                    + " cannot be used for writes");
        }
        numTokens = b.numTokens;
        partitioner = b.partitioner;
        endpointSnitch = b.endpointSnitch;
        memoryBudget = b.memoryBudget != null ? b.memoryBudget : defaultMemoryBudget(machine);
        compactionThroughput = b.compactionThroughput;
        streamThroughputOutbound = b.streamThroughputOutbound;
        smp = b.smp > 0 ? b.smp : machine.processors();
        preparedStatementsCacheSize = b.preparedStatementsCacheSize != null
                ? b.preparedStatementsCacheSize
                : DataSize.ofBytes(Math.max(10 * DataSize.MIB, machine.maxHeap() / 256));
        readRequestTimeout = b.readRequestTimeout;
        rangeRequestTimeout = b.rangeRequestTimeout;
        writeRequestTimeout = b.writeRequestTimeout;
        counterWriteRequestTimeout = b.counterWriteRequestTimeout;
        casContentionTimeout = b.casContentionTimeout;
        truncateRequestTimeout = b.truncateRequestTimeout;
        requestTimeout = b.requestTimeout;
        batchSizeWarnThreshold = b.batchSizeWarnThreshold;
        batchSizeFailThreshold = b.batchSizeFailThreshold;
        tombstoneWarnThreshold = b.tombstoneWarnThreshold;
        tombstoneFailureThreshold = b.tombstoneFailureThreshold;
        validate();
    }

    /** A quarter of physical memory, but at most three quarters of the JVM's direct memory limit. */
    static DataSize defaultMemoryBudget(Machine machine) {
        long budget = Math.min(machine.physicalMemory() / 4, machine.maxDirectMemory() / 4 * 3);
        return DataSize.ofBytes(Math.max(budget, 64 * DataSize.MIB));
    }

    private Path resolve(Path p) {
        return baseDirectory.resolve(p).toAbsolutePath().normalize();
    }

    private void validate() {
        for (int i = 0; i < dataFileDirectories.size(); i++) {
            for (int j = 0; j < dataFileDirectories.size(); j++) {
                Path a = dataFileDirectories.get(i);
                Path b = dataFileDirectories.get(j);
                if (i < j && a.equals(b)) {
                    throw new ConfigurationException("data_file_directories lists " + a + " twice");
                }
                if (i != j && !a.equals(b) && a.startsWith(b)) {
                    throw new ConfigurationException("data_file_directories: " + a + " is inside " + b
                            + "; list directories that do not contain one another");
                }
            }
        }
        requireNonBlank("cluster_name", clusterName);
        requireNonBlank("listen_address", listenAddress);
        requireNonBlank("rpc_address", rpcAddress);
        requirePort("native_transport_port", nativeTransportPort);
        requirePort("native_shard_aware_transport_port", nativeShardAwareTransportPort);
        requirePort("storage_port", storagePort);
        requirePort("metadata_port", metadataPort);
        if (jmxPort != -1) { // -1: no JMX server (embedded nodes in tests)
            requirePort("jmx_port", jmxPort);
        }
        if (prometheusPort != -1) { // -1: no metrics endpoint (embedded nodes in tests)
            requirePort("prometheus_port", prometheusPort);
        }
        validateJmx();
        if (nativeTransportPort != 0 && nativeTransportPort == nativeShardAwareTransportPort) {
            throw new ConfigurationException("native_shard_aware_transport_port=" + nativeShardAwareTransportPort
                    + " must differ from native_transport_port");
        }
        if (nativeTransportMaxFrameSize.bytes() < DataSize.KIB || nativeTransportMaxFrameSize.bytes() > 256 * DataSize.MIB) {
            throw new ConfigurationException("native_transport_max_frame_size=" + nativeTransportMaxFrameSize
                    + " must be between 1KiB and 256MiB");
        }
        if (nativeTransportMaxRequestDataInFlight.bytes() < 1 || nativeTransportMaxRequestDataInFlightPerIp.bytes() < 1) {
            throw new ConfigurationException("native_transport_max_request_data_in_flight="
                    + nativeTransportMaxRequestDataInFlight + " and native_transport_max_request_data_in_flight_per_ip="
                    + nativeTransportMaxRequestDataInFlightPerIp + " must be at least 1B");
        }
        if (nativeTransportMaxRequestsPerSecond < 1 || nativeTransportMaxRequestsPerSecond > 1_000_000_000L) {
            throw new ConfigurationException("native_transport_max_requests_per_second="
                    + nativeTransportMaxRequestsPerSecond + " must be between 1 and 1000000000");
        }
        if (nativeTransportIdleTimeout.isNegative()) {
            throw new ConfigurationException("native_transport_idle_timeout=" + Durations.format(nativeTransportIdleTimeout)
                    + " must not be negative (0ms disables it)");
        }
        if (!startNativeTransport) {
            throw new ConfigurationException("start_native_transport=false is not supported: Charybdis is served"
                    + " through the native transport only (no Thrift, no other client interface)");
        }
        if (commitlogSegmentSize.bytes() < DataSize.MIB || commitlogSegmentSize.bytes() >= 2 * DataSize.GIB) {
            throw new ConfigurationException("commitlog_segment_size=" + commitlogSegmentSize
                    + " must be at least 1MiB and less than 2GiB");
        }
        if (commitlogSync == CommitLogSync.PERIODIC && !commitlogSyncPeriod.isPositive()) {
            throw new ConfigurationException("commitlog_sync_period=" + Durations.format(commitlogSyncPeriod)
                    + " must be positive with commitlog_sync: periodic");
        }
        if (commitlogSync == CommitLogSync.GROUP && !commitlogSyncGroupWindow.isPositive()) {
            throw new ConfigurationException("commitlog_sync_group_window=" + Durations.format(commitlogSyncGroupWindow)
                    + " must be positive with commitlog_sync: group");
        }
        if (numTokens < 1 || numTokens > 1536) {
            throw new ConfigurationException("num_tokens=" + numTokens + " must be between 1 and 1536");
        }
        if (!MURMUR3_PARTITIONER.equals(partitioner)) {
            throw new ConfigurationException("partitioner=" + partitioner + " is not supported; Charybdis supports only "
                    + MURMUR3_PARTITIONER);
        }
        if (smp < 1 || smp > 1024) {
            throw new ConfigurationException("smp=" + smp + " must be between 1 and 1024");
        }
        if (memoryBudget.bytes() < 16 * DataSize.MIB) {
            throw new ConfigurationException("memory_budget=" + memoryBudget + " must be at least 16MiB");
        }
        if (batchSizeFailThreshold.compareTo(batchSizeWarnThreshold) < 0) {
            throw new ConfigurationException("batch_size_fail_threshold=" + batchSizeFailThreshold
                    + " must not be below batch_size_warn_threshold=" + batchSizeWarnThreshold);
        }
        if (maxHintsDeliveryThreads < 1) {
            throw new ConfigurationException("max_hints_delivery_threads=" + maxHintsDeliveryThreads + " must be at least 1");
        }
        if (maxHintWindow.isNegative() || !hintsFlushPeriod.isPositive()) {
            throw new ConfigurationException("max_hint_window must not be negative and hints_flush_period must be positive");
        }
        if (maxHintsFileSize.bytes() <= 0) {
            throw new ConfigurationException("max_hints_file_size=" + maxHintsFileSize + " must be positive");
        }
        if (authenticator == AuthenticatorType.ALLOW_ALL && authorizer != AuthorizerType.ALLOW_ALL) {
            throw new ConfigurationException("authenticator=AllowAllAuthenticator can't be used with authorizer="
                    + authorizer.className());
        }
        for (var v : java.util.Map.of("roles_validity", rolesValidity, "permissions_validity", permissionsValidity,
                "credentials_validity", credentialsValidity).entrySet()) {
            if (v.getValue().isNegative()) {
                throw new ConfigurationException(v.getKey() + "=" + Durations.format(v.getValue())
                        + " must not be negative");
            }
        }
        if (tombstoneWarnThreshold < 0 || tombstoneFailureThreshold < 0) {
            throw new ConfigurationException("tombstone_warn_threshold and tombstone_failure_threshold must not be negative");
        }
    }

    /** JMX reachable from other hosts must ask for a password: an open remote JMX is remote code execution. */
    /** The values of jmx_login_config and jmx_authorizer, Cassandra's names for what they select. */
    public static final String JMX_LOGIN_CONFIG = "CassandraLogin";
    public static final String JMX_AUTHORIZER = "org.apache.cassandra.auth.jmx.AuthorizationProxy";

    private void validateJmx() {
        requireNonBlank("jmx_address", jmxAddress);
        boolean loopback;
        try {
            loopback = java.net.InetAddress.getByName(jmxAddress).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            throw new ConfigurationException("jmx_address=" + jmxAddress + " cannot be resolved");
        }
        if (jmxLoginConfig != null) {
            if (!jmxLoginConfig.equals(JMX_LOGIN_CONFIG)) {
                throw new ConfigurationException("jmx_login_config=" + jmxLoginConfig + " is not supported: the only "
                        + "login is " + JMX_LOGIN_CONFIG + " (Cassandra's CassandraLoginModule: JMX users are roles)");
            }
            if (authenticator != AuthenticatorType.PASSWORD) {
                throw new ConfigurationException("jmx_login_config=" + JMX_LOGIN_CONFIG + " needs authenticator: "
                        + "PasswordAuthenticator (JMX users log in as roles)");
            }
            if (jmxPasswordFile != null) {
                throw new ConfigurationException("jmx_login_config and jmx_password_file exclude each other: JMX "
                        + "users come from the roles or from the file");
            }
        }
        if (jmxAuthorizer != null) {
            if (!jmxAuthorizer.equals(JMX_AUTHORIZER) && !jmxAuthorizer.equals("AuthorizationProxy")) {
                throw new ConfigurationException("jmx_authorizer=" + jmxAuthorizer + " is not supported: the only "
                        + "one is " + JMX_AUTHORIZER + " (MBean permissions of the roles)");
            }
            if (jmxLoginConfig == null || authorizer != AuthorizerType.CASSANDRA) {
                throw new ConfigurationException("jmx_authorizer=" + jmxAuthorizer + " needs jmx_login_config: "
                        + JMX_LOGIN_CONFIG + " and authorizer: CassandraAuthorizer");
            }
        }
        if (jmxPort != -1 && !loopback && jmxPasswordFile == null && jmxLoginConfig == null) {
            throw new ConfigurationException("jmx_address=" + jmxAddress + " is not a loopback address: set"
                    + " jmx_password_file (and jmx_encryption_options) so that JMX asks for credentials, or bind it to"
                    + " 127.0.0.1");
        }
        if (jmxPasswordFile != null && !java.nio.file.Files.isReadable(jmxPasswordFile)) {
            throw new ConfigurationException("jmx_password_file=" + jmxPasswordFile + " does not exist or cannot be read");
        }
        if (jmxAccessFile != null && !java.nio.file.Files.isReadable(jmxAccessFile)) {
            throw new ConfigurationException("jmx_access_file=" + jmxAccessFile + " does not exist or cannot be read");
        }
        if (jmxAccessFile != null && jmxPasswordFile == null) {
            throw new ConfigurationException("jmx_access_file needs jmx_password_file (access rules name authenticated users)");
        }
        if (serverEncryptionOptions.internodeEncryption() != EncryptionOptions.InternodeEncryption.NONE
                && serverEncryptionOptions.keystore() == null
                && !serverEncryptionOptions.pemParameters().containsKey("private_key")) {
            throw new ConfigurationException("server_encryption_options.internode_encryption="
                    + serverEncryptionOptions.internodeEncryption().name().toLowerCase(java.util.Locale.ROOT)
                    + " needs a keystore");
        }
    }

    private static void requireNonBlank(String key, String value) {
        if (value == null || value.isBlank()) {
            throw new ConfigurationException(key + " must not be empty");
        }
    }

    private static void requirePort(String key, int port) {
        if (port < 0 || port > 65535) {
            throw new ConfigurationException(key + "=" + port + " is not a TCP port (0 picks a free one)");
        }
    }

    /** A builder with every default set; base directory = {@code charybdis.home} or the working directory. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults alone, without reading any file or override. */
    public static NodeConfig defaults() {
        return builder().build();
    }

    /**
     * Loads {@code yamlFile} (none if {@code null}) with this process's environment and system properties
     * applied over it; {@code --smp} and other command-line settings are applied by the caller via
     * {@link NodeConfigLoader}.
     */
    public static NodeConfig load(Path yamlFile) {
        return new NodeConfigLoader(System.getenv(), System.getProperties()).load(yamlFile, Map.of());
    }

    /** The base directory from {@code charybdis.home} in {@code properties}, else the working directory. */
    public static Path defaultBaseDirectory(Properties properties) {
        String home = properties.getProperty(ConfigNames.HOME_PROPERTY);
        return Path.of(home != null && !home.isBlank() ? home : properties.getProperty("user.dir", ".")).toAbsolutePath().normalize();
    }

    // ---------------------------------------------------------------- accessors

    /** Where relative directories were resolved ({@code charybdis.home} or the working directory). */
    public Path baseDirectory() { return baseDirectory; }

    /** The directory of the YAML file this configuration was read from; null when none was. */
    public Path configDirectory() { return configDirectory; }
    public String clusterName() { return clusterName; }
    /** The address internode messaging binds to. */
    public String listenAddress() { return listenAddress; }
    /** The address other nodes are told to use; {@link #listenAddress()} unless set. */
    public String broadcastAddress() { return broadcastAddress; }
    /** The address the CQL ports bind to. */
    public String rpcAddress() { return rpcAddress; }
    /** The address clients are told to use (system.local rpc_address, system.peers); {@link #rpcAddress()} unless set. */
    public String broadcastRpcAddress() { return broadcastRpcAddress; }
    /** {@code host[:port]} of the seed nodes, from {@code seed_provider}'s {@code seeds} parameter. */
    public List<String> seeds() { return seeds; }
    public boolean startNativeTransport() { return startNativeTransport; }
    /** 0 means any free port (tests); the node reports the bound one. */
    public int nativeTransportPort() { return nativeTransportPort; }
    /** The shard-aware CQL port (ScyllaDB extension); 0 means any free port. */
    public int nativeShardAwareTransportPort() { return nativeShardAwareTransportPort; }
    public DataSize nativeTransportMaxFrameSize() { return nativeTransportMaxFrameSize; }
    /** Beyond it a new connection is closed at once; -1 (or 0) = unlimited. */
    public long nativeTransportMaxConcurrentConnections() { return nativeTransportMaxConcurrentConnections; }
    /** The same, per client address; -1 (or 0) = unlimited. */
    public long nativeTransportMaxConcurrentConnectionsPerIp() { return nativeTransportMaxConcurrentConnectionsPerIp; }
    /**
     * Bytes of requests received and not yet answered on the node before connections stop reading (or, with
     * THROW_ON_OVERLOAD, get OVERLOADED); Cassandra's default: heap / 10.
     */
    public DataSize nativeTransportMaxRequestDataInFlight() { return nativeTransportMaxRequestDataInFlight; }
    /** The same per client address; Cassandra's default: heap / 40. */
    public DataSize nativeTransportMaxRequestDataInFlightPerIp() { return nativeTransportMaxRequestDataInFlightPerIp; }
    /** Connections that neither read nor wrote for this long are closed; zero = never. */
    public Duration nativeTransportIdleTimeout() { return nativeTransportIdleTimeout; }
    /** False: only protocol v5 is served; a v4 connection gets a protocol error and is closed. */
    public boolean nativeTransportAllowOlderProtocols() { return nativeTransportAllowOlderProtocols; }
    /** Whether {@link #nativeTransportMaxRequestsPerSecond()} applies. */
    public boolean nativeTransportRateLimitingEnabled() { return nativeTransportRateLimitingEnabled; }
    /** The node-wide request rate beyond which connections stop reading (or get OVERLOADED). */
    public long nativeTransportMaxRequestsPerSecond() { return nativeTransportMaxRequestsPerSecond; }
    public int storagePort() { return storagePort; }

    /** Charybdis only: the cluster metadata (Raft) member's port, used when the node is part of a cluster. */
    public int metadataPort() { return metadataPort; }
    public int jmxPort() { return jmxPort; }
    /** The address JMX binds to (127.0.0.1 unless configured). */
    public String jmxAddress() { return jmxAddress; }
    /** Null: JMX asks for no credentials (then it is bound to a loopback address). */
    public Path jmxPasswordFile() { return jmxPasswordFile; }
    public Path jmxAccessFile() { return jmxAccessFile; }
    /** {@code CassandraLogin} (JMX logs in against the roles) or null. */
    public String jmxLoginConfig() { return jmxLoginConfig; }
    /** {@code org.apache.cassandra.auth.jmx.AuthorizationProxy} (MBean permissions enforced) or null. */
    public String jmxAuthorizer() { return jmxAuthorizer; }
    /** TLS of JMX's RMI registry and connector ({@code enabled: true} turns it on). */
    public EncryptionOptions jmxEncryptionOptions() { return jmxEncryptionOptions; }
    /** TLS on the CQL ports. */
    public EncryptionOptions clientEncryptionOptions() { return clientEncryptionOptions; }
    /** TLS between nodes (messaging on storage_port and the metadata log on metadata_port). */
    public EncryptionOptions serverEncryptionOptions() { return serverEncryptionOptions; }
    public int prometheusPort() { return prometheusPort; }
    /** Absolute. */
    public List<Path> dataFileDirectories() { return dataFileDirectories; }
    /** Absolute. */
    public Path commitlogDirectory() { return commitlogDirectory; }
    public Path savedCachesDirectory() { return savedCachesDirectory; }
    public Path hintsDirectory() { return hintsDirectory; }
    public boolean hintedHandoffEnabled() { return hintedHandoffEnabled; }
    public List<String> hintedHandoffDisabledDatacenters() { return hintedHandoffDisabledDatacenters; }
    public Duration maxHintWindow() { return maxHintWindow; }
    public DataSize hintedHandoffThrottle() { return hintedHandoffThrottle; }
    public int maxHintsDeliveryThreads() { return maxHintsDeliveryThreads; }
    public Duration hintsFlushPeriod() { return hintsFlushPeriod; }
    public DataSize maxHintsFileSize() { return maxHintsFileSize; }
    public DataSize maxHintsSizePerHost() { return maxHintsSizePerHost; }
    public boolean hintWindowPersistentEnabled() { return hintWindowPersistentEnabled; }
    public boolean autoHintsCleanupEnabled() { return autoHintsCleanupEnabled; }
    public CommitLogSync commitlogSync() { return commitlogSync; }
    public Duration commitlogSyncPeriod() { return commitlogSyncPeriod; }
    public Duration commitlogSyncGroupWindow() { return commitlogSyncGroupWindow; }
    public DataSize commitlogSegmentSize() { return commitlogSegmentSize; }
    public DataSize commitlogTotalSpace() { return commitlogTotalSpace; }
    /** Skip (and report) corrupt commit log entries on replay instead of refusing to start. */
    public boolean ignoreCommitlogCorruption() { return ignoreCommitlogCorruption; }
    /** A new node that is not a seed streams its ranges from the cluster before it serves them (Cassandra's key). */
    public boolean autoBootstrap() { return autoBootstrap; }
    /** Whether ALTER TABLE ... DROP COMPACT STORAGE is allowed (Cassandra's drop_compact_storage_enabled, false). */
    public boolean dropCompactStorageEnabled() { return dropCompactStorageEnabled; }
    public AuthenticatorType authenticator() { return authenticator; }
    public AuthorizerType authorizer() { return authorizer; }
    public String roleManager() { return roleManager; }
    public String networkAuthorizer() { return networkAuthorizer; }
    /** How long a role's attributes and granted roles stay cached (Cassandra's roles cache). */
    public Duration rolesValidity() { return rolesValidity; }
    /** How long a role's permissions stay cached (Cassandra's permissions cache). */
    public Duration permissionsValidity() { return permissionsValidity; }
    /** Kept for Cassandra's key; credentials are read afresh at every login. */
    public Duration credentialsValidity() { return credentialsValidity; }
    /** The consistency level of reads of system_auth (Cassandra's default LOCAL_QUORUM). */
    public io.charybdis.protocol.Consistency authReadConsistencyLevel() { return authReadConsistencyLevel; }
    /** The consistency level of writes to system_auth (Cassandra's default EACH_QUORUM). */
    public io.charybdis.protocol.Consistency authWriteConsistencyLevel() { return authWriteConsistencyLevel; }
    public int numTokens() { return numTokens; }
    /** Always {@link #MURMUR3_PARTITIONER} (others are rejected at load). */
    public String partitioner() { return partitioner; }
    public String endpointSnitch() { return endpointSnitch; }
    /** Off-heap bytes for memtables and the row cache together, shared by all shards. */
    public DataSize memoryBudget() { return memoryBudget; }
    /**
     * cassandra.yaml's {@code compaction_throughput}, bytes per second for the whole node: a cap on top of the
     * backlog controller. 0 (the default) = no cap: the controller alone decides compaction's share.
     */
    public DataSize compactionThroughput() { return compactionThroughput; }
    /** Bytes per second this node sends to streams (bootstrap, decommission, repair), all together; 0: no limit. */
    public DataSize streamThroughputOutbound() { return streamThroughputOutbound; }
    /** Number of shards (threads), one per core by default. */
    public int smp() { return smp; }
    public DataSize preparedStatementsCacheSize() { return preparedStatementsCacheSize; }
    public Duration readRequestTimeout() { return readRequestTimeout; }
    public Duration rangeRequestTimeout() { return rangeRequestTimeout; }
    public Duration writeRequestTimeout() { return writeRequestTimeout; }
    public Duration counterWriteRequestTimeout() { return counterWriteRequestTimeout; }
    public Duration casContentionTimeout() { return casContentionTimeout; }
    public Duration truncateRequestTimeout() { return truncateRequestTimeout; }
    /** The default timeout for other operations. */
    public Duration requestTimeout() { return requestTimeout; }
    public DataSize batchSizeWarnThreshold() { return batchSizeWarnThreshold; }
    public DataSize batchSizeFailThreshold() { return batchSizeFailThreshold; }
    public int tombstoneWarnThreshold() { return tombstoneWarnThreshold; }
    public int tombstoneFailureThreshold() { return tombstoneFailureThreshold; }

    /** Every setting under its YAML key, in the YAML notation; for the startup log and for tests. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cluster_name", clusterName);
        m.put("listen_address", listenAddress);
        m.put("broadcast_address", broadcastAddress);
        m.put("rpc_address", rpcAddress);
        m.put("broadcast_rpc_address", broadcastRpcAddress);
        m.put("seeds", String.join(",", seeds));
        m.put("start_native_transport", Boolean.toString(startNativeTransport));
        m.put("native_transport_port", Integer.toString(nativeTransportPort));
        m.put("native_shard_aware_transport_port", Integer.toString(nativeShardAwareTransportPort));
        m.put("native_transport_max_frame_size", nativeTransportMaxFrameSize.toString());
        m.put("native_transport_max_concurrent_connections", Long.toString(nativeTransportMaxConcurrentConnections));
        m.put("native_transport_max_concurrent_connections_per_ip", Long.toString(nativeTransportMaxConcurrentConnectionsPerIp));
        m.put("native_transport_max_request_data_in_flight", nativeTransportMaxRequestDataInFlight.toString());
        m.put("native_transport_max_request_data_in_flight_per_ip", nativeTransportMaxRequestDataInFlightPerIp.toString());
        m.put("native_transport_idle_timeout", Durations.format(nativeTransportIdleTimeout));
        m.put("native_transport_allow_older_protocols", Boolean.toString(nativeTransportAllowOlderProtocols));
        m.put("native_transport_rate_limiting_enabled", Boolean.toString(nativeTransportRateLimitingEnabled));
        m.put("native_transport_max_requests_per_second", Long.toString(nativeTransportMaxRequestsPerSecond));
        m.put("storage_port", Integer.toString(storagePort));
        m.put("metadata_port", Integer.toString(metadataPort));
        m.put("jmx_port", Integer.toString(jmxPort));
        m.put("jmx_address", jmxAddress);
        m.put("jmx_password_file", jmxPasswordFile == null ? "" : jmxPasswordFile.toString());
        m.put("jmx_access_file", jmxAccessFile == null ? "" : jmxAccessFile.toString());
        m.put("jmx_login_config", jmxLoginConfig == null ? "" : jmxLoginConfig);
        m.put("jmx_authorizer", jmxAuthorizer == null ? "" : jmxAuthorizer);
        m.put("jmx_encryption_options", jmxEncryptionOptions.describe());
        m.put("client_encryption_options", clientEncryptionOptions.describe());
        m.put("server_encryption_options", serverEncryptionOptions.describe());
        m.put("prometheus_port", Integer.toString(prometheusPort));
        m.put("data_file_directories", String.join(",", dataFileDirectories.stream().map(Path::toString).toList()));
        m.put("commitlog_directory", commitlogDirectory.toString());
        m.put("saved_caches_directory", savedCachesDirectory.toString());
        m.put("hints_directory", hintsDirectory.toString());
        m.put("hinted_handoff_enabled", Boolean.toString(hintedHandoffEnabled));
        m.put("hinted_handoff_disabled_datacenters", String.join(",", hintedHandoffDisabledDatacenters));
        m.put("max_hint_window", Durations.format(maxHintWindow));
        m.put("hinted_handoff_throttle", hintedHandoffThrottle.toString());
        m.put("max_hints_delivery_threads", Integer.toString(maxHintsDeliveryThreads));
        m.put("hints_flush_period", Durations.format(hintsFlushPeriod));
        m.put("max_hints_file_size", maxHintsFileSize.toString());
        m.put("max_hints_size_per_host", maxHintsSizePerHost.toString());
        m.put("hint_window_persistent_enabled", Boolean.toString(hintWindowPersistentEnabled));
        m.put("auto_hints_cleanup_enabled", Boolean.toString(autoHintsCleanupEnabled));
        m.put("commitlog_sync", commitlogSync.configName());
        m.put("commitlog_sync_period", Durations.format(commitlogSyncPeriod));
        m.put("commitlog_sync_group_window", Durations.format(commitlogSyncGroupWindow));
        m.put("commitlog_segment_size", commitlogSegmentSize.toString());
        m.put("commitlog_total_space", commitlogTotalSpace.toString());
        m.put("ignore_commitlog_corruption", Boolean.toString(ignoreCommitlogCorruption));
        m.put("auto_bootstrap", Boolean.toString(autoBootstrap));
        m.put("drop_compact_storage_enabled", Boolean.toString(dropCompactStorageEnabled));
        m.put("authenticator", authenticator.className());
        m.put("authorizer", authorizer.className());
        m.put("role_manager", roleManager);
        m.put("network_authorizer", networkAuthorizer);
        m.put("roles_validity", Durations.format(rolesValidity));
        m.put("permissions_validity", Durations.format(permissionsValidity));
        m.put("credentials_validity", Durations.format(credentialsValidity));
        m.put("auth_read_consistency_level", authReadConsistencyLevel.name());
        m.put("auth_write_consistency_level", authWriteConsistencyLevel.name());
        m.put("num_tokens", Integer.toString(numTokens));
        m.put("partitioner", partitioner);
        m.put("endpoint_snitch", endpointSnitch);
        m.put("memory_budget", memoryBudget.toString());
        m.put("compaction_throughput", compactionThroughput + "/s");
        m.put("stream_throughput_outbound", streamThroughputOutbound + "/s");
        m.put("smp", Integer.toString(smp));
        m.put("prepared_statements_cache_size", preparedStatementsCacheSize.toString());
        m.put("read_request_timeout", Durations.format(readRequestTimeout));
        m.put("range_request_timeout", Durations.format(rangeRequestTimeout));
        m.put("write_request_timeout", Durations.format(writeRequestTimeout));
        m.put("counter_write_request_timeout", Durations.format(counterWriteRequestTimeout));
        m.put("cas_contention_timeout", Durations.format(casContentionTimeout));
        m.put("truncate_request_timeout", Durations.format(truncateRequestTimeout));
        m.put("request_timeout", Durations.format(requestTimeout));
        m.put("batch_size_warn_threshold", batchSizeWarnThreshold.toString());
        m.put("batch_size_fail_threshold", batchSizeFailThreshold.toString());
        m.put("tombstone_warn_threshold", Integer.toString(tombstoneWarnThreshold));
        m.put("tombstone_failure_threshold", Integer.toString(tombstoneFailureThreshold));
        return m;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        asMap().forEach((k, v) -> parts.add(k + "=" + v));
        return "NodeConfig{" + String.join(", ", parts) + "}";
    }

    /**
     * Mutable, with Cassandra 5.0's defaults; every setter returns {@code this}. Unset optional values
     * (null, or 0 for smp) get machine-dependent defaults in {@link #build()}; relative paths resolve against
     * {@link #baseDirectory(Path)}.
     */
    public static final class Builder {
        private Path baseDirectory = defaultBaseDirectory(System.getProperties());
        private Path configDirectory;
        private Machine machine;
        private String clusterName = "Test Cluster";
        private String listenAddress = "127.0.0.1";
        private String broadcastAddress;
        private String rpcAddress = "127.0.0.1";
        private String broadcastRpcAddress;
        private List<String> seeds;
        private boolean startNativeTransport = true;
        private int nativeTransportPort = 9042;
        private int nativeShardAwareTransportPort = 19042;
        private DataSize nativeTransportMaxFrameSize = DataSize.ofMebibytes(16);
        private long nativeTransportMaxConcurrentConnections = -1;
        private long nativeTransportMaxConcurrentConnectionsPerIp = -1;
        private DataSize nativeTransportMaxRequestDataInFlight;
        private DataSize nativeTransportMaxRequestDataInFlightPerIp;
        private Duration nativeTransportIdleTimeout = Duration.ZERO;
        private boolean nativeTransportAllowOlderProtocols = true;
        private boolean nativeTransportRateLimitingEnabled;
        private long nativeTransportMaxRequestsPerSecond = 1_000_000;
        private int storagePort = 7000;
        private int metadataPort = 7010;
        private int jmxPort = 7199;
        private String jmxAddress = "127.0.0.1";
        private Path jmxPasswordFile;
        private Path jmxAccessFile;
        private String jmxLoginConfig;
        private String jmxAuthorizer;
        private EncryptionOptions jmxEncryptionOptions = EncryptionOptions.parse("jmx_encryption_options", null, false);
        private EncryptionOptions clientEncryptionOptions = EncryptionOptions.disabledClient();
        private EncryptionOptions serverEncryptionOptions = EncryptionOptions.disabledServer();
        private int prometheusPort = 9180;
        private List<Path> dataFileDirectories;
        private Path commitlogDirectory;
        private Path savedCachesDirectory;
        private Path hintsDirectory;
        private boolean hintedHandoffEnabled = true;
        private List<String> hintedHandoffDisabledDatacenters = List.of();
        private Duration maxHintWindow = Duration.ofHours(3);
        private DataSize hintedHandoffThrottle = DataSize.ofKibibytes(1024);
        private int maxHintsDeliveryThreads = 2;
        private Duration hintsFlushPeriod = Duration.ofSeconds(10);
        private DataSize maxHintsFileSize = DataSize.ofMebibytes(128);
        private DataSize maxHintsSizePerHost = DataSize.ofBytes(0);
        private boolean hintWindowPersistentEnabled = true;
        private boolean autoHintsCleanupEnabled = false;
        private CommitLogSync commitlogSync = CommitLogSync.PERIODIC;
        private Duration commitlogSyncPeriod = Duration.ofSeconds(10);
        private Duration commitlogSyncGroupWindow = Duration.ofMillis(15);
        private DataSize commitlogSegmentSize = DataSize.ofMebibytes(32);
        private DataSize commitlogTotalSpace = DataSize.ofGibibytes(8);
        private boolean ignoreCommitlogCorruption;
        private boolean autoBootstrap = true;
        private boolean dropCompactStorageEnabled;
        private AuthenticatorType authenticator = AuthenticatorType.ALLOW_ALL;
        private AuthorizerType authorizer = AuthorizerType.ALLOW_ALL;
        private String roleManager = "CassandraRoleManager";
        private String networkAuthorizer = "AllowAllNetworkAuthorizer";
        private Duration rolesValidity = Duration.ofMillis(2000);
        private Duration permissionsValidity = Duration.ofMillis(2000);
        private Duration credentialsValidity = Duration.ofMillis(2000);
        private io.charybdis.protocol.Consistency authReadConsistencyLevel = io.charybdis.protocol.Consistency.LOCAL_QUORUM;
        private io.charybdis.protocol.Consistency authWriteConsistencyLevel = io.charybdis.protocol.Consistency.EACH_QUORUM;
        private int numTokens = 16;
        private String partitioner = MURMUR3_PARTITIONER;
        private String endpointSnitch = "SimpleSnitch";
        private DataSize memoryBudget;
        private DataSize compactionThroughput = DataSize.ofBytes(0);
        private DataSize streamThroughputOutbound = DataSize.ofMebibytes(24); // Cassandra 5.0's default
        private int smp;
        private DataSize preparedStatementsCacheSize;
        private Duration readRequestTimeout = Duration.ofMillis(5000);
        private Duration rangeRequestTimeout = Duration.ofMillis(10000);
        private Duration writeRequestTimeout = Duration.ofMillis(2000);
        private Duration counterWriteRequestTimeout = Duration.ofMillis(5000);
        private Duration casContentionTimeout = Duration.ofMillis(1000);
        private Duration truncateRequestTimeout = Duration.ofMillis(60000);
        private Duration requestTimeout = Duration.ofMillis(10000);
        private DataSize batchSizeWarnThreshold = DataSize.ofKibibytes(5);
        private DataSize batchSizeFailThreshold = DataSize.ofKibibytes(50);
        private int tombstoneWarnThreshold = 1000;
        private int tombstoneFailureThreshold = 100_000;

        private Builder() {
        }

        /** Validates and fills machine-dependent defaults; throws {@link ConfigurationException} naming the key. */
        public NodeConfig build() {
            return new NodeConfig(this, machine != null ? machine : Machine.current());
        }

        Builder machine(Machine m) { this.machine = m; return this; }

        public Builder baseDirectory(Path v) { this.baseDirectory = Objects.requireNonNull(v); return this; }
        public Builder clusterName(String v) { this.clusterName = v; return this; }
        public Builder listenAddress(String v) { this.listenAddress = v; return this; }
        public Builder broadcastAddress(String v) { this.broadcastAddress = v; return this; }
        public Builder rpcAddress(String v) { this.rpcAddress = v; return this; }
        public Builder broadcastRpcAddress(String v) { this.broadcastRpcAddress = v; return this; }
        public Builder seeds(List<String> v) { this.seeds = v == null ? null : List.copyOf(v); return this; }
        public Builder startNativeTransport(boolean v) { this.startNativeTransport = v; return this; }
        public Builder nativeTransportPort(int v) { this.nativeTransportPort = v; return this; }
        public Builder nativeShardAwareTransportPort(int v) { this.nativeShardAwareTransportPort = v; return this; }
        public Builder nativeTransportMaxFrameSize(DataSize v) { this.nativeTransportMaxFrameSize = Objects.requireNonNull(v); return this; }
        public Builder nativeTransportMaxConcurrentConnections(long v) { this.nativeTransportMaxConcurrentConnections = v; return this; }
        public Builder nativeTransportMaxConcurrentConnectionsPerIp(long v) { this.nativeTransportMaxConcurrentConnectionsPerIp = v; return this; }
        public Builder nativeTransportMaxRequestDataInFlight(DataSize v) { this.nativeTransportMaxRequestDataInFlight = v; return this; }
        public Builder nativeTransportMaxRequestDataInFlightPerIp(DataSize v) { this.nativeTransportMaxRequestDataInFlightPerIp = v; return this; }
        public Builder nativeTransportIdleTimeout(Duration v) { this.nativeTransportIdleTimeout = Objects.requireNonNull(v); return this; }
        public Builder nativeTransportAllowOlderProtocols(boolean v) { this.nativeTransportAllowOlderProtocols = v; return this; }
        public Builder nativeTransportRateLimitingEnabled(boolean v) { this.nativeTransportRateLimitingEnabled = v; return this; }
        public Builder nativeTransportMaxRequestsPerSecond(long v) { this.nativeTransportMaxRequestsPerSecond = v; return this; }
        public Builder storagePort(int v) { this.storagePort = v; return this; }
        public Builder metadataPort(int v) { this.metadataPort = v; return this; }
        public Builder jmxPort(int v) { this.jmxPort = v; return this; }
        /** Where JMX listens; a non-loopback address needs {@link #jmxPasswordFile(Path)}. */
        public Builder jmxAddress(String v) { this.jmxAddress = v; return this; }
        /** Users and passwords as the JDK's {@code jmxremote.password} file writes them. */
        public Builder jmxPasswordFile(Path v) { this.jmxPasswordFile = v; return this; }
        /** Access levels as the JDK's {@code jmxremote.access} file writes them. */
        public Builder jmxAccessFile(Path v) { this.jmxAccessFile = v; return this; }
        public Builder jmxLoginConfig(String v) { this.jmxLoginConfig = v == null || v.isBlank() ? null : v; return this; }
        public Builder jmxAuthorizer(String v) { this.jmxAuthorizer = v == null || v.isBlank() ? null : v; return this; }
        public Builder jmxEncryptionOptions(EncryptionOptions v) { this.jmxEncryptionOptions = Objects.requireNonNull(v); return this; }
        public Builder clientEncryptionOptions(EncryptionOptions v) { this.clientEncryptionOptions = Objects.requireNonNull(v); return this; }
        public Builder serverEncryptionOptions(EncryptionOptions v) { this.serverEncryptionOptions = Objects.requireNonNull(v); return this; }
        public Builder prometheusPort(int v) { this.prometheusPort = v; return this; }
        public Builder dataFileDirectories(List<Path> v) { this.dataFileDirectories = v == null ? null : List.copyOf(v); return this; }
        public Builder commitlogDirectory(Path v) { this.commitlogDirectory = v; return this; }
        public Builder savedCachesDirectory(Path v) { this.savedCachesDirectory = v; return this; }
        public Builder hintsDirectory(Path v) { this.hintsDirectory = v; return this; }
        public Builder hintedHandoffEnabled(boolean v) { this.hintedHandoffEnabled = v; return this; }
        public Builder hintedHandoffDisabledDatacenters(List<String> v) { this.hintedHandoffDisabledDatacenters = Objects.requireNonNull(v); return this; }
        public Builder maxHintWindow(Duration v) { this.maxHintWindow = Objects.requireNonNull(v); return this; }
        public Builder hintedHandoffThrottle(DataSize v) { this.hintedHandoffThrottle = Objects.requireNonNull(v); return this; }
        public Builder maxHintsDeliveryThreads(int v) { this.maxHintsDeliveryThreads = v; return this; }
        public Builder hintsFlushPeriod(Duration v) { this.hintsFlushPeriod = Objects.requireNonNull(v); return this; }
        public Builder maxHintsFileSize(DataSize v) { this.maxHintsFileSize = Objects.requireNonNull(v); return this; }
        public Builder maxHintsSizePerHost(DataSize v) { this.maxHintsSizePerHost = Objects.requireNonNull(v); return this; }
        public Builder hintWindowPersistentEnabled(boolean v) { this.hintWindowPersistentEnabled = v; return this; }
        public Builder autoHintsCleanupEnabled(boolean v) { this.autoHintsCleanupEnabled = v; return this; }
        public Builder commitlogSync(CommitLogSync v) { this.commitlogSync = Objects.requireNonNull(v); return this; }
        public Builder commitlogSyncPeriod(Duration v) { this.commitlogSyncPeriod = Objects.requireNonNull(v); return this; }
        public Builder commitlogSyncGroupWindow(Duration v) { this.commitlogSyncGroupWindow = Objects.requireNonNull(v); return this; }
        public Builder commitlogSegmentSize(DataSize v) { this.commitlogSegmentSize = Objects.requireNonNull(v); return this; }
        public Builder commitlogTotalSpace(DataSize v) { this.commitlogTotalSpace = Objects.requireNonNull(v); return this; }
        public Builder ignoreCommitlogCorruption(boolean v) { this.ignoreCommitlogCorruption = v; return this; }
        public Builder autoBootstrap(boolean v) { this.autoBootstrap = v; return this; }
        public Builder dropCompactStorageEnabled(boolean v) { this.dropCompactStorageEnabled = v; return this; }
        public Builder authenticator(AuthenticatorType v) { this.authenticator = Objects.requireNonNull(v); return this; }
        public Builder authorizer(AuthorizerType v) { this.authorizer = Objects.requireNonNull(v); return this; }
        public Builder roleManager(String v) { this.roleManager = Objects.requireNonNull(v); return this; }
        public Builder networkAuthorizer(String v) { this.networkAuthorizer = Objects.requireNonNull(v); return this; }
        public Builder rolesValidity(Duration v) { this.rolesValidity = Objects.requireNonNull(v); return this; }
        public Builder permissionsValidity(Duration v) { this.permissionsValidity = Objects.requireNonNull(v); return this; }
        public Builder credentialsValidity(Duration v) { this.credentialsValidity = Objects.requireNonNull(v); return this; }
        public Builder authReadConsistencyLevel(io.charybdis.protocol.Consistency v) { this.authReadConsistencyLevel = Objects.requireNonNull(v); return this; }
        public Builder authWriteConsistencyLevel(io.charybdis.protocol.Consistency v) { this.authWriteConsistencyLevel = Objects.requireNonNull(v); return this; }
        public Builder numTokens(int v) { this.numTokens = v; return this; }
        /** Short ({@code Murmur3Partitioner}) or qualified name; anything but Murmur3 fails in {@link #build()}. */
        public Builder partitioner(String v) {
            String name = Objects.requireNonNull(v).trim();
            this.partitioner = name.contains(".") ? name : ConfigNames.CASSANDRA_DHT_PACKAGE + name;
            return this;
        }
        public Builder configDirectory(Path v) {
            this.configDirectory = v == null ? null : v.toAbsolutePath().normalize();
            return this;
        }

        public Builder endpointSnitch(String v) {
            this.endpointSnitch = ConfigNames.stripPackage(Objects.requireNonNull(v).trim(), ConfigNames.CASSANDRA_LOCATOR_PACKAGE);
            return this;
        }
        public Builder memoryBudget(DataSize v) { this.memoryBudget = v; return this; }
        /** Per second; 0 = no cap. */
        public Builder compactionThroughput(DataSize v) { this.compactionThroughput = Objects.requireNonNull(v); return this; }
        public Builder streamThroughputOutbound(DataSize v) { this.streamThroughputOutbound = Objects.requireNonNull(v); return this; }
        /** 0 = one shard per available processor. */
        public Builder smp(int v) { this.smp = v; return this; }
        public Builder preparedStatementsCacheSize(DataSize v) { this.preparedStatementsCacheSize = v; return this; }
        public Builder readRequestTimeout(Duration v) { this.readRequestTimeout = Objects.requireNonNull(v); return this; }
        public Builder rangeRequestTimeout(Duration v) { this.rangeRequestTimeout = Objects.requireNonNull(v); return this; }
        public Builder writeRequestTimeout(Duration v) { this.writeRequestTimeout = Objects.requireNonNull(v); return this; }
        public Builder counterWriteRequestTimeout(Duration v) { this.counterWriteRequestTimeout = Objects.requireNonNull(v); return this; }
        public Builder casContentionTimeout(Duration v) { this.casContentionTimeout = Objects.requireNonNull(v); return this; }
        public Builder truncateRequestTimeout(Duration v) { this.truncateRequestTimeout = Objects.requireNonNull(v); return this; }
        public Builder requestTimeout(Duration v) { this.requestTimeout = Objects.requireNonNull(v); return this; }
        public Builder batchSizeWarnThreshold(DataSize v) { this.batchSizeWarnThreshold = Objects.requireNonNull(v); return this; }
        public Builder batchSizeFailThreshold(DataSize v) { this.batchSizeFailThreshold = Objects.requireNonNull(v); return this; }
        public Builder tombstoneWarnThreshold(int v) { this.tombstoneWarnThreshold = v; return this; }
        public Builder tombstoneFailureThreshold(int v) { this.tombstoneFailureThreshold = v; return this; }
    }
}
