package io.charybdis.storage.compaction;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Compaction ids as Cassandra makes them: time-based (version 1) UUIDs, unique within the process. The same id names
 * a compaction while it runs (compactionstats) and its row of {@code system.compaction_history}, whose id column is a
 * timeuuid.
 */
public final class CompactionIds {
    /** 100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;
    private static final long CLOCK_SEQ_AND_NODE;
    private static final AtomicLong LAST = new AtomicLong();

    static {
        SecureRandom r = new SecureRandom();
        long clock = r.nextInt(0x3FFF);
        long node = r.nextLong() & 0xFFFFFFFFFFFFL | 0x010000000000L; // multicast bit: not a real MAC address
        CLOCK_SEQ_AND_NODE = 0x8000000000000000L | (clock << 48) | node;
    }

    private CompactionIds() {
    }

    /** A new id for now, greater in time than every id made before it in this process. */
    public static UUID next() {
        long now = System.currentTimeMillis() * 10_000 + UUID_EPOCH_OFFSET;
        long ts = LAST.accumulateAndGet(now, (last, candidate) -> Math.max(candidate, last + 1));
        long msb = ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
        return new UUID(msb, CLOCK_SEQ_AND_NODE);
    }
}
