package io.charybdis.node.server;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The node-wide request rate limit of {@code native_transport_rate_limiting_enabled} /
 * {@code native_transport_max_requests_per_second}: permits are issued one every {@code 1 s / rate}, shared by all
 * shards without a lock.
 *
 * <p>Implementation notes. One atomic holds the time at which the next permit is free ({@code next}). Reserving a
 * permit moves it to {@code max(next, now) + interval}; the caller's delay is how far in the future its permit lies
 * ({@code max(next, now) - now}). A permit left unused for a while is not saved up beyond one second's worth
 * ({@code next} never lags {@code now} by more than one second), so an idle node admits one second's worth of
 * requests (plus one) at once. {@link #tryReserve} takes a permit only if one is free now; it is what THROW_ON_OVERLOAD
 * connections use, so their refused requests cost no permit (as in Cassandra).
 */
final class RequestRateLimiter {
    private static final long SECOND = 1_000_000_000L;

    private final long rate;
    private final long intervalNanos;
    private final LongSupplier clock;
    private final AtomicLong next;

    RequestRateLimiter(long requestsPerSecond) {
        this(requestsPerSecond, System::nanoTime);
    }

    RequestRateLimiter(long requestsPerSecond, LongSupplier nanoClock) {
        if (requestsPerSecond <= 0) {
            throw new IllegalArgumentException("requestsPerSecond=" + requestsPerSecond + " must be positive");
        }
        this.rate = requestsPerSecond;
        this.intervalNanos = Math.max(1, SECOND / requestsPerSecond);
        this.clock = nanoClock;
        this.next = new AtomicLong(nanoClock.getAsLong() - SECOND);
    }

    long rate() {
        return rate;
    }

    /** Reserves one permit; returns how many nanoseconds from now it becomes valid (0 = now). */
    long reserveAndGetDelayNanos() {
        long now = clock.getAsLong();
        while (true) {
            long prev = next.get();
            long start = Math.max(prev, now - SECOND);
            if (next.compareAndSet(prev, start + intervalNanos)) {
                return Math.max(0, start - now);
            }
        }
    }

    /** Takes a permit if one is free now. */
    boolean tryReserve() {
        long now = clock.getAsLong();
        while (true) {
            long prev = next.get();
            long start = Math.max(prev, now - SECOND);
            if (start > now) {
                return false;
            }
            if (next.compareAndSet(prev, start + intervalNanos)) {
                return true;
            }
        }
    }
}
