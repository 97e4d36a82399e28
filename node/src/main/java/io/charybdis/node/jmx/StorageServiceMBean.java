package io.charybdis.node.jmx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * The part of Cassandra's {@code org.apache.cassandra.service.StorageServiceMBean} that nodetool's supported commands
 * use, with Cassandra's exact attribute and operation names and signatures (JMX matches by name, not by interface).
 * Registered as {@code org.apache.cassandra.db:type=StorageService}.
 */
public interface StorageServiceMBean {
    List<String> getLiveNodes();

    List<String> getLiveNodesWithPort();

    List<String> getUnreachableNodes();

    List<String> getUnreachableNodesWithPort();

    List<String> getJoiningNodes();

    List<String> getJoiningNodesWithPort();

    List<String> getLeavingNodes();

    List<String> getLeavingNodesWithPort();

    List<String> getMovingNodes();

    List<String> getMovingNodesWithPort();

    List<String> getTokens();

    List<String> getTokens(String endpoint) throws UnknownHostException;

    String getReleaseVersion();

    String getGitSHA();

    String getSchemaVersion();

    String getKeyspaceReplicationInfo(String keyspaceName);

    Map<String, String> getTokenToEndpointMap();

    Map<String, String> getTokenToEndpointWithPortMap();

    String getLocalHostId();

    Map<String, String> getEndpointToHostId();

    Map<String, String> getEndpointWithPortToHostId();

    Map<String, String> getHostIdToEndpoint();

    Map<String, String> getHostIdToEndpointWithPort();

    String getLoadString();

    String getUncompressedLoadString();

    Map<String, String> getLoadMap();

    Map<String, String> getLoadMapWithPort();

    int getCurrentGenerationNumber();

    void forceKeyspaceCompaction(boolean splitOutput, String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException;

    void forceKeyspaceFlush(String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException;

    String getOperationMode();

    boolean isStarting();

    boolean isDrained();

    boolean isDraining();

    boolean isDecommissioning();

    boolean isDecommissionFailed();

    boolean isBootstrapFailed();

    String getBootstrapState();

    Map<InetAddress, Float> getOwnership();

    Map<String, Float> getOwnershipWithPort();

    Map<InetAddress, Float> effectiveOwnership(String keyspace) throws IllegalStateException;

    Map<String, Float> effectiveOwnershipWithPort(String keyspace) throws IllegalStateException;

    List<String> getKeyspaces();

    List<String> getNonSystemKeyspaces();

    List<String> getNonLocalStrategyKeyspaces();

    boolean isGossipRunning();

    boolean isNativeTransportRunning();

    void startNativeTransport() throws InterruptedException;

    void refreshSizeEstimates() throws java.util.concurrent.ExecutionException;

    /** Deprecated in Cassandra 5.0 for {@link #stopNativeTransport(boolean)}; still in its bean. */
    void stopNativeTransport();

    void stopNativeTransport(boolean force);

    boolean isJoined();

    boolean isIncrementalBackupsEnabled();

    long getRpcTimeout();

    long getReadRpcTimeout();

    long getRangeRpcTimeout();

    long getWriteRpcTimeout();

    long getCounterWriteRpcTimeout();

    long getCasContentionTimeout();

    long getTruncateRpcTimeout();

    int getInternodeTcpConnectTimeoutInMS();

    int getInternodeTcpUserTimeoutInMS();

    int getInternodeStreamingTcpUserTimeoutInMS();

    /** The "Throughtput" typo is Cassandra's. */
    double getCompactionThroughtputMibPerSecAsDouble();

    long getCompactionThroughtputBytesPerSec();

    int getCompactionThroughputMbPerSec();

    void setCompactionThroughputMbPerSec(int value);

    int getConcurrentCompactors();

    /** nodetool settraceprobability: the share of requests traced without the client asking (0 to 1). */
    void setTraceProbability(double probability);

    /** nodetool gettraceprobability. */
    double getTraceProbability();

    String getClusterName();

    String getPartitionerName();

    Map<String, long[]> getOutOfRangeOperationCounts();

    // ------------------------------------------------------------------ cluster operations (topology, repair)

    /** Starts a repair; progress comes as JMX notifications from source "repair:N". 0: nothing to repair. */
    int repairAsync(String keyspace, Map<String, String> options);

    /** IN_PROGRESS, COMPLETED or FAILED, then the repair's messages; null for an unknown command. */
    List<String> getParentRepairStatus(int cmd);

    void decommission(boolean force) throws InterruptedException;

    void removeNode(String hostIdString);

    /** nodetool move: refused with vnodes, as Cassandra refuses it; a single-token move is not built. */
    void move(String newToken) throws java.io.IOException;

    void rebuild(String sourceDc);

    void rebuild(String sourceDc, String keyspace, String tokens, String specificSources);

    /** nodetool rebuild: streams this node's ranges from the other replicas (of {@code sourceDc} when given). */
    void rebuild(String sourceDc, String keyspace, String tokens, String specificSources,
                 boolean excludeLocalDatacenterNodes);

    String getRemovalStatus();

    String getRemovalStatusWithPort();

    int forceKeyspaceCleanup(String keyspaceName, String... tables)
            throws IOException, ExecutionException, InterruptedException;

    int forceKeyspaceCleanup(int jobs, String keyspaceName, String... tables)
            throws IOException, ExecutionException, InterruptedException;

    /** nodetool getendpoints: the replicas of a partition key given as text. */
    List<InetAddress> getNaturalEndpoints(String keyspaceName, String cf, String key);

    List<String> getNaturalEndpointsWithPort(String keyspaceName, String cf, String key);

    // ---- snapshots, drain, stopdaemon (nodetool snapshot / listsnapshots / clearsnapshot / drain / stopdaemon)

    void takeSnapshot(String tag, Map<String, String> options, String... entities) throws java.io.IOException;

    void takeSnapshot(String tag, String... keyspaceNames) throws java.io.IOException;

    void takeTableSnapshot(String keyspaceName, String tableName, String tag) throws java.io.IOException;

    void takeMultipleTableSnapshot(String tag, String... tableList) throws java.io.IOException;

    void clearSnapshot(String tag, String... keyspaceNames) throws java.io.IOException;

    void clearSnapshot(Map<String, Object> options, String tag, String... keyspaceNames) throws java.io.IOException;

    Map<String, javax.management.openmbean.TabularData> getSnapshotDetails();

    Map<String, javax.management.openmbean.TabularData> getSnapshotDetails(Map<String, String> options);

    long trueSnapshotsSize();

    String getDrainProgress();

    void drain() throws java.io.IOException, InterruptedException, java.util.concurrent.ExecutionException;

    void stopDaemon();

    // ---- nodetool getlogginglevels / setlogginglevel; commands that first ask whether the node is initialized

    Map<String, String> getLoggingLevels();

    void setLoggingLevel(String classQualifier, String level) throws Exception;

    boolean isInitialized();

    // ---- describering, garbagecollect, auto-compaction, refresh

    List<String> describeRingJMX(String keyspace) throws IOException;

    List<String> describeRingWithPortJMX(String keyspace) throws IOException;

    int garbageCollect(String tombstoneOption, int jobs, String keyspaceName, String... tableNames)
            throws IOException, ExecutionException, InterruptedException;

    void disableAutoCompaction(String ks, String... tables) throws IOException;

    void enableAutoCompaction(String ks, String... tables) throws IOException;

    Map<String, Boolean> getAutoCompactionStatus(String ks, String... tables) throws IOException;

    void loadNewSSTables(String ksName, String tableName);
}
