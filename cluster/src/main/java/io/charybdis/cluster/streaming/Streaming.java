package io.charybdis.cluster.streaming;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.ShardOverloadedException;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streaming between nodes over internode messaging: the node that needs a token range pulls it, page by page, from
 * each source shard and applies every partition as the source holds it — cells with their timestamps and TTLs,
 * tombstones of every kind — so applying it merges with what is already here by Cassandra's reconciliation rules,
 * and streaming the same range twice changes nothing.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li>Pull, one page in flight per transfer: the receiver asks the source shard for the next
 *       {@value #PAGE_PARTITIONS} partitions after the last one it applied (STREAM_PAGE), applies them, and only
 *       then asks again. Memory is bounded by one page per transfer on either side, and a slow receiver slows the
 *       source down instead of queueing: back-pressure by construction. A receiver shard that refuses a write
 *       (queue full) is retried after a pause.</li>
 *   <li>Sources are addressed per shard (the source lists only the tokens its shard owns), so shard counts may
 *       differ between nodes.</li>
 *   <li>Another node can be asked to pull ranges (STREAM_FETCH): a decommission, a removenode or a repair runs on
 *       one node and has the nodes that gain data fetch it.</li>
 * </ul>
 */
public final class Streaming {
    private static final Logger LOG = LoggerFactory.getLogger(Streaming.class);
    static final int PAGE_PARTITIONS = 64;
    private static final long PAGE_TIMEOUT_MILLIS = 30_000;
    private static final int ATTEMPTS = 5;

    private final MessagingService messaging;
    private final Storage storage;
    private final AtomicLong partitionsReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong partitionsSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final ConcurrentHashMap<Long, Transfer> active = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /** A transfer under way, for nodetool netstats. */
    public record Transfer(UUID plan, String description, InetSocketAddress peer, boolean receiving, TableId table,
                           AtomicLong partitions, AtomicLong bytes) {
    }

    /** A time-based (version 1 layout) id for a transfer, as Cassandra's stream plan ids are. */
    private static UUID planId() {
        long t = System.currentTimeMillis() * 10_000 + 0x01B21DD213814000L;
        long msb = (t << 32) | ((t >>> 16) & 0xFFFF0000L) | 0x1000L | ((t >>> 48) & 0x0FFFL);
        long lsb = (java.util.concurrent.ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL)
                | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** Outbound limit in bytes per second for every page this node sends (0: none), and when the next may go. */
    private volatile long throughputBytesPerSecond;
    private final java.util.concurrent.atomic.AtomicLong nextFreeNanos = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Limits the bytes this node sends to streams, all of them together (Cassandra's {@code
     * stream_throughput_outbound}); 0 lifts the limit. A page over the limit is answered late, so the receiver,
     * which asks for one page at a time, slows down with it.
     */
    public void throughput(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("stream throughput " + bytesPerSecond);
        }
        throughputBytesPerSecond = bytesPerSecond;
    }

    public long throughput() {
        return throughputBytesPerSecond;
    }

    /** How long to hold a page of {@code bytes} before sending it, in ns: its share of the outbound limit. */
    private long holdNanos(long bytes) {
        long rate = throughputBytesPerSecond;
        if (rate <= 0) {
            return 0;
        }
        long cost = (long) (bytes * 1e9 / rate);
        while (true) {
            long now = System.nanoTime();
            long prev = nextFreeNanos.get();
            long start = prev - now > 0 ? prev : now;
            if (nextFreeNanos.compareAndSet(prev, start + cost)) {
                return start + cost - now;
            }
        }
    }

    private Streaming(MessagingService messaging, Storage storage) {
        this.messaging = messaging;
        this.storage = storage;
    }

    /** Serves STREAM_PAGE and STREAM_FETCH on this node's storage; before messaging starts. */
    public static Streaming serve(MessagingService messaging, Storage storage) {
        Streaming s = new Streaming(messaging, storage);
        messaging.handle(Verb.STREAM_PAGE, (payload, shard, epoch, sender) -> s.page(payload, shard));
        messaging.handle(Verb.STREAM_FETCH, (payload, shard, epoch, sender) -> {
            TableId table = TableId.of(payload.readLong(), payload.readLong());
            List<TokenRange> ranges = readRanges(payload);
            List<Endpoint> sources = readEndpoints(payload);
            String description = payload.isReadable()
                    ? payload.readCharSequence(payload.readUnsignedShort(), java.nio.charset.StandardCharsets.UTF_8)
                    .toString() : "Other";
            return s.fetch(table, ranges, sources, description).thenApply(n -> Unpooled.buffer(8).writeLong(n));
        });
        return s;
    }

    public long partitionsReceived() {
        return partitionsReceived.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    public long partitionsSent() {
        return partitionsSent.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    /** The transfers under way now. */
    public List<Transfer> active() {
        return List.copyOf(active.values());
    }

    // ------------------------------------------------------------------ source side

    private CompletableFuture<ByteBuf> page(ByteBuf payload, int shard) {
        TableId table = TableId.of(payload.readLong(), payload.readLong());
        long start = payload.readLong();
        long end = payload.readLong();
        DecoratedKey after = null;
        if (payload.readBoolean()) {
            long token = payload.readLong();
            byte[] key = new byte[payload.readInt()];
            payload.readBytes(key);
            after = new DecoratedKey(token, key);
        }
        int limit = Math.min(payload.readInt(), PAGE_PARTITIONS);
        if (shard >= storage.shardCount()) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no shard=" + shard));
        }
        return storage.readRawRange(table, shard, start, after, end, limit).thenApply(parts -> {
            int size = 4;
            for (Mutation m : parts) {
                size += 4 + m.serializedSize();
            }
            ByteBuf out = Unpooled.buffer(size);
            out.writeInt(parts.size());
            for (Mutation m : parts) {
                out.writeInt(m.serializedSize());
                out.writeBytes(m.asByteBuffer());
            }
            partitionsSent.addAndGet(parts.size());
            bytesSent.addAndGet(size);
            return out;
        }).thenCompose(out -> {
            long hold = holdNanos(out.readableBytes());
            if (hold <= 0) {
                return CompletableFuture.completedFuture(out);
            }
            return CompletableFuture.supplyAsync(() -> out,
                    CompletableFuture.delayedExecutor(hold, java.util.concurrent.TimeUnit.NANOSECONDS));
        });
    }

    // ------------------------------------------------------------------ receiving side

    /**
     * Pulls {@code ranges} of {@code table} from every source (this node skipped) and applies them here; completes
     * with the number of partitions applied once every source has sent all it holds of them.
     */
    public CompletableFuture<Long> fetch(TableId table, List<TokenRange> ranges, List<Endpoint> sources) {
        return fetch(table, ranges, sources, "Other");
    }

    /**
     * {@link #fetch(TableId, List, List)} named for nodetool netstats: Cassandra's stream operation descriptions
     * ("Bootstrap", "Unbootstrap", "Repair", "Restore replica count").
     */
    public CompletableFuture<Long> fetch(TableId table, List<TokenRange> ranges, List<Endpoint> sources,
                                         String description) {
        UUID plan = planId();
        CompletableFuture<Long> chain = CompletableFuture.completedFuture(0L);
        for (Endpoint source : sources) {
            if (source.storageAddress().equals(messaging.address())) {
                continue;
            }
            for (int shard = 0; shard < source.shards(); shard++) {
                for (TokenRange r : ranges) {
                    for (TokenRange.Piece p : r.pieces()) {
                        int s = shard;
                        chain = chain.thenCompose(n -> {
                            long id = ids.incrementAndGet();
                            Transfer t = new Transfer(plan, description, source.storageAddress(), true, table,
                                    new AtomicLong(), new AtomicLong());
                            active.put(id, t);
                            return pull(source, s, table, p, null, t, 0).whenComplete((x, e) -> active.remove(id))
                                    .thenApply(x -> n + x);
                        });
                    }
                }
            }
        }
        return chain;
    }

    /** Asks {@code target} to fetch the ranges from the sources; completes with the partitions it applied. */
    public CompletableFuture<Long> requestFetch(Endpoint target, TableId table, List<TokenRange> ranges,
                                                List<Endpoint> sources, long timeoutMillis, String description) {
        if (target.storageAddress().equals(messaging.address())) {
            return fetch(table, ranges, sources, description);
        }
        ByteBuf payload = Unpooled.buffer();
        payload.writeLong(table.msb()).writeLong(table.lsb());
        writeRanges(payload, ranges);
        writeEndpoints(payload, sources);
        byte[] d = description.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        payload.writeShort(d.length).writeBytes(d);
        return messaging.send(target.storageAddress(), 0, Verb.STREAM_FETCH, payload, timeoutMillis).thenApply(b -> {
            try {
                return b.readLong();
            } finally {
                b.release();
            }
        });
    }

    private CompletableFuture<Long> pull(Endpoint source, int shard, TableId table, TokenRange.Piece piece,
                                         DecoratedKey after, Transfer t, int failures) {
        ByteBuf req = Unpooled.buffer(64 + (after == null ? 0 : after.key().length));
        req.writeLong(table.msb()).writeLong(table.lsb()).writeLong(piece.start()).writeLong(piece.end());
        req.writeBoolean(after != null);
        if (after != null) {
            req.writeLong(after.token()).writeInt(after.key().length).writeBytes(after.key());
        }
        req.writeInt(PAGE_PARTITIONS);
        return messaging.send(source.storageAddress(), shard, Verb.STREAM_PAGE, req, PAGE_TIMEOUT_MILLIS)
                .thenCompose(answer -> {
                    List<Mutation> parts = new ArrayList<>();
                    try {
                        int n = answer.readInt();
                        bytesReceived.addAndGet(answer.readableBytes() + 4L);
                        t.bytes().addAndGet(answer.readableBytes() + 4L);
                        for (int i = 0; i < n; i++) {
                            byte[] bytes = new byte[answer.readInt()];
                            answer.readBytes(bytes);
                            parts.add(Mutation.copyOf(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length));
                        }
                    } finally {
                        answer.release();
                    }
                    return applyAll(parts).thenCompose(v -> {
                        partitionsReceived.addAndGet(parts.size());
                        t.partitions().addAndGet(parts.size());
                        if (parts.size() < PAGE_PARTITIONS) {
                            return CompletableFuture.completedFuture((long) parts.size());
                        }
                        Mutation last = parts.get(parts.size() - 1);
                        return pull(source, shard, table, piece, new DecoratedKey(last.token(), last.partitionKey()), t, 0)
                                .thenApply(rest -> rest + parts.size());
                    });
                }).exceptionallyCompose(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    if (failures + 1 >= ATTEMPTS) {
                        return CompletableFuture.failedFuture(new StreamException("streaming " + piece + " of table="
                                + table + " from " + source + " shard=" + shard + " failed after " + ATTEMPTS
                                + " attempts: " + cause, cause));
                    }
                    LOG.info("streaming {} from {} shard={} failed ({}), retrying", piece, source, shard, cause.toString());
                    return delay(500L * (failures + 1)).thenCompose(x ->
                            pull(source, shard, table, piece, after, t, failures + 1));
                });
    }

    /** Applies every partition here; a shard that is full is asked again after a pause. */
    private CompletableFuture<Void> applyAll(List<Mutation> parts) {
        CompletableFuture<?>[] fs = new CompletableFuture<?>[parts.size()];
        for (int i = 0; i < fs.length; i++) {
            fs[i] = applyOne(parts.get(i), 0);
        }
        return CompletableFuture.allOf(fs);
    }

    private CompletableFuture<Void> applyOne(Mutation m, int attempt) {
        return storage.apply(m).exceptionallyCompose(e -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof ShardOverloadedException && attempt < 100) {
                return delay(20).thenCompose(x -> applyOne(m, attempt + 1));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    private static CompletableFuture<Void> delay(long millis) {
        return CompletableFuture.runAsync(() -> {
        }, CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS));
    }

    // ------------------------------------------------------------------ wire

    static void writeRanges(ByteBuf out, List<TokenRange> ranges) {
        out.writeInt(ranges.size());
        for (TokenRange r : ranges) {
            out.writeLong(r.left()).writeLong(r.right());
        }
    }

    static List<TokenRange> readRanges(ByteBuf in) {
        int n = in.readInt();
        List<TokenRange> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new TokenRange(in.readLong(), in.readLong()));
        }
        return out;
    }

    public static void writeEndpoints(ByteBuf out, List<Endpoint> endpoints) {
        out.writeInt(endpoints.size());
        for (Endpoint e : endpoints) {
            out.writeLong(e.hostId().getMostSignificantBits()).writeLong(e.hostId().getLeastSignificantBits());
            byte[] a = e.address().getAddress();
            out.writeByte(a.length).writeBytes(a).writeInt(e.storagePort()).writeInt(e.shards());
            byte[] dc = e.datacenter().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] rack = e.rack().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeShort(dc.length).writeBytes(dc).writeShort(rack.length).writeBytes(rack);
        }
    }

    public static List<Endpoint> readEndpoints(ByteBuf in) {
        int n = in.readInt();
        List<Endpoint> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            UUID id = new UUID(in.readLong(), in.readLong());
            byte[] a = new byte[in.readUnsignedByte()];
            in.readBytes(a);
            int port = in.readInt();
            int shards = in.readInt();
            String dc = in.readCharSequence(in.readUnsignedShort(), java.nio.charset.StandardCharsets.UTF_8).toString();
            String rack = in.readCharSequence(in.readUnsignedShort(), java.nio.charset.StandardCharsets.UTF_8).toString();
            try {
                out.add(new Endpoint(id, InetAddress.getByAddress(a), port, dc, rack, shards));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("bad address of length " + a.length, e);
            }
        }
        return out;
    }
}
