package io.charybdis.node.server;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.netty.channel.ChannelHandlerContext;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What one connection may take in: it decides, request by request, whether the connection goes on reading its
 * socket, and whether a request is served or refused. Owned by its {@link CqlConnection} and, like it, touched only
 * on the connection's event loop; the node-wide counters are {@link ClientLimits}' and {@link RequestRateLimiter}'s
 * atomics.
 *
 * <p>Implementation notes. The connection stops reading (autoRead off, so TCP pushes back on the client) while any
 * of these holds, each a bit of {@link #paused}:
 * <ul>
 *   <li>{@link #PAUSED_WRITABILITY}: its outbound buffer is above the high water mark (the client does not read
 *       its answers fast enough); resumes when Netty reports it writable again, below the low water mark;</li>
 *   <li>{@link #PAUSED_IN_FLIGHT}: a request took the bytes in flight of its client address or of the node over
 *       {@code native_transport_max_request_data_in_flight[_per_ip]}; that request is still served (as in
 *       Cassandra); resumes when one of this connection's requests is answered and both are below their limits
 *       again, or when this connection has nothing in flight;</li>
 *   <li>{@link #PAUSED_RATE}: the node-wide request rate limit gave this request a permit in the future; resumes
 *       when the permit is due;</li>
 *   <li>{@link #PAUSED_BUSY}: {@link #MAX_REQUESTS_IN_PROGRESS} of its requests are in progress (served, answer
 *       not yet written); resumes when half of them are answered. Requests are tiny and answers can be large (a
 *       pipelined {@code SELECT * FROM system.local} is 45 bytes, its answer many times that), so without this cap
 *       the requests of a single socket read, served before the first answer exists, could hold tens of megabytes
 *       of answers; with it a connection holds at most this many;</li>
 *   <li>{@link #PAUSED_YIELD}: it has served {@link #MAX_SERVED_PER_TURN} requests in a row; resumes from a task
 *       queued behind the event loop's other work, so that one pipelining client cannot keep the shard from the
 *       other connections it serves.</li>
 * </ul>
 * A client that sent {@code THROW_ON_OVERLOAD: 1} in STARTUP gets an OVERLOADED error instead of the in-flight and
 * rate pauses, and its refused request is dropped (as in Cassandra 5.0, in protocol v4 as well as v5).
 *
 * <p>Envelopes that arrive while paused (the rest of the socket read that was under way) wait in {@link #backlog},
 * in order, and are served when the connection resumes; since the socket is not read meanwhile, the backlog holds
 * at most one read's worth. Each request's bytes (header and body, {@link #cost}) are in flight from {@link #admit}
 * until {@link #answered}, which the connection calls exactly once per admitted request, when the write of its
 * answer completes or fails.
 */
final class InboundGate {
    static final int PAUSED_WRITABILITY = 1;
    static final int PAUSED_IN_FLIGHT = 2;
    static final int PAUSED_RATE = 4;
    static final int PAUSED_BUSY = 8;
    static final int PAUSED_YIELD = 16;
    /** Requests served in a row (one socket read, or a backlog) before the connection lets others have the shard. */
    static final int MAX_SERVED_PER_TURN = 64;
    /** Requests of one connection in progress at once: twice the Java driver's default of 1024 per connection. */
    static final int MAX_REQUESTS_IN_PROGRESS = 2048;

    /** The outcome of {@link #admit}. */
    enum Admission { ADMITTED, OVER_BYTES_IN_FLIGHT, OVER_RATE }

    private final ChannelHandlerContext ctx;
    private final ClientLimits limits;
    private final ClientLimits.Endpoint endpoint;
    private final RequestRateLimiter rateLimiter;
    private final Consumer<Envelope> serve;
    private final Runnable endOfTurn = () -> {
        this.servedThisTurn = 0;
        resume(PAUSED_YIELD);
    };
    private int paused;
    private long bytesInFlight;
    private int inProgress;
    private int servedThisTurn;
    private ArrayDeque<Envelope> backlog;
    private boolean draining;

    /**
     * @param serve serves a request now; it calls {@link #admit} first, and {@link #answered} once for each admitted
     *              request
     */
    InboundGate(ChannelHandlerContext ctx, ClientLimits limits, ClientLimits.Endpoint endpoint,
                RequestRateLimiter rateLimiter, Consumer<Envelope> serve) {
        this.ctx = ctx;
        this.limits = limits;
        this.endpoint = endpoint;
        this.rateLimiter = rateLimiter;
        this.serve = serve;
    }

    /** The bytes a request counts for in flight: its envelope, header and body. */
    static int cost(Envelope env) {
        return EnvelopeHeader.LENGTH + env.body().readableBytes();
    }

    /** An envelope off the wire: served now, or queued behind earlier ones while the connection is paused. */
    void offer(Envelope env) {
        if (paused != 0 || (backlog != null && !backlog.isEmpty())) {
            if (backlog == null) {
                backlog = new ArrayDeque<>();
            }
            backlog.add(env);
            return;
        }
        serve.accept(env);
    }

    /**
     * Takes {@code cost} bytes in flight and a rate permit for a request, pausing the connection where a limit is
     * reached. With {@code throwOnOverload} a request over a limit is not admitted (nothing taken).
     */
    Admission admit(int cost, boolean throwOnOverload) {
        if (throwOnOverload) {
            if (limits.tryAcquire(endpoint, cost) != ClientLimits.Outcome.SUCCESS) {
                limits.countOverloaded();
                return Admission.OVER_BYTES_IN_FLIGHT;
            }
            if (rateLimiter != null && !rateLimiter.tryReserve()) {
                limits.release(endpoint, cost);
                limits.countOverloaded();
                return Admission.OVER_RATE;
            }
            started(cost);
            return Admission.ADMITTED;
        }
        started(cost);
        if (limits.tryAcquire(endpoint, cost) != ClientLimits.Outcome.SUCCESS) {
            limits.acquire(endpoint, cost);
            pause(PAUSED_IN_FLIGHT);
        }
        if (rateLimiter != null) {
            long delay = rateLimiter.reserveAndGetDelayNanos();
            if (delay > 0 && (paused & (PAUSED_IN_FLIGHT | PAUSED_RATE)) == 0) {
                pause(PAUSED_RATE);
                ctx.executor().schedule(() -> resume(PAUSED_RATE), delay, TimeUnit.NANOSECONDS);
            }
        }
        return Admission.ADMITTED;
    }

    /** Cassandra 5.0's message for a request refused by {@link #admit}. */
    String overloadedMessage(Admission why) {
        if (why == Admission.OVER_RATE) {
            return "Request breached global limit of " + rateLimiter.rate() + " requests/second. Server is currently"
                    + " in an overloaded state and cannot accept more requests.";
        }
        return "Request breached limit on bytes in flight. (" + limits.usage(endpoint) + ") Server is currently in an"
                + " overloaded state and cannot accept more requests.";
    }

    private void started(int cost) {
        bytesInFlight += cost;
        if (++inProgress >= MAX_REQUESTS_IN_PROGRESS) {
            pause(PAUSED_BUSY);
        }
        if (++servedThisTurn >= MAX_SERVED_PER_TURN && (paused & PAUSED_YIELD) == 0) {
            pause(PAUSED_YIELD);
            ctx.executor().execute(endOfTurn);
        }
    }

    /** The answer to an admitted request of {@code cost} bytes was written, or failed. */
    void answered(int cost) {
        bytesInFlight -= cost;
        inProgress--;
        boolean below = limits.release(endpoint, cost);
        if ((paused & PAUSED_BUSY) != 0 && inProgress <= MAX_REQUESTS_IN_PROGRESS / 2) {
            resume(PAUSED_BUSY);
        }
        if ((paused & PAUSED_IN_FLIGHT) != 0 && (below || bytesInFlight == 0)) {
            resume(PAUSED_IN_FLIGHT);
        }
    }

    void writabilityChanged(boolean writable) {
        if (writable) {
            resume(PAUSED_WRITABILITY);
        } else {
            pause(PAUSED_WRITABILITY);
        }
    }

    /** The socket read is over: the next one starts a new turn, unless the connection is yielding now. */
    void readComplete() {
        if ((paused & PAUSED_YIELD) == 0) {
            servedThisTurn = 0;
        }
    }

    /** The connection closed: what waits in the backlog is dropped. */
    void close() {
        if (backlog != null) {
            Envelope env;
            while ((env = backlog.poll()) != null) {
                env.release();
            }
        }
    }

    /** Why reading is paused now: a set of the {@code PAUSED_*} bits, 0 when reading. */
    int paused() {
        return paused;
    }

    /** Bytes of this connection's requests in flight. */
    long bytesInFlight() {
        return bytesInFlight;
    }

    private void pause(int reason) {
        if (paused == 0) {
            ctx.channel().config().setAutoRead(false);
        }
        if ((paused & reason) == 0) {
            limits.countPause(reason);
        }
        paused |= reason;
    }

    private void resume(int reason) {
        if ((paused & reason) == 0) {
            return;
        }
        paused &= ~reason;
        if (paused != 0 || draining || !ctx.channel().isActive()) {
            return;
        }
        draining = true;
        try {
            Envelope env;
            while (paused == 0 && backlog != null && (env = backlog.poll()) != null) {
                serve.accept(env);
            }
        } finally {
            draining = false;
        }
        if (paused == 0 && ctx.channel().isActive()) {
            ctx.channel().config().setAutoRead(true);
        }
    }
}
