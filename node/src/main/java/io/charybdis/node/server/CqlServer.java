package io.charybdis.node.server;

import io.charybdis.node.metrics.ShardRequestMetrics;

import io.charybdis.node.cql.QueryProcessor;
import io.charybdis.node.schema.SchemaChange;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.frame.EnvelopeDecoder;
import io.charybdis.protocol.frame.EnvelopeEncoder;
import io.charybdis.protocol.response.Responses;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.charybdis.node.config.EncryptionOptions;
import io.charybdis.node.tls.TlsContexts;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The CQL native-protocol server: the regular port (connections spread over the shards) and the shard-aware port
 * (connections land on the shard their source port selects). Also delivers EVENTs to registered connections.
 *
 * <p>Every connection's pipeline, from the socket in:
 * <pre>
 *   [tls] → [idleState] → flushConsolidation → envelopeDecoder/frameDecoder → envelopeEncoder/frameEncoder → cql
 * </pre>
 * {@code tls} is Netty's {@link io.netty.handler.ssl.SslHandler} when {@code client_encryption_options} turn TLS on,
 * or an {@link OptionalSslHandler} that looks at the first bytes and keeps TLS or plain text when TLS is optional.
 * {@code idleState} is there when {@code native_transport_idle_timeout} is positive: it closes a connection that
 * has neither read nor written anything for that long, as Cassandra 5.0 does. Outbound buffers have Cassandra's water
 * marks ({@link #WRITE_BUFFER_HIGH_WATER_MARK}/{@link #WRITE_BUFFER_LOW_WATER_MARK}): above the high one the
 * connection stops reading until it drains below the low one. Connection limits, bytes in flight and the request
 * rate are {@link ClientLimits}' and {@link RequestRateLimiter}'s, applied by each {@link CqlConnection}.
 */
public final class CqlServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CqlServer.class);

    private final Shards shards;
    private final QueryProcessor processor;
    private final Authenticator authenticator;
    private final Supplier<NodeInfo> node;
    private final int maxFrameSize;
    private final ClientLimits limits;
    private final RequestRateLimiter rateLimiter;
    private final long idleTimeoutMillis;
    private final boolean allowOlderProtocols;
    private final AtomicLong lastRefusalLog = new AtomicLong(System.nanoTime() - TimeUnit.SECONDS.toNanos(2));
    private final AtomicLong refusedSinceLog = new AtomicLong();
    private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    private final Map<Channel, CqlConnection> schemaListeners = new ConcurrentHashMap<>();
    private final Map<Channel, CqlConnection> topologyListeners = new ConcurrentHashMap<>();
    private final Map<Channel, CqlConnection> statusListeners = new ConcurrentHashMap<>();
    private SslContext tls;
    private boolean tlsOptional;
    private java.util.concurrent.ThreadPoolExecutor tlsTasks;
    private final ShardRequestMetrics[] requestMetrics;
    private io.charybdis.node.tracing.Tracing tracing;
    private volatile Channel regular;
    private volatile Channel shardAware;
    private int shardAwarePort;
    /** What {@link #start} bound, for {@link #restart} (nodetool enablebinary): address, ports, pipeline. */
    private InetAddress boundAddress;
    private int boundPort;
    private ChannelHandler boundInit;
    /** False while nodetool disablebinary has the listeners closed. */
    private volatile boolean listening;

    public CqlServer(Shards shards, QueryProcessor processor, Authenticator authenticator, Supplier<NodeInfo> node,
                     int maxFrameSize) {
        this(shards, processor, authenticator, node, maxFrameSize, ClientLimits.unlimited(), null, Duration.ZERO, true);
    }

    /**
     * @param limits      connections and bytes in flight, node-wide and per client address
     * @param rateLimiter the node-wide request rate, or null for none
     * @param idleTimeout close connections idle this long; zero = never
     * @param allowOlderProtocols false: only protocol v5 is served
     */
    CqlServer(Shards shards, QueryProcessor processor, Authenticator authenticator, Supplier<NodeInfo> node,
              int maxFrameSize, ClientLimits limits, RequestRateLimiter rateLimiter, Duration idleTimeout,
              boolean allowOlderProtocols) {
        this.shards = shards;
        this.processor = processor;
        this.authenticator = authenticator;
        this.node = node;
        this.maxFrameSize = maxFrameSize;
        this.limits = limits;
        this.rateLimiter = rateLimiter;
        this.idleTimeoutMillis = idleTimeout.toMillis();
        this.allowOlderProtocols = allowOlderProtocols;
        this.requestMetrics = new ShardRequestMetrics[shards.count()];
        for (int i = 0; i < requestMetrics.length; i++) {
            requestMetrics[i] = new ShardRequestMetrics(i);
        }
    }

    /** The request counters and latency histograms of each shard (written by that shard only), in shard order. */
    public List<ShardRequestMetrics> requestMetrics() {
        return List.of(requestMetrics);
    }

    ShardRequestMetrics requestMetrics(int shard) {
        return requestMetrics[shard];
    }

    /** A server with the native-transport limits of {@code config}. */
    public static CqlServer create(Shards shards, QueryProcessor processor, Authenticator authenticator,
                                   Supplier<NodeInfo> node, io.charybdis.node.config.NodeConfig config) {
        ClientLimits limits = new ClientLimits(config.nativeTransportMaxConcurrentConnections(),
                config.nativeTransportMaxConcurrentConnectionsPerIp(),
                config.nativeTransportMaxRequestDataInFlight().bytes(),
                config.nativeTransportMaxRequestDataInFlightPerIp().bytes());
        RequestRateLimiter rate = config.nativeTransportRateLimitingEnabled()
                ? new RequestRateLimiter(config.nativeTransportMaxRequestsPerSecond()) : null;
        CqlServer server = new CqlServer(shards, processor, authenticator, node,
                (int) Math.min(Integer.MAX_VALUE, config.nativeTransportMaxFrameSize().bytes()), limits, rate,
                config.nativeTransportIdleTimeout(), config.nativeTransportAllowOlderProtocols());
        EncryptionOptions tls = config.clientEncryptionOptions();
        if (tls.policy() != EncryptionOptions.Policy.UNENCRYPTED) {
            server.useTls(TlsContexts.server(tls), tls.policy() == EncryptionOptions.Policy.OPTIONAL);
            log.info("Client TLS on the CQL ports ({}): {}", tls.policy(), tls.describe());
        }
        return server;
    }

    /**
     * Serves TLS on both CQL ports ({@code client_encryption_options}); {@code optional}: plain-text clients are served
     * too, told apart by their first bytes. Before {@link #start}.
     */
    public void useTls(SslContext context, boolean optional) {
        this.tls = context;
        this.tlsOptional = optional;
        this.tlsTasks = handshakeExecutor();
    }

    /**
     * Runs the SSLEngine's delegated tasks (key exchange, certificate checks: the expensive part of a handshake) off
     * the shard threads, so that a burst of handshakes does not stall the requests a shard serves. Bounded: when its
     * queue is full, the shard runs the task itself.
     */
    private static java.util.concurrent.ThreadPoolExecutor handshakeExecutor() {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ThreadPoolExecutor e = new java.util.concurrent.ThreadPoolExecutor(threads, threads, 30,
                TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(4096), r -> {
                    Thread t = new Thread(r, "tls-handshake-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy());
        e.allowCoreThreadTimeOut(true);
        return e;
    }

    /** Cassandra's outbound water marks for client connections. */
    static final int WRITE_BUFFER_HIGH_WATER_MARK = 32 * 1024;
    static final int WRITE_BUFFER_LOW_WATER_MARK = 8 * 1024;

    ClientLimits limits() {
        return limits;
    }

    RequestRateLimiter rateLimiter() {
        return rateLimiter;
    }

    boolean allowOlderProtocols() {
        return allowOlderProtocols;
    }

    /** Bytes of requests received and not yet answered, on the whole node. */
    public long bytesInFlight() {
        return limits.bytesInFlight();
    }

    /** Bytes of requests received and not yet answered from one client address. */
    public long bytesInFlight(InetAddress client) {
        return limits.bytesInFlight(client);
    }

    /** Times a connection stopped reading because bytes in flight were over a limit. */
    public long pausesForInFlight() {
        return limits.pausesForInFlight();
    }

    /** Times a connection stopped reading because of the request rate limit. */
    public long pausesForRate() {
        return limits.pausesForRate();
    }

    /** Times a connection stopped reading because its client did not read its responses. */
    public long pausesForWritability() {
        return limits.pausesForWritability();
    }

    /** Times a connection stopped reading because it had the most requests in progress a connection may have. */
    public long pausesForBusy() {
        return limits.pausesForBusy();
    }

    /** Requests refused with OVERLOADED (connections that asked for THROW_ON_OVERLOAD). */
    public long overloadedRequests() {
        return limits.overloadedRequests();
    }

    /** Connections closed at once for being over a connection limit. */
    public long refusedConnections() {
        return limits.refusedConnections();
    }

    /** Open connections counted against the connection limits (refused ones until they are closed). */
    public long countedConnections() {
        return limits.connections();
    }

    /** Query tracing (system_traces); set before {@link #start}. Without it, no request is traced. */
    public void setTracing(io.charybdis.node.tracing.Tracing tracing) {
        this.tracing = tracing;
    }

    public io.charybdis.node.tracing.Tracing tracing() {
        return tracing;
    }

    QueryProcessor processor() {
        return processor;
    }

    Authenticator authenticator() {
        return authenticator;
    }

    public void start(InetAddress address, int port, int shardAwarePortRequested) throws InterruptedException {
        ChannelHandler init = new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                int shard = Math.max(0, shards.shardOf(ch.eventLoop()));
                ch.config().setWriteBufferWaterMark(WATER_MARK);
                if (tls != null) {
                    ch.pipeline().addLast("tls", tlsOptional ? new OptionalSslHandler(tls) {
                        @Override
                        protected io.netty.handler.ssl.SslHandler newSslHandler(ChannelHandlerContext ctx, SslContext c) {
                            return c.newHandler(ctx.alloc(), tlsTasks);
                        }
                    } : tls.newHandler(ch.alloc(), tlsTasks));
                }
                if (idleTimeoutMillis > 0) {
                    ch.pipeline().addLast("idleState", new IdleStateHandler(false, 0, 0, idleTimeoutMillis,
                            TimeUnit.MILLISECONDS) {
                        @Override
                        protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) {
                            log.info("Closing client connection {} after timeout of {}ms", ctx.channel().remoteAddress(),
                                    idleTimeoutMillis);
                            ctx.close();
                        }
                    });
                }
                ch.pipeline().addLast("flushConsolidation", new FlushConsolidationHandler(256, true));
                ch.pipeline().addLast(EnvelopeDecoder.NAME, new EnvelopeDecoder(maxFrameSize));
                ch.pipeline().addLast(EnvelopeEncoder.NAME, new EnvelopeEncoder(true));
                ch.pipeline().addLast("cql", new CqlConnection(CqlServer.this, shard));
            }
        };
        bind(address, port, shardAwarePortRequested, init);
    }

    private synchronized void bind(InetAddress address, int port, int shardAwarePortRequested, ChannelHandler init)
            throws InterruptedException {
        regular = new ServerBootstrap()
                .group(shards.acceptor(), shards.group())
                .channel(shards.serverChannelClass())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(init)
                .bind(new InetSocketAddress(address, port)).sync().channel();
        if (shardAwarePortRequested >= 0) {
            shardAware = new ServerBootstrap()
                    .group(shards.acceptor(), shards.group())
                    .channel(shards.serverChannelClass())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .handler(new ShardRoutingAcceptor(shards, init))
                    .childHandler(init)
                    .bind(new InetSocketAddress(address, shardAwarePortRequested)).sync().channel();
            shardAwarePort = ((InetSocketAddress) shardAware.localAddress()).getPort();
        }
        boundAddress = address;
        boundPort = ((InetSocketAddress) regular.localAddress()).getPort();
        boundInit = init;
        listening = true;
    }

    /** Whether CQL clients are served: false while nodetool disablebinary has stopped the native transport. */
    public boolean isListening() {
        return listening;
    }

    /**
     * nodetool disablebinary: stops accepting CQL connections and closes those open, as Cassandra's native transport
     * stops. Without {@code force} the requests already received are answered first (waiting for them up to ten
     * seconds); with it they are cut off.
     */
    public synchronized void stopListening(boolean force) {
        if (!listening) {
            return;
        }
        listening = false;
        closeListeners();
        if (!force) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (limits.bytesInFlight() > 0 && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        List<Channel> open = new ArrayList<>(connections);
        for (Channel ch : open) {
            ch.close();
        }
        // as Cassandra's: the connections are gone when the call returns (their handlers' close events run on their
        // event loops after the close itself completes)
        long closedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (open.stream().anyMatch(connections::contains) && System.nanoTime() < closedBy) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        log.info("Stopped listening for CQL clients");
    }

    /** nodetool enablebinary: listens again on the address and ports first bound (no-op while listening). */
    public synchronized void restart() throws InterruptedException {
        if (listening) {
            return;
        }
        if (boundInit == null) {
            throw new IllegalStateException("the CQL server was never started");
        }
        bind(boundAddress, boundPort, shardAware != null ? shardAwarePort : -1, boundInit);
        log.info("Listening again for CQL clients on {}:{}", boundAddress.getHostAddress(), boundPort);
    }

    private void closeListeners() {
        if (regular != null) {
            regular.close().syncUninterruptibly();
        }
        if (shardAware != null) {
            shardAware.close().syncUninterruptibly();
        }
    }

    public int port() {
        return ((InetSocketAddress) regular.localAddress()).getPort();
    }

    public int shardAwarePort() {
        return shardAwarePort;
    }

    Map<String, List<String>> supportedOptions(int shard) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("CQL_VERSION", List.of(NodeInfo.CQL_VERSION));
        m.put("COMPRESSION", List.of("lz4"));
        m.put("PROTOCOL_VERSIONS", List.of("3/v3", "4/v4", "5/v5"));
        m.put("SCYLLA_SHARD", List.of(Integer.toString(shard)));
        m.put("SCYLLA_NR_SHARDS", List.of(Integer.toString(shards.count())));
        m.put("SCYLLA_PARTITIONER", List.of("org.apache.cassandra.dht.Murmur3Partitioner"));
        m.put("SCYLLA_SHARDING_ALGORITHM", List.of("biased-token-round-robin"));
        m.put("SCYLLA_SHARDING_IGNORE_MSB", List.of("12"));
        if (shardAware != null) {
            m.put("SCYLLA_SHARD_AWARE_PORT", List.of(Integer.toString(shardAwarePort)));
            if (tls != null) {
                // the shard-aware port serves TLS like the regular one; ScyllaDB's drivers look here when using TLS
                m.put("SCYLLA_SHARD_AWARE_PORT_SSL", List.of(Integer.toString(shardAwarePort)));
            }
        }
        return m;
    }

    private static final WriteBufferWaterMark WATER_MARK =
            new WriteBufferWaterMark(WRITE_BUFFER_LOW_WATER_MARK, WRITE_BUFFER_HIGH_WATER_MARK);

    /** Logs why a connection was refused, at most once a second (a flood of refused connections is no log flood). */
    void connectionRefused(String why) {
        long refused = refusedSinceLog.incrementAndGet();
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        if (now - last >= TimeUnit.SECONDS.toNanos(1) && lastRefusalLog.compareAndSet(last, now)) {
            refusedSinceLog.addAndGet(-refused);
            log.warn("{} (refused {} connection(s) since the last such message)", why, refused);
        }
    }

    void connectionOpened(Channel ch) {
        connections.add(ch);
    }

    void connectionClosed(Channel ch) {
        connections.remove(ch);
        schemaListeners.remove(ch);
        topologyListeners.remove(ch);
        statusListeners.remove(ch);
    }

    void register(Channel ch, List<String> eventTypes, CqlConnection conn) {
        if (eventTypes.contains("SCHEMA_CHANGE")) {
            schemaListeners.put(ch, conn);
        }
        if (eventTypes.contains("TOPOLOGY_CHANGE")) {
            topologyListeners.put(ch, conn);
        }
        if (eventTypes.contains("STATUS_CHANGE")) {
            statusListeners.put(ch, conn);
        }
    }

    /**
     * Sends a TOPOLOGY_CHANGE event (NEW_NODE when a member joined the cluster, REMOVED_NODE when one left) to every
     * connection that registered for it; {@code nativeAddress} is where clients reach that node.
     */
    /** Sends a STATUS_CHANGE event (UP or DOWN, as the failure detector decided) to connections registered for it. */
    public void statusChanged(boolean up, java.net.InetSocketAddress nativeAddress) {
        var event = new io.charybdis.protocol.response.Event.StatusChange(up
                ? io.charybdis.protocol.response.Event.StatusChangeType.UP
                : io.charybdis.protocol.response.Event.StatusChangeType.DOWN, nativeAddress);
        statusListeners.forEach((ch, conn) -> {
            if (ch.isActive()) {
                ch.eventLoop().execute(() -> ch.writeAndFlush(Responses.event(ch.alloc(), conn.version(), event)));
            }
        });
    }

    public void topologyChanged(boolean joined, java.net.InetSocketAddress nativeAddress) {
        var event = new io.charybdis.protocol.response.Event.TopologyChange(joined
                ? io.charybdis.protocol.response.Event.TopologyChangeType.NEW_NODE
                : io.charybdis.protocol.response.Event.TopologyChangeType.REMOVED_NODE, nativeAddress);
        topologyListeners.forEach((ch, conn) -> {
            if (ch.isActive()) {
                ch.eventLoop().execute(() -> ch.writeAndFlush(Responses.event(ch.alloc(), conn.version(), event)));
            }
        });
    }

    /** Sends a SCHEMA_CHANGE event to every connection that registered for it. */
    public void schemaChanged(SchemaChange change) {
        var event = CqlConnection.toProtocol(change);
        schemaListeners.forEach((ch, conn) -> {
            if (ch.isActive()) {
                ch.eventLoop().execute(() -> {
                    Envelope env = Responses.event(ch.alloc(), conn.version(), event);
                    ch.writeAndFlush(env);
                });
            }
        });
    }

    public int connectionCount() {
        return connections.size();
    }

    @Override
    public void close() {
        try {
            listening = false;
            closeListeners();
            for (Channel ch : connections) {
                ch.close();
            }
            if (tlsTasks != null) {
                tlsTasks.shutdown();
            }
        } catch (RuntimeException e) {
            log.warn("Error while closing the CQL server", e);
        }
    }
}
