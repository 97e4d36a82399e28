package io.charybdis.cluster.batchlog;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.UnavailableException;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The batchlog of LOGGED batches over several partitions, as Cassandra 5.0 keeps it: the table {@code system.batches}
 * (its id is Cassandra's: the name-based UUID of "system" + "batches"; {@code gc_grace_seconds} 0), one partition
 * per batch keyed by a time-based id, whose row holds the batch's mutations.
 *
 * <p>The coordinator writes the entry to two other live nodes of its data centre (on other racks where it can;
 * one when only one other is live; itself when it is alone in its data centre) before any of the batch's mutations,
 * and deletes it once they met the consistency level. A node whose batchlog holds an entry older than twice the write
 * timeout replays it ({@link BatchlogManager}): the coordinator died, or could not finish.
 *
 * <p>Row layout (Charybdis's own: this table is read only by the batchlog): partition key = the id's 16 bytes; one
 * row with an empty clustering; cell {@link #MUTATIONS} = {@code int version, int count, (int length, mutation)*};
 * cell {@link #VERSION} = the messaging version as a 4-byte int. The token is the id's bits folded, which spreads
 * entries over the shards.
 */
public final class Batchlog {
    public static final TableId TABLE = TableId.of(UUID.nameUUIDFromBytes("systembatches".getBytes(StandardCharsets.UTF_8)));
    public static final TableDescriptor DESCRIPTOR = new TableDescriptor(TABLE, "system", "batches", Map.of(),
            Map.of(), 0, Map.of("enabled", "false"));
    static final int MUTATIONS = 1;
    static final int VERSION = 2;
    static final int FORMAT = 1;
    private static final byte[] CLUSTERING = new byte[0];
    /** 100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;

    private Batchlog() {
    }

    /** A new time-based (version 1) batch id for now. */
    public static UUID newId(long nowMillis) {
        long ts = nowMillis * 10_000 + UUID_EPOCH_OFFSET + ThreadLocalRandom.current().nextInt(10_000);
        long msb = ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
        long lsb = (ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** When a batch id was made, in ms since the Unix epoch. */
    public static long createdMillis(UUID id) {
        return (id.timestamp() - UUID_EPOCH_OFFSET) / 10_000;
    }

    static long token(UUID id) {
        return id.getMostSignificantBits() ^ Long.rotateLeft(id.getLeastSignificantBits(), 17);
    }

    static byte[] key(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }

    static UUID id(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        return new UUID(b.getLong(), b.getLong());
    }

    /** The entry recording {@code mutations} under {@code id}, written at {@code timestampMicros}. */
    public static Mutation entry(UUID id, List<Mutation> mutations, long timestampMicros) {
        int size = 8;
        for (Mutation m : mutations) {
            size += 4 + m.serializedSize();
        }
        ByteBuffer body = ByteBuffer.allocate(size).putInt(FORMAT).putInt(mutations.size());
        for (Mutation m : mutations) {
            body.putInt(m.serializedSize()).put(m.asByteBuffer().duplicate());
        }
        body.flip();
        return new MutationBuilder().start(TABLE, token(id), key(id)).beginRow(CLUSTERING)
                .rowMarker(timestampMicros, 0, 0).cell(MUTATIONS, timestampMicros, 0, 0, body)
                .cell(VERSION, timestampMicros, 0, 0, ByteBuffer.allocate(4).putInt(0, FORMAT)).endRow().build();
    }

    /** The deletion of the entry {@code id}. */
    public static Mutation removal(UUID id, long timestampMicros, int nowSeconds) {
        return new MutationBuilder().start(TABLE, token(id), key(id)).partitionDeletion(timestampMicros, nowSeconds)
                .build();
    }

    /** The mutations of an entry's {@link #MUTATIONS} cell. */
    static List<Mutation> mutations(byte[] cell) {
        ByteBuffer b = ByteBuffer.wrap(cell);
        int format = b.getInt();
        if (format != FORMAT) {
            throw new IllegalArgumentException("batchlog entry of unknown format=" + format);
        }
        int n = b.getInt();
        List<Mutation> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int len = b.getInt();
            out.add(Mutation.copyOf(new UnsafeBuffer(cell, b.position(), len), 0, len));
            b.position(b.position() + len);
        }
        return out;
    }

    /**
     * Where the coordinator writes a batch's entry (Cassandra's batchlog endpoints): up to two live nodes of this
     * data centre other than this one, other racks first; this node alone when its data centre has no other node.
     *
     * @throws UnavailableException when other nodes of this data centre exist but none is live
     */
    public static List<Endpoint> endpoints(ClusterMetadata md, Liveness liveness) {
        Endpoint self = md.self();
        List<Endpoint> sameDc = new ArrayList<>();
        for (Endpoint e : md.ring().endpoints()) {
            if (!e.equals(self) && e.datacenter().equals(self.datacenter())) {
                sameDc.add(e);
            }
        }
        if (sameDc.isEmpty()) {
            return List.of(self);
        }
        List<Endpoint> live = new ArrayList<>(sameDc.stream().filter(liveness::isAlive).toList());
        if (live.isEmpty()) {
            throw new UnavailableException(ConsistencyLevel.ONE, 1, 0);
        }
        Collections.shuffle(live);
        live.sort((a, b) -> Boolean.compare(a.rack().equals(self.rack()), b.rack().equals(self.rack())));
        return List.copyOf(live.subList(0, Math.min(2, live.size())));
    }
}
