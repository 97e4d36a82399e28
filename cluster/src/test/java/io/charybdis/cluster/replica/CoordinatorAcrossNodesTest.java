package io.charybdis.cluster.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.ReadTimeoutException;
import io.charybdis.cluster.WriteTimeoutException;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes in one JVM — each its own shard loops, storage, messaging and coordinator — on one ring with
 * replication factor 3: writes reach every replica and count acknowledgements per consistency level, reads go to
 * another node when this one is not a replica, and faults injected into the messaging turn into Cassandra's
 * timeouts.
 */
@Timeout(60)
class CoordinatorAcrossNodesTest {
    static final TableId TABLE = TableId.of(new UUID(42, 42));
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @TempDir
    Path dir;

    /** Messages to these storage addresses are dropped (both requests and answers). */
    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    /** Requests of these verbs are dropped. */
    final Set<io.charybdis.cluster.messaging.Verb> droppedVerbs = ConcurrentHashMap.newKeySet();
    final List<TestNode> nodes = new ArrayList<>();
    final MutationBuilder b = new MutationBuilder();

    final class TestNode extends io.charybdis.cluster.testing.InProcessNode {
        TestNode(int i) {
            super(dir.resolve("n" + i), i, 2, "r1", (from, to, verb, response) -> cut.contains(to)
                    || cut.contains(from) || (!response && droppedVerbs.contains(verb)) ? FaultInjector.DROP : 0,
                    new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of("enabled", "false"), 864000));
        }
    }

    /** Starts n nodes owning tokens i*1000 (i = 0..n-1), all knowing the whole ring; keyspace replication rf. */
    void start(int n, int rf) {
        for (int i = 0; i < n; i++) {
            nodes.add(new TestNode(i));
        }
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            tokens.put(nodes.get(i).endpoint, List.of(i * 1000L));
        }
        TokenRing ring = TokenRing.of(tokens);
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", String.valueOf(rf));
        for (TestNode node : nodes) {
            node.coordinator = new Coordinator(node.storage, new ClusterMetadata(2, ring, node.endpoint),
                    t -> replication, Liveness.ALL_ALIVE, node.replicas, 500, 500);
        }
    }

    @AfterEach
    void stop() {
        nodes.forEach(TestNode::close);
        detectors.forEach(io.charybdis.cluster.FailureDetector::close);
    }

    final List<io.charybdis.cluster.FailureDetector> detectors = new ArrayList<>();

    @Test
    void aNodeThatStopsAnsweringIsConvictedAndAllBecomesUnavailableUntilItAnswersAgain() throws Exception {
        start(3, 3);
        List<Endpoint> ring = nodes.stream().map(n -> n.endpoint).toList();
        List<String> changes = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.charybdis.cluster.FailureDetector fd = new io.charybdis.cluster.FailureDetector(nodes.get(0).messaging,
                () -> ring, nodes.get(0).endpoint.hostId(), (e, up) -> changes.add(e.hostId() + (up ? " up" : " down")),
                50).start();
        detectors.add(fd);
        Coordinator c = new Coordinator(nodes.get(0).storage, nodes.get(0).coordinator.metadata(), t -> Map.of("class",
                "SimpleStrategy", "replication_factor", "3"), fd, nodes.get(0).replicas, 500, 500);
        Thread.sleep(500);
        assertThat(fd.isAlive(nodes.get(2).endpoint)).isTrue();
        cut.add(nodes.get(2).address);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (fd.isAlive(nodes.get(2).endpoint) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(fd.isAlive(nodes.get(2).endpoint)).isFalse();
        String victim = nodes.get(2).endpoint.hostId().toString();
        // (on a loaded machine a 50 ms probe period can also make node 1 flap: only node 2's events are checked)
        assertThat(changes.stream().filter(x -> x.startsWith(victim))).containsExactly(victim + " down");
        while (!fd.isAlive(nodes.get(1).endpoint) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        c.write(row(500, "fd", "quorum"), ConsistencyLevel.QUORUM, null).join();
        assertThatThrownBy(() -> c.write(row(500, "fd2", "all"), ConsistencyLevel.ALL, null).join())
                .cause().isInstanceOfSatisfying(io.charybdis.cluster.UnavailableException.class, e -> {
                    assertThat(e.required()).isEqualTo(3);
                    assertThat(e.alive()).isEqualTo(2);
                });
        cut.clear();
        deadline = System.nanoTime() + 20_000_000_000L;
        while (!fd.isAlive(nodes.get(2).endpoint) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(fd.isAlive(nodes.get(2).endpoint)).isTrue();
        assertThat(changes.stream().filter(x -> x.startsWith(victim))).endsWith(victim + " up");
        while (!fd.isAlive(nodes.get(1).endpoint) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        c.write(row(500, "fd3", "all"), ConsistencyLevel.ALL, null).join();
    }

    Mutation row(long token, String key, String value) {
        b.start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1}).rowMarker(10, 0, 0)
                .cell(0, 10, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8))).endRow();
        return b.build();
    }

    static String value(ReadResult r) {
        ReadResult.Cursor c = r.cursor();
        if (!c.nextPartition() || !c.nextRow() || !c.nextCell()) {
            return null;
        }
        return new String(c.valueBytes(), StandardCharsets.UTF_8);
    }

    static ReadCommand read(long token, String key) {
        return ReadCommand.partition(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).nowInSeconds(NOW).build();
    }

    @Test
    void aWriteAtAllReachesEveryReplica() {
        start(3, 3);
        nodes.get(0).coordinator.write(row(500, "k", "v"), ConsistencyLevel.ALL, null).join();
        for (TestNode n : nodes) {
            assertThat(value(n.storage.read(read(500, "k")).join())).isEqualTo("v"); // each replica's own data
        }
    }

    @Test
    void quorumSurvivesOneUnreachableReplicaAndAllTimesOut() {
        start(3, 3);
        cut.add(nodes.get(2).address);
        nodes.get(0).coordinator.write(row(500, "q", "quorum"), ConsistencyLevel.QUORUM, null).join();
        assertThat(value(nodes.get(1).storage.read(read(500, "q")).join())).isEqualTo("quorum");
        assertThat(value(nodes.get(2).storage.read(read(500, "q")).join())).isNull(); // missed it: needs hints/repair

        assertThatThrownBy(() -> nodes.get(0).coordinator.write(row(500, "a", "all"), ConsistencyLevel.ALL, null).join())
                .isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.ALL);
                    assertThat(e.received()).isEqualTo(2);
                    assertThat(e.blockFor()).isEqualTo(3);
                    assertThat(e.writeType()).isEqualTo(WriteTimeoutException.WriteType.SIMPLE);
                });
    }

    @Test
    void writesAndReadsGoToTheReplicasOfTheToken() {
        start(3, 1);
        // token 1500 belongs to the node owning 2000 (node 2); node 0 coordinates
        nodes.get(0).coordinator.write(row(1500, "x", "remote"), ConsistencyLevel.ONE, null).join();
        assertThat(value(nodes.get(2).storage.read(read(1500, "x")).join())).isEqualTo("remote");
        assertThat(value(nodes.get(0).storage.read(read(1500, "x")).join())).isNull();
        assertThat(nodes.get(0).coordinator.replicas(TABLE, 1500)).containsExactly(nodes.get(2).endpoint);
        // read through node 1, which is not a replica either
        assertThat(value(nodes.get(1).coordinator.read(read(1500, "x"), ConsistencyLevel.ONE, null).join()))
                .isEqualTo("remote");
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> nodes.get(1).coordinator.read(read(1500, "x"), ConsistencyLevel.ONE, null).join())
                .cause().isInstanceOf(ReadTimeoutException.class);
    }

    @Test
    void batchesOfSeveralPartitionsMeetTheLevelForEach() {
        start(3, 2);
        List<Mutation> ms = List.of(row(100, "a", "1"), row(1100, "b", "2"), row(2100, "c", "3"));
        nodes.get(1).coordinator.write(ms, ConsistencyLevel.TWO, null).join();
        int copies = 0;
        for (TestNode n : nodes) {
            for (Mutation m : ms) {
                ReadResult r = n.storage.read(ReadCommand.partition(TABLE, m.token(), m.partitionKey())
                        .nowInSeconds(NOW).build()).join();
                copies += r.isEmpty() ? 0 : 1;
            }
        }
        assertThat(copies).isEqualTo(6); // three partitions, two replicas each
    }

    @Test
    void quorumReadsReconcileReplicasAndRepairTheOnesBehind() {
        start(3, 3);
        TestNode a = nodes.get(0);
        TestNode c = nodes.get(2);
        // connections between all nodes first, so that a fault applies when a message is sent
        for (TestNode n : nodes) {
            n.coordinator.write(row(500, "warm", "up"), ConsistencyLevel.ALL, null).join();
        }
        // a QUORUM write node 2 missed (cut off): nodes 0 and 1 hold it
        cut.add(c.address);
        a.coordinator.write(row(500, "k1", "quorum"), ConsistencyLevel.QUORUM, null).join();
        cut.clear();
        assertThat(value(c.storage.read(read(500, "k1")).join())).isNull();
        // a QUORUM read coordinated by node 2 asks itself and another replica, finds them different, repairs itself
        assertThat(value(c.coordinator.read(read(500, "k1"), ConsistencyLevel.QUORUM, null).join())).isEqualTo("quorum");
        assertThat(value(c.storage.read(read(500, "k1")).join())).isEqualTo("quorum");

        // a deletion node 2 missed must not come back: the tombstone wins the reconciliation
        a.coordinator.write(row(500, "k2", "old"), ConsistencyLevel.ALL, null).join();
        cut.add(c.address);
        b.start(TABLE, 500, "k2".getBytes(StandardCharsets.UTF_8)).partitionDeletion(20, NOW);
        a.coordinator.write(b.build(), ConsistencyLevel.QUORUM, null).join();
        cut.clear();
        assertThat(value(c.storage.read(read(500, "k2")).join())).isEqualTo("old");
        assertThat(c.coordinator.read(read(500, "k2"), ConsistencyLevel.QUORUM, null).join().isEmpty()).isTrue();
        assertThat(c.storage.read(read(500, "k2")).join().isEmpty()).isTrue(); // repaired

        // replicas that agree are read without any repair write
        assertThat(value(c.coordinator.read(read(500, "k1"), ConsistencyLevel.ALL, null).join())).isEqualTo("quorum");
    }

    // ------------------------------------------------------------------ lightweight transactions (Paxos)

    /** A compare-and-set that adds one to the counter held as text in partition {@code key}. */
    java.util.concurrent.CompletableFuture<io.charybdis.storage.CasResult> increment(Coordinator c, String key) {
        return c.cas(TABLE, 500, key.getBytes(StandardCharsets.UTF_8), read(500, key), (current, ts) -> {
            String v = value(current);
            long next = v == null ? 1 : Long.parseLong(v) + 1;
            return new MutationBuilder().start(TABLE, 500, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1})
                    .rowMarker(ts, 0, 0).cell(0, ts, 0, 0, ByteBuffer.wrap(String.valueOf(next)
                            .getBytes(StandardCharsets.UTF_8))).endRow().build();
        }, ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM, null);
    }

    @Test
    void concurrentTransactionsFromEveryNodeLoseNoIncrement() throws Exception {
        start(3, 3);
        java.util.concurrent.atomic.AtomicInteger applied = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger unknown = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> clients = new ArrayList<>();
        for (TestNode n : nodes) {
            for (int t = 0; t < 2; t++) {
                clients.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 15; i++) {
                        try {
                            if (increment(n.coordinator, "ctr").join().applied()) {
                                applied.incrementAndGet();
                            }
                        } catch (CompletionException e) {
                            assertThat(e.getCause()).isInstanceOf(WriteTimeoutException.class); // contention
                            unknown.incrementAndGet();
                        }
                    }
                }));
            }
        }
        for (Thread t : clients) {
            t.join();
        }
        assertThat(applied.get()).isPositive();
        ReadResult r = nodes.get(1).coordinator.read(read(500, "ctr"), ConsistencyLevel.SERIAL, null).join();
        long total = Long.parseLong(value(r));
        // every acknowledged increment is there; a timed-out one may or may not have been applied
        assertThat(total).isBetween((long) applied.get(), (long) applied.get() + unknown.get());
    }

    @Test
    void anUncontendedTransactionReadsWithItsPrepareAsPaxosV2Does() {
        start(3, 3);
        assertThat(increment(nodes.get(0).coordinator, "v2").join().applied()).isTrue();
        // no read round: with every READ and READ_RAW between nodes dropped, the replicas' promises carry the reads
        droppedVerbs.add(io.charybdis.cluster.messaging.Verb.READ);
        droppedVerbs.add(io.charybdis.cluster.messaging.Verb.READ_RAW);
        assertThat(increment(nodes.get(1).coordinator, "v2").join().applied()).isTrue();
        assertThat(value(nodes.get(2).coordinator.read(read(500, "v2"), ConsistencyLevel.SERIAL, null).join()))
                .isEqualTo("2");
        droppedVerbs.clear();
    }

    @Test
    void aProposalAcceptedButNotCommittedIsFinishedByTheNextTransaction() {
        start(3, 3);
        TestNode a = nodes.get(0);
        TestNode c = nodes.get(2);
        increment(a.coordinator, "p").join(); // value 1 everywhere (QUORUM), connections made
        // node 0's commits never reach the others: it accepted on a quorum, applied only on itself
        droppedVerbs.add(io.charybdis.cluster.messaging.Verb.PAXOS_COMMIT);
        assertThatThrownBy(() -> increment(a.coordinator, "p").join()).cause()
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.received()).isEqualTo(1));
        droppedVerbs.clear();
        cut.add(a.address); // and node 0 is gone: nodes 1 and 2 only have the accepted proposal
        assertThat(value(c.storage.read(read(500, "p")).join())).isEqualTo("1");
        assertThat(value(c.coordinator.read(read(500, "p"), ConsistencyLevel.SERIAL, null).join())).isEqualTo("2");
        assertThat(value(c.storage.read(read(500, "p")).join())).isEqualTo("2"); // committed on the replicas
        assertThat(increment(c.coordinator, "p").join().applied()).isTrue();
        cut.clear();
        assertThat(value(nodes.get(1).coordinator.read(read(500, "p"), ConsistencyLevel.QUORUM, null).join()))
                .isEqualTo("3");
    }

    /**
     * Nodes 0-2 own tokens 0, 1000, 2000 (replication factor 3); nodes 3.. join at {@code pendingTokens}: every
     * coordinator routes by the ring with them pending, as during their bootstrap.
     */
    void startWithPending(long... pendingTokens) {
        for (int i = 0; i < 3 + pendingTokens.length; i++) {
            nodes.add(new TestNode(i));
        }
        Map<Endpoint, List<Long>> natural = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            natural.put(nodes.get(i).endpoint, List.of(i * 1000L));
        }
        Map<Endpoint, List<Long>> withPending = new LinkedHashMap<>(natural);
        for (int i = 0; i < pendingTokens.length; i++) {
            withPending.put(nodes.get(3 + i).endpoint, List.of(pendingTokens[i]));
        }
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", "3");
        for (TestNode node : nodes.subList(0, 3)) { // the joining nodes only answer as replicas here
            node.coordinator = new Coordinator(node.storage, new ClusterMetadata(2, TokenRing.of(natural), node.endpoint,
                    TokenRing.of(withPending)), t -> replication, Liveness.ALL_ALIVE, node.replicas, 500, 500);
        }
    }

    @Test
    void aPendingReplicaTakesPartInPaxosAndCountsTowardsItsQuorum() {
        startWithPending(3000); // token 500: natural replicas 1, 2, 0; pending ring 1, 2, 3 (node 3 joins)
        assertThat(increment(nodes.get(0).coordinator, "j").join().applied()).isTrue();
        // the pending node took part in the round: the commit reaches it (perhaps after the three acknowledgements
        // the round waited for)
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!"1".equals(value(nodes.get(3).storage.read(read(500, "j")).join())) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(value(nodes.get(3).storage.read(read(500, "j")).join())).isEqualTo("1");
        // as in Cassandra, a round needs a quorum of the natural replicas plus the pending one: with node 2 and the
        // pending node 3 gone, two natural replicas are not enough, even for a SERIAL read
        cut.add(nodes.get(2).address);
        cut.add(nodes.get(3).address);
        Liveness twoDown = e -> !e.equals(nodes.get(2).endpoint) && !e.equals(nodes.get(3).endpoint);
        Coordinator c = new Coordinator(nodes.get(0).storage, nodes.get(0).coordinator.metadata(),
                t -> Map.of("class", "SimpleStrategy", "replication_factor", "3"), twoDown, nodes.get(0).replicas, 500,
                500);
        assertThatThrownBy(() -> c.read(read(500, "j"), ConsistencyLevel.SERIAL, null).join()).cause()
                .isInstanceOfSatisfying(io.charybdis.cluster.UnavailableException.class, e -> {
                    assertThat(e.required()).isEqualTo(3);
                    assertThat(e.alive()).isEqualTo(2);
                });
        cut.remove(nodes.get(2).address); // node 2 back: the three natural replicas make the quorum plus one
        Liveness oneDown = e -> !e.equals(nodes.get(3).endpoint);
        Coordinator c2 = new Coordinator(nodes.get(0).storage, nodes.get(0).coordinator.metadata(),
                t -> Map.of("class", "SimpleStrategy", "replication_factor", "3"), oneDown, nodes.get(0).replicas, 500,
                500);
        assertThat(value(c2.read(read(500, "j"), ConsistencyLevel.SERIAL, null).join())).isEqualTo("1");
    }

    @Test
    void aTransactionWithTwoPendingReplicasIsRefused() {
        startWithPending(600, 700); // token 500: pending ring 3, 4, 1 — two pending replicas
        assertThatThrownBy(() -> increment(nodes.get(0).coordinator, "two").join()).cause()
                .isInstanceOfSatisfying(io.charybdis.cluster.UnavailableException.class, e ->
                        assertThat(e).hasMessage("Cannot perform LWT operation as there is more than one (2) pending "
                                + "range movement"));
    }

    @Test
    void aTransactionWithoutAQuorumIsUnavailableOrTimesOut() {
        start(3, 3);
        increment(nodes.get(0).coordinator, "u").join();
        cut.add(nodes.get(1).address);
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> increment(nodes.get(0).coordinator, "u").join()).cause()
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
                    assertThat(e.writeType()).isEqualTo(WriteTimeoutException.WriteType.CAS);
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.SERIAL);
                    assertThat(e.blockFor()).isEqualTo(2);
                });
    }

    @Test
    void aReplicaRefusesACoordinatorThatRoutesByAnOlderPlacementEpoch() {
        start(3, 1); // requests carry epoch 1 (the harness's messaging)
        // token 1500 belongs to node 2 alone; node 0 coordinates
        nodes.get(0).coordinator.write(row(1500, "e", "one"), ConsistencyLevel.ONE, null).join();
        nodes.get(2).replicas.refuseStaleCoordinators(() -> 2); // node 2 saw placement change at epoch 2
        assertThatThrownBy(() -> nodes.get(0).coordinator.write(row(1500, "e", "two"), ConsistencyLevel.ONE, null)
                .join()).cause().isInstanceOf(WriteTimeoutException.class);
        assertThatThrownBy(() -> nodes.get(0).coordinator.read(read(1500, "e"), ConsistencyLevel.ONE, null).join())
                .cause().isInstanceOf(ReadTimeoutException.class);
        assertThat(value(nodes.get(2).storage.read(read(1500, "e")).join())).isEqualTo("one"); // not applied
        nodes.get(2).replicas.refuseStaleCoordinators(() -> 1); // a coordinator as recent as the replica is served
        nodes.get(0).coordinator.write(row(1500, "e", "three"), ConsistencyLevel.ONE, null).join();

        // a coordinator that can catch up with the metadata log does so when refused, and tries once more
        nodes.get(2).replicas.refuseStaleCoordinators(() -> 2);
        java.util.concurrent.atomic.AtomicInteger catchUps = new java.util.concurrent.atomic.AtomicInteger();
        nodes.get(0).coordinator.onStaleEpoch(() -> {
            catchUps.incrementAndGet();
            nodes.get(2).replicas.refuseStaleCoordinators(() -> 1); // as if this node's epoch had reached 2
        });
        nodes.get(0).coordinator.write(row(1500, "e", "four"), ConsistencyLevel.ONE, null).join();
        assertThat(catchUps.get()).isEqualTo(1);
    }
}
