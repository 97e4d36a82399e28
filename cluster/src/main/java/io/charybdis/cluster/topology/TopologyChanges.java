package io.charybdis.cluster.topology;

import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.messaging.MessagingService;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.cluster.metadata.MetadataService;
import io.charybdis.cluster.metadata.MetadataState;
import io.charybdis.cluster.metadata.NodeRecord;
import io.charybdis.cluster.repair.Repair;
import io.charybdis.cluster.streaming.RangePlanner;
import io.charybdis.cluster.streaming.Streaming;
import io.charybdis.cluster.streaming.TokenRange;
import io.charybdis.storage.TableId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topology changes of a running cluster, each a short plan of metadata epochs with streaming in between:
 * <ul>
 *   <li><b>bootstrap</b> (a new node, auto_bootstrap): JOINING is committed with the node's join, then — once every
 *       member has applied that epoch and writes planned before it have finished — the node fetches every range it
 *       will replicate from the current replicas, and commits NORMAL. Meanwhile coordinators send it the writes of
 *       those ranges (pending ranges) and keep reading from the old owners.</li>
 *   <li><b>decommission / removenode</b>: LEAVING is committed; once every member has applied it, each node that
 *       gains a range fetches it from the current replicas that are alive (the leaving node itself when it is up),
 *       then the member is removed from the log (LEFT). A decommissioned node then stops.</li>
 * </ul>
 *
 * <p>Implementation notes: the progress barrier asks every other member for the metadata epoch it has applied
 * (METADATA_EPOCH) until all have reached the change's epoch (Cassandra's TCM does the same; its gossip-era
 * bootstrap waited {@code ring_delay} instead), then waits one write timeout more so that writes planned on the
 * old ring have completed. Members that do not answer within the barrier's time are taken as down. Runs on the
 * caller's thread (JMX, startup), never on a shard.
 */
public final class TopologyChanges {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyChanges.class);
    private static final long BARRIER_TIMEOUT_MILLIS = 60_000;
    private static final long STREAM_TIMEOUT_MILLIS = 1_800_000;

    /** A table as streaming and repair see it: its id, names and its keyspace's replication. */
    public record Table(TableId id, String keyspace, String name, Map<String, String> replication) {
    }

    private final MessagingService messaging;
    private final Streaming streaming;
    private final Repair repair;
    private final Supplier<List<Table>> tables;
    private final UUID self;
    private final long settleMillis;
    private volatile MetadataService metadata;
    private volatile Liveness liveness = Liveness.ALL_ALIVE;
    private volatile String mode = "STARTING";
    private volatile boolean failed;

    private TopologyChanges(MessagingService messaging, Streaming streaming, Repair repair, Supplier<List<Table>> tables,
                            UUID self, long settleMillis) {
        this.messaging = messaging;
        this.streaming = streaming;
        this.repair = repair;
        this.tables = tables;
        this.self = self;
        this.settleMillis = settleMillis;
    }

    /** Serves METADATA_EPOCH; before messaging starts. The metadata member is attached once it runs. */
    public static TopologyChanges serve(MessagingService messaging, Streaming streaming, Repair repair,
                                        Supplier<List<Table>> tables, UUID self, long settleMillis) {
        TopologyChanges t = new TopologyChanges(messaging, streaming, repair, tables, self, settleMillis);
        messaging.handle(Verb.METADATA_EPOCH, (payload, shard, epoch, sender) -> {
            MetadataService m = t.metadata;
            return CompletableFuture.completedFuture(Unpooled.buffer(8).writeLong(m == null ? 0 : m.state().epoch()));
        });
        return t;
    }

    public void attach(MetadataService metadata, Liveness liveness) {
        this.metadata = metadata;
        this.liveness = liveness == null ? Liveness.ALL_ALIVE : liveness;
    }

    public Streaming streaming() {
        return streaming;
    }

    /** What nodetool netstats calls the mode: STARTING, JOINING, NORMAL, LEAVING, DECOMMISSIONED. */
    public String mode() {
        return mode;
    }

    public void mode(String m) {
        mode = m;
    }

    // ------------------------------------------------------------------ bootstrap

    /** Streams this JOINING node's ranges from their current replicas, then makes it NORMAL. */
    public void bootstrap() {
        mode = "JOINING";
        MetadataState state = metadata.state();
        barrier(state.epoch());
        state = metadata.state();
        NodeRecord me = state.members().get(self);
        TokenRing before = state.ring();
        TokenRing after = state.pendingRing();
        if (me == null || me.status() != NodeRecord.Status.JOINING) {
            throw new IllegalStateException("this node is not JOINING the cluster: " + me);
        }
        long streamed = 0;
        if (before != null && after != null) {
            for (Table t : tables.get()) {
                ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
                if (strategy instanceof ReplicationStrategy.Local) {
                    continue;
                }
                Map<List<Endpoint>, List<TokenRange>> bySources = new LinkedHashMap<>();
                for (RangePlanner.Transfer tr : RangePlanner.transfers(before, after, strategy, me.endpoint())) {
                    if (tr.target().hostId().equals(self)) {
                        bySources.computeIfAbsent(liveOnly(tr.sources()), k -> new ArrayList<>()).add(tr.range());
                    }
                }
                for (var e : bySources.entrySet()) {
                    streamed += join(streaming.fetch(t.id(), e.getValue(), e.getKey(), "Bootstrap"),
                            STREAM_TIMEOUT_MILLIS);
                }
            }
        }
        LOG.info("bootstrap streamed {} partitions; this node is now NORMAL", streamed);
        metadata.setStatus(self, NodeRecord.Status.NORMAL);
        mode = "NORMAL";
    }

    // ------------------------------------------------------------------ decommission, removenode

    /**
     * Makes {@code leaving} leave the ring: LEAVING, its ranges fetched by the nodes that gain them (from every live
     * replica), then removed. For a decommission {@code leaving} is this node; for removenode a dead node.
     */
    public void leave(UUID leaving, boolean force) {
        MetadataState state = metadata.state();
        NodeRecord r = state.members().get(leaving);
        if (r == null) {
            throw new IllegalArgumentException("Host ID not found: " + leaving);
        }
        for (NodeRecord m : state.members().values()) {
            if (!m.hostId().equals(leaving) && m.status() != NodeRecord.Status.NORMAL) {
                throw new IllegalStateException("Other bootstrapping/leaving nodes detected, cannot remove "
                        + r.endpoint() + " while " + m.endpoint() + " is " + m.status());
            }
        }
        long remaining = state.members().values().stream()
                .filter(m -> !m.hostId().equals(leaving) && m.status() == NodeRecord.Status.NORMAL).count();
        if (!force) {
            for (Table t : tables.get()) {
                ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
                if (!(strategy instanceof ReplicationStrategy.Local) && strategy.replicationFactor() > remaining) {
                    throw new IllegalStateException("Not enough live nodes to maintain replication factor in keyspace "
                            + t.keyspace() + " (RF = " + strategy.replicationFactor() + ", N = " + (remaining + 1)
                            + "). Perform a forceful decommission to ignore.");
                }
            }
        }
        if (leaving.equals(self)) {
            mode = "LEAVING";
        }
        if (r.status() != NodeRecord.Status.LEAVING) {
            metadata.setStatus(leaving, NodeRecord.Status.LEAVING);
        }
        try {
            streamAway(leaving, r);
        } catch (RuntimeException | Error e) {
            // the ranges did not all reach their next replicas: the member stays, NORMAL again, and the operator
            // can try again (Cassandra's "decommission failed")
            LOG.error("{} could not leave: {}; it is NORMAL again", r.endpoint(), e.toString());
            failed = true;
            metadata.setStatus(leaving, NodeRecord.Status.NORMAL);
            if (leaving.equals(self)) {
                mode = "NORMAL";
            }
            throw e;
        }
        metadata.leave(leaving);
        if (leaving.equals(self)) {
            mode = "DECOMMISSIONED";
        }
    }

    /** Whether the last decommission or removenode run from here failed. */
    public boolean leaveFailed() {
        return failed;
    }

    private void streamAway(UUID leaving, NodeRecord r) {
        failed = false;
        MetadataState state = metadata.state();
        barrier(state.epoch());
        state = metadata.state();
        TokenRing before = state.ring();
        TokenRing after = state.pendingRing();
        long streamed = 0;
        if (before != null && after != null) {
            for (Table t : tables.get()) {
                ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
                if (strategy instanceof ReplicationStrategy.Local) {
                    continue;
                }
                Map<Endpoint, Map<List<Endpoint>, List<TokenRange>>> plan = new LinkedHashMap<>();
                for (RangePlanner.Transfer tr : RangePlanner.transfers(before, after, strategy, r.endpoint())) {
                    plan.computeIfAbsent(tr.target(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(liveOnly(tr.sources()), k -> new ArrayList<>()).add(tr.range());
                }
                List<CompletableFuture<Long>> fs = new ArrayList<>();
                for (var target : plan.entrySet()) {
                    for (var e : target.getValue().entrySet()) {
                        fs.add(streaming.requestFetch(target.getKey(), t.id(), e.getValue(), e.getKey(),
                                STREAM_TIMEOUT_MILLIS, leaving.equals(self) ? "Unbootstrap" : "Restore replica count"));
                    }
                }
                for (CompletableFuture<Long> f : fs) {
                    streamed += join(f, STREAM_TIMEOUT_MILLIS);
                }
            }
        }
        LOG.info("{} leaves the ring: its ranges streamed to their new replicas ({} partitions)", r.endpoint(), streamed);
    }

    // ------------------------------------------------------------------ cleanup

    /**
     * Drops, from this node's storage, the partitions of ranges it does not replicate (nor is about to: pending
     * ranges are kept) — what a bootstrap left behind on the nodes that lost ranges.
     */
    public void cleanup(List<Table> toClean, io.charybdis.storage.Storage storage) {
        MetadataState state = metadata.state();
        NodeRecord me = state.members().get(self);
        TokenRing ring = state.ring();
        if (ring == null || me == null) {
            throw new IllegalStateException("this node is not in the ring");
        }
        TokenRing pending = state.pendingRing();
        for (Table t : toClean) {
            ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
            if (strategy instanceof ReplicationStrategy.Local) {
                continue;
            }
            List<TokenRange> owned = new ArrayList<>(RangePlanner.rangesOf(me.endpoint(), ring, strategy).keySet());
            if (pending != null && pending.endpoints().contains(me.endpoint())) {
                owned.addAll(RangePlanner.rangesOf(me.endpoint(), pending, strategy).keySet());
            }
            java.util.function.LongPredicate keep = token -> {
                for (TokenRange r : owned) {
                    if (r.contains(token)) {
                        return true;
                    }
                }
                return false;
            };
            join(storage.cleanup(t.id(), keep), STREAM_TIMEOUT_MILLIS);
        }
    }

    // ------------------------------------------------------------------ repair

    /**
     * Full repair of the given tables over the ranges this node replicates ({@code primaryOnly}: those it is the
     * first replica of); {@code log} hears each step. Throws when a replica is down or does not answer.
     */
    public void repair(List<Table> toRepair, boolean primaryOnly, Consumer<String> log) {
        MetadataState state = metadata.state();
        TokenRing ring = state.ring();
        NodeRecord me = state.members().get(self);
        if (ring == null || me == null) {
            throw new IllegalStateException("this node is not in the ring");
        }
        for (Table t : toRepair) {
            ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
            Map<TokenRange, List<Endpoint>> ranges = RangePlanner.rangesOf(me.endpoint(), ring, strategy);
            for (var e : ranges.entrySet()) {
                List<Endpoint> replicas = e.getValue();
                if (primaryOnly && !replicas.get(0).hostId().equals(self)) {
                    continue;
                }
                for (Endpoint r : replicas) {
                    if (!liveness.isAlive(r)) {
                        throw new IllegalStateException("Endpoint not alive: " + r.address().getHostAddress());
                    }
                }
                Repair.Outcome o = join(repair.repair(t.id(), e.getKey(), replicas, log), STREAM_TIMEOUT_MILLIS);
                if (o.differingRanges() == 0) {
                    log.accept("Endpoints " + endpoints(replicas) + " are consistent for " + t.name() + " on "
                            + e.getKey());
                } else {
                    log.accept("Repaired " + o.differingRanges() + " differing range(s) of " + t.name() + " on "
                            + e.getKey() + ": " + o.partitionsStreamed() + " partitions streamed");
                }
            }
        }
    }

    /**
     * nodetool rebuild: streams every range this node replicates of {@code tables} from the other live replicas of
     * it — only those in {@code sourceDc} when given, none of this node's data centre when {@code excludeLocalDc} —
     * as when a data centre is added. A range this node alone replicates is skipped; one that has other replicas
     * but none eligible and alive fails the rebuild, as Cassandra's does. Returns the partitions streamed.
     */
    public long rebuild(List<Table> tables, String sourceDc, boolean excludeLocalDc, Consumer<String> log) {
        MetadataState state = metadata.state();
        TokenRing ring = state.ring();
        NodeRecord me = state.members().get(self);
        if (ring == null || me == null) {
            throw new IllegalStateException("this node is not in the ring");
        }
        if (sourceDc != null) {
            java.util.Set<String> dcs = new java.util.TreeSet<>();
            state.members().values().forEach(m -> dcs.add(m.datacenter()));
            if (!dcs.contains(sourceDc)) {
                throw new IllegalArgumentException("Provided datacenter '" + sourceDc + "' is not a valid datacenter, "
                        + "available datacenters are: " + String.join(",", dcs));
            }
        }
        long streamed = 0;
        for (Table t : tables) {
            ReplicationStrategy strategy = ReplicationStrategy.of(t.replication());
            if (strategy instanceof ReplicationStrategy.Local) {
                continue;
            }
            Map<List<Endpoint>, List<TokenRange>> bySources = new LinkedHashMap<>();
            for (var e : RangePlanner.rangesOf(me.endpoint(), ring, strategy).entrySet()) {
                List<Endpoint> sources = new ArrayList<>();
                for (Endpoint r : e.getValue()) {
                    boolean eligible = !r.hostId().equals(self) && liveness.isAlive(r)
                            && (sourceDc == null || r.datacenter().equals(sourceDc))
                            && !(excludeLocalDc && r.datacenter().equals(me.datacenter()));
                    if (eligible) {
                        sources.add(r);
                    }
                }
                if (e.getValue().size() == 1) {
                    continue; // this node is the range's only replica: nothing anywhere else to fetch
                }
                if (sources.isEmpty()) {
                    throw new IllegalStateException("unable to find sufficient sources for streaming range "
                            + e.getKey() + " in keyspace " + t.keyspace());
                }
                bySources.computeIfAbsent(List.copyOf(sources), k -> new ArrayList<>()).add(e.getKey());
            }
            for (var e : bySources.entrySet()) {
                long n = join(streaming.fetch(t.id(), e.getValue(), e.getKey(), "Rebuild"), STREAM_TIMEOUT_MILLIS);
                streamed += n;
            }
            log.accept("rebuilt " + t.keyspace() + "." + t.name());
        }
        LOG.info("rebuild streamed {} partitions", streamed);
        return streamed;
    }

    private static String endpoints(List<Endpoint> es) {
        StringBuilder b = new StringBuilder();
        for (Endpoint e : es) {
            b.append(b.length() == 0 ? "" : ", ").append(e.address().getHostAddress());
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ helpers

    private List<Endpoint> liveOnly(List<Endpoint> sources) {
        List<Endpoint> out = new ArrayList<>();
        for (Endpoint e : sources) {
            if (liveness.isAlive(e)) {
                out.add(e);
            }
        }
        return List.copyOf(out);
    }

    /** Waits until every other member has applied {@code epoch} (or is silent past the timeout), then settles. */
    void barrier(long epoch) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BARRIER_TIMEOUT_MILLIS);
        for (NodeRecord r : metadata.state().members().values()) {
            if (r.hostId().equals(self) || !liveness.isAlive(r.endpoint())) {
                continue;
            }
            while (true) {
                long seen = -1;
                try {
                    ByteBuf b = messaging.send(r.endpoint().storageAddress(), 0, Verb.METADATA_EPOCH,
                            Unpooled.EMPTY_BUFFER, 2000).get(3, TimeUnit.SECONDS);
                    seen = b.readLong();
                    b.release();
                } catch (Exception e) {
                    LOG.debug("{} did not answer its metadata epoch: {}", r.endpoint(), e.toString());
                }
                if (seen >= epoch) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    LOG.warn("{} has not applied metadata epoch {} within {} ms: taken as down", r.endpoint(), epoch,
                            BARRIER_TIMEOUT_MILLIS);
                    break;
                }
                sleep(100);
            }
        }
        sleep(settleMillis);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static <T> T join(CompletableFuture<T> f, long timeoutMillis) {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(c);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("timed out after " + timeoutMillis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
