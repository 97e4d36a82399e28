package io.charybdis.node.system;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/** What system.local and friends say about this node. */
public record NodeInfo(String clusterName, UUID hostId, InetAddress listenAddress, InetAddress rpcAddress,
                       int nativePort, int storagePort, String dataCenter, String rack, String releaseVersion,
                       String cqlVersion, String nativeProtocolVersion, String partitioner, List<String> tokens,
                       int shardCount, long startedAtMillis, List<Peer> peers,
                       io.charybdis.node.index.IndexStatus indexes, SizeEstimates sizeEstimates) {

    /** Another member of the cluster, as system.peers and system.peers_v2 show it. */
    public record Peer(UUID hostId, InetAddress address, int storagePort, InetAddress rpcAddress, int nativePort,
                       String dataCenter, String rack, String releaseVersion, List<String> tokens, UUID schemaVersion) {
    }

    public NodeInfo(String clusterName, UUID hostId, InetAddress listenAddress, InetAddress rpcAddress, int nativePort,
                    int storagePort, String dataCenter, String rack, String releaseVersion, String cqlVersion,
                    String nativeProtocolVersion, String partitioner, List<String> tokens, int shardCount,
                    long startedAtMillis) {
        this(clusterName, hostId, listenAddress, rpcAddress, nativePort, storagePort, dataCenter, rack, releaseVersion,
                cqlVersion, nativeProtocolVersion, partitioner, tokens, shardCount, startedAtMillis, List.of(),
                io.charybdis.node.index.IndexStatus.ALL_BUILT, null);
    }

    /** This node with its native indexes' build status ({@code system."IndexInfo"}). */
    public NodeInfo withIndexes(io.charybdis.node.index.IndexStatus status) {
        return new NodeInfo(clusterName, hostId, listenAddress, rpcAddress, nativePort, storagePort, dataCenter, rack,
                releaseVersion, cqlVersion, nativeProtocolVersion, partitioner, tokens, shardCount, startedAtMillis,
                peers, status, sizeEstimates);
    }

    /** This node with the size estimates it records ({@code system.size_estimates}, {@code table_estimates}). */
    public NodeInfo withSizeEstimates(SizeEstimates estimates) {
        return new NodeInfo(clusterName, hostId, listenAddress, rpcAddress, nativePort, storagePort, dataCenter, rack,
                releaseVersion, cqlVersion, nativeProtocolVersion, partitioner, tokens, shardCount, startedAtMillis,
                peers, indexes, estimates);
    }

    /** The same node with the cluster's other members as they are now. */
    public NodeInfo withPeers(List<Peer> now) {
        return new NodeInfo(clusterName, hostId, listenAddress, rpcAddress, nativePort, storagePort, dataCenter, rack,
                releaseVersion, cqlVersion, nativeProtocolVersion, partitioner, tokens, shardCount, startedAtMillis,
                List.copyOf(now), indexes, sizeEstimates);
    }

    public static final String RELEASE_VERSION = "5.0.6";
    public static final String CQL_VERSION = "3.4.7";
}
