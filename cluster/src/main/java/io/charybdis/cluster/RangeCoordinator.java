package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.replica.Replicas;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadCommand.KeyBound;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ResultWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Range reads across nodes — token ranges, full scans, filtering scans, SELECT without a partition key — as
 * Cassandra's range commands do them: walk the ring's ranges in token order from where the read (or its paging
 * state) starts, read each from as many of its replicas as the consistency level needs, and stop once the read's
 * row or partition limit is met.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>Segments.</b> Ring token {@code t(i)} ends the range {@code (t(i-1), t(i)]}; the first range also takes
 *       {@code [MIN, t(0)]} and the last one {@code (t(n-1), MAX]} (both owned by {@code t(0)}'s replicas). Each range
 *       is clipped to the read's bounds. Adjacent ranges whose replicas are the same set are read as one segment, so
 *       a keyspace replicated to every node is read in one request, from this node.</li>
 *   <li><b>Limits.</b> Segments are read one after the other, each with the rows and partitions still wanted; the
 *       parts are disjoint and in token order, and {@link ResultWriter#mergeRange} joins them, re-applying the
 *       limits. A part that stopped at its limit ends the walk: the node's paging resumes after its last row, in
 *       whichever segment that lies, on the next page. Filtering, LIMIT, PER PARTITION LIMIT and DISTINCT stay
 *       where they are, on the home shard.</li>
 *   <li><b>Several replicas.</b> At a level that waits for more than one replica, a segment is read in full from
 *       each replica asked (this node first). Equal answers end it. Different answers are reconciled partition by
 *       partition, for every partition any of them returned: each asked replica's whole partition is read raw, the
 *       parts merged (last write wins, tombstones included) and written back where they differ — the single
 *       partition path's blocking read repair — and the segment is read again, until the answers agree (at most
 *       {@link #MAX_ROUNDS} rounds; then a ReadTimeout, as when replicas never agree in time).</li>
 * </ul>
 */
final class RangeCoordinator {
    static final int MAX_ROUNDS = 4;

    private final Storage storage;
    private final Replicas remote;
    private final Supplier<ClusterMetadata> metadata;
    private final Function<TableId, ReplicationStrategy> strategies;
    private final Liveness liveness;
    private final long timeoutMillis;
    private final long writeTimeoutMillis;

    RangeCoordinator(Storage storage, Replicas remote, Supplier<ClusterMetadata> metadata,
                     Function<TableId, ReplicationStrategy> strategies, Liveness liveness, long timeoutMillis,
                     long writeTimeoutMillis) {
        this.storage = storage;
        this.remote = remote;
        this.metadata = metadata;
        this.strategies = strategies;
        this.liveness = liveness;
        this.timeoutMillis = timeoutMillis;
        this.writeTimeoutMillis = writeTimeoutMillis;
    }

    /** A clipped part of the ring read from the same replicas: the bounds for the read and whom to ask. */
    record Segment(KeyBound start, KeyBound end, List<Endpoint> asked, int blockFor) {
    }

    /**
     * Reads the range {@code c} at {@code cl} (a level already mapped from SERIAL to its quorum); {@code stale} (null:
     * none) notes replicas refusing this coordinator's stale epoch.
     */
    CompletableFuture<ReadResult> read(ReadCommand c, ConsistencyLevel cl, StaleWatch stale) {
        List<Segment> segments;
        try {
            segments = segments(c, cl, metadata.get(), strategies.apply(c.table()));
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<ReadResult> parts = new ArrayList<>();
        return walk(c, cl, segments, 0, parts, 0, 0, stale).thenApply(v -> switch (parts.size()) {
            case 0 -> ReadResult.empty();
            case 1 -> parts.get(0);
            default -> ResultWriter.mergeRange(c, parts);
        });
    }

    private CompletableFuture<Void> walk(ReadCommand c, ConsistencyLevel cl, List<Segment> segments, int i,
                                         List<ReadResult> parts, int rows, int partitions, StaleWatch stale) {
        if (i == segments.size()) {
            return CompletableFuture.completedFuture(null);
        }
        Segment s = segments.get(i);
        ReadCommand sub = new ReadCommand(c.table(), c.token(), null, s.start(), s.end(), c.slices(), c.reversed(),
                remaining(c.rowLimit(), rows), c.perPartitionLimit(), remaining(c.partitionLimit(), partitions),
                c.nowInSeconds(), c.startAfter(), c.columns(), c.tombstoneFailureThreshold());
        return readSegment(sub, s, cl, 1, stale).thenCompose(part -> {
            parts.add(part);
            int r = rows + part.rowCount();
            int p = partitions + part.partitionCount();
            if (part.limitReached() || r >= c.rowLimit() || p >= c.partitionLimit()) {
                return CompletableFuture.completedFuture(null);
            }
            return walk(c, cl, segments, i + 1, parts, r, p, stale);
        });
    }

    private static int remaining(int limit, int used) {
        return limit == ReadCommand.NO_LIMIT ? limit : Math.max(1, limit - used);
    }

    // ------------------------------------------------------------------ the ring walk

    /** The segments of {@code c}'s range in token order, from its start (or resume point) to its end. */
    List<Segment> segments(ReadCommand c, ConsistencyLevel cl, ClusterMetadata md, ReplicationStrategy strategy) {
        TokenRing ring = md.ring();
        int n = ring.size();
        long lowest = c.lowestToken();
        long highest = c.end() == null ? Long.MAX_VALUE : c.end().token();
        List<Segment> out = new ArrayList<>();
        List<Endpoint> previousReplicas = null;
        for (int i = 0; i <= n; i++) {
            boolean first = i == 0;
            boolean last = i == n;
            long left = first ? Long.MIN_VALUE : ring.token(i - 1); // exclusive, except for the first range
            long right = last ? Long.MAX_VALUE : ring.token(i);     // inclusive
            if (right < lowest) {
                continue;
            }
            if (!first && left >= highest) {
                break;
            }
            KeyBound start = first || (c.start() != null && c.start().token() > left) ? c.start()
                    : KeyBound.token(left, false);
            KeyBound end = last || (c.end() != null && c.end().token() <= right) ? c.end() : KeyBound.token(right, true);
            List<Endpoint> replicas = strategy.replicas(right, ring, md.self());
            if (previousReplicas != null && new HashSet<>(replicas).equals(new HashSet<>(previousReplicas))) {
                Segment prev = out.remove(out.size() - 1);
                out.add(new Segment(prev.start(), end, prev.asked(), prev.blockFor()));
                continue;
            }
            ReplicaPlan plan = ReplicaPlan.of(replicas, strategy, cl, md.self(), liveness, false);
            out.add(new Segment(start, end, ask(plan, md.self(), cl), plan.blockFor()));
            previousReplicas = replicas;
        }
        return out;
    }

    /** The live replicas a segment is read from: blockFor of them, this node first, then its data centre's. */
    private static List<Endpoint> ask(ReplicaPlan plan, Endpoint self, ConsistencyLevel cl) {
        List<Endpoint> ordered = new ArrayList<>(plan.live().size());
        if (plan.live().contains(self)) {
            ordered.add(self);
        }
        for (Endpoint e : plan.live()) {
            if (!e.equals(self) && e.datacenter().equals(self.datacenter())) {
                ordered.add(e);
            }
        }
        if (!cl.isDatacenterLocal()) {
            for (Endpoint e : plan.live()) {
                if (!e.datacenter().equals(self.datacenter())) {
                    ordered.add(e);
                }
            }
        }
        return List.copyOf(ordered.subList(0, Math.min(Math.max(1, plan.blockFor()), ordered.size())));
    }

    // ------------------------------------------------------------------ reading a segment

    private CompletableFuture<ReadResult> readSegment(ReadCommand sub, Segment s, ConsistencyLevel cl, int round,
                                                      StaleWatch stale) {
        List<Endpoint> asked = s.asked();
        if (asked.size() == 1) {
            return readFrom(asked.get(0), sub, stale).exceptionallyCompose(t ->
                    CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, 1, false)));
        }
        List<CompletableFuture<ReadResult>> answers = new ArrayList<>(asked.size());
        for (Endpoint e : asked) {
            answers.add(readFrom(e, sub, stale));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).handle((v, t) -> {
            if (t != null) {
                int answered = (int) answers.stream().filter(f -> !f.isCompletedExceptionally()).count();
                answers.stream().filter(f -> !f.isCompletedExceptionally()).forEach(f -> f.join().release());
                throw new CompletionException(new ReadTimeoutException(cl, answered, s.blockFor(), false));
            }
            return answers.stream().map(CompletableFuture::join).toList();
        }).thenCompose(results -> {
            ReadResult first = results.get(0);
            boolean same = true;
            for (int i = 1; i < results.size() && same; i++) {
                same = sameRows(first, results.get(i));
            }
            if (same) {
                for (int i = 1; i < results.size(); i++) {
                    results.get(i).release();
                }
                return CompletableFuture.completedFuture(first);
            }
            Map<String, PartitionKey> keys = new LinkedHashMap<>();
            for (ReadResult r : results) {
                ReadResult.Cursor cur = r.cursor();
                while (cur.nextPartition()) {
                    byte[] key = cur.keyBytes();
                    keys.putIfAbsent(cur.token() + ":" + Arrays.toString(key), new PartitionKey(cur.token(), key));
                }
                r.release();
            }
            if (round >= MAX_ROUNDS) {
                return CompletableFuture.failedFuture(new ReadTimeoutException(cl, s.blockFor() - 1, s.blockFor(), true));
            }
            List<CompletableFuture<Void>> repairs = new ArrayList<>(keys.size());
            for (PartitionKey k : keys.values()) {
                repairs.add(repair(sub.table(), k, asked, stale));
            }
            return CompletableFuture.allOf(repairs.toArray(CompletableFuture[]::new))
                    .exceptionallyCompose(x -> CompletableFuture.failedFuture(
                            new ReadTimeoutException(cl, s.blockFor() - 1, s.blockFor(), true)))
                    .thenCompose(x -> readSegment(sub, s, cl, round + 1, stale));
        });
    }

    private record PartitionKey(long token, byte[] key) {
    }

    private static boolean sameRows(ReadResult a, ReadResult b) {
        return a.limitReached() == b.limitReached() && Arrays.equals(a.cursor().array(), 0, a.serializedSize(),
                b.cursor().array(), 0, b.serializedSize());
    }

    private CompletableFuture<ReadResult> readFrom(Endpoint e, ReadCommand c, StaleWatch stale) {
        return e.equals(metadata.get().self()) ? storage.read(c)
                : StaleWatch.watch(stale, remote.read(e, c, timeoutMillis));
    }

    /** Blocking read repair of one partition on the replicas asked: their whole partitions merged, written back. */
    private CompletableFuture<Void> repair(TableId table, PartitionKey k, List<Endpoint> asked, StaleWatch stale) {
        Endpoint self = metadata.get().self();
        List<CompletableFuture<Mutation>> raws = new ArrayList<>(asked.size());
        for (Endpoint e : asked) {
            raws.add(e.equals(self) ? storage.readRawPartition(table, k.token(), k.key())
                    : StaleWatch.watch(stale, remote.readRaw(e, table, k.token(), k.key(), timeoutMillis)));
        }
        return CompletableFuture.allOf(raws.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            List<Mutation> parts = raws.stream().map(CompletableFuture::join).toList();
            List<Mutation> present = parts.stream().filter(Objects::nonNull).toList();
            if (present.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            Mutation merged = Mutation.merge(present);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < asked.size(); i++) {
                Mutation had = parts.get(i);
                if (had != null && had.asByteBuffer().equals(merged.asByteBuffer())) {
                    continue;
                }
                Endpoint e = asked.get(i);
                writes.add(e.equals(self) ? storage.apply(merged)
                        : StaleWatch.watch(stale, remote.apply(e, merged, writeTimeoutMillis)));
            }
            return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
        });
    }
}
