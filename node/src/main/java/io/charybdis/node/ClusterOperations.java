package io.charybdis.node;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.metadata.MetadataState;
import io.charybdis.cluster.metadata.NodeRecord;
import io.charybdis.cluster.streaming.Streaming;
import io.charybdis.cluster.topology.TopologyChanges;
import io.charybdis.node.jmx.ClusterOps;
import io.charybdis.node.schema.KeyspaceMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/** {@link ClusterOps} over this node's {@link ClusterMember}: what nodetool sees of the ring and starts on it. */
final class ClusterOperations implements ClusterOps {
    private final ClusterMember member;
    private final CharybdisNode node;

    ClusterOperations(ClusterMember member, CharybdisNode node) {
        this.member = member;
        this.node = node;
    }

    @Override
    public io.charybdis.storage.LatencyHistogram.Snapshot coordinatorReadLatency(java.util.UUID table) {
        io.charybdis.cluster.Coordinator c = member.coordinator();
        return c == null ? io.charybdis.storage.LatencyHistogram.empty()
                : c.coordinatorReadLatency(new io.charybdis.storage.TableId(table));
    }

    @Override
    public long speculativeRetries(java.util.UUID table) {
        io.charybdis.cluster.Coordinator c = member.coordinator();
        return c == null ? 0 : c.speculativeRetries(new io.charybdis.storage.TableId(table));
    }

    private Member view(NodeRecord r) {
        var fd = member.liveness();
        return new Member(r.hostId(), r.address().getHostAddress(), r.storagePort(), r.datacenter(), r.rack(),
                r.status().name(), fd == null || fd.isAlive(r.endpoint()), r.tokens(), r.rpcAddress().getHostAddress(),
                r.nativePort(), r.releaseVersion());
    }

    @Override
    public List<Member> members() {
        List<Member> out = new ArrayList<>();
        for (NodeRecord r : member.metadata().state().members().values()) {
            out.add(view(r));
        }
        return out;
    }

    @Override
    public UUID self() {
        return member.hostId();
    }

    @Override
    public long loadOf(UUID other) {
        return member.loadOf(other);
    }

    @Override
    public List<Member> replicas(String keyspace, long token) {
        KeyspaceMetadata ks = node.schemas().schema().keyspace(keyspace);
        if (ks == null) {
            throw new IllegalArgumentException("Unknown keyspace '" + keyspace + "'");
        }
        MetadataState state = member.metadata().state();
        TokenRing ring = state.ring();
        NodeRecord me = state.members().get(member.hostId());
        List<Member> out = new ArrayList<>();
        if (ring == null || me == null) {
            return out;
        }
        for (Endpoint e : ReplicationStrategy.of(ks.replication()).replicas(token, ring, me.endpoint())) {
            NodeRecord r = state.members().get(e.hostId());
            if (r != null) {
                out.add(view(r));
            }
        }
        return out;
    }

    @Override
    public String mode() {
        return member.topology().mode();
    }

    private List<TopologyChanges.Table> tables(String keyspace, List<String> names) {
        if (node.schemas().schema().keyspace(keyspace) == null) {
            throw new IllegalArgumentException("Keyspace " + keyspace + " does not exist");
        }
        List<TopologyChanges.Table> out = new ArrayList<>();
        for (TopologyChanges.Table t : ClusterMember.tables(node.schemas())) {
            if (t.keyspace().equals(keyspace) && (names.isEmpty() || names.contains(t.name()))) {
                out.add(t);
            }
        }
        return out;
    }

    @Override
    public void repair(String keyspace, List<String> tables, boolean primaryRange, Consumer<String> log) {
        member.topology().repair(tables(keyspace, tables), primaryRange, log);
    }

    @Override
    public void decommission(boolean force) {
        member.topology().leave(member.hostId(), force);
        Thread stop = new Thread(node::close, "decommissioned-node-stop");
        stop.setDaemon(true);
        stop.start();
    }

    @Override
    public boolean decommissionFailed() {
        return member.topology().leaveFailed();
    }

    @Override
    public void removeNode(UUID hostId) {
        if (hostId.equals(member.hostId())) {
            throw new UnsupportedOperationException("Cannot remove self");
        }
        NodeRecord r = member.metadata().state().members().get(hostId);
        if (r == null) {
            throw new UnsupportedOperationException("Host ID not found.");
        }
        var fd = member.liveness();
        if (fd != null && fd.isAlive(r.endpoint())) {
            throw new UnsupportedOperationException("Node " + r.address().getHostAddress() + ":" + r.storagePort()
                    + " is alive and owns this ID. Use decommission command to remove it from the ring");
        }
        member.topology().leave(hostId, true);
    }

    @Override
    public void rebuild(String sourceDc, String keyspace, boolean excludeLocalDc) {
        List<TopologyChanges.Table> tables = keyspace == null ? ClusterMember.tables(node.schemas())
                : tables(keyspace, List.of());
        member.topology().rebuild(tables, sourceDc, excludeLocalDc, line -> { });
    }

    @Override
    public void assassinate(String address) {
        NodeRecord found = null;
        for (NodeRecord r : member.metadata().state().members().values()) {
            if (r.address().getHostAddress().equals(address) || (r.address().getHostAddress() + ":" + r.storagePort())
                    .equals(address)) {
                found = r;
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("No member at " + address);
        }
        if (found.hostId().equals(member.hostId())) {
            throw new UnsupportedOperationException("Cannot assassinate this node itself");
        }
        var fd = member.liveness();
        if (fd != null && fd.isAlive(found.endpoint())) {
            throw new UnsupportedOperationException("Node " + address + " is alive: use decommission to remove it");
        }
        member.metadata().leave(found.hostId());
    }

    @Override
    public void cleanup(String keyspace, List<String> tables) {
        member.topology().cleanup(tables(keyspace, tables), node.storage());
    }

    @Override
    public long[] streamingTotals() {
        Streaming s = member.topology().streaming();
        return new long[] {s.partitionsReceived(), s.bytesReceived(), s.partitionsSent(), s.bytesSent(),
                s.active().size()};
    }

    @Override
    public List<Stream> activeStreams() {
        List<Stream> out = new ArrayList<>();
        for (Streaming.Transfer t : member.topology().streaming().active()) {
            KeyspaceLookup name = KeyspaceLookup.of(node, t.table().uuid());
            out.add(new Stream(t.plan(), t.description(), t.peer().getAddress().getHostAddress(), t.peer().getPort(),
                    t.receiving(), name.qualified(), t.partitions().get(), t.bytes().get()));
        }
        return out;
    }

    @Override
    public java.util.Map<String, long[][]> traffic() {
        java.util.Map<String, long[][]> out = new java.util.LinkedHashMap<>();
        member.messaging().traffic().forEach((peer, pools) -> {
            long[][] v = new long[pools.length][];
            for (int i = 0; i < pools.length; i++) {
                v[i] = new long[] {pools[i].pending(), pools[i].completed(), pools[i].dropped()};
            }
            out.put(peer.getAddress().getHostAddress() + ":" + peer.getPort(), v);
        });
        return out;
    }

    @Override
    public java.util.Map<String, Long> failedRequestsByVerb() {
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        member.messaging().failedByVerb().forEach((verb, n) -> out.put(verb.name(), n));
        return out;
    }

    /** A table's keyspace.name for display; its id when the schema no longer has it. */
    private record KeyspaceLookup(String qualified) {
        static KeyspaceLookup of(CharybdisNode node, UUID table) {
            KeyspaceMetadata ks = node.schemas().schema().keyspaceOfTable(table);
            if (ks != null) {
                for (var t : ks.tables().values()) {
                    if (t.id().equals(table)) {
                        return new KeyspaceLookup(ks.name() + "." + t.name());
                    }
                }
            }
            return new KeyspaceLookup(table.toString());
        }
    }
}
