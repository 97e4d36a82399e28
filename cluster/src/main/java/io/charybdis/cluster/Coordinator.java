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
 *       range reads ({@link RangeCoordinator}: the ring walked in token order), the batchlog of LOGGED batches
 *       ({@code batchlog.Batchlog}), Paxos ({@code paxos}).</li>
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
    private final Paxos paxos;
    private final HintsService hints;
    private final RangeCoordinator ranges;
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
        this.writeTimeoutMillis = writeTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
        this.storage = Objects.requireNonNull(storage, "storage");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.replicationOfTable = replicationOfTable;
        this.liveness = liveness;
        this.paxos = remote == null ? null : new Paxos(remote.paxosReplica(), remote.paxos(), writeTimeoutMillis,
                Paxos.DEFAULT_CONTENTION_TIMEOUT_MILLIS);
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
        return Home.resume(writeOnce(m, cl, catchUp != null, trace), home);
    }

    /** "/address:port", as Cassandra's traces name a node. */
    private static String traceName(Endpoint e) {
        return "/" + e.address().getHostAddress() + ":" + e.storagePort();
    }

    /** Traces a request sent to {@code e} and, when it comes, its answer. */
    private static <T> CompletableFuture<T> traced(Consumer<String> trace, String verb, Endpoint e,
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

    /**
     * One attempt at a write; when a replica refused it because this coordinator routed by a stale epoch (token
     * placement changed since), this node catches up with the metadata log and tries once more on the new plan
     * (writes are idempotent: a replica that had applied it applies the same cells again).
     */
    private CompletableFuture<Void> writeOnce(Mutation m, ConsistencyLevel cl, boolean mayRetry,
                                              Consumer<String> trace) {
        ReplicaPlan plan;
        try {
            plan = plan(m.table(), m.token(), cl, true);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        java.util.concurrent.atomic.AtomicBoolean stale = mayRetry ? new java.util.concurrent.atomic.AtomicBoolean()
                : null;
        CompletableFuture<Void> done = applyOn(plan, m, WriteTimeoutException.WriteType.SIMPLE, stale, trace);
        if (stale == null) {
            return done;
        }
        return done.exceptionallyCompose(t -> {
            if (!stale.get()) {
                return CompletableFuture.failedFuture(t);
            }
            return CompletableFuture.runAsync(catchUp).thenCompose(v -> writeOnce(m, cl, false, trace));
        });
    }

    /** What brings this node up to date with the metadata log (blocking; run off the shard threads). */
    private volatile Runnable catchUp;

    /** Lets writes refused for a stale epoch catch up and retry once ({@code null}: no retry). */
    public void onStaleEpoch(Runnable catchUp) {
        this.catchUp = catchUp;
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
            fs[i] = applyOn(plans[i], ms.get(i), WriteTimeoutException.WriteType.UNLOGGED_BATCH, null, trace);
        }
        return Home.resume(CompletableFuture.allOf(fs), home);
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
                    : traced(trace, "BATCH_STORE", e, remote.apply(e, entry, writeTimeoutMillis)));
        }
        CompletableFuture<Void> done = logged.future().thenCompose(v -> {
            CompletableFuture<?>[] fs = new CompletableFuture<?>[ms.size()];
            for (int i = 0; i < fs.length; i++) {
                fs[i] = applyOn(plans[i], ms.get(i), WriteTimeoutException.WriteType.BATCH, null, trace);
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
        return Home.resume(done, home);
    }

    /**
     * @param stale set when a replica refused the write for a stale epoch (null: not watched)
     * @param trace the request's tracing session (null: not traced)
     */
    private CompletableFuture<Void> applyOn(ReplicaPlan plan, Mutation m, WriteTimeoutException.WriteType type,
                                            java.util.concurrent.atomic.AtomicBoolean stale, Consumer<String> trace) {
        Endpoint self = metadata.self();
        if (plan.replicas().isEmpty()) {
            return CompletableFuture.completedFuture(null); // ANY with no replica anywhere: nothing to hold it
        }
        if (plan.isLocalOnly(self) && (hints == null || plan.replicas().size() == 1)) {
            return storage.apply(m, trace);
        }
        if (remote == null) {
            throw remoteNotSupported(plan);
        }
        boolean any = plan.consistency() == ConsistencyLevel.ANY;
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
                tracker.track(storage.apply(m, trace), counts);
            } else {
                CompletableFuture<Void> sent = traced(trace, "MUTATION", e, remote.apply(e, m, writeTimeoutMillis));
                if (stale != null) {
                    sent.whenComplete((v, t) -> {
                        if (t != null && isStaleEpoch(t)) {
                            stale.set(true);
                        }
                    });
                }
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
        Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof io.charybdis.cluster.messaging.MessagingException me
                && me.reason() == io.charybdis.cluster.messaging.MessagingException.Reason.REMOTE_FAILURE
                && me.getMessage() != null && me.getMessage().contains("stale metadata epoch");
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
     * the ring's ranges walked in token order ({@link RangeCoordinator}).
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
            return Home.resume(ranges.read(c, paxosLevel(cl)), home); // the ring's ranges, each from its replicas
        }
        ReplicaPlan plan;
        try {
            plan = plan(c.table(), c.isSinglePartition() ? c.token() : Long.MIN_VALUE, paxosLevel(cl), false);
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
        if ((cl == ConsistencyLevel.SERIAL || cl == ConsistencyLevel.LOCAL_SERIAL) && c.isSinglePartition()
                && paxos != null) {
            return Home.resume(serialRead(plan, c, cl), home);
        }
        if (plan.blockFor() > 1) {
            return Home.resume(readRepaired(plan, c, cl, trace), home);
        }
        if (plan.live().contains(self)) {
            return Home.resume(storage.read(c, trace), home);
        }
        Endpoint target = plan.counted(self).get(0);
        if (trace != null) {
            trace.accept("reading data from " + traceName(target));
        }
        CompletableFuture<ReadResult> r = traced(trace, "READ", target, remote.read(target, c, readTimeoutMillis))
                .exceptionallyCompose(t ->
                CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, 1, false)));
        return Home.resume(r, home);
    }

    /**
     * A single-partition read that needs {@code blockFor} answers: fetches the whole partition, unfiltered, from
     * that many live replicas (this node first), and when they differ writes their reconciliation (every cell with
     * its timestamp: last write wins on each replica) back to the replicas asked — Cassandra's blocking read
     * repair — before reading the answer from one of them. Whatever any of the replicas asked had acknowledged is
     * in the answer, so a QUORUM read sees every QUORUM write acknowledged before it.
     */
    private CompletableFuture<ReadResult> readRepaired(ReplicaPlan plan, ReadCommand c, ConsistencyLevel cl) {
        return readRepaired(plan, c, cl, null);
    }

    private CompletableFuture<ReadResult> readRepaired(ReplicaPlan plan, ReadCommand c, ConsistencyLevel cl,
                                                       Consumer<String> trace) {
        Endpoint self = metadata.self();
        List<Endpoint> counted = plan.counted(self);
        List<Endpoint> asked = new java.util.ArrayList<>(counted.subList(0, Math.min(plan.blockFor(), counted.size())));
        List<CompletableFuture<Mutation>> raws = new java.util.ArrayList<>(asked.size());
        for (Endpoint e : asked) {
            if (trace != null) {
                trace.accept("reading data from " + (e.equals(self) ? "this node" : traceName(e)));
            }
            raws.add(e.equals(self) ? storage.readRawPartition(c.table(), c.token(), c.key())
                    : traced(trace, "READ", e, remote.readRaw(e, c.table(), c.token(), c.key(), readTimeoutMillis)));
        }
        return CompletableFuture.allOf(raws.toArray(CompletableFuture[]::new)).handle((v, t) -> {
            if (t != null) {
                int answered = (int) raws.stream().filter(f -> !f.isCompletedExceptionally()).count();
                throw new java.util.concurrent.CompletionException(new ReadTimeoutException(cl, answered,
                        plan.blockFor(), false));
            }
            return raws.stream().map(CompletableFuture::join).toList();
        }).thenCompose(parts -> {
            List<Mutation> present = parts.stream().filter(Objects::nonNull).toList();
            boolean same = present.isEmpty() || (present.size() == parts.size() && present.stream().allMatch(m ->
                    m.asByteBuffer().equals(present.get(0).asByteBuffer())));
            Endpoint target = asked.get(0);
            if (same) {
                return readFrom(target, c, cl, trace);
            }
            if (trace != null) {
                trace.accept("Replicas' answers differ: repairing them before answering");
            }
            Mutation merged = Mutation.merge(present);
            List<CompletableFuture<Void>> repairs = new java.util.ArrayList<>();
            for (int i = 0; i < asked.size(); i++) {
                Mutation had = parts.get(i);
                if (had != null && had.asByteBuffer().equals(merged.asByteBuffer())) {
                    continue;
                }
                Endpoint e = asked.get(i);
                repairs.add(e.equals(self) ? storage.apply(merged)
                        : traced(trace, "READ_REPAIR", e, remote.apply(e, merged, writeTimeoutMillis)));
            }
            return CompletableFuture.allOf(repairs.toArray(CompletableFuture[]::new))
                    .exceptionallyCompose(x -> CompletableFuture.failedFuture(
                            new ReadTimeoutException(cl, plan.blockFor() - 1, plan.blockFor(), true)))
                    .thenCompose(x -> readFrom(target, c, cl, trace));
        });
    }

    private CompletableFuture<ReadResult> readFrom(Endpoint replica, ReadCommand c, ConsistencyLevel cl) {
        return readFrom(replica, c, cl, null);
    }

    /** Reads the answer from one replica ({@code trace}: the request's tracing session, or null). */
    private CompletableFuture<ReadResult> readFrom(Endpoint replica, ReadCommand c, ConsistencyLevel cl,
                                                   Consumer<String> trace) {
        if (replica.equals(metadata.self())) {
            return storage.read(c, trace);
        }
        return traced(trace, "READ", replica, remote.read(replica, c, readTimeoutMillis)).exceptionallyCompose(t ->
                CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, 1, false)));
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
            plan = plan(table, token, paxosLevel(serial), false);
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
        return Home.resume(paxos.run(paxosRound(table, token, key, plan, serial, commit), current, decide), home);
    }

    /** A read at SERIAL or LOCAL_SERIAL over several nodes: finishes in-progress transactions, then reads. */
    private CompletableFuture<ReadResult> serialRead(ReplicaPlan plan, ReadCommand c, ConsistencyLevel serial) {
        // proposals found in progress are committed at the quorum the serial level stands for, as Cassandra does
        Paxos.Round round = paxosRound(c.table(), c.token(), c.key(), plan, serial, paxosLevel(serial));
        return paxos.run(round, c, null).thenApply(CasResult::current);
    }

    private Paxos.Round paxosRound(TableId table, long token, byte[] key, ReplicaPlan plan, ConsistencyLevel serial,
                                   ConsistencyLevel commit) {
        ReplicaPlan readPlan = plan;
        return new Paxos.Round(metadata.self(), table, token, key, plan, () -> plan(table, token, commit, true), serial,
                read -> readPlan.blockFor() > 1 ? readRepaired(readPlan, read, serial) : readFrom(readPlan.live().get(0),
                        read, serial));
    }

    /**
     * A counter update: reads the partition's current counter values and writes what {@code update} makes of them,
     * with no other write to the partition in between, at {@code cl}.
     */
    public CompletableFuture<Void> counterWrite(TableId table, long token, byte[] key, ReadCommand current,
                                                Function<ReadResult, Mutation> update, ConsistencyLevel cl,
                                                EventExecutor home) {
        ReplicaPlan plan;
        try {
            plan = plan(table, token, cl, true);
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!plan.isLocalOnly(metadata.self())) {
            throw remoteNotSupported(plan);
        }
        return Home.resume(storage.atomically(table, token, key, current, update).thenApply(r -> (Void) null), home);
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
                + "internode messaging, and counters and lightweight transactions across nodes are not built yet");
    }
}
