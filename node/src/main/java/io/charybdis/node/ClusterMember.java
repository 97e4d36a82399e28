package io.charybdis.node;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.InternodeTls;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.cluster.metadata.MetadataService;
import io.charybdis.cluster.metadata.MetadataTls;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.tls.TlsContexts;
import io.charybdis.cluster.metadata.MetadataState;
import io.charybdis.cluster.metadata.NodeRecord;
import io.charybdis.cluster.metadata.SchemaConflictException;
import io.charybdis.cluster.replica.Replicas;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaChange;
import io.charybdis.node.schema.SchemaCodec;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.server.Shards;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.storage.Storage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.Yaml;

/**
 * This node as a member of a cluster: internode messaging on {@code storage_port} (serving replica reads and
 * writes), the cluster metadata member on {@code metadata_port} (membership, tokens and schema by consensus), and
 * what follows from each new metadata epoch: the coordinator's ring, the schema installed here, and the peers
 * drivers see in {@code system.peers(_v2)}.
 *
 * <p>A node runs as a member when its seeds name another node; a node whose only seed is itself stays a single
 * node (no messaging, no metadata log), exactly as before clusters existed.
 */
final class ClusterMember implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);
    private static final UUID NO_SCHEMA = new UUID(0, 0);

    private final MessagingService messaging;
    private final Replicas replicas;
    private io.charybdis.cluster.topology.TopologyChanges topology;
    private final UUID hostId;
    private final SchemaManager schemas;
    private final AtomicReference<Coordinator> coordinator = new AtomicReference<>();
    private AtomicReference<Coordinator> routing;
    private volatile MetadataService metadata;
    private volatile io.charybdis.cluster.FailureDetector failureDetector;
    private volatile java.util.concurrent.ScheduledExecutorService loadReporter;
    private volatile io.charybdis.cluster.hints.HintsService hints;
    private volatile io.charybdis.cluster.batchlog.BatchlogManager batchlog;
    private Storage storage;
    private long writeTimeoutMillis;
    private volatile java.util.function.BiConsumer<Boolean, InetSocketAddress> statusListener = (up, a) -> {
    };
    private volatile UUID installedSchema = NO_SCHEMA;
    /**
     * The metadata epoch whose schema this node installed last, kept in the data directory: when a restarted node's
     * metadata log is replayed, the schemas of older epochs are not installed again (each would drop the tables
     * created after it, and their data with them, until a later epoch created them afresh and empty).
     */
    private Path installedEpochFile;
    private long installedEpoch = -1;
    private volatile List<NodeInfo.Peer> peers = List.of();
    private volatile java.util.Set<UUID> members = java.util.Set.of();
    private volatile java.util.function.BiConsumer<Boolean, InetSocketAddress> topologyListener = (joined, a) -> {
    };

    private ClusterMember(MessagingService messaging, Replicas replicas, UUID hostId, SchemaManager schemas) {
        this.messaging = messaging;
        this.replicas = replicas;
        this.hostId = hostId;
        this.schemas = schemas;
    }

    /** The seeds other than this node (storage addresses); empty = this node is on its own. */
    static List<InetSocketAddress> otherSeeds(NodeConfig config) throws UnknownHostException {
        InetSocketAddress self = new InetSocketAddress(InetAddress.getByName(config.listenAddress()), config.storagePort());
        List<InetSocketAddress> out = new ArrayList<>();
        for (String s : config.seeds()) {
            InetSocketAddress a = seed(s, config.storagePort());
            if (!a.equals(self)) {
                out.add(a);
            }
        }
        return out;
    }

    static List<InetSocketAddress> seeds(NodeConfig config) throws UnknownHostException {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String s : config.seeds()) {
            out.add(seed(s, config.storagePort()));
        }
        return out;
    }

    /**
     * A seed's storage address. A host name that does not resolve yet stays an unresolved address, as Cassandra's
     * seed provider skips it with a warning instead of failing: in a compose file or a Kubernetes StatefulSet the
     * first seed starts before the other seeds' names exist. It still counts as another node (this node is then a
     * cluster member), and joining resolves it again on each attempt.
     */
    private static InetSocketAddress seed(String hostPort, int defaultPort) {
        int colon = hostPort.lastIndexOf(':');
        boolean withPort = colon > 0 && hostPort.indexOf(':') == colon;
        String host = withPort ? hostPort.substring(0, colon) : hostPort;
        int port = withPort ? Integer.parseInt(hostPort.substring(colon + 1)) : defaultPort;
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            LOG.warn("seed {} does not resolve (yet): {}; trying it again while joining", host, e.getMessage());
            return InetSocketAddress.createUnresolved(host, port);
        }
    }

    private static InetSocketAddress parse(String hostPort, int defaultPort) throws UnknownHostException {
        int colon = hostPort.lastIndexOf(':');
        if (colon > 0 && hostPort.indexOf(':') == colon) {
            return new InetSocketAddress(InetAddress.getByName(hostPort.substring(0, colon)),
                    Integer.parseInt(hostPort.substring(colon + 1)));
        }
        return new InetSocketAddress(InetAddress.getByName(hostPort), defaultPort);
    }

    /**
     * Starts messaging and joins (or forms, or rejoins) the cluster; returns once this node's membership is
     * committed and the log's schema is installed here.
     */
    static ClusterMember start(NodeConfig config, Shards shards, Storage storage, SchemaManager schemas, UUID hostId,
                               List<Long> tokens, String datacenter, String rack, Path dataDirectory,
                               FaultInjector faults) throws Exception {
        InetAddress listen = InetAddress.getByName(config.listenAddress());
        // every request carries the epoch its coordinator routed by; replicas refuse a stale one (Replicas)
        AtomicReference<Coordinator> routing = new AtomicReference<>();
        InetSocketAddress metadataAddress = new InetSocketAddress(listen, config.metadataPort());
        MessagingService messaging = new MessagingService(shards.loops(), shards.acceptor(), shards.serverChannelClass(),
                shards.clientChannelClass(), () -> {
                    Coordinator c = routing.get();
                    return c == null ? 0 : c.metadata().epoch();
                }, faults);
        EncryptionOptions internode = config.serverEncryptionOptions();
        MetadataService[] metadataHolder = new MetadataService[1];
        MetadataTls metadataTls = null;
        if (internode.internodeEncryption() != EncryptionOptions.InternodeEncryption.NONE) {
            messaging.useTls(new InternodeTls(TlsContexts.server(internode), TlsContexts.client(internode),
                    internode.policy() == EncryptionOptions.Policy.OPTIONAL
                            || internode.internodeEncryption() != EncryptionOptions.InternodeEncryption.ALL,
                    peer -> encrypt(internode.internodeEncryption(), metadataHolder[0] == null ? List.of()
                            : metadataHolder[0].state().members().values(), peer, datacenter, rack)));
            var trust = TlsContexts.trustManagers(internode);
            if (trust == null) {
                trust = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                trust.init((java.security.KeyStore) null);
            }
            metadataTls = new MetadataTls(TlsContexts.keyManagers(internode, false).getKeyManagers()[0],
                    trust.getTrustManagers()[0], internode.requireClientAuth());
            LOG.info("Internode TLS: {} (metadata log on port {} over TLS)", internode.describe(), config.metadataPort());
        }
        messaging.handle(Verb.METADATA_ADDRESS, (payload, shard, epoch, sender) -> {
            ByteBuf out = Unpooled.buffer();
            out.writeCharSequence(metadataAddress.getAddress().getHostAddress() + ":" + metadataAddress.getPort(),
                    StandardCharsets.UTF_8);
            return CompletableFuture.completedFuture(out);
        });
        Replicas replicas = Replicas.serve(messaging, storage);
        io.charybdis.cluster.streaming.Streaming streaming = io.charybdis.cluster.streaming.Streaming.serve(messaging,
                storage);
        streaming.throughput(config.streamThroughputOutbound().bytes());
        io.charybdis.cluster.repair.Repair repair = io.charybdis.cluster.repair.Repair.serve(messaging, storage, streaming);
        io.charybdis.cluster.topology.TopologyChanges topology = io.charybdis.cluster.topology.TopologyChanges.serve(
                messaging, streaming, repair, () -> tables(schemas), hostId,
                io.charybdis.cluster.Coordinator.DEFAULT_WRITE_TIMEOUT_MILLIS);
        messaging.start(new InetSocketAddress(listen, config.storagePort()));
        ClusterMember member = new ClusterMember(messaging, replicas, hostId, schemas);
        member.routing = routing;
        member.installedEpochFile = dataDirectory.resolve("cluster-schema-epoch");
        member.storage = storage;
        member.writeTimeoutMillis = config.writeRequestTimeout().toMillis();
        member.installedEpoch = readEpoch(member.installedEpochFile);
        member.topology = topology;
        // a new node that is not a seed streams its ranges first (auto_bootstrap); a restarted one rejoins as it was,
        // unless it stopped (crashed) in the middle of its bootstrap: then it joins as JOINING and streams again
        java.nio.file.Path bootstrapMarker = dataDirectory.resolve(BOOTSTRAP_MARKER);
        boolean resumeBootstrap = java.nio.file.Files.exists(bootstrapMarker);
        boolean bootstrap = resumeBootstrap || (config.autoBootstrap() && !isSeed(config, listen)
                && !java.nio.file.Files.isDirectory(dataDirectory.resolve("cluster-metadata")));
        boolean leftAfterFailedBootstrap = false;
        try {
            if (resumeBootstrap) {
                LOG.warn("this node stopped before its bootstrap finished ({} exists): it joins as JOINING and streams "
                        + "its ranges again", bootstrapMarker);
            } else if (bootstrap) {
                java.nio.file.Files.writeString(bootstrapMarker, hostId + "\n");
            }
            List<InetSocketAddress> seedMetadata = member.seedMetadataAddresses(seeds(config),
                    new InetSocketAddress(listen, config.storagePort()), metadataAddress);
            NodeRecord me = new NodeRecord(hostId, listen, config.storagePort(), InetAddress.getByName(config.rpcAddress()),
                    config.nativeTransportPort(), datacenter, rack, shards.count(), NodeInfo.RELEASE_VERSION, tokens,
                    bootstrap ? NodeRecord.Status.JOINING : NodeRecord.Status.NORMAL);
            member.metadata = MetadataService.start(config.clusterName(), dataDirectory.resolve("cluster-metadata"),
                    metadataAddress, seedMetadata, me, member::onMetadata, metadataTls);
            metadataHolder[0] = member.metadata;
            member.onMetadata(member.metadata.state());
            if (member.metadata.state().schema().version().equals(NO_SCHEMA) && hasUserKeyspaces(schemas.schema())) {
                member.commit(null, schemas.schema(), List.of()); // this node formed the cluster: its schema is the first
            }
            MetadataService md = member.metadata;
            member.failureDetector = new io.charybdis.cluster.FailureDetector(messaging,
                    () -> md.state().members().values().stream().map(NodeRecord::endpoint).toList(), hostId,
                    member::statusChanged).start();
            member.hints = startHints(config, member, replicas, md, hostId, schemas);
            member.loadReporter = startLoadReports(replicas, storage, schemas);
            topology.attach(md, member.failureDetector);
            if (bootstrap) {
                try {
                    topology.bootstrap();
                    java.nio.file.Files.deleteIfExists(bootstrapMarker);
                } catch (RuntimeException | Error e) {
                    // a member left JOINING would count as a pending replica of its ranges for good
                    LOG.error("bootstrap failed: leaving the cluster again", e);
                    try {
                        member.metadata.leave(hostId);
                        leftAfterFailedBootstrap = true;
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
            }
            topology.mode("NORMAL");
            schemas.setCommitter(new SchemaManager.Committer() {
                @Override
                public boolean commit(Schema before, Schema after, List<SchemaChange> events) {
                    return member.commit(before, after, events);
                }

                @Override
                public void catchUp() {
                    member.metadata.catchUp();
                }
            });
            return member;
        } catch (Exception | Error e) {
            member.close();
            if (leftAfterFailedBootstrap) { // no longer a member: the next start joins afresh (the marker stays)
                deleteTree(dataDirectory.resolve("cluster-metadata"), e);
            }
            throw e;
        }
    }

    /** Hinted handoff on this member: hints kept in {@code hints_directory}, delivered to members that are up. */
    private static io.charybdis.cluster.hints.HintsService startHints(NodeConfig config, ClusterMember member,
                                                                    Replicas replicas, MetadataService md, UUID hostId,
                                                                    SchemaManager schemas) throws java.io.IOException {
        io.charybdis.cluster.hints.HintsConfig hc = new io.charybdis.cluster.hints.HintsConfig(
                config.hintedHandoffEnabled(), config.hintsDirectory(), config.maxHintWindow().toMillis(),
                java.util.Set.copyOf(config.hintedHandoffDisabledDatacenters()), config.maxHintsFileSize().bytes(),
                config.maxHintsSizePerHost().bytes(), config.hintsFlushPeriod().toMillis(),
                config.hintedHandoffThrottle().bytes(), config.maxHintsDeliveryThreads(),
                config.hintWindowPersistentEnabled(), config.autoHintsCleanupEnabled());
        io.charybdis.cluster.FailureDetector fd = member.failureDetector;
        return new io.charybdis.cluster.hints.HintsService(hc, replicas::apply, id -> {
            NodeRecord r = md.state().members().get(id);
            return r == null ? null : r.endpoint();
        }, fd, fd::downSinceMillis, table -> {
            io.charybdis.node.schema.KeyspaceMetadata ks = schemas.schema().keyspaceOfTable(table.uuid());
            io.charybdis.node.schema.TableMetadata t = ks == null ? null : ks.tables().values().stream()
                    .filter(x -> x.id().equals(table.uuid())).findFirst().orElse(null);
            return t == null ? 864000 : t.params().gcGraceSeconds();
        }, () -> Math.max(1, md.state().members().size() - 1), config.writeRequestTimeout().toMillis()).start();
    }

    /** Hinted handoff of this member. */
    io.charybdis.cluster.hints.HintsService hints() {
        return hints;
    }

    private static boolean isSeed(NodeConfig config, InetAddress listen) throws UnknownHostException {
        return seeds(config).contains(new InetSocketAddress(listen, config.storagePort()));
    }

    /** The tables of every keyspace stored here, with their keyspace's replication (streaming, repair). */
    private static void deleteTree(java.nio.file.Path dir, Throwable failure) {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (var paths = java.nio.file.Files.walk(dir)) {
            for (java.nio.file.Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.deleteIfExists(p);
            }
        } catch (java.io.IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * The file a bootstrapping node keeps in its data directory until its bootstrap has finished: a node that finds it
     * at start was stopped in the middle of one (a crash) and bootstraps again instead of rejoining as NORMAL.
     */
    static final String BOOTSTRAP_MARKER = "cluster-bootstrap-in-progress";

    /** How often this node's load is measured for the others' {@code nodetool status} (Cassandra gossips it every minute). */
    static final long LOAD_REPORT_SECONDS = 5;

    /**
     * Measures this node's load (live SSTable bytes of every table) every {@link #LOAD_REPORT_SECONDS}, off the
     * shards, for the failure detector's probes to carry to the other members.
     */
    private static java.util.concurrent.ScheduledExecutorService startLoadReports(Replicas replicas, Storage storage,
                                                                                 SchemaManager schemas) {
        var timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "load-report");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> replicas.reportLoad(loadBytes(storage, schemas)), 0, LOAD_REPORT_SECONDS,
                java.util.concurrent.TimeUnit.SECONDS);
        return timer;
    }

    /** Live SSTable bytes on disk of every table (Cassandra's Load). */
    static long loadBytes(Storage storage, SchemaManager schemas) {
        long n = 0;
        for (var t : tables(schemas)) {
            try {
                n += storage.stats(t.id()).liveDiskBytes();
            } catch (RuntimeException e) {
                // dropped meanwhile
            }
        }
        return n;
    }

    /** The load another member last reported (live SSTable bytes), or -1 when it has not yet. */
    long loadOf(UUID member) {
        io.charybdis.cluster.FailureDetector fd = failureDetector;
        return fd == null ? -1 : fd.loadOf(member);
    }

    static List<io.charybdis.cluster.topology.TopologyChanges.Table> tables(SchemaManager schemas) {
        List<io.charybdis.cluster.topology.TopologyChanges.Table> out = new ArrayList<>();
        for (var ks : schemas.schema().keyspaces().values()) {
            if (ks.virtual()) {
                continue;
            }
            for (var t : ks.tables().values()) {
                out.add(new io.charybdis.cluster.topology.TopologyChanges.Table(new io.charybdis.storage.TableId(t.id()),
                        ks.name(), t.name(), ks.replication()));
            }
        }
        return out;
    }

    /** Topology changes and repair driven from this node (JMX). */
    io.charybdis.cluster.topology.TopologyChanges topology() {
        return topology;
    }

    MetadataService metadata() {
        return metadata;
    }

    MessagingService messaging() {
        return messaging;
    }

    UUID hostId() {
        return hostId;
    }

    /**
     * Cassandra's {@code internode_encryption} rule for an outbound connection: always with {@code all}; with
     * {@code dc}/{@code rack} when the peer is in another datacenter/rack, or not known yet (then encrypted).
     */
    static boolean encrypt(EncryptionOptions.InternodeEncryption mode, java.util.Collection<NodeRecord> members,
                           InetSocketAddress peer, String datacenter, String rack) {
        if (mode == EncryptionOptions.InternodeEncryption.ALL) {
            return true;
        }
        if (mode == EncryptionOptions.InternodeEncryption.NONE) {
            return false;
        }
        NodeRecord record = null;
        for (NodeRecord r : members) {
            if (r.address().equals(peer.getAddress()) && r.storagePort() == peer.getPort()) {
                record = r;
            }
        }
        if (record == null) {
            return true;
        }
        if (!record.datacenter().equals(datacenter)) {
            return true;
        }
        return mode == EncryptionOptions.InternodeEncryption.RACK && !record.rack().equals(rack);
    }

    /** The seeds' metadata addresses, asked over messaging; this node's own when it is the first seed. */
    private List<InetSocketAddress> seedMetadataAddresses(List<InetSocketAddress> seeds, InetSocketAddress self,
                                                          InetSocketAddress selfMetadata) throws InterruptedException {
        if (seeds.isEmpty() || seeds.get(0).equals(self)) {
            List<InetSocketAddress> out = new ArrayList<>();
            out.add(selfMetadata);
            return out; // the first seed forms the cluster
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            List<InetSocketAddress> out = new ArrayList<>();
            for (InetSocketAddress given : seeds) {
                InetSocketAddress seed = given.isUnresolved()
                        ? new InetSocketAddress(given.getHostString(), given.getPort()) : given;
                if (seed.equals(self)) {
                    continue;
                }
                if (seed.isUnresolved()) {
                    LOG.info("seed {} does not resolve yet", seed.getHostString());
                    continue;
                }
                try {
                    ByteBuf answer = messaging.send(seed, 0, Verb.METADATA_ADDRESS, Unpooled.EMPTY_BUFFER, 2000)
                            .get(3, TimeUnit.SECONDS);
                    String text = answer.toString(StandardCharsets.UTF_8);
                    answer.release();
                    out.add(parse(text, 0));
                } catch (Exception e) {
                    LOG.info("seed {} does not answer yet: {}", seed, e.toString());
                }
            }
            if (!out.isEmpty()) {
                return out;
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("no seed of " + seeds + " answered within 120 s: cannot join the cluster");
    }

    private static boolean hasUserKeyspaces(Schema s) {
        return s.keyspaces().values().stream().anyMatch(ks -> !ks.virtual()
                && !io.charybdis.node.schema.SchemaConstants.isSystemKeyspace(ks.name()));
    }

    Replicas replicas() {
        return replicas;
    }

    /** The coordinator attached to this member, or null before {@link #attach}. */
    Coordinator coordinator() {
        return coordinator.get();
    }

    /** The coordinator to keep on the ring of every new epoch. */
    void attach(Coordinator c) {
        coordinator.set(c);
        onMetadata(metadata.state());
        replicas.refuseStaleCoordinators(c::placementEpoch);
        c.onStaleEpoch(metadata::catchUp);
        routing.set(c);
        // the batchlog timeout is twice the write timeout, as Cassandra's
        batchlog = new io.charybdis.cluster.batchlog.BatchlogManager(storage,
                ms -> c.write(ms, io.charybdis.cluster.ConsistencyLevel.ONE, null), 2 * writeTimeoutMillis).start();
    }

    /** What the coordinator asks before it counts a replica as live. */
    io.charybdis.cluster.Liveness liveness() {
        return failureDetector;
    }

    /** Told (up?, native address) when another member is convicted down or answers again. */
    void onStatusChange(java.util.function.BiConsumer<Boolean, InetSocketAddress> listener) {
        statusListener = listener;
    }

    private void statusChanged(io.charybdis.cluster.locator.Endpoint e, boolean up) {
        NodeRecord r = metadata.state().members().get(e.hostId());
        LOG.info("node {} is now {}", e, up ? "UP" : "DOWN");
        io.charybdis.cluster.hints.HintsService h = hints;
        if (up && h != null) {
            h.onUp(e);
        }
        if (r != null) {
            statusListener.accept(up, new InetSocketAddress(r.rpcAddress(), r.nativePort()));
        }
    }

    /** Told (joined?, native address) for every member that joins or leaves after this call. */
    void onTopologyChange(java.util.function.BiConsumer<Boolean, InetSocketAddress> listener) {
        topologyListener = listener;
    }

    ClusterMetadata clusterMetadata() {
        return metadata.state().clusterMetadata(hostId);
    }

    /**
     * The other members, each shown with the schema version this node has installed: every member applies the same
     * schema entries of the log in the same order, so the version a driver compares is the log's.
     */
    List<NodeInfo.Peer> peers() {
        UUID version = schemas.schema().version();
        List<NodeInfo.Peer> out = new ArrayList<>(peers.size());
        for (NodeInfo.Peer p : peers) {
            out.add(new NodeInfo.Peer(p.hostId(), p.address(), p.storagePort(), p.rpcAddress(), p.nativePort(),
                    p.dataCenter(), p.rack(), p.releaseVersion(), p.tokens(), version));
        }
        return out;
    }

    // ------------------------------------------------------------------ metadata epochs

    private synchronized void onMetadata(MetadataState state) {
        ClusterMetadata md = state.clusterMetadata(hostId);
        Coordinator c = coordinator.get();
        if (md != null && c != null) {
            c.update(md);
        }
        List<NodeInfo.Peer> now = new ArrayList<>();
        for (NodeRecord r : state.members().values()) {
            // a JOINING member serves nothing yet: drivers hear of it once it is NORMAL
            if (!r.hostId().equals(hostId) && r.status() != NodeRecord.Status.JOINING) {
                now.add(new NodeInfo.Peer(r.hostId(), r.address(), r.storagePort(), r.rpcAddress(), r.nativePort(),
                        r.datacenter(), r.rack(), r.releaseVersion(), r.tokens().stream().map(String::valueOf).toList(),
                        schemas.schema().version()));
            }
        }
        peers = List.copyOf(now);
        java.util.Set<UUID> before = members;
        members = state.members().values().stream().filter(r -> r.status() != NodeRecord.Status.JOINING)
                .map(NodeRecord::hostId).collect(java.util.stream.Collectors.toUnmodifiableSet());
        if (!before.isEmpty()) {
            for (NodeRecord r : state.members().values()) {
                if (!before.contains(r.hostId()) && members.contains(r.hostId()) && !r.hostId().equals(hostId)) {
                    topologyListener.accept(true, new InetSocketAddress(r.rpcAddress(), r.nativePort()));
                }
            }
        }
        for (UUID gone : before) {
            if (!members.contains(gone)) {
                NodeInfo.Peer p = peersBefore(gone);
                if (p != null) {
                    topologyListener.accept(false, new InetSocketAddress(p.rpcAddress(), p.nativePort()));
                }
            }
        }
        previousPeers = now;
        MetadataState.Schema s = state.schema();
        if (state.epoch() <= installedEpoch) {
            installedSchema = s.version(); // installed before this node restarted: its schema is the local one already
        } else if (!s.version().equals(installedSchema) && s.document().length > 0) {
            @SuppressWarnings("unchecked")
            Map<String, Object> doc = (Map<String, Object>) new Yaml().load(new String(s.document(), StandardCharsets.UTF_8));
            List<SchemaChange> events = new ArrayList<>();
            for (String e : s.events()) {
                events.add(decodeEvent(e));
            }
            schemas.install(SchemaCodec.fromDocument(doc), events);
            installedSchema = s.version();
            installedEpoch = state.epoch();
            writeEpoch(installedEpochFile, installedEpoch);
        }
    }

    private List<NodeInfo.Peer> previousPeers = List.of();

    private static long readEpoch(Path file) {
        try {
            return java.nio.file.Files.exists(file) ? Long.parseLong(java.nio.file.Files.readString(file).trim()) : -1;
        } catch (java.io.IOException | NumberFormatException e) {
            LOG.warn("cannot read {} ({}): every schema of the metadata log is installed again", file, e.toString());
            return -1;
        }
    }

    private static void writeEpoch(Path file, long epoch) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            java.nio.file.Files.writeString(tmp, Long.toString(epoch));
            java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot record the installed schema epoch in " + file, e);
        }
    }

    private NodeInfo.Peer peersBefore(UUID hostId) {
        for (NodeInfo.Peer p : previousPeers) {
            if (p.hostId().equals(hostId)) {
                return p;
            }
        }
        return null;
    }

    /** SchemaManager's committer: proposes the change to the log and waits until it is installed here. */
    private boolean commit(Schema before, Schema after, List<SchemaChange> events) {
        String doc = new Yaml().dump(SchemaCodec.toDocument(after));
        List<String> encoded = events.stream().map(ClusterMember::encodeEvent).toList();
        try {
            metadata.changeSchema(installedSchema, UUID.randomUUID(), doc.getBytes(StandardCharsets.UTF_8), encoded)
                    .get(30, TimeUnit.SECONDS);
            return true;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof SchemaConflictException) {
                return false;
            }
            throw new io.charybdis.node.cql.exceptions.ServerErrorException("Schema change failed: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (Exception e) {
            throw new io.charybdis.node.cql.exceptions.ServerErrorException("Schema change failed: " + e, e);
        }
    }

    private static String encodeEvent(SchemaChange c) {
        return c.change() + "|" + c.target() + "|" + c.keyspace() + "|" + (c.name() == null ? "" : c.name()) + "|"
                + String.join(",", c.argTypes());
    }

    private static SchemaChange decodeEvent(String s) {
        String[] f = s.split("\\|", -1);
        return new SchemaChange(SchemaChange.Change.valueOf(f[0]), SchemaChange.Target.valueOf(f[1]), f[2],
                f[3].isEmpty() ? null : f[3], f[4].isEmpty() ? List.of() : Arrays.asList(f[4].split(",")));
    }

    @Override
    public void close() {
        if (batchlog != null) {
            batchlog.close();
        }
        if (hints != null) {
            hints.close();
        }
        if (failureDetector != null) {
            failureDetector.close();
        }
        if (loadReporter != null) {
            loadReporter.shutdownNow();
        }
        MetadataService m = metadata;
        if (m != null) {
            m.close();
        }
        messaging.close();
    }
}
