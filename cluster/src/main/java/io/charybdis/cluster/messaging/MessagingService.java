package io.charybdis.cluster.messaging;

import static io.charybdis.cluster.messaging.FrameLayout.*;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Internode messaging on {@code storage_port}: request/response between nodes, each connection addressed to one
 * shard of the peer so that a replica's work lands on its owning shard without a hop.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>Per-shard connections.</b> A node keeps one outbound connection per (peer, peer shard). It opens with a
 *       HANDSHAKE frame naming the target shard and the sender's listen address; the receiver moves the accepted
 *       channel from its acceptor loop onto that shard's event loop and answers with a HANDSHAKE of its own (its
 *       shard count), after which the sender releases the requests it queued. Every later frame on the channel is
 *       read and handled on the target shard's thread.</li>
 *   <li><b>One owner per connection.</b> An outbound connection lives on one local shard loop; its pending
 *       requests, timeouts and queue are touched only there ({@link #send} from another thread hops once).</li>
 *   <li><b>Back-pressure is a value.</b> A connection with {@link #MAX_PENDING} requests awaiting answers fails
 *       further sends at once with {@link MessagingException.Reason#OVERLOADED}; nothing queues without bound.</li>
 *   <li><b>Timeouts.</b> A request fails with TIMEOUT when its answer is late; the receiver skips requests whose
 *       sender has already given up (their timeout travels in the frame).</li>
 *   <li><b>TLS.</b> With {@link InternodeTls} an SslHandler sits first in the pipeline: always on inbound channels
 *       (optional or required), on outbound ones to the peers {@link InternodeTls#encryptTo()} selects. The inbound
 *       channel keeps it when it moves to the shard's loop.</li>
 *   <li><b>Faults for tests.</b> Every frame passes the {@link FaultInjector} before it is written.</li>
 * </ul>
 */
public final class MessagingService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MessagingService.class);
    static final int MAX_PENDING = 16_384;

    /** Serves one verb on the shard the request was addressed to; the answer's payload is released by the service. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<ByteBuf> handle(ByteBuf payload, int shard, long senderEpoch, InetSocketAddress sender);
    }

    private final List<EventLoop> shardLoops;
    private final EventLoopGroup acceptor;
    private final Class<? extends ServerChannel> serverChannel;
    private final Class<? extends Channel> clientChannel;
    private final LongSupplier epoch;
    private final FaultInjector faults;
    private final Map<Verb, Handler> handlers = new EnumMap<>(Verb.class);
    private final ConcurrentHashMap<Target, Outbound> outbound = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Channel, Boolean> inbound = new ConcurrentHashMap<>();
    private volatile InternodeTls tls;
    private volatile InetSocketAddress self;
    private volatile Channel server;
    private volatile boolean closed;

    private record Target(InetSocketAddress peer, int shard) {
    }

    public MessagingService(List<EventLoop> shardLoops, EventLoopGroup acceptor, Class<? extends ServerChannel> serverChannel,
                            Class<? extends Channel> clientChannel, LongSupplier epoch, FaultInjector faults) {
        this.shardLoops = List.copyOf(shardLoops);
        this.acceptor = acceptor;
        this.serverChannel = serverChannel;
        this.clientChannel = clientChannel;
        this.epoch = epoch;
        this.faults = faults;
    }

    /** Encrypts internode traffic as {@code tls} says; before {@link #start}. */
    public MessagingService useTls(InternodeTls tls) {
        this.tls = tls;
        return this;
    }

    /** Registers the handler of a verb; before {@link #start}. */
    public MessagingService handle(Verb verb, Handler handler) {
        handlers.put(verb, handler);
        return this;
    }

    /** Listens on {@code address} (port 0: a free one); returns the address bound. */
    public InetSocketAddress start(InetSocketAddress address) {
        ChannelFuture f = new ServerBootstrap().group(acceptor, acceptor).channel(serverChannel)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        inbound.put(ch, Boolean.TRUE);
                        ch.closeFuture().addListener(x -> inbound.remove(ch));
                        InternodeTls t = tls;
                        if (t != null) {
                            ch.pipeline().addLast("tls", t.inboundOptional() ? new OptionalSslHandler(t.server())
                                    : t.server().newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast("frames", new FrameCodec.Decoder()).addLast("handshake", new InboundHandshake());
                    }
                }).bind(address).syncUninterruptibly();
        server = f.channel();
        InetSocketAddress bound = (InetSocketAddress) server.localAddress();
        self = new InetSocketAddress(address.getAddress(), bound.getPort());
        return self;
    }

    public InetSocketAddress address() {
        return self;
    }

    /**
     * Sends a request to shard {@code shard} of {@code peer}; the future completes with the answer's payload (the
     * caller releases it) on a shard loop of this node, or fails with a {@link MessagingException}. Takes
     * ownership of {@code payload}.
     */
    public CompletableFuture<ByteBuf> send(InetSocketAddress peer, int shard, Verb verb, ByteBuf payload,
                                           long timeoutMillis) {
        CompletableFuture<ByteBuf> result = new CompletableFuture<>();
        count(peer, verb, payload.readableBytes(), result);
        if (closed) {
            payload.release();
            result.completeExceptionally(new MessagingException(MessagingException.Reason.CLOSED, "messaging is closed"));
            return result;
        }
        Outbound c = outbound.computeIfAbsent(new Target(peer, shard),
                t -> new Outbound(t, shardLoops.get(Math.floorMod(t.hashCode(), shardLoops.size()))));
        if (c.loop.inEventLoop()) {
            c.send(verb, payload, timeoutMillis, result);
        } else {
            try {
                c.loop.execute(() -> c.send(verb, payload, timeoutMillis, result));
            } catch (RejectedExecutionException e) {
                payload.release();
                result.completeExceptionally(new MessagingException(MessagingException.Reason.CLOSED, "shard loop is closed"));
            }
        }
        return result;
    }

    // ------------------------------------------------------------------ traffic counters (nodetool netstats)

    /** Requests sent to one peer in one pool: waiting for their answer, answered, failed or timed out. */
    public static final class PoolCounters {
        final java.util.concurrent.atomic.AtomicLong pending = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong completed = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong();

        public long pending() {
            return pending.get();
        }

        public long completed() {
            return completed.get();
        }

        public long dropped() {
            return dropped.get();
        }
    }

    /** Cassandra's three connection pools per peer: gossip (liveness, metadata), large (over 64 KiB), small. */
    public enum Pool {
        GOSSIP, LARGE, SMALL
    }

    private static final int LARGE_MESSAGE_BYTES = 64 << 10;
    private final ConcurrentHashMap<InetSocketAddress, PoolCounters[]> traffic = new ConcurrentHashMap<>();
    /** Requests that failed or timed out, by verb (nodetool tpstats' dropped messages). */
    private final java.util.concurrent.atomic.AtomicLongArray failedByVerb =
            new java.util.concurrent.atomic.AtomicLongArray(Verb.values().length);

    private void count(InetSocketAddress peer, Verb verb, int bytes, CompletableFuture<ByteBuf> result) {
        Pool pool = verb == Verb.ECHO || verb == Verb.METADATA_ADDRESS || verb == Verb.METADATA_EPOCH ? Pool.GOSSIP
                : bytes > LARGE_MESSAGE_BYTES ? Pool.LARGE : Pool.SMALL;
        PoolCounters c = traffic.computeIfAbsent(peer, p -> new PoolCounters[] {new PoolCounters(), new PoolCounters(),
                new PoolCounters()})[pool.ordinal()];
        c.pending.incrementAndGet();
        result.whenComplete((b, e) -> {
            c.pending.decrementAndGet();
            (e == null ? c.completed : c.dropped).incrementAndGet();
            if (e != null) {
                failedByVerb.incrementAndGet(verb.ordinal());
            }
        });
    }

    /** Requests sent by this node that failed or timed out, per verb, since start (every verb listed). */
    public Map<Verb, Long> failedByVerb() {
        Map<Verb, Long> out = new java.util.EnumMap<>(Verb.class);
        for (Verb v : Verb.values()) {
            out.put(v, failedByVerb.get(v.ordinal()));
        }
        return out;
    }

    /** The counters of each peer this node has sent to, indexed by {@link Pool#ordinal()}. */
    public Map<InetSocketAddress, PoolCounters[]> traffic() {
        return java.util.Collections.unmodifiableMap(traffic);
    }

    @Override
    public void close() {
        closed = true;
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        for (Outbound c : outbound.values()) {
            c.loop.execute(() -> c.fail(new MessagingException(MessagingException.Reason.CLOSED, "messaging is closed"), true));
        }
        for (Channel ch : inbound.keySet()) {
            ch.close();
        }
    }

    // ------------------------------------------------------------------ frames

    private long delayOrDrop(InetSocketAddress to, Verb verb, boolean response) {
        InetSocketAddress from = self;
        return faults.onSend(from, to, verb, response);
    }

    /** Writes now, later, or never, as the fault injector says; releases {@code frame} when it is not written. */
    private void write(Channel ch, ByteBuf frame, InetSocketAddress to, Verb verb, boolean response) {
        long delay = faults == FaultInjector.NONE ? 0 : delayOrDrop(to, verb, response);
        if (delay == FaultInjector.DROP) {
            frame.release();
        } else if (delay > 0) {
            ch.eventLoop().schedule(() -> {
                ch.writeAndFlush(frame);
            }, delay, TimeUnit.MILLISECONDS);
        } else {
            ch.writeAndFlush(frame);
        }
    }

    private static ByteBuf handshakePayload(int shard, InetSocketAddress listen) {
        byte[] host = listen.getAddress().getAddress();
        ByteBuf b = Unpooled.buffer(9 + host.length);
        b.writeInt(shard).writeByte(host.length).writeBytes(host).writeInt(listen.getPort());
        return b;
    }

    // ------------------------------------------------------------------ inbound

    /** Reads the HANDSHAKE on the acceptor loop, then moves the channel to the shard it names. */
    private final class InboundHandshake extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame f = (Frame) msg;
            try {
                if (f.kind() != KIND_HANDSHAKE) {
                    throw new CorruptFrameException("expected a handshake, got kind=" + f.kind(), ctx.channel().remoteAddress());
                }
                ByteBuf p = f.payload();
                int shard = Math.floorMod(p.readInt(), shardLoops.size());
                byte[] host = new byte[p.readUnsignedByte()];
                p.readBytes(host);
                InetSocketAddress sender = new InetSocketAddress(InetAddress.getByAddress(host), p.readInt());
                Channel ch = ctx.channel();
                ch.config().setAutoRead(false);
                ctx.pipeline().replace(this, "requests", new InboundRequests(shard, sender));
                ch.deregister().addListener(d -> shardLoops.get(shard).register(ch).addListener(r -> {
                    if (!r.isSuccess()) {
                        ch.unsafe().closeForcibly();
                        return;
                    }
                    ByteBuf ack = Unpooled.buffer(4).writeInt(shardLoops.size());
                    ch.writeAndFlush(FrameCodec.encode(ch.alloc(), KIND_HANDSHAKE, 0, 0, epoch.getAsLong(), 0, ack));
                    ack.release();
                    ch.config().setAutoRead(true);
                }));
            } catch (java.net.UnknownHostException e) {
                throw new CorruptFrameException("bad sender address in handshake", ctx.channel().remoteAddress());
            } finally {
                f.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("closing internode connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }

    /** Serves requests on the shard's loop and writes their answers. */
    private final class InboundRequests extends ChannelInboundHandlerAdapter {
        private final int shard;
        private final InetSocketAddress sender;

        InboundRequests(int shard, InetSocketAddress sender) {
            this.shard = shard;
            this.sender = sender;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame f = (Frame) msg;
            long received = System.nanoTime();
            Verb verb = Verb.of(f.verbCode());
            Handler h = verb == null ? null : handlers.get(verb);
            Channel ch = ctx.channel();
            if (f.kind() != KIND_REQUEST || h == null) {
                f.release();
                fail(ch, f, verb, "no handler for verb=" + (verb == null ? f.verbCode() : verb));
                return;
            }
            CompletableFuture<ByteBuf> answer;
            try {
                answer = h.handle(f.payload(), shard, f.epoch(), sender);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            } finally {
                f.release();
            }
            answer.whenComplete((payload, err) -> {
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - received);
                if (f.timeoutMillis() > 0 && waited > f.timeoutMillis()) {
                    ReferenceCountUtil.release(payload); // the sender has given up already
                    return;
                }
                if (err != null) {
                    fail(ch, f, verb, String.valueOf(err.getMessage()));
                    return;
                }
                ByteBuf out = FrameCodec.encode(ch.alloc(), KIND_RESPONSE, f.verbCode(), f.id(), epoch.getAsLong(), 0, payload);
                payload.release();
                write(ch, out, sender, verb, true);
            });
        }

        private void fail(Channel ch, Frame f, Verb verb, String message) {
            ByteBuf text = Unpooled.wrappedBuffer(message.getBytes(StandardCharsets.UTF_8));
            ByteBuf out = FrameCodec.encode(ch.alloc(), KIND_FAILURE, f.verbCode(), f.id(), epoch.getAsLong(), 0, text);
            text.release();
            write(ch, out, sender, verb == null ? Verb.ECHO : verb, true);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("closing internode connection from {}: {}", sender, cause.toString());
            ctx.close();
        }
    }

    // ------------------------------------------------------------------ outbound

    /** The connection to one shard of one peer; every field is touched on {@link #loop} only. */
    private final class Outbound extends ChannelInboundHandlerAdapter {
        final Target target;
        final EventLoop loop;
        private Channel channel;
        private boolean ready;
        private long nextId = 1;
        private final Map<Long, Pending> pending = new java.util.HashMap<>();
        private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();

        private record Pending(CompletableFuture<ByteBuf> result, ScheduledFuture<?> timeout, Verb verb) {
        }

        Outbound(Target target, EventLoop loop) {
            this.target = target;
            this.loop = loop;
        }

        void send(Verb verb, ByteBuf payload, long timeoutMillis, CompletableFuture<ByteBuf> result) {
            if (pending.size() >= MAX_PENDING) {
                payload.release();
                result.completeExceptionally(new MessagingException(MessagingException.Reason.OVERLOADED,
                        "peer=" + target.peer + " shard=" + target.shard + " has " + pending.size() + " requests pending"));
                return;
            }
            long id = nextId++;
            int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
            ByteBuf frame = FrameCodec.encode(ByteBufAllocator.DEFAULT, KIND_REQUEST, verb.code(), id, epoch.getAsLong(),
                    timeout, payload);
            payload.release();
            ScheduledFuture<?> timer = loop.schedule(() -> {
                Pending p = pending.remove(id);
                if (p != null) {
                    p.result.completeExceptionally(new MessagingException(MessagingException.Reason.TIMEOUT,
                            "no answer from peer=" + target.peer + " shard=" + target.shard + " to " + verb + " within "
                                    + timeoutMillis + " ms"));
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
            pending.put(id, new Pending(result, timer, verb));
            if (ready) {
                write(channel, frame, target.peer, verb, false);
                return;
            }
            queued.add(frame);
            if (channel == null) {
                connect();
            }
        }

        private void connect() {
            Bootstrap b = new Bootstrap().group(loop).channel(clientChannel)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2000)
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            InternodeTls t = tls;
                            if (t != null && t.encryptTo().test(target.peer)) {
                                // writes wait in the SslHandler until its handshake is done
                                ch.pipeline().addLast("tls", t.client().newHandler(ch.alloc(),
                                        target.peer.getHostString(), target.peer.getPort()));
                            }
                            ch.pipeline().addLast("frames", new FrameCodec.Decoder()).addLast("answers", Outbound.this);
                        }
                    });
            ChannelFuture f = b.connect(target.peer);
            channel = f.channel();
            f.addListener(x -> {
                if (!x.isSuccess()) {
                    fail(new MessagingException(MessagingException.Reason.UNREACHABLE, "cannot connect to peer="
                            + target.peer + ": " + x.cause()), false);
                    return;
                }
                ByteBuf hs = handshakePayload(target.shard, self);
                channel.writeAndFlush(FrameCodec.encode(channel.alloc(), KIND_HANDSHAKE, 0, 0, epoch.getAsLong(), 0, hs));
                hs.release();
            });
        }

        @Override
        public boolean isSharable() {
            return true; // re-added to each new channel of this connection, one at a time
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame f = (Frame) msg;
            if (ctx.channel() != channel) {
                f.release();
                return;
            }
            if (f.kind() == KIND_HANDSHAKE) {
                f.release();
                ready = true;
                while (!queued.isEmpty()) {
                    ByteBuf frame = queued.poll();
                    write(channel, frame, target.peer, Verb.of(frame.getUnsignedShort(VERB_OFFSET)), false);
                }
                return;
            }
            Pending p = pending.remove(f.id());
            if (p == null) {
                f.release(); // answered after its timeout
                return;
            }
            p.timeout.cancel(false);
            if (f.kind() == KIND_RESPONSE) {
                p.result.complete(f.payload());
            } else {
                String why = f.payload().toString(StandardCharsets.UTF_8);
                f.release();
                p.result.completeExceptionally(new MessagingException(MessagingException.Reason.REMOTE_FAILURE,
                        "peer=" + target.peer + " failed " + p.verb + ": " + why));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                fail(new MessagingException(MessagingException.Reason.UNREACHABLE, "connection to peer=" + target.peer
                        + " shard=" + target.shard + " closed"), false);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("closing internode connection to {}: {}", target.peer, cause.toString());
            ctx.close();
        }

        /** Fails every pending request and forgets the channel; the next send reconnects. */
        void fail(MessagingException why, boolean close) {
            Channel ch = channel;
            channel = null;
            ready = false;
            queued.forEach(ByteBuf::release);
            queued.clear();
            for (Pending p : pending.values()) {
                p.timeout.cancel(false);
                p.result.completeExceptionally(why);
            }
            pending.clear();
            if (ch != null && (close || ch.isOpen())) {
                ch.close();
            }
        }
    }
}
