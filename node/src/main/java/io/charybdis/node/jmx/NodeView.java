package io.charybdis.node.jmx;

import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.storage.Storage;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableId;
import io.charybdis.storage.TableStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/** What the beans read from the node: its identity, schema and storage, and the formats Cassandra prints them in. */
final class NodeView {
    final NodeConfig config;
    final Storage storage;
    final Supplier<io.charybdis.node.schema.Schema> schema;
    final NodeInfo info;
    volatile boolean running = true;
    /** Each shard's request counters and coordinator latencies (empty in views made without a node). */
    volatile List<io.charybdis.node.metrics.ShardRequestMetrics> requests = List.of();
    /** The node's cluster membership; null for a node on its own. */
    volatile ClusterOps cluster;
    /** The node, for drain and stopdaemon; null in views made without one. */
    private final io.charybdis.node.CharybdisNode owner;

    NodeView(NodeConfig config, Storage storage, Supplier<io.charybdis.node.schema.Schema> schema, NodeInfo info) {
        this(config, storage, schema, info, null);
    }

    NodeView(NodeConfig config, Storage storage, Supplier<io.charybdis.node.schema.Schema> schema, NodeInfo info,
             io.charybdis.node.CharybdisNode owner) {
        this.config = config;
        this.storage = storage;
        this.schema = schema;
        this.info = info;
        this.owner = owner;
    }

    /** Query tracing (trace probability); fails in views made without a node. */
    io.charybdis.node.tracing.Tracing tracing() {
        if (owner == null) {
            throw new UnsupportedOperationException("tracing needs the node");
        }
        return owner.tracing();
    }

    /** Cassandra's operation mode names: NORMAL, then DRAINING and DRAINED after nodetool drain. */
    String operationMode() {
        if (!running) {
            return "DRAINED";
        }
        if (owner == null) {
            return "NORMAL";
        }
        return switch (owner.operationMode()) {
            case io.charybdis.node.metrics.ScyllaMetrics.MODE_STARTING -> "STARTING";
            case io.charybdis.node.metrics.ScyllaMetrics.MODE_DRAINING -> "DRAINING";
            case io.charybdis.node.metrics.ScyllaMetrics.MODE_DRAINED -> "DRAINED";
            default -> "NORMAL";
        };
    }

    /** Whether CQL clients are served (false once drained, and while nodetool disablebinary has it stopped). */
    boolean nativeTransportRunning() {
        return running && operationMode().equals("NORMAL") && (owner == null || owner.cqlServer().isListening());
    }

    /** nodetool refreshsizeestimates. */
    void refreshSizeEstimates() throws ExecutionException, InterruptedException {
        if (owner == null) {
            throw new UnsupportedOperationException("refreshsizeestimates needs the node");
        }
        owner.refreshSizeEstimates();
    }

    /** nodetool enablebinary: serves CQL clients again; refused once the node is drained, as Cassandra does. */
    void startNativeTransport() throws InterruptedException {
        if (owner == null) {
            throw new UnsupportedOperationException("enablebinary needs the node");
        }
        String mode = operationMode();
        if (!running || mode.equals("DRAINING") || mode.equals("DRAINED")) {
            throw new IllegalStateException("Unable to start native transport because the node was drained.");
        }
        owner.cqlServer().restart();
    }

    /** nodetool disablebinary: stops serving CQL clients (force: without waiting for the requests begun). */
    void stopNativeTransport(boolean force) {
        if (owner == null) {
            throw new UnsupportedOperationException("disablebinary needs the node");
        }
        owner.cqlServer().stopListening(force);
    }

    String drainProgress() {
        int tables = 0;
        for (TableMetadata t : allTables()) {
            if (hasStorage(t)) {
                tables++;
            }
        }
        return String.format("Drained %d/%d ColumnFamilies", operationMode().equals("DRAINED") ? tables : 0, tables);
    }

    void drain() throws ExecutionException, InterruptedException {
        if (owner == null) {
            throw new UnsupportedOperationException("drain needs the node");
        }
        owner.drain();
    }

    void stopDaemon() {
        if (owner == null) {
            throw new UnsupportedOperationException("stopdaemon needs the node");
        }
        owner.requestStop();
    }

    /** This node as Cassandra names endpoints in the "WithPort" attributes: listen address and storage port. */
    String endpointWithPort() {
        return info.listenAddress().getHostAddress() + ":" + info.storagePort();
    }

    String endpoint() {
        return info.listenAddress().getHostAddress();
    }

    /** True if {@code host} (with or without a port, optionally with a leading '/') names this node. */
    boolean isLocal(String host) {
        if (host == null) {
            return false;
        }
        String h = host.startsWith("/") ? host.substring(1) : host;
        if (h.equals(endpoint()) || h.equals(endpointWithPort())) {
            return true;
        }
        String rpc = info.rpcAddress().getHostAddress();
        return h.equals(rpc) || h.startsWith(rpc + ":") || h.startsWith(endpoint() + ":")
                || h.equals("localhost") || h.equals(info.listenAddress().getHostName());
    }

    /** Cassandra's virtual keyspaces: not listed by StorageService, no table beans. */
    static boolean cassandraVirtual(String keyspace) {
        return keyspace.equals("system_views") || keyspace.equals("system_virtual_schema");
    }

    /**
     * The keyspaces Cassandra lists (all but its virtual ones), sorted by name. Our system keyspaces are computed
     * (no storage): they are listed, with empty storage figures, as Cassandra lists its own.
     */
    List<KeyspaceMetadata> keyspaces() {
        List<KeyspaceMetadata> r = new ArrayList<>();
        for (KeyspaceMetadata ks : new TreeMap<>(schema.get().keyspaces()).values()) {
            if (!cassandraVirtual(ks.name())) {
                r.add(ks);
            }
        }
        return r;
    }

    /** True if the table's data lives in the storage engine (not a computed system table). */
    boolean hasStorage(TableMetadata t) {
        KeyspaceMetadata ks = schema.get().keyspace(t.keyspace());
        return ks != null && !t.isVirtual();
    }

    /** system.compaction_history, where the node writes each finished compaction; fails in views made without a node. */
    io.charybdis.node.system.CompactionHistoryTable compactionHistory() {
        if (owner == null) {
            throw new UnsupportedOperationException("compaction history needs the node");
        }
        return owner.compactionHistory();
    }

    KeyspaceMetadata keyspace(String name) {
        KeyspaceMetadata ks = name == null ? null : schema.get().keyspace(name);
        if (ks == null || cassandraVirtual(ks.name())) {
            throw new IllegalArgumentException("Unknown keyspace " + name);
        }
        return ks;
    }

    /** The named tables of a keyspace, or all of them when none is named. */
    List<TableMetadata> tables(String keyspace, String... tables) {
        KeyspaceMetadata ks = keyspace(keyspace);
        List<TableMetadata> r = new ArrayList<>();
        if (tables == null || tables.length == 0) {
            r.addAll(new TreeMap<>(ks.tables()).values());
        } else {
            for (String t : tables) {
                TableMetadata tm = ks.table(t);
                if (tm == null) {
                    throw new IllegalArgumentException("Unknown keyspace/cf pair (" + keyspace + "." + t + ")");
                }
                r.add(tm);
            }
        }
        return r;
    }

    List<TableMetadata> allTables() {
        List<TableMetadata> r = new ArrayList<>();
        for (KeyspaceMetadata ks : keyspaces()) {
            r.addAll(new TreeMap<>(ks.tables()).values());
        }
        return r;
    }

    TableStats stats(TableMetadata t) {
        if (!hasStorage(t)) {
            return new TableStats(0, 0, 0, 0, 0, 0, 0, 0);
        }
        try {
            return storage.stats(new TableId(t.id()));
        } catch (StorageException e) { // dropped meanwhile
            return new TableStats(0, 0, 0, 0, 0, 0, 0, 0);
        }
    }

    /** Live SSTable bytes on disk, all tables (Cassandra's Load). */
    long loadBytes() {
        long n = 0;
        for (TableMetadata t : allTables()) {
            n += stats(t).liveDiskBytes();
        }
        return n;
    }

    long uncompressedLoadBytes() {
        long n = 0;
        for (TableMetadata t : allTables()) {
            if (!hasStorage(t)) {
                continue;
            }
            try {
                n += storage.uncompressedBytes(new TableId(t.id()));
            } catch (StorageException e) {
                // dropped meanwhile
            }
        }
        return n;
    }

    /** Waits for a storage operation; failures become JDK exceptions a JMX client can read. */
    static <T> T await(CompletableFuture<T> f) throws ExecutionException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw new ExecutionException(new RuntimeException(String.valueOf(c)));
        }
    }

    /** Cassandra's replication info for describecluster: "SimpleStrategy {replication_factor=1}". */
    static String replicationInfo(Map<String, String> replication) {
        String cls = replication.getOrDefault("class", "LocalStrategy");
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        Map<String, String> options = new TreeMap<>(replication);
        options.remove("class");
        return simple + " " + options;
    }

}
