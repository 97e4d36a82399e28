package io.charybdis.cluster;

import io.charybdis.cluster.hints.HintsService;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.storage.CasResult;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.netty.util.concurrent.EventExecutor;
import java.util.List;
import java.util.function.Consumer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The one way statements reach data: maps each partition to its replica set (the ring of the current metadata
 * epoch and the keyspace's replication strategy), checks the consistency level against live replicas, sends the
 * work to each replica — a local shard of this node, or (once internode messaging exists) a remote node's shard —
 * and completes when the consistency level is met, back on the request's home shard.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li>Thread-safe and lock-free: metadata is an immutable {@link ClusterMetadata} swapped in whole; the strategy
 *       of a keyspace is cached per replication map instance (the schema replaces the map when it changes).</li>
 *   <li>A local replica is this node's storage, which runs the work inline when the caller is the owning shard and
 *       otherwise sends it to that shard; {@link Home#resume} brings the outcome back to the caller's shard.</li>
 *   <li>Quorums come from replication factors, not from node counts: on one node, a keyspace with replication
 *       factor 3 answers QUORUM with Unavailable, as Cassandra does.</li>
 *   <li>A coordinator built without internode messaging (a node alone) fails loudly on a plan naming another
 *       node.</li>
 *   <li>Work kept outside this class: hinted handoff ({@code hints.HintsService}: writes a replica missed),
 *       single-partition reads across replicas ({@link SinglePartitionReads}: digest reads, speculative retry, read
 *       repair), range reads ({@link RangeCoordinator}: the ring walked in token order), the batchlog of LOGGED
 *       batches ({@code batchlog.Batchlog}), Paxos ({@code paxos}).</li>
 *   <li>A request that a replica refused because this coordinator routed by a stale epoch is retried once after
 *       catching up with the metadata log ({@link #onStaleEpoch}); each attempt notes refusals on a
 *       {@link StaleWatch}.</li>
 * </ul>
 */
public final class Coordinator {
    private final Storage storage;
    private final Function<TableId, Map<String, String>> replicationOfTable;
    private final Liveness liveness;
    private final ConcurrentHashMap<TableId, CachedStrategy> strategies = new ConcurrentHashMap<>();
    private final io.charybdis.cluster.replica.Replicas remote;
    private final long writeTimeoutMillis;
    private final long readTimeoutMillis;
    /** Cassandra's counter_write_request_timeout: how long a counter update waits for its leader and replicas. */
    private volatile long counterWriteTimeoutMillis;
    private final Paxos paxos;
    private final HintsService hints;
    private final RangeCoordinator ranges;
    private final SinglePartitionReads reads;
    private volatile ClusterMetadata metadata;
    /** The epoch at which token placement (the ring, or the ring being moved to) last changed. */
    private volatile long placementEpoch;

    /** Cassandra's defaults: write_request_timeout and read_request_timeout. */
    public static final long DEFAULT_WRITE_TIMEOUT_MILLIS = 2000;
    public static final long DEFAULT_READ_TIMEOUT_MILLIS = 5000;

    /**
     * @param replicationOfTable the replication map of a table's keyspace as the schema holds it ({@code class} and
     *                           options), null for an unknown table
     */
    public Coordinator(Storage storage, ClusterMetadata metadata, Function<TableId, Map<String, String>> replicationOfTable,
                       Liveness liveness) {
        this(storage, metadata, replicationOfTable, liveness, null, DEFAULT_WRITE_TIMEOUT_MILLIS,
                DEFAULT_READ_TIMEOUT_MILLIS);
    }

    /**
     * @param remote how to reach replicas on other nodes; null on a node that has no internode messaging (then a
     *               plan naming another node fails loudly)
     */
    public Coordinator(Storage storage, ClusterMetadata metadata, Function<TableId, Map<String, String>> replicationOfTable,
                       Liveness liveness, io.charybdis.cluster.replica.Replicas remote, long writeTimeoutMillis,
                       long readTimeoutMillis) {
        this(storage, metadata, replicationOfTable, liveness, remote, writeTimeoutMillis, readTimeoutMillis, null);
    }

    /** @param hints where writes that replicas missed are kept and replayed from; null: no hinted handoff */
    public Coordinator(Storage storage, ClusterMetadata metadata, Function<TableId, Map<String, String>> replicationOfTable,
                       Liveness liveness, io.charybdis.cluster.replica.Replicas remote, long writeTimeoutMillis,
                       long readTimeoutMillis, HintsService hints) {
        this.hints = hints;
        this.remote = remote;
        this.ranges = remote == null ? null : new RangeCoordinator(storage, remote, this::metadata, this::strategy,
                liveness, readTimeoutMillis, writeTimeoutMillis);
        this.reads = remote == null ? null : new SinglePartitionReads(storage, remote, () -> metadata().self(),
                readTimeoutMillis, writeTimeoutMillis);
        this.writeTimeoutMillis = writeTimeoutMillis;
        this.counterWriteTimeoutMillis = writeTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
        this.storage = Objects.requireNonNull(storage, "storage");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.replicationOfTable = replicationOfTable;
        this.liveness = liveness;
        this.paxos = remote == null ? null : new Paxos(remote.paxosReplica(), remote.paxos(), writeTimeoutMillis,
                Paxos.DEFAULT_CONTENTION_TIMEOUT_MILLIS);
        if (remote != null) {
            remote.leadCountersWith(this::leadCounterWrite); // last: the handler may run at once
        }
    }

    /** Sets counter_write_request_timeout (until then, the write timeout). */
    public void counterWriteTimeout(long millis) {
        this.counterWriteTimeoutMillis = millis;
    }

    public ClusterMetadata metadata() {
        return metadata;
    }

    /**
     * The metadata epoch at which this node last saw token placement change: a request from a coordinator routing
     * by an older epoch may have chosen the wrong replicas, and replicas refuse it ({@code Replicas}).
     */
    public long placementEpoch() {
        return placementEpoch;
    }

    /** Installs a newer metadata snapshot; an older or equal epoch is ignored. Returns the one now in force. */
    public synchronized ClusterMetadata update(ClusterMetadata next) {
        if (next.epoch() > metadata.epoch()) {
            if (!io.charybdis.cluster.locator.TokenRing.samePlacement(metadata.ring(), next.ring())
                    || !io.charybdis.cluster.locator.TokenRing.samePlacement(metadata.pendingRing(), next.pendingRing())) {
                placementEpoch = next.epoch();
            }
            metadata = next;
        }
        return metadata;
    }

    /** The replicas of a token for a table, primary first (nodetool getendpoints, token-aware clients). */
    public List<Endpoint> replicas(TableId table, long token) {
        ClusterMetadata md = metadata;
        return strategy(table).replicas(token, md.ring(), md.self());
    }

    /** The qualified class name of the replication strategy of the table's keyspace. */
    public String strategyClass(TableId table) {
        return switch (strategy(table)) {
            case ReplicationStrategy.Local l -> ReplicationStrategy.LOCAL;
            case ReplicationStrategy.Simple s -> ReplicationStrategy.SIMPLE;
            case io.charybdis.cluster.locator.NetworkTopologyStrategy n -> ReplicationStrategy.NETWORK_TOPOLOGY;
        };
    }

    // ------------------------------------------------------------------ writes

    /** Applies one partition's mutation at {@code cl}; completes on {@code home} (null: wherever it finishes). */
    public CompletableFuture<Void> write(Mutation m, ConsistencyLevel cl, EventExecutor home) {
        return write(m, cl, home, null);
    }

    /**
     * As {@link #write(Mutation, ConsistencyLevel, EventExecutor)}, telling {@code trace} (a traced request's tracing
     * session; null when not traced) of the messages sent to other nodes and their answers.
     */
    public CompletableFuture<Void> write(Mutation m, ConsistencyLevel cl, EventExecutor home, Consumer<String> trace) {
        return Home.resume(retryingStaleEpoch(stale -> writeOnce(m, cl, stale, trace)), home);
    }

    /** "/address:port", as Cassandra's traces name a node. */
    static String traceName(Endpoint e) {
        return "/" + e.address().getHostAddress() + ":" + e.storagePort();
    }

    /** Traces a request sent to {@code e} and, when it comes, its answer. */
    static <T> CompletableFuture<T> traced(Consumer<String> trace, String verb, Endpoint e,
                                           CompletableFuture<T> answer) {
        if (trace == null) {
            return answer;
        }
        trace.accept("Sending " + verb + "_REQ message to " + traceName(e));
        answer.whenComplete((v, t) -> trace.accept(t == null ? verb + "_RSP message received from " + traceName(e)
                : verb + " to " + traceName(e) + " failed: " + rootMessage(t)));
        return answer;
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null && (t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException)) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** One attempt at a write (writes are idempotent: a replica that had applied it applies the same cells again). */
    private CompletableFuture<Void> writeOnce(Mutation m, ConsistencyLevel cl, StaleWatch stale,
                                              Consumer<String> trace) {
        ReplicaPlan plan;
        try {
            plan = plan(m.table(), m.token(), cl, true);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        return applyOn(plan, m, WriteTimeoutException.WriteType.SIMPLE, stale, null, trace);
    }

    /** What brings this node up to date with the metadata log (blocking; run off the shard threads). */
    private volatile Runnable catchUp;

    /**
     * Lets requests refused for a stale epoch catch up and retry once ({@code null}: no retry): single-partition
     * writes, batches (logged and unlogged), reads (single-partition and range) and Paxos rounds.
     */
    public void onStaleEpoch(Runnable catchUp) {
        this.catchUp = catchUp;
    }

    /**
     * Runs {@code attempt}; when it failed and a replica had refused it because this coordinator routed by a stale
     * epoch (token placement changed since), this node catches up with the metadata log and runs it once more, on
     * the plan of the new epoch. Each attempt makes its own plan; the second is not watched.
     */
    private <T> CompletableFuture<T> retryingStaleEpoch(Function<StaleWatch, CompletableFuture<T>> attempt) {
        Runnable c = catchUp;
        if (c == null || remote == null) {
            return attempt.apply(null);
        }
        StaleWatch stale = new StaleWatch();
        CompletableFuture<T> first;
        try {
            first = attempt.apply(stale);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return first.exceptionallyCompose(t -> {
            if (!stale.shouldRetry()) {
                return CompletableFuture.failedFuture(t);
            }
            return CompletableFuture.runAsync(c).thenCompose(v -> attempt.apply(null));
        });
    }

    /**
     * The table option {@code speculative_retry} as the schema holds it (null: Cassandra's default, 99p), which
     * single-partition reads across replicas honour ({@link SpeculativeRetry}).
     */
    public void speculativeRetry(Function<TableId, String> ofTable) {
        if (reads != null) {
            reads.speculativeRetry(ofTable);
        }
    }

    /** The latency of single-partition reads this node coordinated across replicas (JMX CoordinatorReadLatency). */
    public io.charybdis.storage.LatencyHistogram.Snapshot coordinatorReadLatency(TableId table) {
        return reads == null ? io.charybdis.storage.LatencyHistogram.empty() : reads.latency(table);
    }

    /** How many reads of the table asked one more replica after its speculative_retry threshold (JMX). */
    public long speculativeRetries(TableId table) {
        return reads == null ? 0 : reads.speculativeRetries(table);
    }

    /** Applies mutations of several partitions, each at {@code cl}; completes when all have met it. */
    public CompletableFuture<Void> write(List<Mutation> ms, ConsistencyLevel cl, EventExecutor home) {
        return write(ms, cl, home, null);
    }

    /** As {@link #write(List, ConsistencyLevel, EventExecutor)}, traced ({@code trace} null: not traced). */
    public CompletableFuture<Void> write(List<Mutation> ms, ConsistencyLevel cl, EventExecutor home,
                                        Consumer<String> trace) {
        if (ms.size() == 1) {
            return write(ms.get(0), cl, home, trace);
        }
        return Home.resume(retryingStaleEpoch(stale -> writeUnlogged(ms, cl, stale, trace)), home);
    }

    private CompletableFuture<Void> writeUnlogged(List<Mutation> ms, ConsistencyLevel cl, StaleWatch stale,
                                                  Consumer<String> trace) {
        CompletableFuture<?>[] fs = new CompletableFuture<?>[ms.size()];
        ReplicaPlan[] plans = new ReplicaPlan[ms.size()];
        try {
            for (int i = 0; i < fs.length; i++) {
                plans[i] = plan(ms.get(i).table(), ms.get(i).token(), cl, true); // all checked before any is sent
            }
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        for (int i = 0; i < fs.length; i++) {
            fs[i] = applyOn(plans[i], ms.get(i), WriteTimeoutException.WriteType.UNLOGGED_BATCH, stale, null, trace);
        }
        return CompletableFuture.allOf(fs);
    }

    /**
     * A LOGGED batch: mutations of several partitions written through the batchlog (see {@link
     * io.charybdis.cluster.batchlog.Batchlog}), so that all of them are applied eventually even if this coordinator
     * dies half way. One partition, or a node alone, needs no batchlog.
     */
    public CompletableFuture<Void> writeLogged(List<Mutation> ms, ConsistencyLevel cl, EventExecutor home) {
        return writeLogged(ms, cl, home, null);
    }

    /** As {@link #writeLogged(List, ConsistencyLevel, EventExecutor)}, traced ({@code trace} null: not traced). */
    public CompletableFuture<Void> writeLogged(List<Mutation> ms, ConsistencyLevel cl, EventExecutor home,
                                              Consumer<String> trace) {
        if (ms.size() == 1 || remote == null || metadata.isSingleNode()) {
            return write(ms, cl, home, trace);
        }
        return Home.resume(retryingStaleEpoch(stale -> writeLoggedOnce(ms, cl, stale, trace)), home);
    }

    /**
     * One attempt at a logged batch. A second attempt writes a second batchlog entry; should the first one be
     * replayed, it applies the same cells again (mutations are idempotent).
     */
    private CompletableFuture<Void> writeLoggedOnce(List<Mutation> ms, ConsistencyLevel cl, StaleWatch stale,
                                                    Consumer<String> trace) {
        ClusterMetadata md = metadata;
        ReplicaPlan[] plans = new ReplicaPlan[ms.size()];
        List<Endpoint> logTo;
        try {
            for (int i = 0; i < plans.length; i++) {
                plans[i] = plan(ms.get(i).table(), ms.get(i).token(), cl, true);
            }
            logTo = io.charybdis.cluster.batchlog.Batchlog.endpoints(md, liveness);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        long micros = System.currentTimeMillis() * 1000;
        java.util.UUID id = io.charybdis.cluster.batchlog.Batchlog.newId(micros / 1000);
        Mutation entry = io.charybdis.cluster.batchlog.Batchlog.entry(id, ms, micros);
        WriteTracker logged = new WriteTracker(logTo.size(), logTo.size(),
                logTo.size() == 1 ? ConsistencyLevel.ONE : ConsistencyLevel.TWO, WriteTimeoutException.WriteType.BATCH_LOG);
        for (Endpoint e : logTo) {
            logged.track(e.equals(md.self()) ? storage.apply(entry)
                    : StaleWatch.watch(stale, traced(trace, "BATCH_STORE", e, remote.apply(e, entry, writeTimeoutMillis))));
        }
        CompletableFuture<Void> done = logged.future().thenCompose(v -> {
            CompletableFuture<?>[] fs = new CompletableFuture<?>[ms.size()];
            for (int i = 0; i < fs.length; i++) {
                fs[i] = applyOn(plans[i], ms.get(i), WriteTimeoutException.WriteType.BATCH, stale, null, trace);
            }
            return CompletableFuture.allOf(fs);
        }).thenRun(() -> {
            Mutation removal = io.charybdis.cluster.batchlog.Batchlog.removal(id, micros + 1, (int) (micros / 1_000_000));
            for (Endpoint e : logTo) { // not waited for: an entry left behind is replayed, harmlessly
                if (e.equals(md.self())) {
                    storage.apply(removal);
                } else {
                    remote.apply(e, removal, writeTimeoutMillis);
                }
            }
        });
        return done;
    }

    private CompletableFuture<Void> applyOn(ReplicaPlan plan, Mutation m, WriteTimeoutException.WriteType type) {
        return applyOn(plan, m, type, null, null, null);
    }

    /** @param stale notes a replica refusing the write for a stale epoch (null: not watched) */
    private CompletableFuture<Void> applyOn(ReplicaPlan plan, Mutation m, WriteTimeoutException.WriteType type,
                                            StaleWatch stale) {
        return applyOn(plan, m, type, stale, null, null);
    }

    /**
     * @param stale        notes a replica refusing the write for a stale epoch (null: not watched)
     * @param localApplied this node's own write of {@code m}, already made (a counter leader's); null: apply it here
     * @param trace        the request's tracing session (null: not traced)
     */
    private CompletableFuture<Void> applyOn(ReplicaPlan plan, Mutation m, WriteTimeoutException.WriteType type,
                                            StaleWatch stale, CompletableFuture<Void> localApplied,
                                            Consumer<String> trace) {
        Endpoint self = metadata.self();
        if (plan.replicas().isEmpty()) {
            return CompletableFuture.completedFuture(null); // ANY with no replica anywhere: nothing to hold it
        }
        if (plan.isLocalOnly(self) && (hints == null || plan.replicas().size() == 1)) {
            return localApplied != null ? localApplied : storage.apply(m, trace);
        }
        if (remote == null) {
            throw remoteNotSupported(plan);
        }
        boolean any = plan.consistency() == ConsistencyLevel.ANY;
        long timeout = type == WriteTimeoutException.WriteType.COUNTER ? counterWriteTimeoutMillis : writeTimeoutMillis;
        List<Endpoint> hinted = hints == null || plan.live().size() == plan.replicas().size() ? List.of()
                : plan.replicas().stream().filter(e -> !plan.live().contains(e) && hints.shouldHint(e)).toList();
        int contacted = plan.live().size() + (any ? hinted.size() : 0);
        if (contacted == 0) {
            // ANY with every replica down and no hint to hold the write (hinted handoff disabled or past its window)
            return CompletableFuture.failedFuture(new UnavailableException(plan.consistency(), 1, 0));
        }
        int counted = plan.countedSize(self) + (any ? hinted.size() : 0);
        WriteTracker tracker = new WriteTracker(counted, Math.min(plan.blockFor(), counted), plan.consistency(), type);
        for (Endpoint e : plan.live()) {
            boolean counts = plan.counts(e, self);
            if (e.equals(self)) {
                tracker.track(localApplied != null ? localApplied : storage.apply(m, trace), counts);
            } else {
                CompletableFuture<Void> sent = StaleWatch.watch(stale, traced(trace, "MUTATION", e,
                        remote.apply(e, m, timeout)));
                tracker.track(hints == null ? sent : sent.exceptionallyCompose(t -> hintMissed(e, m, t, any)), counts);
            }
        }
        for (Endpoint e : hinted) {
            CompletableFuture<Void> kept = hints.hint(e, m).thenCompose(ok -> ok ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(new WriteTimeoutException(plan.consistency(), 0, 1, type)));
            if (any) {
                tracker.track(kept); // Cassandra counts a hint as the acknowledgement CL ANY waits for
            }
        }
        return tracker.future();
    }

    private static boolean isStaleEpoch(Throwable t) {
        return StaleWatch.isStaleEpoch(t);
    }

    /**
     * A live replica did not acknowledge: unless it answered with a failure of its own, the write is kept as a hint
     * for it (as Cassandra hints a write whose callback expired). The replica's failure still counts as one (the
     * hint is not an acknowledgement), except at CL ANY, where a written hint is.
     */
    private CompletableFuture<Void> hintMissed(Endpoint e, Mutation m, Throwable t, boolean any) {
        Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        boolean replicaFailed = cause instanceof io.charybdis.cluster.messaging.MessagingException me
                && me.reason() == io.charybdis.cluster.messaging.MessagingException.Reason.REMOTE_FAILURE;
        if (replicaFailed || !hints.shouldHint(e)) {
            return CompletableFuture.failedFuture(cause);
        }
        CompletableFuture<Boolean> kept = hints.hint(e, m);
        return !any ? CompletableFuture.failedFuture(cause)
                : kept.thenCompose(ok -> ok ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(cause));
    }

    // ------------------------------------------------------------------ reads

    /**
     * Reads at {@code cl}: one partition, or a token range — on a node alone, all of its shards merged; in a cluster,
     * the ring's ranges walked in token order ({@link RangeCoordinator}). A read across nodes that a replica refused
     * for this coordinator's stale epoch is tried once more after catching up with the metadata log.
     */
    public CompletableFuture<ReadResult> read(ReadCommand c, ConsistencyLevel cl, EventExecutor home) {
        return read(c, cl, home, null);
    }

    /**
     * As {@link #read(ReadCommand, ConsistencyLevel, EventExecutor)}, telling {@code trace} (a traced request's
     * tracing session; null when not traced) of the replicas read and the messages sent to other nodes.
     */
    public CompletableFuture<ReadResult> read(ReadCommand c, ConsistencyLevel cl, EventExecutor home,
                                              Consumer<String> trace) {
        if (!c.isSinglePartition() && ranges != null && !metadata.isSingleNode()) {
            // the ring's ranges, each from its replicas
            return Home.resume(retryingStaleEpoch(stale -> ranges.read(c, paxosLevel(cl), stale)), home);
        }
        ReplicaPlan plan;
        try {
            plan = (cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) && c.isSinglePartition()
                    ? paxosPlan(c.table(), c.token(), cl)
                    : plan(c.table(), c.isSinglePartition() ? c.token() : Long.MIN_VALUE, paxosLevel(cl), false);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        Endpoint self = metadata.self();
        if (plan.isLocalOnly(self)) {
            return Home.resume(storage.read(c, trace), home);
        }
        if (remote == null) {
            throw remoteNotSupported(plan);
        }
        boolean serial = cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL;
        if (!serial && plan.blockFor() <= 1 && plan.live().contains(self)) {
            return Home.resume(storage.read(c, trace), home);
        }
        return Home.resume(retryingStaleEpoch(stale -> readOnce(c, cl, home, stale, trace)), home);
    }

    /** One attempt at a single-partition read across nodes, on the plan of the current epoch. */
    private CompletableFuture<ReadResult> readOnce(ReadCommand c, ConsistencyLevel cl, EventExecutor home,
                                                   StaleWatch stale, Consumer<String> trace) {
        boolean serial = cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL;
        ReplicaPlan plan;
        try {
            plan = serial ? paxosPlan(c.table(), c.token(), cl) : plan(c.table(), c.token(), paxosLevel(cl), false);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        Endpoint self = metadata.self();
        if (plan.isLocalOnly(self) || (!serial && plan.blockFor() <= 1 && plan.live().contains(self))) {
            return storage.read(c, trace);
        }
        if (serial && paxos != null) {
            return serialRead(plan, c, cl, stale);
        }
        // digest reads with speculative retry, and blocking read repair when the replicas disagree
        return reads.read(plan, c, cl, home, stale, trace);
    }

    // ------------------------------------------------------------------ node-local data (native indexes)

    /**
     * The nodes a query through a native index must read the local index of: each node indexes the base rows it
     * holds, so the query covers the ring as a range read of {@code base} at {@code cl} would — every range from as
     * many live replicas as the level needs (this node first) — and reads the index of each node asked for any
     * range. A range with too few live replicas makes the query Unavailable, as the range read would be. The base
     * rows the entries name are then read at {@code cl} as usual; an entry a node has for a range it was not asked
     * for only adds a candidate that the base read confirms or drops.
     */
    public List<Endpoint> localIndexNodes(TableId base, ConsistencyLevel cl) {
        ClusterMetadata md = metadata;
        if (ranges == null || md.isSingleNode()) {
            return List.of(md.self());
        }
        ReadCommand ring = ReadCommand.range(base, null, null).build();
        java.util.LinkedHashSet<Endpoint> nodes = new java.util.LinkedHashSet<>();
        for (RangeCoordinator.Segment s : ranges.segments(ring, paxosLevel(cl), md, strategy(base))) {
            nodes.addAll(s.asked());
        }
        return List.copyOf(nodes);
    }

    /**
     * Reads {@code c}, a partition of a node-local table (LocalStrategy: a native index's), on {@code node} — this
     * node's storage or another's over messaging; a remote failure is a ReadTimeout at {@code cl}.
     */
    public CompletableFuture<ReadResult> readOn(Endpoint node, ReadCommand c, ConsistencyLevel cl, EventExecutor home) {
        if (node.equals(metadata.self())) {
            return Home.resume(storage.read(c), home);
        }
        if (remote == null) {
            throw new NotYetSupportedException("this node has no internode messaging to read from " + node);
        }
        CompletableFuture<ReadResult> r = remote.read(node, c, readTimeoutMillis).exceptionallyCompose(t ->
                CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, 1, false)));
        return Home.resume(r, home);
    }

    // ------------------------------------------------------------------ lightweight transactions

    /**
     * Compare-and-set on one partition: reads {@code current}, applies what {@code decide} returns (null: nothing)
     * with no other write to the partition in between. {@code serial} must be SERIAL or LOCAL_SERIAL; the write is
     * committed at {@code commit}. {@code decide} is given the write timestamp of the update (as Cassandra, a
     * transaction's writes carry its ballot's time, whatever timestamp the client sent). With replicas on other
     * nodes this is Paxos ({@link Paxos}); with this node the only replica, one atomic step on the owning shard.
     */
    public CompletableFuture<CasResult> cas(TableId table, long token, byte[] key, ReadCommand current,
                                            java.util.function.BiFunction<ReadResult, Long, Mutation> decide,
                                            ConsistencyLevel serial, ConsistencyLevel commit, EventExecutor home) {
        ReplicaPlan plan;
        try {
            plan = paxosPlan(table, token, serial);
            if (commit != ConsistencyLevel.ANY) {
                plan(table, token, commit, true);
            }
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (plan.isLocalOnly(metadata.self())) {
            return Home.resume(storage.atomically(table, token, key, current,
                    r -> decide.apply(r, io.charybdis.cluster.paxos.Ballot.next(Long.MIN_VALUE).micros())), home);
        }
        if (paxos == null) {
            throw remoteNotSupported(plan);
        }
        CompletableFuture<CasResult> first = retryingStaleEpoch(stale -> {
            if (stale == null) { // the second attempt: a plan of the new epoch
                ReplicaPlan again;
                try {
                    again = plan(table, token, paxosLevel(serial), false);
                } catch (UnavailableException e) {
                    return CompletableFuture.failedFuture(e);
                }
                return paxos.run(paxosRound(table, token, key, again, serial, commit, null), current, decide);
            }
            return paxos.run(paxosRound(table, token, key, plan, serial, commit, stale), current, decide);
        });
        return Home.resume(first, home);
    }

    /** A read at SERIAL or LOCAL_SERIAL over several nodes: finishes in-progress transactions, then reads. */
    private CompletableFuture<ReadResult> serialRead(ReplicaPlan plan, ReadCommand c, ConsistencyLevel serial,
                                                     StaleWatch stale) {
        // proposals found in progress are committed at the quorum the serial level stands for, as Cassandra does
        Paxos.Round round = paxosRound(c.table(), c.token(), c.key(), plan, serial, paxosLevel(serial), stale);
        return paxos.run(round, c, null).thenApply(CasResult::current);
    }

    private Paxos.Round paxosRound(TableId table, long token, byte[] key, ReplicaPlan plan, ConsistencyLevel serial,
                                   ConsistencyLevel commit, StaleWatch stale) {
        ReplicaPlan readPlan = plan;
        return new Paxos.Round(metadata.self(), table, token, key, plan, () -> plan(table, token, commit, true), serial,
                read -> reads.read(readPlan, read, serial, null, stale), stale);
    }

    /**
     * A counter update, Cassandra's way ({@link io.charybdis.cluster.counters.CounterShards}): {@code delta} holds one
     * path-less 8-byte delta cell per counter column. One replica leads it — this node when it is a live replica,
     * else a live replica of this data centre, else any live one — adding the deltas to its own shards and then
     * replicating those shards (not the deltas) at {@code cl}, its own write counting as one acknowledgement (ANY
     * counts as ONE). Counter updates are not idempotent, so nothing is retried: a leader that does not answer in
     * time is a WriteTimeout of type COUNTER (at ONE, as Cassandra reports a forwarded counter update).
     */
    public CompletableFuture<Void> counterWrite(Mutation delta, ConsistencyLevel cl, EventExecutor home) {
        return Home.resume(counterWriteOnce(delta, cl, catchUp != null), home);
    }

    /**
     * One attempt at a counter update; a leader that refused it because this coordinator routed by a stale epoch
     * applied nothing, so this node catches up with the metadata log and tries once more.
     */
    private CompletableFuture<Void> counterWriteOnce(Mutation delta, ConsistencyLevel cl, boolean mayRetry) {
        ConsistencyLevel level = cl == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : cl;
        ReplicaPlan plan;
        try {
            plan = plan(delta.table(), delta.token(), level, true);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        Endpoint self = metadata.self();
        Endpoint leader = counterLeader(plan, replicas(delta.table(), delta.token()), self);
        if (leader == null) { // only pending replicas are live: nobody holds a shard to add to
            return CompletableFuture.failedFuture(new UnavailableException(level, plan.blockFor(), 0));
        }
        if (leader.equals(self)) {
            return leadCounterWrite(plan, delta);
        }
        if (remote == null) {
            throw remoteNotSupported(plan);
        }
        // as in Cassandra, the forwarded update is a write to one replica at ONE: a leader that does not answer in
        // time (or fails to meet the level itself) is a WriteTimeout at ONE, 0 of 1 acknowledged
        return remote.counterWrite(leader, delta, level, counterWriteTimeoutMillis).exceptionallyCompose(t -> {
            if (mayRetry && isStaleEpoch(t)) {
                return CompletableFuture.runAsync(catchUp).thenCompose(v -> counterWriteOnce(delta, cl, false));
            }
            Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                    ? t.getCause() : t;
            return CompletableFuture.failedFuture(cause instanceof UnavailableException ? cause
                    : new WriteTimeoutException(ConsistencyLevel.ONE, 0, 1, WriteTimeoutException.WriteType.COUNTER));
        });
    }

    /**
     * Leads a counter update another coordinator sent to this node ({@link #counterWrite}): fails with Unavailable
     * or WriteTimeout (type COUNTER) as a coordinator would. Runs on the shard owning the token.
     */
    public CompletableFuture<Void> leadCounterWrite(Mutation delta, ConsistencyLevel cl) {
        ReplicaPlan plan;
        try {
            plan = plan(delta.table(), delta.token(), cl, true);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        Endpoint self = metadata.self();
        if (!replicas(delta.table(), delta.token()).contains(self)) {
            return CompletableFuture.failedFuture(new IllegalStateException("counter update sent to a node that is not "
                    + "a replica: table=" + delta.table() + " token=" + delta.token() + " node=" + self));
        }
        return leadCounterWrite(plan, delta);
    }

    /** This node leads: its shards plus the deltas, under the partition's lock, then those shards to the others. */
    private CompletableFuture<Void> leadCounterWrite(ReplicaPlan plan, Mutation delta) {
        byte[] id = io.charybdis.cluster.counters.CounterShards.counterId(metadata.self().hostId());
        Mutation[] shards = new Mutation[1];
        ReadCommand current = io.charybdis.cluster.counters.CounterShards.currentRead(delta,
                (int) (System.currentTimeMillis() / 1000));
        CompletableFuture<Void> local = storage.atomically(delta.table(), delta.token(), delta.partitionKey(), current,
                r -> shards[0] = io.charybdis.cluster.counters.CounterShards.shards(delta, r, id)).thenApply(r -> null);
        return local.thenCompose(v -> applyOn(plan, shards[0], WriteTimeoutException.WriteType.COUNTER, null, local,
                null));
    }

    /**
     * The replica that leads a counter update: this node when it is a live natural replica, else a live natural
     * replica of this data centre, else any live natural one (chosen at random, as Cassandra does); null if none.
     */
    private static Endpoint counterLeader(ReplicaPlan plan, List<Endpoint> natural, Endpoint self) {
        List<Endpoint> candidates = plan.live().stream().filter(natural::contains).toList();
        if (candidates.contains(self)) {
            return self;
        }
        List<Endpoint> local = candidates.stream().filter(e -> e.datacenter().equals(self.datacenter())).toList();
        List<Endpoint> from = local.isEmpty() ? candidates : local;
        return from.isEmpty() ? null : from.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(from.size()));
    }

    // ------------------------------------------------------------------ table-wide

    /** Cassandra's truncate_request_timeout. */
    public static final long DEFAULT_TRUNCATE_TIMEOUT_MILLIS = 60_000;

    /**
     * Removes every row of the table on every node, as Cassandra does: every node of the ring must be up (else
     * Unavailable at ALL), and every one must confirm in time (else a truncate error naming how many did).
     */
    public CompletableFuture<Void> truncate(TableId table, EventExecutor home) {
        ClusterMetadata md = metadata;
        if (md.isSingleNode()) {
            return Home.resume(storage.truncate(table), home);
        }
        if (remote == null) {
            throw new NotYetSupportedException("TRUNCATE across nodes needs internode messaging, which this node lacks");
        }
        List<Endpoint> all = md.ring().endpoints();
        int live = (int) all.stream().filter(liveness::isAlive).count();
        if (live < all.size()) {
            return CompletableFuture.failedFuture(new UnavailableException(ConsistencyLevel.ALL, all.size(), live));
        }
        List<CompletableFuture<Void>> confirmations = new java.util.ArrayList<>(all.size());
        for (Endpoint e : all) {
            confirmations.add(e.equals(md.self()) ? storage.truncate(table)
                    : remote.truncate(e, table, DEFAULT_TRUNCATE_TIMEOUT_MILLIS));
        }
        CompletableFuture<Void> done = CompletableFuture.allOf(confirmations.toArray(CompletableFuture[]::new))
                .exceptionallyCompose(t -> CompletableFuture.failedFuture(new TruncateFailedException(
                        (int) confirmations.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count())));
        return Home.resume(done, home);
    }

    // ------------------------------------------------------------------ plans

    /**
     * Paxos reads and proposes at the quorum a serial level stands for, and reports unavailability in those terms
     * (Cassandra says "QUORUM" for SERIAL, "LOCAL_QUORUM" for LOCAL_SERIAL).
     */
    private static ConsistencyLevel paxosLevel(ConsistencyLevel cl) {
        return switch (cl) {
            case SERIAL -> ConsistencyLevel.QUORUM;
            case LOCAL_SERIAL -> ConsistencyLevel.LOCAL_QUORUM;
            default -> cl;
        };
    }

    /**
     * The participants of a Paxos round, as Cassandra chooses them: the natural replicas and the pending ones (a node
     * joining, or taking over a leaving node's range), needing a quorum of the natural replicas plus every pending
     * one, so that rounds routed by the ring before a move and by the ring after it still meet; with more than one
     * pending replica a round is refused (CASSANDRA-8346).
     */
    private ReplicaPlan paxosPlan(TableId table, long token, ConsistencyLevel serial) {
        ReplicaPlan p = plan(table, token, paxosLevel(serial), true);
        ClusterMetadata md = metadata;
        int pending = p.replicas().size() - strategy(table).replicas(token, md.ring(), md.self()).size();
        if (pending > 1) {
            throw new UnavailableException("Cannot perform LWT operation as there is more than one (" + pending
                    + ") pending range movement", serial, p.replicas().size() + 1, p.live().size());
        }
        return p;
    }

    private ReplicaPlan plan(TableId table, long token, ConsistencyLevel cl, boolean write) {
        ClusterMetadata md = metadata;
        ReplicationStrategy strategy = strategy(table);
        List<Endpoint> replicas = strategy.replicas(token, md.ring(), md.self());
        if (write && md.pendingRing() != null) {
            // pending ranges: a joining node, or a leaving node's successor, gets the writes of what it will own
            List<Endpoint> pending = strategy.replicas(token, md.pendingRing(), md.self()).stream()
                    .filter(e -> !replicas.contains(e)).toList();
            if (!pending.isEmpty()) {
                return ReplicaPlan.withPending(replicas, pending, strategy, cl, md.self(), liveness);
            }
        }
        return ReplicaPlan.of(replicas, strategy, cl, md.self(), liveness, write);
    }

    private ReplicationStrategy strategy(TableId table) {
        Map<String, String> replication = replicationOfTable.apply(table);
        if (replication == null) {
            throw new IllegalArgumentException("unknown table id=" + table);
        }
        CachedStrategy cached = strategies.get(table);
        if (cached == null || cached.replication != replication) {
            cached = new CachedStrategy(replication, ReplicationStrategy.of(replication));
            strategies.put(table, cached);
        }
        return cached.strategy;
    }

    private record CachedStrategy(Map<String, String> replication, ReplicationStrategy strategy) {
    }

    private static NotYetSupportedException remoteNotSupported(ReplicaPlan plan) {
        return new NotYetSupportedException("Charybdis cannot yet serve this request at consistency level "
                + plan.consistency() + " with replicas on other nodes " + plan.replicas() + ": this node has no "
                + "internode messaging, and counters and lightweight transactions across nodes need it");
    }
}
