package io.charybdis.node;

import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.QueryProcessor;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.describe.DescribeResult;
import io.charybdis.node.describe.Describer;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.SchemaStore;
import io.charybdis.node.schema.TableLifecycle;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.server.Authenticator;
import io.charybdis.node.server.CqlServer;
import io.charybdis.node.server.Shards;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.node.system.SystemKeyspaces;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.storage.CommitLogSync;
import io.charybdis.storage.Storage;
import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A running Charybdis node: shard event loops, the storage engine on them, the durable schema, the CQL layer and
 * the native-protocol server. Several nodes can run in one JVM (tests): nothing here is static.
 */
public final class CharybdisNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CharybdisNode.class);

    private final NodeConfig config;
    private final Shards shards;
    private final Storage storage;
    private final SchemaManager schemas;
    private final CqlServer server;
    private final NodeInfo info;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** JMX for nodetool (io.charybdis.node.jmx); null if it could not listen. */
    private volatile io.charybdis.node.jmx.JmxServer jmx;
    /** Prometheus metrics on prometheus_port; null if disabled or it could not listen. */
    private volatile io.charybdis.node.metrics.MetricsServer metrics;
    /** ScyllaDB's operation mode number (see ScyllaMetrics): normal once started, then draining and drained. */
    private volatile int operationMode = io.charybdis.node.metrics.ScyllaMetrics.MODE_STARTING;
    /** This node's membership of a cluster; null for a node on its own. */
    private volatile ClusterMember member;
    /** Roles, permissions and the auth cache. */
    private volatile io.charybdis.node.auth.AuthService auth;
    /** This node's native secondary indexes. */
    private volatile io.charybdis.node.index.LocalIndexes indexes;
    /** system.compaction_history: every finished compaction is written there. */
    private volatile io.charybdis.node.system.CompactionHistoryTable compactionHistory;

    private CharybdisNode(NodeConfig config, Shards shards, Storage storage, SchemaManager schemas, CqlServer server,
                          NodeInfo info) {
        this.config = config;
        this.shards = shards;
        this.storage = storage;
        this.schemas = schemas;
        this.server = server;
        this.info = info;
    }

    /** Starts storage and the CQL ports; returns once clients can connect. */
    public static CharybdisNode start(NodeConfig config) throws Exception {
        return start(config, io.charybdis.cluster.messaging.FaultInjector.NONE);
    }

    /**
     * Starts a node whose internode traffic goes through {@code faults} (tests: drop or delay messages between
     * chosen nodes).
     */
    public static CharybdisNode start(NodeConfig config, io.charybdis.cluster.messaging.FaultInjector faults)
            throws Exception {
        Path data = config.dataFileDirectories().get(0);
        io.charybdis.node.config.Snitch snitch = io.charybdis.node.config.Snitch.of(config); // refuses bad settings first
        Files.createDirectories(data);
        // TLS settings are checked before anything starts: a bad keystore stops startup naming the option
        javax.net.ssl.SSLContext jmxTls = config.jmxPort() != -1 && config.jmxEncryptionOptions().enabled()
                ? io.charybdis.node.tls.TlsContexts.jdk(config.jmxEncryptionOptions()) : null;
        Shards shards = new Shards(config.smp(), "charybdis");
        Storage storage = null;
        ClusterMember[] memberHolder = new ClusterMember[1];
        io.charybdis.node.auth.AuthService[] authHolder = new io.charybdis.node.auth.AuthService[1];
        io.charybdis.node.index.LocalIndexes[] indexesHolder = new io.charybdis.node.index.LocalIndexes[1];
        try {
            StorageConfig sc = new StorageConfig(data, config.commitlogDirectory(), sync(config),
                    config.commitlogSyncPeriod().toMillis(), Math.max(1, config.commitlogSyncGroupWindow().toMillis()),
                    config.commitlogSegmentSize().bytes(), config.memoryBudget().bytes(),
                    config.ignoreCommitlogCorruption())
                    .withCompactionThroughputBytesPerSecond(config.compactionThroughput().bytes())
                    .withDataDirectories(config.dataFileDirectories());
            storage = Storage.open(sc, shards.loops());
            SchemaManager schemas = new SchemaManager(new SchemaStore(data), SystemKeyspaces.builtIn());
            Storage st = storage;
            io.charybdis.node.index.LocalIndexes indexes = new io.charybdis.node.index.LocalIndexes(st, data);
            indexesHolder[0] = indexes;
            for (TableMetadata t : storedTables(schemas.schema())) {
                st.registerTable(descriptor(t));
                indexes.register(t); // before replay: replayed writes are indexed again
            }
            indexes.started();
            // the local Paxos state table (lightweight transactions across nodes) is registered before the replay
            // so that promises and acceptances in the commit log are not lost
            st.registerTable(io.charybdis.cluster.paxos.PaxosReplica.descriptor());
            storage.registerTable(io.charybdis.cluster.batchlog.Batchlog.DESCRIPTOR); // system.batches: before replay
            storage.replayCommitLog().get();
            for (TableMetadata t : storedTables(schemas.schema())) {
                indexes.buildMissing(t);
            }
            schemas.setLifecycle(new TableLifecycle() {
                @Override
                public void created(TableMetadata table) {
                    st.registerTable(descriptor(table));
                    indexes.register(table);
                    indexes.buildMissing(table);
                }

                @Override
                public void altered(TableMetadata before, TableMetadata after) {
                    st.alterTable(descriptor(after));
                    indexes.altered(before, after);
                }

                @Override
                public void dropped(TableMetadata table) {
                    indexes.dropped(table);
                    // Schema changes run on a shard's event loop: waiting here for every shard (this one included)
                    // to discard the table would deadlock. The table is gone from the schema already, so nothing
                    // reads or writes it; its data is released in the background.
                    st.dropTable(new TableId(table.id())).whenComplete((v, t) -> {
                        if (t != null) {
                            log.warn("Could not release the data of dropped table {}.{}", table.keyspace(),
                                    table.name(), t);
                        }
                    });
                }
            });
            Identity identity = Identity.loadOrCreate(data, config.numTokens());
            InetAddress rpc = InetAddress.getByName(config.rpcAddress());
            NodeInfo[] infoHolder = new NodeInfo[1];
            List<Long> tokens = identity.tokens.stream().map(Long::parseLong).toList();
            io.charybdis.cluster.locator.Endpoint self = new io.charybdis.cluster.locator.Endpoint(identity.hostId,
                    InetAddress.getByName(config.listenAddress()), config.storagePort(), snitch.datacenter(), snitch.rack(), shards.count());
            ClusterMember member = null;
            if (!ClusterMember.otherSeeds(config).isEmpty()) {
                member = ClusterMember.start(config, shards, storage, schemas, identity.hostId, tokens,
                        snitch.datacenter(), snitch.rack(), data, faults);
                memberHolder[0] = member;
            }
            io.charybdis.cluster.Coordinator coordinator = member == null
                    ? NodeCoordinator.singleNode(storage, schemas, self, tokens)
                    : NodeCoordinator.clustered(storage, schemas, member.clusterMetadata(), member.replicas(),
                            member.liveness(), member.hints());
            coordinator.counterWriteTimeout(config.counterWriteRequestTimeout().toMillis());
            if (member != null) {
                member.attach(coordinator);
            }
            ClusterMember m = member;
            java.util.function.Supplier<NodeInfo> nodeInfo = m == null ? () -> infoHolder[0]
                    : () -> infoHolder[0].withPeers(m.peers());
            QueryProcessor qp = new QueryProcessor(schemas, coordinator, SystemKeyspaces::find, nodeInfo,
                    config.preparedStatementsCacheSize().bytes());
            qp.guardrails().batchSize(config.batchSizeWarnThreshold().bytes(), config.batchSizeFailThreshold().bytes());
            qp.guardrails().tombstones(config.tombstoneWarnThreshold(), config.tombstoneFailureThreshold());
            qp.setIndexStatus(indexes);
            qp.setDropCompactStorageEnabled(config.dropCompactStorageEnabled());
            qp.setDescriber((stmt, ks) -> describeStatement(schemas, stmt, ks, nodeInfo));
            boolean passwords = config.authenticator() == AuthenticatorType.PASSWORD;
            boolean authorization = config.authorizer() == io.charybdis.node.config.AuthorizerType.CASSANDRA;
            java.time.Duration validity = config.rolesValidity().compareTo(config.permissionsValidity()) < 0
                    ? config.rolesValidity() : config.permissionsValidity();
            io.charybdis.node.auth.AuthService authService = new io.charybdis.node.auth.AuthService(passwords,
                    authorization, new io.charybdis.node.auth.RoleStore(
                            new io.charybdis.node.auth.InternalQueries(qp), config.authReadConsistencyLevel(),
                            config.authWriteConsistencyLevel()), validity, 10_000);
            authHolder[0] = authService;
            qp.setAuth(new io.charybdis.node.auth.AuthStatements(authService, schemas::schema, qp::dataCenters),
                    authorization ? new io.charybdis.node.auth.StatementAuthorizer(authService) : null);
            if (passwords) {
                setupDefaultSuperuser(authService);
            }
            Authenticator auth = passwords ? Authenticator.passwords(authService) : Authenticator.allowAll();
            CqlServer server = CqlServer.create(shards, qp, auth, nodeInfo, config);
            io.charybdis.node.system.SizeEstimates sizeEstimates = new io.charybdis.node.system.SizeEstimates(storage,
                    schemas::schema);
            io.charybdis.node.tracing.Tracing tracing = new io.charybdis.node.tracing.Tracing(
                    new io.charybdis.node.auth.InternalQueries(qp), InetAddress.getByName(config.listenAddress()),
                    config.storagePort());
            server.setTracing(tracing);
            io.charybdis.node.system.CompactionHistoryTable history = new io.charybdis.node.system.CompactionHistoryTable(
                    new io.charybdis.node.auth.InternalQueries(qp));
            storage.onCompactionFinished(history::write);
            schemas.addListener(server::schemaChanged);
            if (member != null) {
                member.onTopologyChange(server::topologyChanged);
                member.onStatusChange(server::statusChanged);
            }
            server.start(rpc, config.nativeTransportPort(), config.nativeShardAwareTransportPort());
            infoHolder[0] = new NodeInfo(config.clusterName(), identity.hostId,
                    InetAddress.getByName(config.listenAddress()), rpc, server.port(), config.storagePort(),
                    snitch.datacenter(), snitch.rack(), NodeInfo.RELEASE_VERSION, NodeInfo.CQL_VERSION, "5", 
                    config.partitioner(), identity.tokens, shards.count(), System.currentTimeMillis())
                    .withIndexes(indexes).withSizeEstimates(sizeEstimates);
            CharybdisNode node = new CharybdisNode(config, shards, storage, schemas, server, infoHolder[0]);
            node.nodeInfo = nodeInfo;
            node.sizeEstimates = sizeEstimates;
            sizeEstimates.start(nodeInfo);
            node.member = member;
            node.auth = authService;
            node.indexes = indexes;
            node.compactionHistory = history;
            node.jmx = io.charybdis.node.jmx.JmxServer.start(config, node, jmxTls); // never throws
            node.metrics = node.startMetrics(rpc); // never throws
            node.operationMode = io.charybdis.node.metrics.ScyllaMetrics.MODE_NORMAL;
            return node;
        } catch (Exception | Error e) {
            if (indexesHolder[0] != null) {
                indexesHolder[0].close();
            }
            if (authHolder[0] != null) {
                authHolder[0].close();
            }
            if (memberHolder[0] != null) {
                memberHolder[0].close();
            }
            if (storage != null) {
                try {
                    storage.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            shards.close();
            throw e;
        }
    }

    /**
     * Creates cassandra/cassandra when no role exists yet (Cassandra's CassandraRoleManager does it
     * superuser_setup_delay after startup; a node on its own does it before accepting clients). When system_auth cannot
     * be reached yet (a cluster still forming), it tries again in the background every 10 seconds.
     */
    private static void setupDefaultSuperuser(io.charybdis.node.auth.AuthService auth) {
        try {
            auth.setupDefaultSuperuser().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("Could not set up the default superuser yet ({}); retrying in the background", e.toString());
            Thread retry = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted() && !auth.isClosed()) {
                    try {
                        Thread.sleep(10_000);
                        auth.setupDefaultSuperuser().get(30, TimeUnit.SECONDS);
                        return;
                    } catch (InterruptedException ie) {
                        return;
                    } catch (Exception again) {
                        log.debug("Default superuser setup failed again", again);
                    }
                }
            }, "charybdis-auth-setup");
            retry.setDaemon(true);
            retry.start();
        }
    }

    /** Each shard's request counters and coordinator latencies (for JMX and the metrics endpoint). */
    public List<io.charybdis.node.metrics.ShardRequestMetrics> requestMetrics() {
        return server.requestMetrics();
    }

    private io.charybdis.node.metrics.MetricsServer startMetrics(InetAddress rpc) {
        if (config.prometheusPort() == -1) {
            return null;
        }
        long[] threadIds = new long[shards.count()];
        try {
            for (int i = 0; i < threadIds.length; i++) {
                threadIds[i] = shards.loop(i).submit(() -> Thread.currentThread().threadId()).get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            log.error("Metrics are disabled: the shard threads did not answer", e);
            return null;
        }
        io.charybdis.node.metrics.ScyllaMetrics collector = new io.charybdis.node.metrics.ScyllaMetrics(
                rpc.getHostAddress(), storage, server.requestMetrics(), threadIds, () -> operationMode,
                this::storedTables, config.memoryBudget().bytes(), NodeInfo.RELEASE_VERSION);
        return io.charybdis.node.metrics.MetricsServer.start(rpc, config.prometheusPort(), collector);
    }

    /** The tables whose data is in the storage engine, by id: {keyspace, table}. */
    private Map<TableId, String[]> storedTables() {
        Map<TableId, String[]> r = new LinkedHashMap<>();
        for (TableMetadata t : storedTables(schemas.schema())) {
            r.put(new TableId(t.id()), new String[] {t.keyspace(), t.name()});
        }
        return r;
    }

    /**
     * The tables whose data the storage engine keeps: those of every stored keyspace, and the stored tables of the
     * built-in local keyspace system (compaction_history).
     */
    static List<TableMetadata> storedTables(io.charybdis.node.schema.Schema schema) {
        List<TableMetadata> r = new ArrayList<>();
        for (var ks : schema.keyspaces().values()) {
            for (TableMetadata t : ks.tables().values()) {
                if (!t.isVirtual()) {
                    r.add(t);
                }
            }
        }
        return r;
    }

    /** The Prometheus endpoint, or null when prometheus_port is -1 or it could not listen. */
    public io.charybdis.node.metrics.MetricsServer metrics() {
        return metrics;
    }

    /** ScyllaDB's number for the node's operation mode (3: normal; 6, 7: draining, drained). */
    public int operationMode() {
        return operationMode;
    }

    /**
     * nodetool drain: stops serving CQL clients, flushes every memtable and syncs the commit log, so that a restart
     * replays nothing. JMX and the metrics stay up (Cassandra's node stays up too, DRAINED, until it is stopped).
     */
    public synchronized void drain() throws java.util.concurrent.ExecutionException, InterruptedException {
        if (operationMode == io.charybdis.node.metrics.ScyllaMetrics.MODE_DRAINED) {
            return;
        }
        operationMode = io.charybdis.node.metrics.ScyllaMetrics.MODE_DRAINING;
        log.info("Draining: closing client connections, flushing memtables, syncing the commit log");
        server.close();
        storage.drain().get();
        operationMode = io.charybdis.node.metrics.ScyllaMetrics.MODE_DRAINED;
        log.info("Drained");
    }

    /** What nodetool stopdaemon does: by default closes this node; bin/charybdis's process exits instead. */
    private volatile Runnable stopHandler = this::close;

    /** Replaces what {@link #requestStop} does (Main: exit the process, whose shutdown hook closes the node). */
    public void onStopRequest(Runnable handler) {
        this.stopHandler = handler;
    }

    /** Stops the node shortly, on a thread of its own, so that the caller (a JMX request) gets its answer first. */
    public void requestStop() {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.info("Stopping at the request of nodetool stopdaemon");
            stopHandler.run();
        }, "charybdis-stopdaemon");
        t.setDaemon(false);
        t.start();
    }

    private static CommitLogSync sync(NodeConfig config) {
        return switch (config.commitlogSync()) {
            case PERIODIC -> CommitLogSync.PERIODIC;
            case BATCH -> CommitLogSync.BATCH;
            case GROUP -> CommitLogSync.GROUP;
        };
    }

    static TableDescriptor descriptor(TableMetadata t) {
        return new TableDescriptor(new TableId(t.id()), t.keyspace(), t.name(), t.params().compression(),
                t.params().compaction(), t.params().gcGraceSeconds()).withCaching(t.params().caching());
    }

    private static CqlStatement describeStatement(SchemaManager schemas, io.charybdis.node.cql.syntax.DescribeStatement
            stmt, String keyspace, java.util.function.Supplier<NodeInfo> node) {
        return new CqlStatement() {
            @Override
            public List<BindVariable> bindVariables() {
                return List.of();
            }

            @Override
            public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
                DescribeResult r = Describer.describe(schemas.schema(), ctx.client().keyspace() != null
                        ? ctx.client().keyspace() : keyspace, stmt, node.get());
                List<ColumnSpec> specs = new ArrayList<>();
                for (int i = 0; i < r.columnNames().size(); i++) {
                    specs.add(new ColumnSpec(DescribeResult.KEYSPACE, DescribeResult.TABLE, r.columnNames().get(i),
                            r.columnTypes().get(i)));
                }
                RowsWriter w = new RowsWriter(ctx.alloc(), ctx.version());
                w.begin(ResultMetadata.of(specs), false, null, null);
                for (List<ByteBuffer> row : r.rows()) {
                    for (ByteBuffer v : row) {
                        if (v == null) {
                            w.nullValue();
                        } else {
                            w.value(v);
                        }
                    }
                }
                return CompletableFuture.completedFuture(new ResultMessage.Rows(w));
            }
        };
    }

    /** Host id and tokens, chosen at first start and kept in the data directory. */
    private record Identity(UUID hostId, List<String> tokens) {
        static Identity loadOrCreate(Path dir, int numTokens) throws IOException {
            Path file = dir.resolve("node-identity.yaml");
            if (Files.exists(file)) {
                Map<?, ?> m = new Yaml().load(Files.readString(file, StandardCharsets.UTF_8));
                @SuppressWarnings("unchecked")
                List<Object> tokens = (List<Object>) m.get("tokens");
                List<String> ts = new ArrayList<>();
                for (Object t : tokens) {
                    ts.add(String.valueOf(t));
                }
                return new Identity(UUID.fromString((String) m.get("host_id")), ts);
            }
            Random r = new Random();
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < Math.max(1, numTokens); i++) {
                tokens.add(Long.toString(r.nextLong()));
            }
            Identity id = new Identity(UUID.randomUUID(), tokens);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host_id", id.hostId.toString());
            m.put("tokens", tokens);
            Path tmp = file.resolveSibling("node-identity.yaml.tmp");
            Files.writeString(tmp, new Yaml().dump(m), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return id;
        }
    }

    public int nativePort() {
        return server.port();
    }

    public int shardAwarePort() {
        return server.shardAwarePort();
    }

    /** The CQL server: its connections, bytes in flight and overload counters. */
    /** Query tracing: system_traces sessions and the trace probability. */
    public io.charybdis.node.tracing.Tracing tracing() {
        return server.tracing();
    }

    /** system.compaction_history (nodetool compactionhistory reads it). */
    public io.charybdis.node.system.CompactionHistoryTable compactionHistory() {
        return compactionHistory;
    }

    public CqlServer cqlServer() {
        return server;
    }

    /** What system.local and friends show now (with the cluster's other members). */
    private volatile java.util.function.Supplier<NodeInfo> nodeInfo;
    private volatile io.charybdis.node.system.SizeEstimates sizeEstimates;

    /** nodetool refreshsizeestimates: records system.size_estimates and table_estimates now. */
    public void refreshSizeEstimates() throws java.util.concurrent.ExecutionException, InterruptedException {
        sizeEstimates.refresh(nodeInfo.get()).get();
    }

    public Storage storage() {
        return storage;
    }

    public SchemaManager schemas() {
        return schemas;
    }

    public NodeInfo info() {
        return info;
    }

    /** This node's part in a cluster (topology changes, repair, the ring): null for a node on its own. */
    public io.charybdis.node.jmx.ClusterOps cluster() {
        ClusterMember m = member;
        return m == null ? null : new ClusterOperations(m, this);
    }

    /** The JMX server nodetool talks to, or null if JMX could not listen. */
    /** Roles, permissions and logins of this node. */
    public io.charybdis.node.auth.AuthService auth() {
        return auth;
    }

    public io.charybdis.node.jmx.JmxServer jmx() {
        return jmx;
    }

    /**
     * What Main logs after "Charybdis &lt;version&gt; ", e.g. "listening for CQL clients on 127.0.0.1:9042
     * (shard-aware port 19042), 2 shards, data in /var/lib/charybdis/data".
     */
    public String describeListening() {
        return "listening for CQL clients on " + config.rpcAddress() + ":" + server.port() + " (shard-aware port "
                + server.shardAwarePort() + "), " + shards.count() + " shards, data in "
                + String.join(", ", config.dataFileDirectories().stream().map(Path::toString).toList()) + ", commit log in " + config.commitlogDirectory()
                + " (" + config.commitlogSync().configName() + ")";
    }

    /** Idempotent: stops the ports, flushes memtables, syncs the commit log, stops the shards. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (jmx != null) {
            jmx.close();
        }
        if (sizeEstimates != null) {
            sizeEstimates.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        server.close();
        if (auth != null) {
            auth.close();
        }
        if (member != null) {
            member.close();
        }
        if (indexes != null) {
            indexes.close();
        }
        try {
            storage.drain().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("Drain did not complete cleanly; the commit log will be replayed at next start", e);
        }
        try {
            storage.close();
        } catch (RuntimeException e) {
            log.warn("Error closing storage", e);
        }
        shards.close();
    }
}
