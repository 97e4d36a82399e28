package io.charybdis.node.server;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node-wide limits on clients of the native transport, shared by every shard: connections (node and per client
 * address) and bytes of requests in flight (node and per client address), as Cassandra 5.0's
 * {@code native_transport_max_concurrent_connections[_per_ip]} and
 * {@code native_transport_max_request_data_in_flight[_per_ip]}.
 *
 * <p>Implementation notes. Connection state stays on its shard ({@link CqlConnection}); what is shared here is
 * atomics only, no locks on the shard threads. A request's bytes are "in flight" from the moment its envelope is
 * taken off the wire until its response has been written to the socket or has failed (connection closed); the
 * connection {@link #acquire}s and {@link #release}s exactly once per request, so both counters return to zero when
 * the node is idle ({@link #bytesInFlight()}, tested).
 *
 * <p>One {@link Endpoint} per client address holds that address's connection count and bytes in flight. It is
 * created by the first connection and removed when its last connection has closed and its last request has been
 * answered: its connection count changes only inside {@link ConcurrentHashMap#compute}, and bytes are added only by an
 * open connection, so an entry with no connection and no bytes can go without a race.
 */
final class ClientLimits {
    /** The outcome of {@link #acquire}. */
    enum Outcome { SUCCESS, ENDPOINT_LIMIT, GLOBAL_LIMIT }

    private final long maxConnections;
    private final long maxConnectionsPerIp;
    private final long maxBytesInFlight;
    private final long maxBytesInFlightPerIp;
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong bytesInFlight = new AtomicLong();
    private final ConcurrentHashMap<InetAddress, Endpoint> endpoints = new ConcurrentHashMap<>();
    private final AtomicLong pausesForInFlight = new AtomicLong();
    private final AtomicLong pausesForRate = new AtomicLong();
    private final AtomicLong pausesForWritability = new AtomicLong();
    private final AtomicLong pausesForBusy = new AtomicLong();
    private final AtomicLong overloadedRequests = new AtomicLong();
    private final AtomicLong refusedConnections = new AtomicLong();

    /** One client address: its open connections and bytes of requests in flight. */
    static final class Endpoint {
        final InetAddress address;
        private volatile long connections; // changed only inside endpoints.compute for this address
        final AtomicLong bytesInFlight = new AtomicLong();

        Endpoint(InetAddress address) {
            this.address = address;
        }
    }

    /**
     * @param maxConnections        connections on the node; 0 or less = unlimited
     * @param maxConnectionsPerIp   connections from one client address; 0 or less = unlimited
     * @param maxBytesInFlight      bytes of requests in flight on the node
     * @param maxBytesInFlightPerIp bytes of requests in flight from one client address
     */
    ClientLimits(long maxConnections, long maxConnectionsPerIp, long maxBytesInFlight, long maxBytesInFlightPerIp) {
        this.maxConnections = maxConnections > 0 ? maxConnections : Long.MAX_VALUE;
        this.maxConnectionsPerIp = maxConnectionsPerIp > 0 ? maxConnectionsPerIp : Long.MAX_VALUE;
        this.maxBytesInFlight = maxBytesInFlight;
        this.maxBytesInFlightPerIp = maxBytesInFlightPerIp;
    }

    static ClientLimits unlimited() {
        return new ClientLimits(-1, -1, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    long maxConnections() {
        return maxConnections;
    }

    long maxConnectionsPerIp() {
        return maxConnectionsPerIp;
    }

    long maxBytesInFlight() {
        return maxBytesInFlight;
    }

    long maxBytesInFlightPerIp() {
        return maxBytesInFlightPerIp;
    }

    // ---------------------------------------------------------------- connections

    /**
     * Counts a new connection from {@code address}. Returns its endpoint, which the connection must hand back to
     * {@link #disconnect} when it closes, whether or not it was admitted; {@link #refusal} says whether it is.
     */
    Endpoint connect(InetAddress address) {
        connections.incrementAndGet();
        return endpoints.compute(address, (a, e) -> {
            Endpoint ep = e != null ? e : new Endpoint(a);
            ep.connections++;
            return ep;
        });
    }

    /**
     * Why a connection just counted by {@link #connect} must be refused, in Cassandra's words, or null when it is
     * within the limits.
     */
    String refusal(Endpoint endpoint) {
        long count = connections.get();
        if (count > maxConnections) {
            return "Exceeded maximum native connection limit of " + maxConnections + " by using " + count
                    + " connections";
        }
        long perIp = endpoint.connections;
        if (perIp > maxConnectionsPerIp) {
            return "Exceeded maximum native connection limit per ip of " + maxConnectionsPerIp + " by using " + perIp
                    + " connections";
        }
        return null;
    }

    void disconnect(Endpoint endpoint) {
        connections.decrementAndGet();
        endpoints.compute(endpoint.address, (a, e) -> {
            if (e == null) {
                return null;
            }
            e.connections--;
            return e.connections <= 0 && e.bytesInFlight.get() == 0 ? null : e;
        });
    }

    long connections() {
        return connections.get();
    }

    // ---------------------------------------------------------------- bytes in flight

    /** Takes {@code bytes} if both limits allow them; otherwise takes nothing and says which limit is in the way. */
    Outcome tryAcquire(Endpoint endpoint, long bytes) {
        long ep = endpoint.bytesInFlight.addAndGet(bytes);
        if (ep > maxBytesInFlightPerIp) {
            endpoint.bytesInFlight.addAndGet(-bytes);
            return Outcome.ENDPOINT_LIMIT;
        }
        long all = bytesInFlight.addAndGet(bytes);
        if (all > maxBytesInFlight) {
            bytesInFlight.addAndGet(-bytes);
            endpoint.bytesInFlight.addAndGet(-bytes);
            return Outcome.GLOBAL_LIMIT;
        }
        return Outcome.SUCCESS;
    }

    /** Takes {@code bytes} whatever the limits (a request that is processed although it is over them). */
    void acquire(Endpoint endpoint, long bytes) {
        endpoint.bytesInFlight.addAndGet(bytes);
        bytesInFlight.addAndGet(bytes);
    }

    /**
     * Gives back bytes taken by {@link #tryAcquire} or {@link #acquire}. Returns true when both the endpoint and the
     * node are below their limits afterwards.
     */
    boolean release(Endpoint endpoint, long bytes) {
        long ep = endpoint.bytesInFlight.addAndGet(-bytes);
        long all = bytesInFlight.addAndGet(-bytes);
        if (ep == 0 && endpoint.connections <= 0) {
            endpoints.computeIfPresent(endpoint.address,
                    (a, e) -> e.connections <= 0 && e.bytesInFlight.get() == 0 ? null : e);
        }
        return ep < maxBytesInFlightPerIp && all < maxBytesInFlight;
    }

    long bytesInFlight() {
        return bytesInFlight.get();
    }

    /** Bytes in flight from {@code address}; 0 when it has none. */
    long bytesInFlight(InetAddress address) {
        Endpoint e = endpoints.get(address);
        return e == null ? 0 : e.bytesInFlight.get();
    }

    // ---------------------------------------------------------------- counters (overload events only)

    /** Counts a connection that stopped reading for {@code reason}, one of InboundGate's {@code PAUSED_*}. */
    void countPause(int reason) {
        switch (reason) {
            case InboundGate.PAUSED_IN_FLIGHT -> pausesForInFlight.incrementAndGet();
            case InboundGate.PAUSED_RATE -> pausesForRate.incrementAndGet();
            case InboundGate.PAUSED_BUSY -> pausesForBusy.incrementAndGet();
            case InboundGate.PAUSED_WRITABILITY -> pausesForWritability.incrementAndGet();
            default -> {
                // a connection yielding the shard to others is not overload
            }
        }
    }

    void countOverloaded() {
        overloadedRequests.incrementAndGet();
    }

    void countRefused() {
        refusedConnections.incrementAndGet();
    }

    /** How often a connection stopped reading because bytes in flight were over a limit. */
    long pausesForInFlight() {
        return pausesForInFlight.get();
    }

    long pausesForRate() {
        return pausesForRate.get();
    }

    long pausesForWritability() {
        return pausesForWritability.get();
    }

    long pausesForBusy() {
        return pausesForBusy.get();
    }

    /** Requests answered OVERLOADED (THROW_ON_OVERLOAD connections). */
    long overloadedRequests() {
        return overloadedRequests.get();
    }

    long refusedConnections() {
        return refusedConnections.get();
    }

    /** For an Overloaded error: {@code Endpoint: 10/100 bytes, Global: 20/400 bytes.} */
    String usage(Endpoint endpoint) {
        return "Endpoint: " + endpoint.bytesInFlight.get() + "/" + maxBytesInFlightPerIp + " bytes, Global: "
                + bytesInFlight.get() + "/" + maxBytesInFlight + " bytes.";
    }
}
