package io.charybdis.node.system;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/** What system.local and friends say about this node. */
public record NodeInfo(String clusterName, UUID hostId, InetAddress listenAddress, InetAddress rpcAddress,
                       int nativePort, int storagePort, String dataCenter, String rack, String releaseVersion,
                       String cqlVersion, String nativeProtocolVersion, String partitioner, List<String> tokens,
                       int shardCount, long startedAtMillis) {

    public static final String RELEASE_VERSION = "5.0.6";
    public static final String CQL_VERSION = "3.4.7";
}
