package io.charybdis.node.cql.values;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Version 1 (time-based) UUIDs: generation unique within the node, and the min/max bounds for a timestamp. */
public final class TimeUuids {
    /** 100 ns intervals between 1582-10-15 and 1970-01-01. */
    private static final long GREGORIAN_OFFSET = 0x01b21dd213814000L;
    private static final long CLOCK_SEQ_AND_NODE = makeClockSeqAndNode();
    private static final AtomicLong LAST = new AtomicLong();
    public static final long MIN_CLOCK_SEQ_AND_NODE = 0x8080808080808080L;
    public static final long MAX_CLOCK_SEQ_AND_NODE = 0x7f7f7f7f7f7f7f7fL;

    private TimeUuids() {
    }

    private static long makeClockSeqAndNode() {
        SecureRandom r = new SecureRandom();
        long clock = r.nextInt(0x3FFF);
        long node = r.nextLong() & 0xFFFFFFFFFFFFL | 0x010000000000L;
        return 0x8000000000000000L | (clock << 48) | node;
    }

    public static UUID now() {
        long ts;
        while (true) {
            long candidate = System.currentTimeMillis() * 10_000 + GREGORIAN_OFFSET;
            long last = LAST.get();
            ts = Math.max(candidate, last + 1);
            if (LAST.compareAndSet(last, ts)) {
                break;
            }
        }
        return new UUID(msb(ts), CLOCK_SEQ_AND_NODE);
    }

    public static UUID min(long unixMillis) {
        return new UUID(msb(unixMillis * 10_000 + GREGORIAN_OFFSET), MIN_CLOCK_SEQ_AND_NODE);
    }

    public static UUID max(long unixMillis) {
        return new UUID(msb(unixMillis * 10_000 + GREGORIAN_OFFSET + 9_999), MAX_CLOCK_SEQ_AND_NODE);
    }

    public static long unixMillis(UUID timeUuid) {
        return (timeUuid.timestamp() - GREGORIAN_OFFSET) / 10_000;
    }

    public static long unixMicros(UUID timeUuid) {
        return (timeUuid.timestamp() - GREGORIAN_OFFSET) / 10;
    }

    private static long msb(long ts) {
        return ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
    }
}
