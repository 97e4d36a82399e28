package io.charybdis.node.jmx;

import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.LatencyHistogram;
import io.charybdis.storage.PartitionHistograms;
import io.charybdis.storage.RowCacheStats;
import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableId;
import io.charybdis.storage.TableLatencies;
import io.charybdis.storage.TableMetrics;
import io.charybdis.storage.TableStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves Cassandra's JMX surface for {@code nodetool}: an RMI registry and the RMI connector on one port
 * ({@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}) at {@code jmx_address} (127.0.0.1 unless configured), over a
 * per-node MBeanServer holding the platform MXBeans and the Cassandra-named beans of this node, so several nodes in
 * one JVM do not collide.
 *
 * <p>Security as Cassandra's {@code cassandra-env.sh} offers it for remote JMX: {@code jmx_password_file} (the JDK's
 * {@code jmxremote.password} format: one {@code user password} per line) makes every connection authenticate, and
 * {@code jmx_access_file} ({@code jmxremote.access} format: {@code user readonly|readwrite}) limits what each user
 * may do; {@code jmx_encryption_options} with {@code enabled: true} puts both the registry and the connector behind
 * TLS ({@code com.sun.management.jmxremote.ssl} and {@code .registry.ssl} together; clients use
 * {@code SslRMIClientSocketFactory}, as {@code nodetool --ssl} does), with client certificates when
 * {@code require_client_auth}. A non-loopback {@code jmx_address} without a password file stops startup.
 */
public final class JmxServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(JmxServer.class);

    private final MBeanServer mbs;
    private final NodeView node;
    private final Registry registry;
    private final RMIConnectorServer connector;
    private final int port;
    private final String host;
    private final Map<UUID, List<ObjectName>> tableBeans = new HashMap<>();
    private io.charybdis.node.auth.AuthService auth;
    private boolean jmxAuthorizer;
    private volatile boolean closed;

    private JmxServer(MBeanServer mbs, NodeView node, Registry registry, RMIConnectorServer connector, String host,
                      int port) {
        this.mbs = mbs;
        this.node = node;
        this.registry = registry;
        this.connector = connector;
        this.host = host;
        this.port = port;
    }

    /**
     * Starts JMX on {@code config.jmxPort()} (0: a free port; -1: none) at the node's RPC address. Never throws: returns null,
     * with an error logged, if the port cannot be bound (the node still serves CQL).
     */
    public static JmxServer start(NodeConfig config, CharybdisNode node) {
        return start(config, node, null);
    }

    /** As {@link #start(NodeConfig, CharybdisNode)}, with TLS from {@code tls} when it is not null. */
    public static JmxServer start(NodeConfig config, CharybdisNode node, SSLContext tls) {
        if (config.jmxPort() == -1) {
            return null; // disabled
        }
        NodeView view = new NodeView(config, node.storage(), () -> node.schemas().schema(), node.info(), node);
        view.cluster = node.cluster();
        view.requests = node.requestMetrics();
        JmxServer server;
        try {
            server = listen(config, view, tls, node.auth());
        } catch (IOException | RuntimeException e) {
            log.error("JMX is disabled: cannot listen on {}:{} ({}); nodetool cannot reach this node",
                    config.jmxAddress(), config.jmxPort(), e.toString());
            return null;
        }
        try {
            server.registerAll();
            node.schemas().addListener(change -> server.syncTables());
        } catch (RuntimeException e) {
            log.error("JMX is disabled: registering the MBeans failed", e);
            server.close();
            return null;
        }
        log.info("JMX (nodetool) listening on {}:{}{}{}", server.host, server.port,
                config.jmxPasswordFile() != null ? ", with passwords from " + config.jmxPasswordFile()
                        : config.jmxLoginConfig() != null ? ", logins against the roles"
                        + (config.jmxAuthorizer() != null ? ", MBean permissions enforced" : "")
                        : ", no authentication",
                tls != null ? ", TLS" : "");
        return server;
    }

    private static JmxServer listen(NodeConfig config, NodeView view, SSLContext tls,
                                    io.charybdis.node.auth.AuthService auth) throws IOException {
        InetAddress address = InetAddress.getByName(config.jmxAddress());
        String host = address.getHostAddress();
        // RMI stubs carry this host name; Cassandra sets it the same way for its local JMX server
        if (System.getProperty("java.rmi.server.hostname") == null) {
            System.setProperty("java.rmi.server.hostname", host);
        }
        SSLParameters tlsParameters = null;
        if (tls != null) {
            EncryptionOptions o = config.jmxEncryptionOptions();
            tlsParameters = tls.getDefaultSSLParameters();
            if (o.enabledProtocols() != null) {
                tlsParameters.setProtocols(o.enabledProtocols().toArray(String[]::new));
            }
            if (!o.cipherSuites().isEmpty()) {
                tlsParameters.setCipherSuites(o.cipherSuites().toArray(String[]::new));
            }
            tlsParameters.setNeedClientAuth(o.requireClientAuth());
        }
        BoundServerSocketFactory ssf = new BoundServerSocketFactory(address, tls, tlsParameters);
        RMIClientSocketFactory csf = tls == null ? null : new SslRMIClientSocketFactory();
        int port = config.jmxPort();
        if (port == 0) {
            try (ServerSocket probe = ssf.createServerSocket(0)) {
                port = probe.getLocalPort();
            }
        }
        Registry registry = LocateRegistry.createRegistry(port, csf, ssf);
        try {
            MBeanServer mbs = MBeanServerFactory.newMBeanServer();
            Map<String, Object> env = new HashMap<>();
            env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, ssf);
            if (csf != null) {
                env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, csf);
            }
            if (config.jmxPasswordFile() != null) {
                // RMIConnectorServer authenticates every connection against this file (JMXPluggableAuthenticator)
                env.put("jmx.remote.x.password.file", config.jmxPasswordFile().toString());
            }
            if (config.jmxAccessFile() != null) {
                env.put("jmx.remote.x.access.file", config.jmxAccessFile().toString());
            }
            if (config.jmxLoginConfig() != null) {
                env.put(javax.management.remote.JMXConnectorServer.AUTHENTICATOR, JmxRoles.authenticator(auth));
            }
            RMIJRMPServerImpl rmiServer = new RMIJRMPServerImpl(port, csf, ssf, env);
            // with TLS the connector must not bind itself through JNDI (that client would need to trust this node's
            // certificate); the stub goes into the registry below either way
            JMXServiceURL url = tls != null ? new JMXServiceURL("service:jmx:rmi://" + host + ":" + port)
                    : new JMXServiceURL("service:jmx:rmi://" + host + ":" + port + "/jndi/rmi://" + host
                    + ":" + port + "/jmxrmi");
            RMIConnectorServer connector = new RMIConnectorServer(url, env, rmiServer, mbs);
            if (config.jmxAuthorizer() != null) {
                connector.setMBeanServerForwarder(JmxRoles.authorizer(auth));
            }
            connector.start();
            registry.rebind("jmxrmi", rmiServer.toStub());
            JmxServer server = new JmxServer(mbs, view, registry, connector, host, port);
            server.auth = auth;
            server.jmxAuthorizer = config.jmxAuthorizer() != null;
            return server;
        } catch (IOException | RuntimeException e) {
            unexport(registry);
            throw e;
        }
    }

    /** The port JMX listens on (the configured one, or the one picked for 0). */
    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    /** {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}, what nodetool connects to. */
    public String serviceUrl() {
        return "service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi";
    }

    /** The per-node MBeanServer (for in-process inspection). */
    public MBeanServer mbeanServer() {
        return mbs;
    }

    // ------------------------------------------------------------------ registration

    /** The StorageService bean (closed with the server: its background tasks stop). */
    private StorageServiceBean storageService;

    StorageServiceBean storageServiceBean() {
        return storageService;
    }

    private void registerAll() {
        registerPlatformBeans();
        storageService = new StorageServiceBean(node);
        register(name("org.apache.cassandra.db:type=StorageService"), new javax.management.StandardEmitterMBean(
                storageService, StorageServiceMBean.class, false, storageService.emitter()));
        standard("org.apache.cassandra.db:type=EndpointSnitchInfo", new SmallBeans.EndpointSnitchInfo(node),
                EndpointSnitchInfoMBean.class);
        standard("org.apache.cassandra.db:type=StorageProxy", new SmallBeans.StorageProxy(node),
                StorageProxyMBean.class);
        standard("org.apache.cassandra.db:type=CompactionManager", new SmallBeans.CompactionManager(node),
                CompactionManagerMBean.class);
        standard("org.apache.cassandra.net:type=FailureDetector", new SmallBeans.FailureDetector(node),
                FailureDetectorMBean.class);
        standard("org.apache.cassandra.net:type=Gossiper", new SmallBeans.Gossiper(node), GossiperMBean.class);
        standard("org.apache.cassandra.net:type=MessagingService", new StreamingBeans.MessagingService(node),
                MessagingServiceMBean.class);
        standard("org.apache.cassandra.net:type=StreamManager", new StreamingBeans.StreamManager(node),
                StreamManagerMBean.class);
        standard("org.apache.cassandra.db:type=Caches", new SmallBeans.CacheService(), CacheServiceMBean.class);
        if (auth != null) {
            AuthCaches.Roles roles = new AuthCaches.Roles(auth);
            standard("org.apache.cassandra.auth:type=RolesCache", roles, AuthCacheMBean.class);
            standard("org.apache.cassandra.auth:type=PermissionsCache", roles, AuthCacheMBean.class);
            if (jmxAuthorizer) {
                standard("org.apache.cassandra.auth:type=JmxPermissionsCache", roles, AuthCacheMBean.class);
            }
            standard("org.apache.cassandra.auth:type=CredentialsCache", new AuthCaches.Uncached("credentials are not "
                    + "cached: every login reads system_auth.roles"), AuthCacheMBean.class);
            standard("org.apache.cassandra.auth:type=NetworkPermissionsCache", new AuthCaches.Uncached("network "
                    + "permissions are not cached: AllowAllNetworkAuthorizer keeps none"), AuthCacheMBean.class);
            CidrGroups cidr = new CidrGroups(auth);
            standard("org.apache.cassandra.db:type=CIDRGroupsMappingManager", cidr, CidrGroupsMBean.class);
            standard("org.apache.cassandra.db:type=CIDRPermissionsManager", cidr, CidrPermissionsMBean.class);
        }
        standard(MemoryBudget.NAME, new MemoryBudget(node), MemoryBudgetMBean.class);
        registerNodeMetrics();
        registerThreadPools();
        registerClientRequests();
        syncTables();
    }

    /** The JVM's MXBeans (java.lang:type=Memory, Runtime, ...) that nodetool reads, in this node's server. */
    private void registerPlatformBeans() {
        for (Class<? extends PlatformManagedObject> type : ManagementFactory.getPlatformManagementInterfaces()) {
            for (PlatformManagedObject bean : ManagementFactory.getPlatformMXBeans(type)) {
                ObjectName name = bean.getObjectName();
                if (name == null || mbs.isRegistered(name)) {
                    continue;
                }
                try {
                    mbs.registerMBean(bean, name);
                } catch (InstanceAlreadyExistsException e) {
                    // the same object under two interfaces (e.g. com.sun.management's subinterfaces)
                } catch (Exception e) {
                    log.debug("platform MXBean {} not exposed: {}", name, e.toString());
                }
            }
        }
    }

    private <T> void standard(String name, T impl, Class<T> type) {
        register(name(name), new StandardMBean(impl, type, false));
    }

    private void register(ObjectName name, Object bean) {
        try {
            if (bean instanceof MetricBean m) {
                m.bind(name);
            }
            mbs.registerMBean(bean, name);
        } catch (InstanceAlreadyExistsException e) {
            // registered by an earlier sync
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + name, e);
        }
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(s, e);
        }
    }

    private CompactionStatus compactionStatus() {
        return node.storage.compactionStatus().join();
    }

    private void registerNodeMetrics() {
        String c = "org.apache.cassandra.metrics:type=Compaction,name=";
        register(name(c + "PendingTasks"), MetricBean.gauge(Integer.class, () -> compactionStatus().pendingTasks()));
        register(name(c + "CompletedTasks"), MetricBean.gauge(Long.class, () -> compactionsCompleted()));
        register(name(c + "TotalCompactionsCompleted"), MetricBean.meter(this::compactionsCompleted));
        register(name(c + "BytesCompacted"), MetricBean.counter(() -> {
            long n = 0;
            for (TableMetadata t : node.allTables()) {
                n += metrics(t).bytesCompacted();
            }
            return n;
        }));
        register(name(c + "CompactionsAborted"), MetricBean.counter(() -> 0));
        register(name(c + "CompactionsReduced"), MetricBean.counter(() -> 0));
        register(name(c + "SSTablesDroppedFromCompaction"), MetricBean.counter(() -> 0));
        register(name(c + "PendingTasksByTableName"), MetricBean.gauge(Map.class, () -> {
            Map<String, Map<String, Integer>> m = new LinkedHashMap<>();
            for (CompactionStatus.TableStatus t : compactionStatus().tables()) {
                if (t.pendingTasks() > 0) {
                    m.computeIfAbsent(t.keyspace(), k -> new LinkedHashMap<>()).put(t.table(), t.pendingTasks());
                }
            }
            return m;
        }));

        // node-wide table metrics (nodetool info reads PercentRepaired): nothing is ever repaired here
        register(name("org.apache.cassandra.metrics:type=Table,name=PercentRepaired"),
                MetricBean.gauge(Double.class, () -> node.loadBytes() > 0 ? 0.0 : 100.0));
        register(name("org.apache.cassandra.metrics:type=Table,name=LiveDiskSpaceUsed"),
                MetricBean.counter(node::loadBytes));
        register(name("org.apache.cassandra.metrics:type=Table,name=TotalDiskSpaceUsed"),
                MetricBean.counter(node::loadBytes));

        String s = "org.apache.cassandra.metrics:type=Storage,name=";
        register(name(s + "Load"), MetricBean.counter(node::loadBytes));
        register(name(s + "UncompressedLoad"), MetricBean.counter(node::uncompressedLoadBytes));
        register(name(s + "Exceptions"), MetricBean.counter(() -> 0));
        register(name(s + "TotalHints"), MetricBean.counter(() -> 0));
        register(name(s + "TotalHintsInProgress"), MetricBean.counter(() -> 0));

        // the row cache is real; key, counter and chunk caches do not exist here (Cassandra's empty figures)
        Supplier<RowCacheStats> rc = node.storage::rowCacheStats;
        // capacity: what the cache may hold now, memory_budget less the memtables (they share the budget)
        cache("RowCache", () -> rc.get().entries(), () -> rc.get().bytes(), () -> Math.max(0,
                        node.config.memoryBudget().bytes() - (node.storage.allocatedOffHeapBytes() - rc.get().bytes())),
                () -> rc.get().hits(), () -> rc.get().hits() + rc.get().misses(), () -> rc.get().misses());
        cache("KeyCache", () -> 0, () -> 0, () -> 0, () -> 0, () -> 0, () -> 0);
        cache("CounterCache", () -> 0, () -> 0, () -> 0, () -> 0, () -> 0, () -> 0);

        for (String scope : List.of("networking", "chunk-cache")) {
            String b = "org.apache.cassandra.metrics:type=BufferPool,scope=" + scope + ",name=";
            register(name(b + "Size"), MetricBean.gauge(Long.class, () -> 0L));
            register(name(b + "UsedSize"), MetricBean.gauge(Long.class, () -> 0L));
            register(name(b + "OverflowSize"), MetricBean.gauge(Long.class, () -> 0L));
            register(name(b + "Capacity"), MetricBean.gauge(Long.class, () -> 0L));
            register(name(b + "Hits"), MetricBean.meter(() -> 0));
            register(name(b + "Misses"), MetricBean.meter(() -> 0));
        }
    }

    /**
     * nodetool tpstats: each shard's scheduling groups as pools {@code <group>-shard<N>}: {@code statement} under path
     * {@code request}, {@code memtable} (flushes) and {@code compaction} under {@code internal} (see
     * {@link io.charybdis.storage.SchedulingGroupStats}). The statement pools have no ActiveTasks (nodetool prints N/A).
     */
    private void registerThreadPools() {
        List<io.charybdis.storage.SchedulingGroupStats> groups = node.storage.schedulingGroups();
        for (int i = 0; i < groups.size(); i++) {
            io.charybdis.storage.SchedulingGroupStats g = groups.get(i);
            int index = i;
            Supplier<io.charybdis.storage.SchedulingGroupStats> now = () -> node.storage.schedulingGroups().get(index);
            String path = g.group().equals(io.charybdis.storage.SchedulingGroupStats.STATEMENT) ? "request" : "internal";
            String p = "org.apache.cassandra.metrics:type=ThreadPools,path=" + path + ",scope=" + g.group() + "-shard"
                    + g.shard() + ",name=";
            if (g.active() >= 0) {
                register(name(p + "ActiveTasks"), MetricBean.gauge(Integer.class, () -> now.get().active()));
            }
            register(name(p + "PendingTasks"), MetricBean.gauge(Integer.class, () -> now.get().pending()));
            register(name(p + "CompletedTasks"), MetricBean.gauge(Long.class, () -> now.get().completed()));
            register(name(p + "CurrentlyBlockedTasks"), MetricBean.counter(() -> now.get().blocked()));
            register(name(p + "TotalBlockedTasks"), MetricBean.counter(() -> now.get().totalBlocked()));
            register(name(p + "MaxPoolSize"), MetricBean.gauge(Integer.class, () -> 1));
        }
    }

    /**
     * nodetool proxyhistograms: coordinator latencies ({@code type=ClientRequest,scope=Read|Write|RangeSlice,
     * name=Latency}) summed over the shards. Conditional statements count as reads or writes (CASRead and CASWrite
     * stay empty), and there are no materialized views (ViewWrite stays empty).
     */
    private void registerClientRequests() {
        String p = "org.apache.cassandra.metrics:type=ClientRequest,scope=";
        register(name(p + "Read,name=Latency"), MetricBean.timer(() -> coordinatorLatency(
                io.charybdis.node.metrics.ShardRequestMetrics.KIND_READ)));
        register(name(p + "Write,name=Latency"), MetricBean.timer(() -> coordinatorLatency(
                io.charybdis.node.metrics.ShardRequestMetrics.KIND_WRITE)));
        register(name(p + "RangeSlice,name=Latency"), MetricBean.timer(() -> coordinatorLatency(
                io.charybdis.node.metrics.ShardRequestMetrics.KIND_RANGE_READ)));
        for (String scope : List.of("CASRead", "CASWrite", "ViewWrite")) {
            register(name(p + scope + ",name=Latency"), MetricBean.timer(LatencyHistogram::empty));
        }
    }

    private LatencyHistogram.Snapshot coordinatorLatency(int kind) {
        LatencyHistogram.Snapshot sum = LatencyHistogram.empty();
        for (io.charybdis.node.metrics.ShardRequestMetrics m : node.requests) {
            sum = LatencyHistogram.sum(sum, m.cassandraLatency(kind));
        }
        return sum;
    }

    private void cache(String scope, java.util.function.LongSupplier entries, java.util.function.LongSupplier size,
                       java.util.function.LongSupplier capacity, java.util.function.LongSupplier hits,
                       java.util.function.LongSupplier requests, java.util.function.LongSupplier misses) {
        String p = "org.apache.cassandra.metrics:type=Cache,scope=" + scope + ",name=";
        register(name(p + "Entries"), MetricBean.gauge(Integer.class, () -> (int) entries.getAsLong()));
        register(name(p + "Size"), MetricBean.gauge(Long.class, size::getAsLong));
        register(name(p + "Capacity"), MetricBean.gauge(Long.class, capacity::getAsLong));
        register(name(p + "HitRate"), MetricBean.gauge(Double.class, () -> {
            long r = requests.getAsLong();
            return r == 0 ? Double.NaN : (double) hits.getAsLong() / r;
        }));
        register(name(p + "Hits"), MetricBean.meter(hits));
        register(name(p + "Requests"), MetricBean.meter(requests));
        register(name(p + "Misses"), MetricBean.meter(misses));
        register(name(p + "MissLatency"), MetricBean.timer(LatencyHistogram::empty));
    }

    private long compactionsCompleted() {
        long n = 0;
        for (TableMetadata t : node.allTables()) {
            n += metrics(t).compactionsCompleted();
        }
        return n;
    }

    private TableMetrics metrics(TableMetadata t) {
        if (!node.hasStorage(t)) {
            return TableMetrics.none();
        }
        try {
            return node.storage.metrics(new TableId(t.id()));
        } catch (StorageException e) {
            return TableMetrics.none();
        }
    }

    private TableLatencies latencies(TableId id) {
        try {
            return node.storage.latencies(id);
        } catch (StorageException e) {
            return new TableLatencies(LatencyHistogram.empty(), LatencyHistogram.empty(), LatencyHistogram.empty(),
                    LatencyHistogram.empty());
        }
    }

    /** Registers the beans of new tables and unregisters those of dropped ones. */
    synchronized void syncTables() {
        if (closed) {
            return;
        }
        Map<UUID, TableMetadata> live = new HashMap<>();
        for (TableMetadata t : node.allTables()) {
            live.put(t.id(), t);
        }
        for (var it = tableBeans.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!live.containsKey(e.getKey())) {
                unregister(e.getValue());
                it.remove();
            }
        }
        for (TableMetadata t : live.values()) {
            if (!tableBeans.containsKey(t.id())) {
                tableBeans.put(t.id(), registerTable(t));
            }
        }
    }

    private List<ObjectName> registerTable(TableMetadata t) {
        List<ObjectName> names = new ArrayList<>();
        TableBean bean = new TableBean(node, t);
        String ks = t.keyspace();
        String tn = t.name();
        for (String n : List.of("org.apache.cassandra.db:type=Tables,keyspace=" + ks + ",table=" + tn,
                "org.apache.cassandra.db:type=ColumnFamilies,keyspace=" + ks + ",columnfamily=" + tn)) {
            ObjectName on = name(n);
            register(on, new StandardMBean(bean, ColumnFamilyStoreMBean.class, false));
            names.add(on);
        }
        TableId id = new TableId(t.id());
        Supplier<TableStats> st = () -> node.stats(t);
        boolean stored = node.hasStorage(t);
        Supplier<TableMetrics> mt = () -> metrics(t);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("LiveSSTableCount", MetricBean.gauge(Integer.class, () -> st.get().sstableCount()));
        m.put("OldVersionSSTableCount", MetricBean.gauge(Integer.class, () -> 0));
        m.put("MemtableOffHeapSize", MetricBean.gauge(Long.class, () -> st.get().memtableBytes()));
        m.put("MemtableOnHeapSize", MetricBean.gauge(Long.class, () -> 0L));
        m.put("MemtableLiveDataSize", MetricBean.gauge(Long.class, () -> st.get().memtableBytes()));
        m.put("AllMemtablesOffHeapSize", MetricBean.gauge(Long.class, () -> st.get().memtableBytes()));
        m.put("AllMemtablesLiveDataSize", MetricBean.gauge(Long.class, () -> st.get().memtableBytes()));
        m.put("MemtableColumnsCount", MetricBean.gauge(Long.class, () -> 0L));
        m.put("BloomFilterOffHeapMemoryUsed", MetricBean.gauge(Long.class, () -> 0L));
        m.put("IndexSummaryOffHeapMemoryUsed", MetricBean.gauge(Long.class, () -> 0L));
        m.put("CompressionMetadataOffHeapMemoryUsed", MetricBean.gauge(Long.class, () -> 0L));
        m.put("BloomFilterDiskSpaceUsed", MetricBean.gauge(Long.class, () -> 0L));
        m.put("BloomFilterFalsePositives", MetricBean.gauge(Long.class, () -> 0L));
        m.put("RecentBloomFilterFalsePositives", MetricBean.gauge(Long.class, () -> 0L));
        m.put("BloomFilterFalseRatio", MetricBean.gauge(Double.class, () -> 0.0));
        m.put("RecentBloomFilterFalseRatio", MetricBean.gauge(Double.class, () -> 0.0));
        // nothing is ever repaired: all data is unrepaired (100% when there is none, as Cassandra reports)
        m.put("PercentRepaired", MetricBean.gauge(Double.class, () -> st.get().liveDiskBytes() > 0 ? 0.0 : 100.0));
        m.put("BytesRepaired", MetricBean.gauge(Long.class, () -> 0L));
        m.put("BytesUnrepaired", MetricBean.gauge(Long.class, () -> st.get().liveDiskBytes()));
        m.put("BytesPendingRepair", MetricBean.gauge(Long.class, () -> 0L));
        m.put("SnapshotsSize", MetricBean.gauge(Long.class, () -> 0L));
        m.put("CompressionRatio", MetricBean.gauge(Double.class, () -> compressionRatio(t, id)));
        m.put("EstimatedPartitionCount", MetricBean.gauge(Long.class, () -> st.get().partitionsEstimate()));
        // partition sizes and cells per partition recorded in the live SSTables' statistics, every shard's
        Supplier<PartitionHistograms> ph = () -> partitionHistograms(t, id);
        m.put("MeanPartitionSize", MetricBean.gauge(Long.class, () -> ph.get().meanPartitionSize()));
        m.put("MinPartitionSize", MetricBean.gauge(Long.class, () -> ph.get().minPartitionSize()));
        m.put("MaxPartitionSize", MetricBean.gauge(Long.class, () -> ph.get().maxPartitionSize()));
        m.put("EstimatedPartitionSizeHistogram", MetricBean.gauge(long[].class, () -> ph.get().partitionSizes()));
        m.put("EstimatedColumnCountHistogram", MetricBean.gauge(long[].class, () -> ph.get().cellCounts()));
        m.put("MaxSSTableSize", MetricBean.gauge(Long.class, () -> 0L));
        m.put("MaxSSTableDuration", MetricBean.gauge(Long.class, () -> 0L));
        m.put("LiveDiskSpaceUsed", MetricBean.counter(() -> st.get().liveDiskBytes()));
        m.put("TotalDiskSpaceUsed", MetricBean.counter(() -> st.get().liveDiskBytes()));
        m.put("MemtableSwitchCount", MetricBean.counter(() -> st.get().flushCount()));
        m.put("PendingFlushes", MetricBean.counter(() -> st.get().pendingFlushes()));
        m.put("PendingCompactions", MetricBean.gauge(Integer.class, () -> pendingCompactions(id)));
        m.put("SpeculativeRetries", MetricBean.counter(() -> {
            ClusterOps c = node.cluster;
            return c == null ? 0 : c.speculativeRetries(t.id());
        }));
        m.put("DroppedMutations", MetricBean.counter(() -> 0));
        m.put("BytesFlushed", MetricBean.counter(() -> 0));
        m.put("CompactionBytesWritten", MetricBean.counter(() -> mt.get().bytesCompacted()));
        m.put("ReadLatency", MetricBean.timer(() -> stored ? latencies(id).reads() : LatencyHistogram.empty()));
        m.put("WriteLatency", MetricBean.timer(() -> stored ? latencies(id).writes() : LatencyHistogram.empty()));
        m.put("ReadTotalLatency", MetricBean.counter(() -> stored ? latencies(id).reads().totalMicros() : 0));
        m.put("WriteTotalLatency", MetricBean.counter(() -> stored ? latencies(id).writes().totalMicros() : 0));
        m.put("RangeTotalLatency", MetricBean.counter(() -> 0));
        m.put("RangeLatency", MetricBean.timer(LatencyHistogram::empty));
        m.put("CoordinatorReadLatency", MetricBean.timer(() -> {
            ClusterOps c = node.cluster;
            return c == null ? LatencyHistogram.empty() : c.coordinatorReadLatency(t.id());
        }));
        m.put("CoordinatorScanLatency", MetricBean.timer(LatencyHistogram::empty));
        m.put("SSTablesPerReadHistogram", MetricBean.histogram(() -> mt.get().sstablesPerRead(),
                () -> mt.get().recentSSTablesPerRead()));
        m.put("LiveScannedHistogram", MetricBean.valueHistogram(
                () -> stored ? latencies(id).liveScanned() : LatencyHistogram.empty()));
        m.put("TombstoneScannedHistogram", MetricBean.valueHistogram(
                () -> stored ? latencies(id).tombstonesScanned() : LatencyHistogram.empty()));
        String prefix = "org.apache.cassandra.metrics:type=Table,keyspace=" + ks + ",scope=" + tn + ",name=";
        for (var e : m.entrySet()) {
            ObjectName on = name(prefix + e.getKey());
            register(on, e.getValue());
            names.add(on);
        }
        return names;
    }

    private int pendingCompactions(TableId id) {
        for (CompactionStatus.TableStatus t : compactionStatus().tables()) {
            if (t.tableId().equals(id)) {
                return t.pendingTasks();
            }
        }
        return 0;
    }

    /** On-disk over uncompressed size of the live SSTables; -1 when there are none or they are not compressed. */
    private double compressionRatio(TableMetadata t, TableId id) {
        TableMetadata now = node.schema.get().table(t.keyspace(), t.name());
        Map<String, String> c = now == null ? Map.of() : now.params().compression();
        if ("false".equalsIgnoreCase(c.getOrDefault("enabled", "true")) || c.get("class") == null) {
            return -1.0;
        }
        TableStats s = node.stats(t);
        if (!node.hasStorage(t)) {
            return -1.0;
        }
        long uncompressed;
        try {
            uncompressed = node.storage.uncompressedBytes(id);
        } catch (StorageException e) {
            return -1.0;
        }
        return s.sstableCount() == 0 || uncompressed == 0 ? -1.0 : (double) s.liveDiskBytes() / uncompressed;
    }

    private PartitionHistograms partitionHistograms(TableMetadata t, TableId id) {
        if (!node.hasStorage(t)) {
            return PartitionHistograms.empty();
        }
        try {
            return node.storage.partitionHistograms(id);
        } catch (StorageException e) {
            return PartitionHistograms.empty();
        }
    }

    private void unregister(List<ObjectName> names) {
        for (ObjectName n : names) {
            try {
                mbs.unregisterMBean(n);
            } catch (Exception e) {
                // already gone
            }
        }
    }

    // ------------------------------------------------------------------ shutdown

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        node.running = false;
        if (storageService != null) {
            storageService.close();
        }
        try {
            connector.stop();
        } catch (IOException e) {
            log.warn("Error stopping the JMX connector", e);
        }
        try {
            registry.unbind("jmxrmi");
        } catch (Exception e) {
            // not bound
        }
        unexport(registry);
        for (List<ObjectName> names : tableBeans.values()) {
            unregister(names);
        }
        tableBeans.clear();
    }

    private static void unexport(Registry registry) {
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException e) {
            // already
        }
    }

    /**
     * Server sockets bound to one address. Equal factories let RMI share one listening port between the registry and
     * the connector's server object.
     */
    private static final class BoundServerSocketFactory implements RMIServerSocketFactory {
        private final InetAddress address;
        private final SSLContext tls;
        private final SSLParameters parameters;

        BoundServerSocketFactory(InetAddress address, SSLContext tls, SSLParameters parameters) {
            this.address = address;
            this.tls = tls;
            this.parameters = parameters;
        }

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            ServerSocket s;
            if (tls != null) {
                SSLServerSocket ssl = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket();
                ssl.setSSLParameters(parameters);
                s = ssl;
            } else {
                s = new ServerSocket();
            }
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(address, port), 50);
            return s;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BoundServerSocketFactory f && f.address.equals(address) && f.tls == tls;
        }

        @Override
        public int hashCode() {
            return Objects.hash(BoundServerSocketFactory.class, address);
        }
    }
}
