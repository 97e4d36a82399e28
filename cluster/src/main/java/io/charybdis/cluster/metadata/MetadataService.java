package io.charybdis.cluster.metadata;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster metadata by consensus: membership and token ownership as one Raft log kept by Apache Ratis (group 0 of
 * the cluster), each applied entry a new epoch ({@link MetadataState}).
 *
 * <p>Implementation notes:
 * <ul>
 *   <li>The group id is derived from the cluster name, and a member's Raft peer id from its metadata address, so
 *       a joining node can address its seeds knowing only their addresses.</li>
 *   <li>Forming the group: the first seed (or a node with no seeds) starts a group of itself alone; every other
 *       node starts with no group, asks a seed for the group's current configuration, adds the group locally with
 *       itself in it, has the leader add it to the configuration, then commits its JOIN. A restarted node finds
 *       its group in its Raft storage and replays the log.</li>
 *   <li>Ratis runs on its own threads (and its own shaded Netty): shards only see {@link MetadataState} snapshots,
 *       published through the listener, which must not block.</li>
 * </ul>
 */
public final class MetadataService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataService.class);
    private static final long COMMAND_TIMEOUT_SECONDS = 30;

    private final RaftServer server;
    private final MetadataStateMachine stateMachine;
    private final RaftGroupId groupId;
    private final RaftPeer self;
    private final RaftProperties properties;
    private final Parameters parameters;
    /** Runs metadata commands for callers that must not block (a DDL statement on a shard). */
    private final java.util.concurrent.ExecutorService commands = java.util.concurrent.Executors.newSingleThreadExecutor(
            r -> {
                Thread t = new Thread(r, "metadata-commands");
                t.setDaemon(true);
                return t;
            });

    private MetadataService(RaftServer server, MetadataStateMachine stateMachine, RaftGroupId groupId, RaftPeer self,
                            RaftProperties properties, Parameters parameters) {
        this.server = server;
        this.stateMachine = stateMachine;
        this.groupId = groupId;
        this.self = self;
        this.properties = properties;
        this.parameters = parameters;
    }

    static RaftGroupId groupId(String clusterName) {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("charybdis-metadata:" + clusterName)
                .getBytes(StandardCharsets.UTF_8)));
    }

    static RaftPeer peer(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return RaftPeer.newBuilder().setId(RaftPeerId.valueOf(host.replace(':', '_') + "_" + address.getPort()))
                .setAddress(host + ":" + address.getPort()).build();
    }

    /**
     * Starts this node's metadata member and makes sure {@code me} is in the cluster: forms the group, rejoins it,
     * or joins it through {@code seeds} (metadata addresses). Returns once this node's JOIN is applied.
     */
    /** Log entries between two snapshots of the state. */
    public static final long SNAPSHOT_EVERY = 1000;
    /** {@link #SNAPSHOT_EVERY}, lowered by tests. */
    static volatile long snapshotEvery = SNAPSHOT_EVERY;

    public static MetadataService start(String clusterName, Path directory, InetSocketAddress address,
                                        List<InetSocketAddress> seeds, NodeRecord me, Consumer<MetadataState> listener) {
        return start(clusterName, directory, address, seeds, me, listener, null);
    }

    /**
     * As {@link #start(String, Path, InetSocketAddress, List, NodeRecord, Consumer)}; with {@code tls} not null the
     * log's traffic is encrypted (over Ratis' gRPC transport: every member of the cluster must then use TLS).
     */
    public static MetadataService start(String clusterName, Path directory, InetSocketAddress address,
                                        List<InetSocketAddress> seeds, NodeRecord me, Consumer<MetadataState> listener,
                                        MetadataTls tls) {
        RaftGroupId gid = groupId(clusterName);
        RaftPeer self = peer(address);
        RaftProperties p = new RaftProperties();
        Parameters parameters = new Parameters();
        if (tls == null) {
            RaftConfigKeys.Rpc.setType(p, SupportedRpcType.NETTY);
            NettyConfigKeys.Server.setHost(p, address.getAddress().getHostAddress());
            NettyConfigKeys.Server.setPort(p, address.getPort());
            NettyConfigKeys.Server.setUseEpoll(p, false);
        } else {
            RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
            GrpcConfigKeys.Server.setHost(p, address.getAddress().getHostAddress());
            GrpcConfigKeys.Server.setPort(p, address.getPort());
            GrpcTlsConfig conf = new GrpcTlsConfig(tls.keyManager(), tls.trustManager(), tls.mutual());
            GrpcConfigKeys.Server.setTlsConf(parameters, conf);
            GrpcConfigKeys.Client.setTlsConf(parameters, conf);
            GrpcConfigKeys.Admin.setTlsConf(parameters, conf);
        }
        RaftServerConfigKeys.setStorageDir(p, List.of(directory.toFile()));
        // snapshots keep the log (and a restart's replay) short; the log before a snapshot is purged
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, snapshotEvery);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // Election timeouts generous enough for a loaded machine: metadata changes are rare, stability matters more
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(2, TimeUnit.SECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(4, TimeUnit.SECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(10, TimeUnit.SECONDS));
        org.apache.ratis.client.RaftClientConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(10, TimeUnit.SECONDS));
        try {
            Files.createDirectories(directory);
            boolean existing = hasGroup(directory, gid);
            InetSocketAddress firstSeed = seeds.isEmpty() ? address : seeds.get(0);
            boolean bootstrap = !existing && firstSeed.equals(address);
            MetadataStateMachine sm = new MetadataStateMachine(listener);
            RaftServer.Builder b = RaftServer.newBuilder().setServerId(self.getId()).setProperties(p)
                    .setParameters(parameters)
                    .setStateMachineRegistry(g -> sm);
            if (bootstrap) {
                b.setGroup(RaftGroup.valueOf(gid, self));
            }
            RaftServer server = b.build();
            server.start();
            MetadataService svc = new MetadataService(server, sm, gid, self, p, parameters);
            try {
                if (!existing && !bootstrap) {
                    svc.joinGroup(seeds, address);
                }
                svc.submit(MetadataState.join(me));
            } catch (IOException | RuntimeException e) {
                svc.close();
                throw e;
            }
            return svc;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start cluster metadata in " + directory, e);
        }
    }

    private static boolean hasGroup(Path directory, RaftGroupId gid) {
        return Files.isDirectory(directory.resolve(gid.getUuid().toString()));
    }

    /** Adds this server to the group through a seed: group info, local group, configuration change. */
    private void joinGroup(List<InetSocketAddress> seeds, InetSocketAddress address) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 60; attempt++) {
            for (InetSocketAddress seed : seeds) {
                if (seed.equals(address)) {
                    continue;
                }
                RaftPeer seedPeer = peer(seed);
                try (RaftClient c = client(RaftGroup.valueOf(groupId, seedPeer))) {
                    GroupInfoReply info = c.getGroupManagementApi(seedPeer.getId()).info(groupId);
                    List<RaftPeer> peers = new ArrayList<>(info.getGroup().getPeers());
                    if (!peers.contains(self)) {
                        peers.add(self);
                    }
                    RaftGroup group = RaftGroup.valueOf(groupId, peers);
                    if (!hasLocalGroup()) { // an earlier attempt may have added it before its configuration failed
                        try (RaftClient local = client(RaftGroup.valueOf(groupId, self))) {
                            local.getGroupManagementApi(self.getId()).add(group);
                        }
                    }
                    try (RaftClient all = client(group)) {
                        // ADD, not SET: members joining at the same time each add themselves to the configuration
                        // the leader has, rather than one overwriting the other's (a refused change is retried)
                        RaftClientReply r = all.admin().setConfiguration(
                                org.apache.ratis.protocol.SetConfigurationRequest.Arguments.newBuilder()
                                        .setServersInNewConf(List.of(self))
                                        .setMode(org.apache.ratis.protocol.SetConfigurationRequest.Mode.ADD).build());
                        if (!r.isSuccess()) {
                            throw new IOException("configuration change refused: " + r.getException());
                        }
                    }
                    LOG.info("joined cluster metadata group {} through seed {}: {} members", groupId, seed, peers.size());
                    return;
                } catch (IOException e) {
                    last = e;
                    LOG.debug("seed {} could not add this node yet: {}", seed, e.toString());
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while joining", e);
            }
        }
        throw new IOException("no seed of " + seeds + " could add this node to the cluster metadata group", last);
    }

    private boolean hasLocalGroup() throws IOException {
        for (org.apache.ratis.protocol.RaftGroupId id : server.getGroupIds()) {
            if (id.equals(groupId)) {
                return true;
            }
        }
        return false;
    }

    private RaftClient client(RaftGroup group) {
        return RaftClient.newBuilder().setProperties(properties).setParameters(parameters).setRaftGroup(group)
                .setRetryPolicy(org.apache.ratis.retry.RetryPolicies.retryUpToMaximumCountWithFixedSleep(300,
                        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .build();
    }

    /** Commits a command; throws when the cluster refused it or could not commit it in time. */
    private void submit(byte[] command) throws IOException {
        try (RaftClient c = client(server.getDivision(groupId).getGroup())) {
            RaftClientReply r = c.io().send(Message.valueOf(
                    org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(command)));
            if (!r.isSuccess()) {
                throw new IOException("metadata command failed: " + r.getException());
            }
            String rejection = r.getMessage().getContent().toStringUtf8();
            if (!rejection.isEmpty()) {
                throw new IllegalStateException("cluster metadata refused the change: " + rejection);
            }
            // the leader answered once it applied the command; this member may not have yet
            stateMachine.appliedThrough(r.getLogIndex()).get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException("metadata command committed but not applied here in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * Commits a schema change computed from the schema at {@code base}; completes once it is applied on this node,
     * or fails with {@link SchemaConflictException} when another change got in first (recompute and retry).
     */
    public java.util.concurrent.CompletableFuture<Void> changeSchema(UUID base, UUID version, byte[] document,
                                                                     List<String> events) {
        byte[] command = MetadataState.schema(base, version, document, events);
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            // the blocking client follows leader changes and redirects; this runs off the caller's thread
            try (RaftClient c = client(server.getDivision(groupId).getGroup())) {
                RaftClientReply r = c.io().send(Message.valueOf(
                        org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(command)));
                if (!r.isSuccess()) {
                    throw new java.util.concurrent.CompletionException(
                            new IOException("schema change not committed: " + r.getException()));
                }
                String rejection = r.getMessage().getContent().toStringUtf8();
                if (rejection.startsWith(MetadataState.SCHEMA_CONFLICT)) {
                    throw new java.util.concurrent.CompletionException(new SchemaConflictException(rejection));
                }
                if (!rejection.isEmpty()) {
                    throw new java.util.concurrent.CompletionException(new IllegalStateException(rejection));
                }
                return r.getLogIndex();
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, commands).thenCompose(stateMachine::appliedThrough);
    }

    private static void closeQuietly(RaftClient c) {
        try {
            c.close();
        } catch (IOException e) {
            LOG.debug("closing a metadata client", e);
        }
    }

    /**
     * Blocks until this member has applied every entry the cluster had committed when it was called: commits a
     * barrier (an entry that changes nothing) and waits until this member has applied it, so everything ordered
     * before it is applied too. Afterwards this member knows every schema change acknowledged anywhere.
     */
    public void catchUp() {
        try {
            submit(MetadataState.barrier());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Changes a member's status (a bootstrap's JOINING to NORMAL, a decommission's NORMAL to LEAVING). */
    public void setStatus(UUID hostId, NodeRecord.Status status) {
        try {
            submit(MetadataState.setStatus(hostId, status));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Removes a member (decommission, removenode): from the metadata, then from the Raft group itself, so that the
     * group's majority is counted among the members that remain (a group that kept a departed peer would lose its
     * majority one failure sooner).
     */
    public void leave(UUID hostId) {
        NodeRecord r = state().members().get(hostId);
        try {
            submit(MetadataState.leave(hostId));
            if (r != null) {
                removePeer(r.address());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Drops the Raft peer at {@code address} from the group's configuration (none or several there: nothing). */
    private void removePeer(java.net.InetAddress address) throws IOException {
        RaftGroup group = server.getDivision(groupId).getGroup();
        List<RaftPeer> keep = new ArrayList<>();
        List<RaftPeer> gone = new ArrayList<>();
        String host = address.getHostAddress();
        for (RaftPeer p : group.getPeers()) {
            String a = p.getAddress();
            String peerHost = a.substring(0, a.lastIndexOf(':'));
            (peerHost.equals(host) ? gone : keep).add(p);
        }
        if (gone.size() != 1 || keep.isEmpty()) {
            LOG.warn("the metadata group's peers at {} are {}: the group's configuration is left as it is", host, gone);
            return;
        }
        try (RaftClient c = client(group)) {
            RaftClientReply reply = c.admin().setConfiguration(keep);
            if (!reply.isSuccess()) {
                throw new IOException("removing " + gone.get(0) + " from the metadata group failed: "
                        + reply.getException());
            }
        }
        LOG.info("removed {} from the cluster metadata group: {} members", gone.get(0), keep.size());
    }

    public MetadataState state() {
        return stateMachine.state();
    }

    /** The Raft peers of the metadata group now. */
    public List<String> members() throws IOException {
        List<String> out = new ArrayList<>();
        for (RaftPeer peer : server.getDivision(groupId).getGroup().getPeers()) {
            out.add(peer.getAddress());
        }
        return out;
    }

    @Override
    public void close() {
        commands.shutdownNow();
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("error closing cluster metadata server", e);
        }
    }

    static File dir(Path p) {
        return p.toFile();
    }
}
