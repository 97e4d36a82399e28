package io.charybdis.cluster.paxos;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Paxos ballot: a time in microseconds and the proposer's identity. Ballots are ordered by their time alone, and
 * every ballot this JVM makes has a time of its own (strictly increasing), so the update a ballot commits carries that
 * time as its write timestamp and later commits always win over earlier ones (last write wins). Two proposers of
 * different processes that picked the same microsecond are not ordered: a replica promises neither twice, and the
 * loser retries above it.
 */
public record Ballot(long micros, long proposer) implements Comparable<Ballot> {
    /** Below every real ballot: a replica that has promised, accepted or committed nothing. */
    public static final Ballot NONE = new Ballot(Long.MIN_VALUE, 0);
    public static final int SIZE = 16;

    private static final AtomicLong LAST = new AtomicLong();
    private static final long PROPOSER = ThreadLocalRandom.current().nextLong();

    /** A new ballot later than the clock, than every ballot made here before, and than {@code atLeast}. */
    public static Ballot next(long atLeast) {
        while (true) {
            long last = LAST.get();
            long now = System.currentTimeMillis() * 1000 + (System.nanoTime() / 1000) % 1000;
            long micros = Math.max(Math.max(now, last + 1), atLeast);
            if (LAST.compareAndSet(last, micros)) {
                return new Ballot(micros, PROPOSER);
            }
        }
    }

    public boolean isNone() {
        return micros == Long.MIN_VALUE;
    }

    public boolean after(Ballot other) {
        return micros > other.micros;
    }

    @Override
    public int compareTo(Ballot o) {
        return Long.compare(micros, o.micros);
    }

    public void write(ByteBuf out) {
        out.writeLong(micros).writeLong(proposer);
    }

    public static Ballot read(ByteBuf in) {
        return new Ballot(in.readLong(), in.readLong());
    }

    public byte[] bytes() {
        byte[] b = new byte[SIZE];
        java.nio.ByteBuffer.wrap(b).putLong(micros).putLong(proposer);
        return b;
    }

    public static Ballot of(byte[] b) {
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b);
        return new Ballot(bb.getLong(), bb.getLong());
    }
}
