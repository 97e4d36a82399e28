package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.replica.ReadDigest;
import io.charybdis.cluster.replica.Replicas;
import io.charybdis.storage.LatencyHistogram;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Single-partition reads whose replicas are on several nodes, as Cassandra's read executors do them: digest reads,
 * speculative retry, and blocking read repair when replicas disagree.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>Whom to ask.</b> The live replicas the level counts, ordered: this node first when it is one, then this
 *       data centre's, then the others; within each group the most responsive first (a moving average of each
 *       node's recent answer times — a small dynamic snitch). The first {@code blockFor} are asked; the others are
 *       spares for speculation.</li>
 *   <li><b>Digests.</b> The first replica asked returns the data, the others a {@link ReadDigest} of what the same
 *       read returns on them, computed on their shard. The read is resolved once {@code blockFor} replicas answered,
 *       one of them with data: equal digests answer with the data. A mismatch falls back to full reads — every
 *       answering replica's whole partition, unfiltered — reconciled (last write wins, tombstones included), written
 *       back where it differs, and the read then served from the first of them: blocking read repair.</li>
 *   <li><b>Speculation.</b> Unless the table's {@link SpeculativeRetry} is NONE, once its threshold passed without
 *       the level met, one spare replica is asked too — for the data when no data arrived yet, else for a digest —
 *       once per read. ALWAYS asks {@code blockFor + 1} replicas from the start, two of them for the data. A local
 *       read at ONE on this node is not speculated.</li>
 *   <li><b>Older peers.</b> A replica whose version does not know READ_DIGEST answers that request with a
 *       failure naming the verb; it is then asked for the data, which is digested here.</li>
 *   <li><b>Failures.</b> The read fails with a ReadTimeout as soon as the replicas still out cannot meet the level
 *       (a refusal counts as an answer that never comes); remote requests carry what is left of the read timeout,
 *       so a speculated read ends within it too. A replica refusing this coordinator's stale epoch is noted on the
 *       attempt's {@link StaleWatch}.</li>
 *   <li><b>Threads.</b> Answers arrive on any thread. Slots of answers are taken by compare-and-set: whoever
 *       resolves the read owns the answers it took; an answer arriving later finds its slot taken and releases
 *       itself.</li>
 * </ul>
 */
final class SinglePartitionReads {
    private final Storage storage;
    private final Replicas remote;
    private final Supplier<Endpoint> self;
    private final long timeoutMillis;
    private final long writeTimeoutMillis;
    private final ConcurrentHashMap<TableId, ReadLatencies> latencies = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Endpoint, Responsiveness> responsiveness = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TableId, CachedPolicy> policies = new ConcurrentHashMap<>();
    private volatile Function<TableId, String> speculativeRetryOfTable = t -> null;

    SinglePartitionReads(Storage storage, Replicas remote, Supplier<Endpoint> self, long timeoutMillis,
                         long writeTimeoutMillis) {
        this.storage = storage;
        this.remote = remote;
        this.self = self;
        this.timeoutMillis = timeoutMillis;
        this.writeTimeoutMillis = writeTimeoutMillis;
    }

    void speculativeRetry(Function<TableId, String> ofTable) {
        this.speculativeRetryOfTable = Objects.requireNonNull(ofTable);
    }

    /** The coordinator read latency of a table (reads across replicas only), microseconds. */
    LatencyHistogram.Snapshot latency(TableId table) {
        ReadLatencies l = latencies.get(table);
        return l == null ? LatencyHistogram.empty() : l.snapshot();
    }

    long speculativeRetries(TableId table) {
        ReadLatencies l = latencies.get(table);
        return l == null ? 0 : l.speculativeRetries();
    }

    private ReadLatencies latencies(TableId table) {
        ReadLatencies l = latencies.get(table);
        return l != null ? l : latencies.computeIfAbsent(table, t -> new ReadLatencies(timeoutMillis));
    }

    private SpeculativeRetry policy(TableId table) {
        String text = speculativeRetryOfTable.apply(table);
        CachedPolicy cached = policies.get(table);
        if (cached == null || !Objects.equals(cached.text, text)) {
            SpeculativeRetry p;
            try {
                p = SpeculativeRetry.parse(text);
            } catch (IllegalArgumentException e) {
                p = SpeculativeRetry.DEFAULT; // the schema validated it; a value it knows and we do not: the default
            }
            cached = new CachedPolicy(text, p);
            policies.put(table, cached);
        }
        return cached.policy;
    }

    private record CachedPolicy(String text, SpeculativeRetry policy) {
    }

    // ------------------------------------------------------------------ the read

    /** Reads {@code c} (one partition) from the replicas of {@code plan} at {@code cl}. */
    CompletableFuture<ReadResult> read(ReplicaPlan plan, ReadCommand c, ConsistencyLevel cl, EventExecutor home,
                                       StaleWatch stale) {
        return read(plan, c, cl, home, stale, null);
    }

    /** As above, telling {@code trace} (a traced request's session; null: not traced) whom it reads from. */
    CompletableFuture<ReadResult> read(ReplicaPlan plan, ReadCommand c, ConsistencyLevel cl, EventExecutor home,
                                       StaleWatch stale, java.util.function.Consumer<String> trace) {
        Endpoint me = self.get();
        List<Endpoint> candidates = order(plan.counted(me), me);
        int blockFor = Math.max(1, plan.blockFor());
        if (candidates.size() < blockFor) { // liveness changed under the plan: as if they never answered
            return CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, blockFor, false));
        }
        SpeculativeRetry policy = candidates.size() > blockFor ? policy(c.table()) : SpeculativeRetry.NONE;
        if (blockFor == 1 && candidates.get(0).equals(me)) {
            policy = SpeculativeRetry.NONE; // a local read is not speculated
        }
        ReadLatencies table = latencies(c.table());
        Read r = new Read(c, cl, blockFor, candidates, table, stale, trace);
        if (policy.kind() == SpeculativeRetry.Kind.ALWAYS) {
            r.send(0, true);
            r.send(1, true);
            for (int i = 2; i <= blockFor; i++) {
                r.send(i, false);
            }
        } else {
            r.send(0, true);
            for (int i = 1; i < blockFor; i++) {
                r.send(i, false);
            }
            if (policy.kind() != SpeculativeRetry.Kind.NONE) {
                r.speculateAfter(policy.thresholdMicros(table::percentileMicros), home);
            }
        }
        return r.done;
    }

    /** This node first, then this data centre's replicas, then the others; the most responsive first in each. */
    private List<Endpoint> order(List<Endpoint> counted, Endpoint me) {
        if (counted.size() <= 1) {
            return counted;
        }
        List<Ranked> ranked = new ArrayList<>(counted.size()); // scores read once: they change under the sort
        for (Endpoint e : counted) {
            ranked.add(new Ranked(e, e.equals(me) ? 0 : e.datacenter().equals(me.datacenter()) ? 1 : 2,
                    averageMicros(e)));
        }
        ranked.sort(Comparator.comparingInt(Ranked::group).thenComparingLong(Ranked::averageMicros));
        List<Endpoint> out = new ArrayList<>(ranked.size());
        for (Ranked r : ranked) {
            out.add(r.endpoint);
        }
        return out;
    }

    private record Ranked(Endpoint endpoint, int group, long averageMicros) {
    }

    /** A node's average answer time; 0 (unknown: tried like any other) when it was last measured long ago. */
    private long averageMicros(Endpoint e) {
        Responsiveness r = responsiveness.get(e);
        return r == null || System.nanoTime() - r.updatedNanos > RESPONSIVENESS_MEMORY_NANOS ? 0 : r.averageMicros;
    }

    /**
     * How long a node's answer times are remembered: a node that was slow is asked again after this long without
     * news of it (as Cassandra's dynamic snitch resets its scores), so that a recovered node is not left aside.
     */
    static final long RESPONSIVENESS_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private void answered(Endpoint e, long nanos) {
        Responsiveness r = responsiveness.get(e);
        if (r == null) {
            r = responsiveness.computeIfAbsent(e, x -> new Responsiveness());
        }
        long micros = nanos / 1000;
        long now = System.nanoTime();
        long avg = now - r.updatedNanos > RESPONSIVENESS_MEMORY_NANOS ? 0 : r.averageMicros;
        r.averageMicros = avg == 0 ? micros : avg + (micros - avg) / 8; // racy by design: an estimate
        r.updatedNanos = now;
    }

    private static final class Responsiveness {
        volatile long averageMicros;
        volatile long updatedNanos = System.nanoTime() - RESPONSIVENESS_MEMORY_NANOS - 1;
    }

    /** One replica's answer: the data (data requests) or null, and the digest of what it read. */
    private record Answer(ReadResult data, byte[] digest) {
    }

    private static final Answer TAKEN = new Answer(null, null);

    /** The state of one read; see the class notes. */
    private final class Read {
        final ReadCommand c;
        final ConsistencyLevel cl;
        final int blockFor;
        final List<Endpoint> candidates;
        final ReadLatencies table;
        final StaleWatch stale;
        final java.util.function.Consumer<String> trace;
        final long startNanos = System.nanoTime();
        final CompletableFuture<ReadResult> done = new CompletableFuture<>();
        final AtomicReferenceArray<Answer> answers;
        final AtomicInteger contacted = new AtomicInteger();
        final AtomicInteger answeredCount = new AtomicInteger();
        final AtomicInteger dataAnswers = new AtomicInteger();
        final AtomicInteger dataRequests = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger dataFailed = new AtomicInteger();
        final java.util.concurrent.atomic.AtomicBoolean decided = new java.util.concurrent.atomic.AtomicBoolean();

        Read(ReadCommand c, ConsistencyLevel cl, int blockFor, List<Endpoint> candidates, ReadLatencies table,
             StaleWatch stale, java.util.function.Consumer<String> trace) {
            this.trace = trace;
            this.c = c;
            this.cl = cl;
            this.blockFor = blockFor;
            this.candidates = candidates;
            this.table = table;
            this.stale = stale;
            this.answers = new AtomicReferenceArray<>(candidates.size());
        }

        void send(int i, boolean data) {
            Endpoint e = candidates.get(i);
            contacted.incrementAndGet();
            if (data) {
                dataRequests.incrementAndGet();
            }
            long sentNanos = System.nanoTime();
            CompletableFuture<Answer> answer;
            if (e.equals(self.get())) {
                if (trace != null) {
                    trace.accept("reading " + (data ? "data" : "digest") + " from this node");
                }
                answer = storage.read(c, trace).thenApply(r -> data ? new Answer(r, null)
                        : new Answer(null, digestOf(r)));
            } else {
                if (trace != null) {
                    trace.accept("reading " + (data ? "data" : "digest") + " from " + Coordinator.traceName(e));
                }
                long left = Math.max(1, timeoutMillis - TimeUnit.NANOSECONDS.toMillis(sentNanos - startNanos));
                answer = data ? StaleWatch.watch(stale, Coordinator.traced(trace, "READ", e, remote.read(e, c, left)))
                        .thenApply(r -> new Answer(r, null))
                        : StaleWatch.watch(stale, Coordinator.traced(trace, "READ", e, remote.digest(e, c, left)))
                        .exceptionallyCompose(t -> !lacksDigests(t)
                                ? CompletableFuture.failedFuture(t)
                                // a node of a version without READ_DIGEST: its data, digested here
                                : StaleWatch.watch(stale, remote.read(e, c, left)).thenApply(Read::digestOf))
                        .thenApply(d -> new Answer(null, d));
                answer.whenComplete((a, t) -> answered(e, t == null ? System.nanoTime() - sentNanos
                        : TimeUnit.MILLISECONDS.toNanos(timeoutMillis)));
            }
            answer.whenComplete((a, t) -> {
                if (t != null) {
                    onFailure(data);
                } else {
                    onAnswer(i, a);
                }
            });
        }

        private static byte[] digestOf(ReadResult r) {
            byte[] d = ReadDigest.of(r);
            r.release();
            return d;
        }

        void onAnswer(int i, Answer a) {
            if (!answers.compareAndSet(i, null, a)) {
                release(a); // resolved or failed already
                return;
            }
            if (a.data != null) {
                dataAnswers.incrementAndGet();
            }
            answeredCount.incrementAndGet();
            if (answeredCount.get() >= blockFor && dataAnswers.get() > 0 && decided.compareAndSet(false, true)) {
                resolve();
            }
        }

        void onFailure(boolean data) {
            failed.incrementAndGet();
            if (data) {
                dataFailed.incrementAndGet();
            }
            int outstanding = contacted.get() - answeredCount.get() - failed.get();
            boolean noData = dataAnswers.get() == 0 && dataRequests.get() == dataFailed.get();
            if ((answeredCount.get() + outstanding < blockFor || noData) && decided.compareAndSet(false, true)) {
                List<Answer> taken = takeAll();
                boolean dataPresent = false;
                for (Answer x : taken) {
                    dataPresent |= x.data != null;
                    release(x);
                }
                done.completeExceptionally(new ReadTimeoutException(cl, taken.size(), blockFor, dataPresent));
            }
        }

        private List<Answer> takeAll() {
            List<Answer> out = new ArrayList<>(answers.length());
            for (int i = 0; i < answers.length(); i++) {
                Answer a = answers.getAndSet(i, TAKEN);
                if (a != null && a != TAKEN) {
                    out.add(a);
                }
            }
            return out;
        }

        /** At least {@code blockFor} answers, one with data: compare digests, repair on a mismatch. */
        private void resolve() {
            List<Endpoint> from = new ArrayList<>();
            List<Answer> got = new ArrayList<>();
            for (int i = 0; i < answers.length(); i++) {
                Answer a = answers.getAndSet(i, TAKEN);
                if (a != null && a != TAKEN) {
                    from.add(candidates.get(i));
                    got.add(a);
                }
            }
            ReadResult data = null;
            byte[] expected = null;
            boolean same = true;
            for (Answer a : got) {
                byte[] d = a.digest != null ? a.digest : ReadDigest.of(a.data);
                if (data == null && a.data != null) {
                    data = a.data;
                }
                if (expected == null) {
                    expected = d;
                } else if (!Arrays.equals(expected, d)) {
                    same = false;
                }
            }
            if (same) {
                for (Answer a : got) {
                    if (a.data != data) {
                        release(a);
                    }
                }
                table.recordNanos(System.nanoTime() - startNanos);
                done.complete(data);
                return;
            }
            got.forEach(SinglePartitionReads::release);
            repairAndRead(from, c, cl, stale).whenComplete((r, t) -> {
                if (t != null) {
                    done.completeExceptionally(t instanceof CompletionException && t.getCause() != null
                            ? t.getCause() : t);
                } else {
                    table.recordNanos(System.nanoTime() - startNanos);
                    done.complete(r);
                }
            });
        }

        /** Asks one spare replica if the level is not met once {@code micros} passed. */
        void speculateAfter(long micros, EventExecutor home) {
            if (micros == Long.MAX_VALUE || micros >= TimeUnit.MILLISECONDS.toMicros(timeoutMillis)) {
                return; // it would come after the read timed out anyway
            }
            Runnable task = () -> {
                if (done.isDone() || (answeredCount.get() >= blockFor && dataAnswers.get() > 0)) {
                    return;
                }
                int next = contacted.get();
                if (next >= candidates.size()) {
                    return;
                }
                table.speculated();
                send(next, dataAnswers.get() == 0);
            };
            if (home != null) {
                try {
                    var timer = home.schedule(task, micros, TimeUnit.MICROSECONDS);
                    done.whenComplete((v, t) -> timer.cancel(false));
                    return;
                } catch (RejectedExecutionException e) {
                    // the home loop is shutting down: fall through to the common scheduler
                }
            }
            CompletableFuture.delayedExecutor(micros, TimeUnit.MICROSECONDS).execute(task);
        }
    }

    /** Whether a digest request failed because the replica runs a version that does not know READ_DIGEST. */
    static boolean lacksDigests(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        if (!(cause instanceof io.charybdis.cluster.messaging.MessagingException me)
                || me.reason() != io.charybdis.cluster.messaging.MessagingException.Reason.REMOTE_FAILURE
                || me.getMessage() == null) {
            return false;
        }
        String m = me.getMessage();
        return m.endsWith("no handler for verb=" + io.charybdis.cluster.messaging.Verb.READ_DIGEST)
                || m.endsWith("no handler for verb=" + io.charybdis.cluster.messaging.Verb.READ_DIGEST.code());
    }

    private static void release(Answer a) {
        if (a.data != null) {
            a.data.release();
        }
    }

    // ------------------------------------------------------------------ reconciliation

    /**
     * Blocking read repair among {@code asked}: each one's whole partition, unfiltered, is fetched; when they differ,
     * their reconciliation (every cell with its timestamp: last write wins) is written back to those that differ
     * before the read is served from the first of them. Whatever any of them had acknowledged is in the answer.
     */
    CompletableFuture<ReadResult> repairAndRead(List<Endpoint> asked, ReadCommand c, ConsistencyLevel cl,
                                                StaleWatch stale) {
        Endpoint me = self.get();
        int blockFor = asked.size();
        List<CompletableFuture<Mutation>> raws = new ArrayList<>(asked.size());
        for (Endpoint e : asked) {
            raws.add(e.equals(me) ? storage.readRawPartition(c.table(), c.token(), c.key())
                    : StaleWatch.watch(stale, remote.readRaw(e, c.table(), c.token(), c.key(), timeoutMillis)));
        }
        return CompletableFuture.allOf(raws.toArray(CompletableFuture[]::new)).handle((v, t) -> {
            if (t != null) {
                int answered = (int) raws.stream().filter(f -> !f.isCompletedExceptionally()).count();
                throw new CompletionException(new ReadTimeoutException(cl, answered, blockFor, false));
            }
            return raws.stream().map(CompletableFuture::join).toList();
        }).thenCompose(parts -> {
            List<Mutation> present = parts.stream().filter(Objects::nonNull).toList();
            boolean same = present.isEmpty() || (present.size() == parts.size() && present.stream().allMatch(m ->
                    m.asByteBuffer().equals(present.get(0).asByteBuffer())));
            Endpoint target = asked.get(0);
            if (same) {
                return readFrom(target, c, cl, stale);
            }
            Mutation merged = Mutation.merge(present);
            List<CompletableFuture<Void>> repairs = new ArrayList<>();
            for (int i = 0; i < asked.size(); i++) {
                Mutation had = parts.get(i);
                if (had != null && had.asByteBuffer().equals(merged.asByteBuffer())) {
                    continue;
                }
                Endpoint e = asked.get(i);
                repairs.add(e.equals(me) ? storage.apply(merged)
                        : StaleWatch.watch(stale, remote.apply(e, merged, writeTimeoutMillis)));
            }
            return CompletableFuture.allOf(repairs.toArray(CompletableFuture[]::new))
                    .exceptionallyCompose(x -> CompletableFuture.failedFuture(
                            new ReadTimeoutException(cl, blockFor - 1, blockFor, true)))
                    .thenCompose(x -> readFrom(target, c, cl, stale));
        });
    }

    /** Reads {@code c} from one replica; a remote failure is a ReadTimeout. */
    CompletableFuture<ReadResult> readFrom(Endpoint replica, ReadCommand c, ConsistencyLevel cl, StaleWatch stale) {
        if (replica.equals(self.get())) {
            return storage.read(c);
        }
        return StaleWatch.watch(stale, remote.read(replica, c, timeoutMillis)).exceptionallyCompose(t ->
                CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, 1, false)));
    }
}
