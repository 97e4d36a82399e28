package io.charybdis.node.jmx;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What the JMX beans ask of a cluster member: the members as the metadata log holds them, and the operations nodetool
 * starts (repair, decommission, removenode, cleanup). A node on its own has none ({@code CharybdisNode.cluster()}
 * is null), and the beans answer as a one-node ring.
 */
public interface ClusterOps {
    /** One member of the ring: status JOINING, NORMAL or LEAVING; alive as the failure detector says. */
    record Member(UUID hostId, String address, int storagePort, String datacenter, String rack, String status,
                  boolean alive, List<Long> tokens, String rpcAddress, int nativePort, String releaseVersion) {
        public String endpointWithPort() {
            return address + ":" + storagePort;
        }
    }

    List<Member> members();

    /**
     * The latency (µs) of the table's single-partition reads this node coordinated across replicas (JMX
     * CoordinatorReadLatency); empty before the coordinator is attached.
     */
    io.charybdis.storage.LatencyHistogram.Snapshot coordinatorReadLatency(UUID table);

    /** How many reads of the table asked one more replica after its speculative_retry threshold (JMX). */
    long speculativeRetries(UUID table);

    /** This node's host id. */
    UUID self();

    /** The load (live SSTable bytes) another member last reported, or -1 when it has not yet. */
    long loadOf(UUID member);

    /** The replicas of a token in a keyspace, primary first, as addresses with their storage ports. */
    List<Member> replicas(String keyspace, long token);

    /** STARTING, JOINING, NORMAL, LEAVING, DECOMMISSIONED. */
    String mode();

    /** Full repair of a keyspace's tables (all when empty) over this node's ranges; blocks until done. */
    void repair(String keyspace, List<String> tables, boolean primaryRange, Consumer<String> log);

    /** Streams this node's ranges to their next replicas, leaves the ring and stops the node; blocks until it left. */
    void decommission(boolean force);

    /** Whether the last decommission (or removenode) run from this node failed (the member is NORMAL again). */
    boolean decommissionFailed();

    /** Re-replicates a dead member's ranges from the other replicas and removes it from the ring. */
    void removeNode(UUID hostId);

    /**
     * Streams this node's ranges of a keyspace's tables (every keyspace's when null) from the other replicas (of
     * {@code sourceDc} only, when given; excluding this node's data centre when asked); blocks until done.
     */
    void rebuild(String sourceDc, String keyspace, boolean excludeLocalDc);

    /**
     * Removes a dead member from the ring without streaming anything (nodetool assassinate: the last resort when
     * removenode cannot run); a member that is alive is refused.
     */
    void assassinate(String address);

    /** Drops the data of ranges this node no longer replicates, for a keyspace's tables (all when empty). */
    void cleanup(String keyspace, List<String> tables);

    /** Streaming totals since start: partitions and bytes received, partitions and bytes sent; transfers active. */
    long[] streamingTotals();

    /** A transfer under way: plan id, operation ("Bootstrap", "Repair", ...), peer, table, progress so far. */
    record Stream(UUID plan, String description, String peerAddress, int peerPort, boolean receiving, String table,
                  long partitions, long bytes) {
    }

    List<Stream> activeStreams();

    /**
     * Requests sent to each peer (address:port) per pool — gossip, large, small — as {pending, completed, dropped}.
     */
    java.util.Map<String, long[][]> traffic();

    /** Requests this node sent that failed or timed out, by internode verb, since start. */
    java.util.Map<String, Long> failedRequestsByVerb();
}
