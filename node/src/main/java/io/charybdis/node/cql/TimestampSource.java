package io.charybdis.node.cql;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-side write timestamps in microseconds since the epoch, strictly increasing across the node, as
 * Cassandra's {@code ClientState.getTimestamp()} guarantees for statements without {@code USING TIMESTAMP}.
 */
public final class TimestampSource {
    private final AtomicLong last = new AtomicLong();

    public long next() {
        long now = System.currentTimeMillis() * 1000;
        while (true) {
            long prev = last.get();
            long candidate = Math.max(now, prev + 1);
            if (last.compareAndSet(prev, candidate)) {
                return candidate;
            }
        }
    }

    public static int nowInSeconds() {
        return (int) (System.currentTimeMillis() / 1000);
    }
}
