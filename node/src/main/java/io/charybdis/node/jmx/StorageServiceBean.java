package io.charybdis.node.jmx;

import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.TableId;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * {@code org.apache.cassandra.db:type=StorageService} for a single node: this node is the only live endpoint, owns
 * every token range, and nothing joins, leaves or moves.
 */
final class StorageServiceBean implements StorageServiceMBean {
    private final NodeView node;
    /** Repair progress goes to nodetool as notifications of this bean. */
    private final javax.management.NotificationBroadcasterSupport emitter =
            new javax.management.NotificationBroadcasterSupport();
    private final RepairJobs repairs = new RepairJobs(emitter);
    private volatile String removalStatus = "No removals in process.";
    private final Snapshots snapshots;

    StorageServiceBean(NodeView node) {
        this.node = node;
        this.snapshots = new Snapshots(node);
    }

    Snapshots snapshots() {
        return snapshots;
    }

    javax.management.NotificationEmitter emitter() {
        return emitter;
    }

    void close() {
        repairs.close();
        snapshots.close();
    }

    @Override
    public List<String> getLiveNodes() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.live(c, false);
        }
        return List.of(node.endpoint());
    }

    @Override
    public List<String> getLiveNodesWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.live(c, true);
        }
        return List.of(node.endpointWithPort());
    }

    @Override
    public List<String> getUnreachableNodes() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.unreachable(c, false);
        }
        return List.of();
    }

    @Override
    public List<String> getUnreachableNodesWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.unreachable(c, true);
        }
        return List.of();
    }

    @Override
    public List<String> getJoiningNodes() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.withStatus(c, false, "JOINING");
        }
        return List.of();
    }

    @Override
    public List<String> getJoiningNodesWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.withStatus(c, true, "JOINING");
        }
        return List.of();
    }

    @Override
    public List<String> getLeavingNodes() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.withStatus(c, false, "LEAVING");
        }
        return List.of();
    }

    @Override
    public List<String> getLeavingNodesWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.withStatus(c, true, "LEAVING");
        }
        return List.of();
    }

    @Override
    public List<String> getMovingNodes() {
        return List.of();
    }

    @Override
    public List<String> getMovingNodesWithPort() {
        return List.of();
    }

    /** The node's tokens in ring order. */
    private List<String> sortedTokens() {
        List<String> ts = new ArrayList<>(node.info.tokens());
        ts.sort(Comparator.comparing(BigInteger::new));
        return ts;
    }

    @Override
    public List<String> getTokens() {
        return sortedTokens();
    }

    @Override
    public List<String> getTokens(String endpoint) throws UnknownHostException {
        ClusterOps c = node.cluster;
        ClusterOps.Member member = c == null ? null : ClusterViews.find(c, endpoint);
        if (member != null) {
            return member.tokens().stream().sorted().map(String::valueOf).toList();
        }
        if (!node.isLocal(endpoint)) {
            InetAddress.getByName(endpoint); // an unknown host name fails as in Cassandra
            return List.of();
        }
        return sortedTokens();
    }

    @Override
    public String getReleaseVersion() {
        return node.info.releaseVersion();
    }

    @Override
    public String getGitSHA() {
        return "Unknown";
    }

    @Override
    public String getSchemaVersion() {
        return node.schema.get().version().toString();
    }

    @Override
    public String getKeyspaceReplicationInfo(String keyspaceName) {
        return NodeView.replicationInfo(node.keyspace(keyspaceName).replication());
    }

    private Map<String, String> tokenMap(String endpoint) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String t : sortedTokens()) {
            m.put(t, endpoint);
        }
        return m;
    }

    @Override
    public Map<String, String> getTokenToEndpointMap() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.tokenToEndpoint(c, false);
        }
        return tokenMap(node.endpoint());
    }

    @Override
    public Map<String, String> getTokenToEndpointWithPortMap() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.tokenToEndpoint(c, true);
        }
        return tokenMap(node.endpointWithPort());
    }

    @Override
    public String getLocalHostId() {
        return node.info.hostId().toString();
    }

    @Override
    public Map<String, String> getEndpointToHostId() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.hostIds(c, true, false);
        }
        return Map.of(node.endpoint(), getLocalHostId());
    }

    @Override
    public Map<String, String> getEndpointWithPortToHostId() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.hostIds(c, true, true);
        }
        return Map.of(node.endpointWithPort(), getLocalHostId());
    }

    @Override
    public Map<String, String> getHostIdToEndpoint() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.hostIds(c, false, false);
        }
        return Map.of(getLocalHostId(), node.endpoint());
    }

    @Override
    public Map<String, String> getHostIdToEndpointWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.hostIds(c, false, true);
        }
        return Map.of(getLocalHostId(), node.endpointWithPort());
    }

    @Override
    public String getLoadString() {
        return FileSizes.stringify(node.loadBytes());
    }

    @Override
    public String getUncompressedLoadString() {
        return FileSizes.stringify(node.uncompressedLoadBytes());
    }

    @Override
    public Map<String, String> getLoadMap() {
        return loadMap(false);
    }

    @Override
    public Map<String, String> getLoadMapWithPort() {
        return loadMap(true);
    }

    /** This node's load and each other member's as its last answer to the failure detector carried it. */
    private Map<String, String> loadMap(boolean withPort) {
        ClusterOps c = node.cluster;
        Map<String, String> out = new java.util.LinkedHashMap<>();
        out.put(withPort ? node.endpointWithPort() : node.endpoint(), getLoadString());
        if (c != null) {
            java.util.UUID self = c.self();
            for (ClusterOps.Member m : c.members()) {
                long load = m.hostId().equals(self) ? -1 : c.loadOf(m.hostId());
                if (load >= 0) {
                    out.put(withPort ? m.endpointWithPort() : m.address(), FileSizes.stringify(load));
                }
            }
        }
        return out;
    }

    @Override
    public int getCurrentGenerationNumber() {
        return (int) (node.info.startedAtMillis() / 1000);
    }

    @Override
    public void forceKeyspaceCompaction(boolean splitOutput, String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (TableMetadata t : node.tables(keyspaceName, tableNames)) {
            if (node.hasStorage(t)) { // computed system tables have nothing to compact
                fs.add(node.storage.forceMajorCompaction(new TableId(t.id())));
            }
        }
        NodeView.await(CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)));
    }

    @Override
    public void forceKeyspaceFlush(String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (TableMetadata t : node.tables(keyspaceName, tableNames)) {
            if (node.hasStorage(t)) { // computed system tables have nothing to flush
                fs.add(node.storage.flush(new TableId(t.id())));
            }
        }
        NodeView.await(CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)));
    }

    @Override
    public String getOperationMode() {
        ClusterOps c = node.cluster;
        String mode = node.operationMode();
        if (c != null && mode.equals("NORMAL")) {
            return c.mode(); // JOINING, LEAVING, ... while a topology change is under way
        }
        return mode;
    }

    @Override
    public boolean isStarting() {
        return false;
    }

    @Override
    public boolean isDrained() {
        return "DRAINED".equals(node.operationMode());
    }

    @Override
    public boolean isDraining() {
        return "DRAINING".equals(node.operationMode());
    }

    @Override
    public boolean isDecommissioning() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return c.mode().equals("LEAVING");
        }
        return false;
    }

    @Override
    public boolean isDecommissionFailed() {
        ClusterOps c = node.cluster;
        return c != null && c.decommissionFailed();
    }

    @Override
    public boolean isBootstrapFailed() {
        return false;
    }

    @Override
    public String getBootstrapState() {
        return "COMPLETED";
    }

    @Override
    public Map<InetAddress, Float> getOwnership() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return byAddress(ClusterViews.ownership(c, false));
        }
        return Map.of(node.info.listenAddress(), 1.0f);
    }

    @Override
    public Map<String, Float> getOwnershipWithPort() {
        ClusterOps c = node.cluster;
        if (c != null) {
            return ClusterViews.ownership(c, true);
        }
        return Map.of(node.endpointWithPort(), 1.0f);
    }

    @Override
    public Map<InetAddress, Float> effectiveOwnership(String keyspace) throws IllegalStateException {
        checkKeyspace(keyspace);
        ClusterOps c = node.cluster;
        if (c != null && keyspace != null && !keyspace.isEmpty()) {
            return byAddress(ClusterViews.effectiveOwnership(c, keyspace, false));
        }
        if (c != null) {
            throw new IllegalStateException("Non-system keyspaces don't have the same replication settings, effective "
                    + "ownership information is meaningless");
        }
        return getOwnership();
    }

    /** One node holds every replica of every range: its effective ownership is 100% for any keyspace. */
    @Override
    public Map<String, Float> effectiveOwnershipWithPort(String keyspace) throws IllegalStateException {
        checkKeyspace(keyspace);
        ClusterOps c = node.cluster;
        if (c != null && keyspace != null && !keyspace.isEmpty()) {
            return ClusterViews.effectiveOwnership(c, keyspace, true);
        }
        if (c != null) {
            throw new IllegalStateException("Non-system keyspaces don't have the same replication settings, effective "
                    + "ownership information is meaningless");
        }
        return getOwnershipWithPort();
    }

    private void checkKeyspace(String keyspace) {
        if (keyspace != null && !keyspace.isEmpty()) {
            KeyspaceMetadata ks = node.schema.get().keyspace(keyspace);
            if (ks == null || NodeView.cassandraVirtual(keyspace)) {
                throw new IllegalArgumentException("The keyspace " + keyspace + ", does not exist");
            }
        }
    }

    @Override
    public List<String> getKeyspaces() {
        List<String> r = new ArrayList<>();
        for (KeyspaceMetadata ks : node.keyspaces()) {
            r.add(ks.name());
        }
        return r;
    }

    @Override
    public List<String> getNonSystemKeyspaces() {
        List<String> r = new ArrayList<>();
        for (KeyspaceMetadata ks : node.keyspaces()) {
            if (!ks.isSystem()) {
                r.add(ks.name());
            }
        }
        return r;
    }

    @Override
    public List<String> getNonLocalStrategyKeyspaces() {
        List<String> r = new ArrayList<>();
        for (KeyspaceMetadata ks : node.keyspaces()) {
            String cls = ks.replication().getOrDefault("class", "LocalStrategy");
            if (!cls.endsWith("LocalStrategy")) {
                r.add(ks.name());
            }
        }
        return r;
    }

    @Override
    public boolean isGossipRunning() {
        return node.running;
    }

    @Override
    public boolean isNativeTransportRunning() {
        return node.nativeTransportRunning();
    }

    @Override
    public void refreshSizeEstimates() throws ExecutionException {
        try {
            node.refreshSizeEstimates();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExecutionException(e);
        }
    }

    @Override
    public void startNativeTransport() throws InterruptedException {
        node.startNativeTransport();
    }

    @Override
    public void stopNativeTransport() {
        node.stopNativeTransport(false);
    }

    @Override
    public void stopNativeTransport(boolean force) {
        node.stopNativeTransport(force);
    }

    @Override
    public boolean isJoined() {
        return true;
    }

    @Override
    public boolean isIncrementalBackupsEnabled() {
        return false;
    }

    @Override
    public long getRpcTimeout() {
        return node.config.requestTimeout().toMillis();
    }

    @Override
    public long getReadRpcTimeout() {
        return node.config.readRequestTimeout().toMillis();
    }

    @Override
    public long getRangeRpcTimeout() {
        return node.config.rangeRequestTimeout().toMillis();
    }

    @Override
    public long getWriteRpcTimeout() {
        return node.config.writeRequestTimeout().toMillis();
    }

    @Override
    public long getCounterWriteRpcTimeout() {
        return node.config.counterWriteRequestTimeout().toMillis();
    }

    @Override
    public long getCasContentionTimeout() {
        return node.config.casContentionTimeout().toMillis();
    }

    @Override
    public long getTruncateRpcTimeout() {
        return node.config.truncateRequestTimeout().toMillis();
    }

    /** Cassandra's defaults (internode_tcp_connect_timeout 2 s, user timeouts 30 s and 5 min). */
    @Override
    public int getInternodeTcpConnectTimeoutInMS() {
        return 2000;
    }

    @Override
    public int getInternodeTcpUserTimeoutInMS() {
        return 30000;
    }

    @Override
    public int getInternodeStreamingTcpUserTimeoutInMS() {
        return 300000;
    }

    /**
     * The compaction_throughput cap (0 = none: the backlog controllers alone decide compaction's share), as
     * nodetool getcompactionthroughput reads it.
     */
    @Override
    public double getCompactionThroughtputMibPerSecAsDouble() {
        return node.storage.compactionThroughputCap() / (double) (1 << 20);
    }

    @Override
    public long getCompactionThroughtputBytesPerSec() {
        return node.storage.compactionThroughputCap();
    }

    @Override
    public int getCompactionThroughputMbPerSec() {
        return (int) Math.min(Integer.MAX_VALUE, node.storage.compactionThroughputCap() >> 20);
    }

    /** nodetool setcompactionthroughput: a cap in MiB/s on top of the controller; 0 removes it. */
    @Override
    public void setCompactionThroughputMbPerSec(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("compaction throughput must be >= 0 MiB/s, not " + value);
        }
        node.storage.setCompactionThroughputCap((long) value << 20);
    }

    @Override
    public void setTraceProbability(double probability) {
        node.tracing().setProbability(probability);
    }

    @Override
    public double getTraceProbability() {
        return node.tracing().probability();
    }

    /** One compaction at a time per shard. */
    @Override
    public int getConcurrentCompactors() {
        return node.storage.shardCount();
    }

    @Override
    public String getClusterName() {
        return node.info.clusterName();
    }

    @Override
    public String getPartitionerName() {
        return node.info.partitioner();
    }

    @Override
    public Map<String, long[]> getOutOfRangeOperationCounts() {
        return Map.of();
    }

    // ------------------------------------------------------------------ cluster operations (topology, repair)

    @Override
    public int repairAsync(String keyspace, Map<String, String> options) {
        KeyspaceMetadata ks = node.keyspace(keyspace);
        io.charybdis.cluster.locator.ReplicationStrategy strategy =
                io.charybdis.cluster.locator.ReplicationStrategy.of(ks.replication());
        boolean replicated = !(strategy instanceof io.charybdis.cluster.locator.ReplicationStrategy.Local)
                && strategy.replicationFactor() > 1;
        return repairs.start(node.cluster, keyspace, options == null ? Map.of() : options, replicated);
    }

    @Override
    public List<String> getParentRepairStatus(int cmd) {
        return repairs.status(cmd);
    }

    @Override
    public void decommission(boolean force) throws InterruptedException {
        ClusterOps c = node.cluster;
        if (c == null) {
            throw new UnsupportedOperationException("no other node in the cluster to decommission to");
        }
        c.decommission(force);
    }

    @Override
    public void move(String newToken) throws IOException {
        if (getTokens().size() > 1) {
            throw new UnsupportedOperationException("This node has more than one token and cannot be moved thusly.");
        }
        throw new UnsupportedOperationException("moving a node to another token is not built in Charybdis "
                + "(decommission it and bootstrap it again with initial_token instead)");
    }

    @Override
    public void rebuild(String sourceDc) {
        rebuild(sourceDc, null, null, null, false);
    }

    @Override
    public void rebuild(String sourceDc, String keyspace, String tokens, String specificSources) {
        rebuild(sourceDc, keyspace, tokens, specificSources, false);
    }

    @Override
    public void rebuild(String sourceDc, String keyspace, String tokens, String specificSources,
                        boolean excludeLocalDatacenterNodes) {
        if (tokens != null) {
            throw new UnsupportedOperationException("rebuild of chosen token ranges (--tokens) is not built in "
                    + "Charybdis: rebuild streams every range of the node");
        }
        if (specificSources != null) {
            throw new UnsupportedOperationException("rebuild from chosen sources (--sources) is not built in "
                    + "Charybdis: rebuild streams from every live replica");
        }
        ClusterOps c = node.cluster;
        if (c == null) {
            throw new UnsupportedOperationException("no other node to rebuild from: this node runs alone");
        }
        if (keyspace != null) {
            node.keyspace(keyspace); // Unknown keyspace
        }
        c.rebuild(sourceDc, keyspace, excludeLocalDatacenterNodes);
    }

    @Override
    public void removeNode(String hostIdString) {
        ClusterOps c = node.cluster;
        if (c == null) {
            throw new UnsupportedOperationException("Host ID not found.");
        }
        java.util.UUID id = java.util.UUID.fromString(hostIdString);
        removalStatus = "Removing token (" + id + "). Waiting for replication confirmation from the new replicas.";
        try {
            c.removeNode(id);
        } finally {
            removalStatus = "No removals in process.";
        }
    }

    @Override
    public String getRemovalStatus() {
        return removalStatus;
    }

    @Override
    public String getRemovalStatusWithPort() {
        return removalStatus;
    }

    @Override
    public int forceKeyspaceCleanup(String keyspaceName, String... tables)
            throws IOException, ExecutionException, InterruptedException {
        return forceKeyspaceCleanup(0, keyspaceName, tables);
    }

    /** 0 = SUCCESSFUL, as CompactionManager.AllSSTableOpStatus; a node on its own owns everything: nothing to drop. */
    @Override
    public int forceKeyspaceCleanup(int jobs, String keyspaceName, String... tables)
            throws IOException, ExecutionException, InterruptedException {
        KeyspaceMetadata ks = node.keyspace(keyspaceName);
        if (ks.isSystem()) {
            throw new RuntimeException("Cleanup of system keyspace " + keyspaceName + " is not allowed");
        }
        ClusterOps c = node.cluster;
        if (c != null) {
            c.cleanup(keyspaceName, tables == null ? List.of() : List.of(tables));
        }
        return 0;
    }

    private static Map<InetAddress, Float> byAddress(Map<String, Float> byName) {
        Map<InetAddress, Float> out = new LinkedHashMap<>();
        byName.forEach((k, v) -> {
            try {
                out.put(InetAddress.getByName(k), v);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        });
        return out;
    }

    @Override
    public List<InetAddress> getNaturalEndpoints(String keyspaceName, String cf, String key) {
        List<InetAddress> out = new ArrayList<>();
        for (String e : naturalEndpoints(keyspaceName, cf, key, false)) {
            try {
                out.add(InetAddress.getByName(e));
            } catch (UnknownHostException x) {
                throw new IllegalStateException(x);
            }
        }
        return out;
    }

    @Override
    public List<String> getNaturalEndpointsWithPort(String keyspaceName, String cf, String key) {
        return naturalEndpoints(keyspaceName, cf, key, true);
    }

    private List<String> naturalEndpoints(String keyspaceName, String cf, String key, boolean withPort) {
        KeyspaceMetadata ks = node.keyspace(keyspaceName);
        TableMetadata t = ks.tables().get(cf);
        if (t == null) {
            throw new IllegalArgumentException("Unknown table '" + cf + "' in keyspace '" + keyspaceName + "'");
        }
        long token = KeyStrings.token(t, key);
        ClusterOps c = node.cluster;
        if (c == null) {
            return List.of(withPort ? node.endpointWithPort() : node.endpoint());
        }
        List<String> out = new ArrayList<>();
        for (ClusterOps.Member m : c.replicas(keyspaceName, token)) {
            out.add(ClusterViews.name(m, withPort));
        }
        return out;
    }

    // ---- snapshots, drain, stopdaemon

    @Override
    public void takeSnapshot(String tag, Map<String, String> options, String... entities) throws IOException {
        snapshots.take(tag, options, entities);
    }

    @Override
    public void takeSnapshot(String tag, String... keyspaceNames) throws IOException {
        snapshots.take(tag, Map.of(), keyspaceNames);
    }

    @Override
    public void takeTableSnapshot(String keyspaceName, String tableName, String tag) throws IOException {
        snapshots.take(tag, Map.of(), keyspaceName + "." + tableName);
    }

    @Override
    public void takeMultipleTableSnapshot(String tag, String... tableList) throws IOException {
        snapshots.take(tag, Map.of(), tableList);
    }

    @Override
    public void clearSnapshot(String tag, String... keyspaceNames) throws IOException {
        snapshots.clear(Map.of(), tag, keyspaceNames);
    }

    @Override
    public void clearSnapshot(Map<String, Object> options, String tag, String... keyspaceNames) throws IOException {
        snapshots.clear(options, tag, keyspaceNames);
    }

    @Override
    public Map<String, javax.management.openmbean.TabularData> getSnapshotDetails() {
        return snapshots.details();
    }

    @Override
    public Map<String, javax.management.openmbean.TabularData> getSnapshotDetails(Map<String, String> options) {
        return snapshots.details(options);
    }

    @Override
    public long trueSnapshotsSize() {
        return snapshots.trueSize();
    }

    @Override
    public String getDrainProgress() {
        return node.drainProgress();
    }

    /** Stops serving clients, flushes every memtable and syncs the commit log; JMX stays up. */
    @Override
    public void drain() throws IOException, InterruptedException, ExecutionException {
        node.drain();
    }

    /** Stops the node (and, for a node started by bin/charybdis, its process) once this call has answered. */
    @Override
    public void stopDaemon() {
        node.stopDaemon();
    }

    // ---- logging levels (logback, the node's logging backend)

    /** The loggers with a level of their own, ROOT first, as Cassandra lists them. */
    @Override
    public Map<String, String> getLoggingLevels() {
        ch.qos.logback.classic.LoggerContext lc = loggerContext();
        Map<String, String> r = new LinkedHashMap<>();
        for (ch.qos.logback.classic.Logger l : lc.getLoggerList()) {
            if (l.getLevel() != null) {
                r.put(l.getName(), l.getLevel().toString());
            }
        }
        return r;
    }

    @Override
    public void setLoggingLevel(String classQualifier, String level) {
        boolean noLogger = classQualifier == null || classQualifier.isBlank();
        boolean noLevel = level == null || level.isBlank();
        if (noLogger && noLevel) {
            throw new UnsupportedOperationException("resetting the logging configuration is not supported by "
                    + "Charybdis; name a logger and a level");
        }
        ch.qos.logback.classic.Level parsed = ch.qos.logback.classic.Level.toLevel(level, null);
        if (!noLevel && parsed == null) {
            throw new IllegalArgumentException("Invalid level " + level + ": use one of TRACE, DEBUG, INFO, WARN, "
                    + "ERROR, ALL, OFF");
        }
        loggerContext().getLogger(noLogger ? org.slf4j.Logger.ROOT_LOGGER_NAME : classQualifier).setLevel(parsed);
    }

    private static ch.qos.logback.classic.LoggerContext loggerContext() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext lc) {
            return lc;
        }
        throw new UnsupportedOperationException("logging levels can only be read and set with logback, not "
                + org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName());
    }

    /** Serving: nodetool's tpstats, proxyhistograms and netstats ask this first. */
    @Override
    public boolean isInitialized() {
        return node.running;
    }

    // ---- describering, garbagecollect, auto-compaction, refresh

    @Override
    public List<String> describeRingJMX(String keyspace) throws IOException {
        return describeRing(keyspace, false);
    }

    @Override
    public List<String> describeRingWithPortJMX(String keyspace) throws IOException {
        return describeRing(keyspace, true);
    }

    /**
     * Cassandra's TokenRange strings, one per range (previous token, token] in ring order, with the replicas of the
     * keyspace for it: their addresses, native transport addresses, data centers and racks.
     */
    private List<String> describeRing(String keyspace, boolean withPort) throws IOException {
        KeyspaceMetadata ks = node.schema.get().keyspace(keyspace);
        if (ks == null || NodeView.cassandraVirtual(keyspace)) {
            throw new IOException("No such keyspace: " + keyspace);
        }
        String cls = ks.replication().getOrDefault("class", "LocalStrategy");
        if (ks.virtual() || cls.endsWith("LocalStrategy")) {
            throw new IOException("There is no ring for the keyspace: " + keyspace);
        }
        ClusterOps c = node.cluster;
        List<Long> tokens = new ArrayList<>();
        if (c != null) {
            for (String t : ClusterViews.tokenToEndpoint(c, false).keySet()) {
                tokens.add(Long.parseLong(t));
            }
        } else {
            for (String t : sortedTokens()) {
                tokens.add(Long.parseLong(t));
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            long start = tokens.get((i + tokens.size() - 1) % tokens.size());
            long end = tokens.get(i);
            List<String> hosts = new ArrayList<>();
            List<String> rpcs = new ArrayList<>();
            List<String> details = new ArrayList<>();
            if (c != null) {
                for (ClusterOps.Member m : c.replicas(keyspace, end)) {
                    hosts.add(ClusterViews.name(m, withPort));
                    rpcs.add(withPort ? m.rpcAddress() + ":" + m.nativePort() : m.rpcAddress());
                    details.add(endpointDetails(ClusterViews.name(m, withPort), m.datacenter(), m.rack()));
                }
            } else {
                String host = withPort ? node.endpointWithPort() : node.endpoint();
                String rpc = node.info.rpcAddress().getHostAddress();
                hosts.add(host);
                rpcs.add(withPort ? rpc + ":" + node.info.nativePort() : rpc);
                details.add(endpointDetails(host, node.info.dataCenter(), node.info.rack()));
            }
            out.add("TokenRange(start_token:" + start + ", end_token:" + end + ", endpoints:" + hosts
                    + ", rpc_endpoints:" + rpcs + ", endpoint_details:" + details + ")");
        }
        return out;
    }

    private static String endpointDetails(String host, String dc, String rack) {
        return "EndpointDetails(host:" + host + ", datacenter:" + dc + ", rack:" + rack + ")";
    }

    /**
     * nodetool garbagecollect: drops the data that deletions (and newer writes) shadow. Cassandra rewrites each SSTable
     * alone against the others; here each table's SSTables are compacted together (a major compaction per shard),
     * which drops everything shadowed (cells too: {@code -g CELL} and {@code ROW} alike) and purges the tombstones
     * gc_grace_seconds allows. 0 = done, as Cassandra's AllSSTableOpStatus.SUCCESSFUL.
     */
    @Override
    public int garbageCollect(String tombstoneOption, int jobs, String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException {
        if (!List.of("NONE", "ROW", "CELL").contains(tombstoneOption)) {
            throw new IllegalArgumentException(
                    "No enum constant org.apache.cassandra.schema.CompactionParams.TombstoneOption." + tombstoneOption);
        }
        forceKeyspaceCompaction(false, keyspaceName, tableNames);
        return 0;
    }

    @Override
    public void disableAutoCompaction(String ks, String... tables) throws IOException {
        autoCompaction(ks, tables, false);
    }

    @Override
    public void enableAutoCompaction(String ks, String... tables) throws IOException {
        autoCompaction(ks, tables, true);
    }

    private void autoCompaction(String ks, String[] tables, boolean enabled) throws IOException {
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (TableMetadata t : node.tables(ks, tables)) {
            if (node.hasStorage(t)) {
                fs.add(node.storage.setAutoCompaction(new TableId(t.id()), enabled));
            }
        }
        try {
            NodeView.await(CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)));
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    @Override
    public Map<String, Boolean> getAutoCompactionStatus(String ks, String... tables) throws IOException {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (TableMetadata t : node.tables(ks, tables)) {
            boolean disabled = node.hasStorage(t) ? node.storage.autoCompactionDisabled(new TableId(t.id()))
                    : "false".equalsIgnoreCase(t.params().compaction().getOrDefault("enabled", "true"));
            out.put(t.name(), disabled);
        }
        return out;
    }

    /**
     * nodetool refresh: serves the SSTables placed in the table's directory whose generation numbers the node never
     * used (see Storage#refresh); to bring back SSTables of a snapshot of this node, use nodetool import.
     */
    @Override
    public void loadNewSSTables(String ksName, String tableName) {
        TableMetadata t = node.tables(ksName, tableName).get(0);
        if (!node.hasStorage(t)) {
            throw new IllegalArgumentException("table " + ksName + "." + tableName + " is computed by the node: it has no SSTables");
        }
        try {
            int n = NodeView.await(node.storage.refresh(new TableId(t.id())));
            org.slf4j.LoggerFactory.getLogger(StorageServiceBean.class).info(
                    "refresh table={}.{}: loaded {} new SSTable(s)", ksName, tableName, n);
        } catch (ExecutionException e) {
            throw new IllegalStateException("refresh failed: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
