package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.paxos.Ballot;
import io.charybdis.cluster.paxos.PaxosMessages;
import io.charybdis.cluster.paxos.PaxosReplica;
import io.charybdis.storage.CasResult;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The proposer side of Paxos for lightweight transactions whose replicas are on several nodes: prepare (with the
 * read), propose, commit — Cassandra 4.1's Paxos v2 takes the same round trips uncontended.
 *
 * <ol>
 *   <li>Prepare a new ballot on the live replicas until a quorum ({@code blockFor} of the serial level) promised;
 *       each replica that promises reads the partition right after and sends it with its promise. A
 *       replica that promised a later ballot means contention: wait a little and start again above it.</li>
 *   <li>If the quorum's members report the same latest commit, none has accepted a newer proposal, and their reads
 *       are equal, that read is the partition's current state: no proposal can have been committed that it lacks
 *       (a quorum accepting it would include one of ours, which would report it), so the statement decides on it at
 *       once — a SERIAL read takes one round trip, a transaction two and its commit. Otherwise, as classic Paxos:</li>
 *   <li>If a quorum member accepted a proposal newer than every commit the quorum reports, a proposer stopped
 *       between accept and commit: propose that update again under our ballot, commit it, and start again. Members
 *       that miss the latest commit get it before the read.</li>
 *   <li>Read the partition at the serial level's quorum (with read repair), let the statement decide, propose its
 *       update (stamped with the ballot's time) and, once a quorum accepted, commit it at the statement's
 *       consistency level.</li>
 * </ol>
 * Contention is retried until {@code cas_contention_timeout}, then answered as Cassandra does: a WriteTimeout of
 * write type CAS at the serial level. Nothing here blocks a thread: retries are scheduled.
 */
final class Paxos {
    static final long DEFAULT_CONTENTION_TIMEOUT_MILLIS = 1000; // Cassandra's cas_contention_timeout

    private final PaxosReplica local;
    private final PaxosMessages remote;
    private final long timeoutMillis;
    private final long contentionTimeoutMillis;

    Paxos(PaxosReplica local, PaxosMessages remote, long timeoutMillis, long contentionTimeoutMillis) {
        this.local = local;
        this.remote = remote;
        this.timeoutMillis = timeoutMillis;
        this.contentionTimeoutMillis = contentionTimeoutMillis;
    }

    /**
     * The partition a transaction is on, with the plans it uses; {@code stale} (null: none) notes replicas refusing
     * this coordinator's stale epoch, and is closed once the round proposes its own update (a retry could then
     * apply it twice).
     */
    record Round(Endpoint self, TableId table, long token, byte[] key, ReplicaPlan plan, Supplier<ReplicaPlan> commitPlan,
                 ConsistencyLevel serial, Function<ReadCommand, CompletableFuture<ReadResult>> quorumRead,
                 StaleWatch stale) {
    }

    /**
     * Runs one transaction: reads {@code current} and commits what {@code decide} makes of it (given the ballot's
     * time as the write timestamp); null from {@code decide} is a condition that did not hold (nothing proposed).
     * With a null {@code decide} it is a SERIAL read: in-progress proposals are finished before reading.
     */
    CompletableFuture<CasResult> run(Round round, ReadCommand current, BiFunction<ReadResult, Long, Mutation> decide) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(contentionTimeoutMillis);
        return attempt(round, current, decide, Long.MIN_VALUE, deadline);
    }

    private CompletableFuture<CasResult> attempt(Round r, ReadCommand current, BiFunction<ReadResult, Long, Mutation> decide,
                                                 long atLeast, long deadline) {
        Ballot ballot = Ballot.next(atLeast);
        return prepare(r, ballot, current).thenCompose(promises -> {
            ReadResult agreed = agreedRead(r, promises); // the reads of every other answer are released
            if (agreed != null) {
                return decideAndPropose(r, current, decide, ballot, deadline, agreed);
            }
            Ballot highestPromised = Ballot.NONE;
            boolean rejected = false;
            for (PaxosReplica.Promise p : promises.answers) {
                if (!p.promised()) {
                    rejected = true;
                }
                if (p.state().promised().after(highestPromised)) {
                    highestPromised = p.state().promised();
                }
            }
            if (rejected) {
                return retry(r, current, decide, Math.max(ballot.micros(), highestPromised.micros()) + 1, deadline,
                        promises.granted);
            }
            if (promises.granted < r.plan.blockFor()) { // replicas that did not answer in time
                return CompletableFuture.failedFuture(new WriteTimeoutException(r.serial, promises.granted,
                        r.plan.blockFor(), WriteTimeoutException.WriteType.CAS));
            }
            // the latest commit any member reports, and the newest accepted proposal after it
            PaxosReplica.State latestCommit = null;
            PaxosReplica.State inProgress = null;
            for (PaxosReplica.Promise p : promises.answers) {
                PaxosReplica.State s = p.state();
                if (!s.committed().isNone() && (latestCommit == null || s.committed().after(latestCommit.committed()))) {
                    latestCommit = s;
                }
            }
            Ballot committed = latestCommit == null ? Ballot.NONE : latestCommit.committed();
            for (PaxosReplica.Promise p : promises.answers) {
                PaxosReplica.State s = p.state();
                if (s.accepted().after(committed) && s.acceptedUpdate() != null
                        && (inProgress == null || s.accepted().after(inProgress.accepted()))) {
                    inProgress = s;
                }
            }
            if (inProgress != null) {
                Mutation update = inProgress.acceptedUpdate();
                return propose(r, ballot, update).thenCompose(votes -> {
                    if (votes.accepted < r.plan.blockFor()) { // someone else's update: trying again is harmless
                        return retry(r, current, decide, ballot.micros() + 1, deadline, votes.accepted);
                    }
                    return commit(r, ballot, update).thenCompose(v ->
                            attempt(r, current, decide, ballot.micros() + 1, deadline));
                });
            }
            CompletableFuture<Void> caughtUp = CompletableFuture.completedFuture(null);
            if (latestCommit != null && latestCommit.committedUpdate() != null) {
                List<CompletableFuture<Void>> repairs = new ArrayList<>();
                for (int i = 0; i < promises.answers.size(); i++) {
                    if (committed.after(promises.answers.get(i).state().committed())) {
                        repairs.add(commitOn(promises.from.get(i), r, committed, latestCommit.committedUpdate()));
                    }
                }
                caughtUp = CompletableFuture.allOf(repairs.toArray(CompletableFuture[]::new));
            }
            return caughtUp.exceptionallyCompose(t -> CompletableFuture.failedFuture(
                            new WriteTimeoutException(r.serial, 0, r.plan.blockFor(), WriteTimeoutException.WriteType.CAS)))
                    .thenCompose(v -> r.quorumRead.apply(current))
                    .thenCompose(read -> decideAndPropose(r, current, decide, ballot, deadline, read));
        });
    }

    /** Lets the statement decide on {@code read}, proposes its update under {@code ballot} and commits it. */
    private CompletableFuture<CasResult> decideAndPropose(Round r, ReadCommand current,
                                                          BiFunction<ReadResult, Long, Mutation> decide, Ballot ballot,
                                                          long deadline, ReadResult read) {
        if (decide == null) {
            return CompletableFuture.completedFuture(new CasResult(read, false));
        }
        Mutation update = decide.apply(read, ballot.micros());
        if (update == null) {
            return CompletableFuture.completedFuture(new CasResult(read, false));
        }
        if (r.stale != null) {
            r.stale.noRetry(); // our own update is about to be proposed: retrying could apply it twice
        }
        return propose(r, ballot, update).thenCompose(votes -> {
            if (votes.accepted < r.plan.blockFor()) {
                read.release();
                return notAccepted(r, current, decide, ballot, deadline, votes);
            }
            return commit(r, ballot, update).thenApply(v -> new CasResult(read, true));
        });
    }

    /**
     * The read the promises agree on, when they make it the partition's current state: a quorum promised, every
     * answer promised and carries a read, all report the same latest commit and no accepted proposal newer than it,
     * and their reads are equal. Null otherwise (the classic path: finish or repair, then read at the quorum). Every
     * read but the one returned (this node's when it answered) is released.
     */
    private static ReadResult agreedRead(Round r, Promises promises) {
        List<PaxosReplica.Promise> answers = promises.answers;
        boolean agree = promises.granted >= r.plan.blockFor() && !answers.isEmpty();
        Ballot committed = agree ? answers.get(0).state().committed() : null;
        int keep = 0;
        for (int i = 0; agree && i < answers.size(); i++) {
            PaxosReplica.Promise p = answers.get(i);
            PaxosReplica.State s = p.state();
            agree = p.promised() && p.read() != null && s.committed().equals(committed)
                    && !s.accepted().after(committed) && sameRows(p.read(), answers.get(0).read());
            if (promises.from.get(i).equals(r.self)) {
                keep = i;
            }
        }
        ReadResult kept = agree ? answers.get(keep).read() : null;
        for (PaxosReplica.Promise p : answers) {
            if (p.read() != kept) {
                p.releaseRead();
            }
        }
        return kept;
    }

    private static boolean sameRows(ReadResult a, ReadResult b) {
        return a.limitReached() == b.limitReached() && a.serializedSize() == b.serializedSize()
                && java.util.Arrays.equals(a.cursor().array(), 0, a.serializedSize(), b.cursor().array(), 0,
                b.serializedSize());
    }

    /**
     * Our proposal, which a quorum did not accept. Only when every replica refused it is it certainly not applied, and
     * worth trying again (contention); once any replica accepted it, a later proposer may still find and finish it,
     * so its outcome is unknown: a WriteTimeout of type CAS, as Cassandra answers (retrying could apply it twice).
     */
    private CompletableFuture<CasResult> notAccepted(Round r, ReadCommand current,
                                                     BiFunction<ReadResult, Long, Mutation> decide, Ballot ballot,
                                                     long deadline, Votes votes) {
        if (votes.accepted == 0 && votes.failed == 0) {
            return retry(r, current, decide, ballot.micros() + 1, deadline, votes.accepted);
        }
        return CompletableFuture.failedFuture(new WriteTimeoutException(r.serial, votes.accepted, r.plan.blockFor(),
                WriteTimeoutException.WriteType.CAS));
    }

    private CompletableFuture<CasResult> retry(Round r, ReadCommand current, BiFunction<ReadResult, Long, Mutation> decide,
                                               long atLeast, long deadline, int answered) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return CompletableFuture.failedFuture(new WriteTimeoutException(r.serial, answered, r.plan.blockFor(),
                    WriteTimeoutException.WriteType.CAS));
        }
        long sleepMillis = Math.min(TimeUnit.NANOSECONDS.toMillis(left), ThreadLocalRandom.current().nextLong(1, 50));
        return CompletableFuture.supplyAsync(() -> null,
                        CompletableFuture.delayedExecutor(sleepMillis, TimeUnit.MILLISECONDS))
                .thenCompose(v -> attempt(r, current, decide, atLeast, deadline));
    }

    // ------------------------------------------------------------------ the three phases

    private static final class Promises {
        final List<PaxosReplica.Promise> answers = new ArrayList<>();
        final List<Endpoint> from = new ArrayList<>();
        int granted;
    }

    /**
     * Asks every live replica to promise; completes once {@code blockFor} promised, once a quorum can no longer
     * promise, or once one refused (contention: no point waiting for the rest). Timeouts and failures count as
     * replicas that did not promise.
     */
    private CompletableFuture<Promises> prepare(Round r, Ballot ballot, ReadCommand current) {
        List<Endpoint> live = r.plan.counted(r.self); // LOCAL_SERIAL: this data centre's replicas
        CompletableFuture<Promises> done = new CompletableFuture<>();
        Promises promises = new Promises();
        int[] failed = {0};
        for (Endpoint e : live) {
            CompletableFuture<PaxosReplica.Promise> f = e.equals(r.self)
                    ? local.prepareAndRead(r.table, r.token, r.key, ballot, current)
                    : StaleWatch.watch(r.stale, remote.prepare(e, r.table, r.token, r.key, ballot, current,
                    timeoutMillis));
            f.whenComplete((p, t) -> {
                synchronized (promises) {
                    if (done.isDone()) {
                        if (p != null) {
                            p.releaseRead(); // a late answer: not looked at
                        }
                        return;
                    }
                    if (t != null) {
                        failed[0]++;
                    } else {
                        promises.answers.add(p);
                        promises.from.add(e);
                        if (p.promised()) {
                            promises.granted++;
                        }
                    }
                    boolean refused = t == null && !p.promised();
                    if (promises.granted >= r.plan.blockFor() || refused
                            || live.size() - failed[0] < r.plan.blockFor()
                            || promises.answers.size() + failed[0] == live.size()) {
                        done.complete(promises);
                    }
                }
            });
        }
        return done;
    }

    private static final class Votes {
        int accepted;
        int refused;
        int failed;
    }

    /** Completes with the replicas' votes once {@code blockFor} accepted, or once every live replica answered. */
    private CompletableFuture<Votes> propose(Round r, Ballot ballot, Mutation update) {
        List<Endpoint> live = r.plan.counted(r.self);
        CompletableFuture<Votes> done = new CompletableFuture<>();
        Votes votes = new Votes();
        for (Endpoint e : live) {
            CompletableFuture<Boolean> f = e.equals(r.self) ? local.propose(r.table, r.token, r.key, ballot, update)
                    : StaleWatch.watch(r.stale, remote.propose(e, r.table, r.token, r.key, ballot, update, timeoutMillis));
            f.whenComplete((ok, t) -> {
                synchronized (votes) {
                    if (t != null) {
                        votes.failed++;
                    } else if (ok) {
                        votes.accepted++;
                    } else {
                        votes.refused++;
                    }
                    if (votes.accepted >= r.plan.blockFor()
                            || votes.accepted + votes.refused + votes.failed == live.size()) {
                        done.complete(votes);
                    }
                }
            });
        }
        return done;
    }

    /** Commits on every replica of the commit plan; completes when its consistency level is met. */
    private CompletableFuture<Void> commit(Round r, Ballot ballot, Mutation update) {
        ReplicaPlan plan;
        try {
            plan = r.commitPlan.get();
        } catch (UnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (plan.consistency() == ConsistencyLevel.ANY) {
            for (Endpoint e : plan.live()) {
                commitOn(e, r, ballot, update);
            }
            return CompletableFuture.completedFuture(null);
        }
        int counted = plan.countedSize(r.self);
        WriteTracker tracker = new WriteTracker(counted, Math.min(plan.blockFor(), counted), plan.consistency(),
                WriteTimeoutException.WriteType.SIMPLE);
        for (Endpoint e : plan.live()) {
            tracker.track(commitOn(e, r, ballot, update), plan.counts(e, r.self));
        }
        return tracker.future();
    }

    private CompletableFuture<Void> commitOn(Endpoint e, Round r, Ballot ballot, Mutation update) {
        return e.equals(r.self) ? local.commit(r.table, r.token, r.key, ballot, update)
                : StaleWatch.watch(r.stale, remote.commit(e, r.table, r.token, r.key, ballot, update, timeoutMillis));
    }
}
