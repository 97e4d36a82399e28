package io.charybdis.cluster.repair;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.cluster.streaming.Streaming;
import io.charybdis.cluster.streaming.TokenRange;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Full anti-entropy repair of one token range of one table: every replica builds a {@link MerkleTree} of the range
 * from what it holds (REPAIR_TREE), the trees are compared pairwise, and for every pair that differs each replica
 * fetches the differing sub-ranges from the other ({@link Streaming}), so afterwards all replicas hold the
 * reconciliation of what any of them held.
 *
 * <p>A replica's tree is built page by page over its shards (the pages of streaming), so memory is bounded by a
 * page and the tree ({@code 2^depth} leaves of 32 bytes) however much data the range holds.
 */
public final class Repair {
    static final int MAX_DEPTH = 10;
    private static final int PAGE = 64;
    private static final long TREE_TIMEOUT_MILLIS = 120_000;
    private static final long STREAM_TIMEOUT_MILLIS = 600_000;

    private final MessagingService messaging;
    private final Storage storage;
    private final Streaming streaming;

    private Repair(MessagingService messaging, Storage storage, Streaming streaming) {
        this.messaging = messaging;
        this.storage = storage;
        this.streaming = streaming;
    }

    /** Serves REPAIR_TREE on this node's storage; before messaging starts. */
    public static Repair serve(MessagingService messaging, Storage storage, Streaming streaming) {
        Repair r = new Repair(messaging, storage, streaming);
        messaging.handle(Verb.REPAIR_TREE, (payload, shard, epoch, sender) -> {
            TableId table = TableId.of(payload.readLong(), payload.readLong());
            TokenRange range = new TokenRange(payload.readLong(), payload.readLong());
            int depth = payload.readInt();
            return r.localTree(table, range, depth).thenApply(t -> Unpooled.wrappedBuffer(t.leafBytes()));
        });
        return r;
    }

    /** What one range's repair found and did. */
    public record Outcome(TokenRange range, int replicas, int differingRanges, long partitionsStreamed) {
    }

    /**
     * Repairs {@code range} of {@code table} among {@code replicas} (all must answer); {@code log} hears what is
     * done, for nodetool's progress messages.
     */
    public CompletableFuture<Outcome> repair(TableId table, TokenRange range, List<Endpoint> replicas,
                                             Consumer<String> log) {
        int depth = MerkleTree.depthFor(range, MAX_DEPTH);
        List<CompletableFuture<MerkleTree>> trees = new ArrayList<>();
        for (Endpoint e : replicas) {
            trees.add(tree(e, table, range, depth));
        }
        return CompletableFuture.allOf(trees.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            CompletableFuture<Long> streamed = CompletableFuture.completedFuture(0L);
            int differing = 0;
            for (int i = 0; i < replicas.size(); i++) {
                for (int j = i + 1; j < replicas.size(); j++) {
                    List<TokenRange> diff = MerkleTree.differences(trees.get(i).join(), trees.get(j).join());
                    if (diff.isEmpty()) {
                        continue;
                    }
                    differing += diff.size();
                    Endpoint a = replicas.get(i);
                    Endpoint b = replicas.get(j);
                    log.accept("Endpoints " + a.address().getHostAddress() + " and " + b.address().getHostAddress()
                            + " have " + diff.size() + " range(s) out of sync for " + range);
                    streamed = streamed.thenCompose(n -> streaming.requestFetch(a, table, diff, List.of(b),
                            STREAM_TIMEOUT_MILLIS, "Repair").thenCombine(streaming.requestFetch(b, table, diff,
                            List.of(a), STREAM_TIMEOUT_MILLIS, "Repair"), (x, y) -> n + x + y));
                }
            }
            int d = differing;
            return streamed.thenApply(n -> new Outcome(range, replicas.size(), d, n));
        });
    }

    private CompletableFuture<MerkleTree> tree(Endpoint e, TableId table, TokenRange range, int depth) {
        if (e.storageAddress().equals(messaging.address())) {
            return localTree(table, range, depth);
        }
        ByteBuf req = Unpooled.buffer(44);
        req.writeLong(table.msb()).writeLong(table.lsb()).writeLong(range.left()).writeLong(range.right()).writeInt(depth);
        return messaging.send(e.storageAddress(), 0, Verb.REPAIR_TREE, req, TREE_TIMEOUT_MILLIS).thenApply(b -> {
            try {
                byte[] leaves = new byte[b.readableBytes()];
                b.readBytes(leaves);
                return MerkleTree.of(range, depth, leaves);
            } finally {
                b.release();
            }
        });
    }

    /** This node's tree of the range: every shard, every piece, page by page. */
    CompletableFuture<MerkleTree> localTree(TableId table, TokenRange range, int depth) {
        MerkleTree tree = new MerkleTree(range, depth);
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int shard = 0; shard < storage.shardCount(); shard++) {
            for (TokenRange.Piece p : range.pieces()) {
                int s = shard;
                chain = chain.thenCompose(v -> hashPages(tree, table, s, p, null));
            }
        }
        return chain.thenApply(v -> tree);
    }

    private CompletableFuture<Void> hashPages(MerkleTree tree, TableId table, int shard, TokenRange.Piece p,
                                              DecoratedKey after) {
        return storage.readRawRange(table, shard, p.start(), after, p.end(), PAGE).thenCompose(parts -> {
            synchronized (tree) {
                for (Mutation m : parts) {
                    byte[] bytes = new byte[m.serializedSize()];
                    m.asByteBuffer().get(bytes);
                    tree.add(m.token(), bytes);
                }
            }
            if (parts.size() < PAGE) {
                return CompletableFuture.completedFuture(null);
            }
            Mutation last = parts.get(parts.size() - 1);
            return hashPages(tree, table, shard, p, new DecoratedKey(last.token(), last.partitionKey()));
        });
    }
}
