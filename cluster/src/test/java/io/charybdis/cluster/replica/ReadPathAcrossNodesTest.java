package io.charybdis.cluster.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.ReadTimeoutException;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.CasResult;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read path across nodes in one JVM: digest reads (one replica sends the data, the others a digest; a
 * mismatch repairs), speculative retry (a replica held back by the fault hook is overtaken by one more request,
 * unless the table says NONE), and the one retry after catching up with the metadata log that reads, batches and
 * Paxos rounds make when a replica refuses their coordinator's stale epoch.
 */
@Timeout(60)
class ReadPathAcrossNodesTest {
    static final TableId TABLE = TableId.of(new UUID(43, 43));
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    /** Longer than the coordinators' 500 ms timeouts: a request held this long is a replica that never answers. */
    static final long HOLD_MILLIS = 3000;

    @TempDir
    Path dir;

    /** Requests sent, by verb (answers are not counted). */
    final Map<Verb, AtomicInteger> sent = new ConcurrentHashMap<>();
    /** Messages to and from these storage addresses are dropped. */
    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    /** The next request of this verb is held back for {@link #HOLD_MILLIS} (then it is cleared). */
    volatile Verb holdNext;
    final AtomicBoolean held = new AtomicBoolean();
    volatile String speculativeRetry = "NONE";
    final List<TestNode> nodes = new ArrayList<>();
    final MutationBuilder b = new MutationBuilder();

    final class TestNode extends io.charybdis.cluster.testing.InProcessNode {
        TestNode(int i) {
            super(dir.resolve("n" + i), i, 2, "r1", (from, to, verb, response) -> {
                if (cut.contains(to) || cut.contains(from)) {
                    return FaultInjector.DROP;
                }
                if (!response) {
                    sent.computeIfAbsent(verb, v -> new AtomicInteger()).incrementAndGet();
                    if (verb == holdNext && held.compareAndSet(false, true)) {
                        holdNext = null;
                        return HOLD_MILLIS;
                    }
                }
                return 0;
            }, new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of("enabled", "false"), 864000),
                    io.charybdis.cluster.batchlog.Batchlog.DESCRIPTOR);
        }
    }

    /** n nodes owning tokens i*1000, keyspace replication rf; the table's speculative_retry is {@link #speculativeRetry}. */
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
            node.coordinator.speculativeRetry(t -> speculativeRetry);
        }
        // connections between all nodes first, so that a fault applies to the message it is meant for
        for (TestNode node : nodes) {
            for (int t = 0; t < n; t++) {
                node.coordinator.write(row(t * 1000L + 500, "warm", "up"), ConsistencyLevel.ALL, null).join();
            }
        }
        sent.clear();
    }

    @AfterEach
    void stop() {
        nodes.forEach(TestNode::close);
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

    int sent(Verb v) {
        AtomicInteger n = sent.get(v);
        return n == null ? 0 : n.get();
    }

    String read(TestNode coordinator, long token, String key, ConsistencyLevel cl) {
        return value(coordinator.coordinator.read(read(token, key), cl, null).join());
    }

    // ------------------------------------------------------------------ digest reads

    @Test
    void aQuorumReadTakesTheDataFromThisNodeAndADigestFromOneOtherReplica() {
        start(3, 3);
        nodes.get(0).coordinator.write(row(500, "k", "v"), ConsistencyLevel.ALL, null).join();
        sent.clear();
        assertThat(read(nodes.get(0), 500, "k", ConsistencyLevel.QUORUM)).isEqualTo("v");
        assertThat(sent(Verb.READ)).isZero();          // the data is this node's
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(1);
        assertThat(sent(Verb.READ_RAW)).isZero();      // digests agreed: no reconciliation

        assertThat(read(nodes.get(0), 500, "k", ConsistencyLevel.ALL)).isEqualTo("v");
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(3);
        assertThat(sent(Verb.READ_RAW)).isZero();
    }

    @Test
    void aCoordinatorThatIsNotAReplicaAsksOneReplicaForDataAndTheOthersForDigests() {
        start(4, 3); // token 1500: nodes 2, 3 and 0; node 1 coordinates
        nodes.get(1).coordinator.write(row(1500, "k", "v"), ConsistencyLevel.ALL, null).join();
        sent.clear();
        assertThat(read(nodes.get(1), 1500, "k", ConsistencyLevel.QUORUM)).isEqualTo("v");
        assertThat(sent(Verb.READ)).isEqualTo(1);
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(1);
        assertThat(sent(Verb.READ_RAW)).isZero();
        assertThat(read(nodes.get(1), 1500, "k", ConsistencyLevel.ALL)).isEqualTo("v");
        assertThat(sent(Verb.READ)).isEqualTo(2);
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(3);
    }

    @Test
    void aDigestMismatchFallsBackToFullReadsAndRepairsTheReplicaBehind() {
        start(3, 3);
        TestNode a = nodes.get(0);
        // a write only node 0 has (nodes 1 and 2 cut off)
        cut.add(nodes.get(1).address);
        cut.add(nodes.get(2).address);
        a.coordinator.write(row(500, "m", "only-on-0"), ConsistencyLevel.ONE, null).join();
        cut.clear();
        sent.clear();
        assertThat(read(a, 500, "m", ConsistencyLevel.QUORUM)).isEqualTo("only-on-0");
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(1);
        assertThat(sent(Verb.READ_RAW)).isEqualTo(1); // the other replica asked, whole partition
        int repaired = 0;
        for (int i = 1; i < 3; i++) {
            repaired += "only-on-0".equals(value(nodes.get(i).storage.read(read(500, "m")).join())) ? 1 : 0;
        }
        assertThat(repaired).isEqualTo(1); // the replica asked is repaired, the other one not (no read of it)

        // a deletion node 0 missed: the tombstone wins, the row does not come back
        cut.add(a.address);
        b.start(TABLE, 500, "m".getBytes(StandardCharsets.UTF_8)).partitionDeletion(20, NOW);
        nodes.get(1).coordinator.write(b.build(), ConsistencyLevel.QUORUM, null).join();
        cut.clear();
        assertThat(value(a.storage.read(read(500, "m")).join())).isEqualTo("only-on-0");
        assertThat(a.coordinator.read(read(500, "m"), ConsistencyLevel.QUORUM, null).join().isEmpty()).isTrue();
        assertThat(a.storage.read(read(500, "m")).join().isEmpty()).isTrue();
    }

    @Test
    void aReplicaOfAVersionWithoutDigestsIsAskedForTheDataInstead() {
        start(3, 3);
        nodes.get(0).coordinator.write(row(500, "o", "v"), ConsistencyLevel.ALL, null).join();
        for (int i = 1; i < 3; i++) {
            nodes.get(i).messaging.handle(Verb.READ_DIGEST, null); // as a node that predates the verb
        }
        sent.clear();
        assertThat(read(nodes.get(0), 500, "o", ConsistencyLevel.QUORUM)).isEqualTo("v");
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(1);
        assertThat(sent(Verb.READ)).isEqualTo(1);
        assertThat(sent(Verb.READ_RAW)).isZero(); // the data it sent, digested here, agreed
    }

    // ------------------------------------------------------------------ speculative retry

    @Test
    void aHeldBackReplicaIsOvertakenByOneMoreRequestAfterAFixedThreshold() {
        speculativeRetry = "20ms";
        start(3, 2); // token 1500: nodes 2 and 0; node 1 coordinates at ONE
        nodes.get(1).coordinator.write(row(1500, "s", "fast"), ConsistencyLevel.ALL, null).join();
        holdNext = Verb.READ;
        assertThat(read(nodes.get(1), 1500, "s", ConsistencyLevel.ONE)).isEqualTo("fast");
        assertThat(held.get()).isTrue();
        assertThat(sent(Verb.READ)).isEqualTo(2);
        assertThat(nodes.get(1).coordinator.speculativeRetries(TABLE)).isEqualTo(1);
    }

    @Test
    void withoutSpeculationAHeldBackReplicaTimesTheReadOut() {
        speculativeRetry = "NONE";
        start(3, 2);
        nodes.get(1).coordinator.write(row(1500, "s", "slow"), ConsistencyLevel.ALL, null).join();
        holdNext = Verb.READ;
        assertThatThrownBy(() -> read(nodes.get(1), 1500, "s", ConsistencyLevel.ONE)).cause()
                .isInstanceOfSatisfying(ReadTimeoutException.class, e -> {
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.ONE);
                    assertThat(e.received()).isZero();
                    assertThat(e.blockFor()).isEqualTo(1);
                });
        assertThat(sent(Verb.READ)).isEqualTo(1);
        assertThat(nodes.get(1).coordinator.speculativeRetries(TABLE)).isZero();
    }

    @Test
    void theDefaultPercentileSpeculatesBeforeTheTimeoutWithoutHistory() {
        speculativeRetry = "99p"; // no latency recorded yet: half the read timeout, as Cassandra starts
        start(3, 3);
        nodes.get(0).coordinator.write(row(500, "p", "v"), ConsistencyLevel.ALL, null).join();
        holdNext = Verb.READ_DIGEST; // the one other replica a QUORUM read asks
        assertThat(read(nodes.get(0), 500, "p", ConsistencyLevel.QUORUM)).isEqualTo("v");
        assertThat(held.get()).isTrue();
        assertThat(sent(Verb.READ_DIGEST)).isEqualTo(2); // the spare answered the digest instead
        assertThat(nodes.get(0).coordinator.speculativeRetries(TABLE)).isEqualTo(1);
        assertThat(nodes.get(0).coordinator.coordinatorReadLatency(TABLE).count()).isEqualTo(1);
    }

    @Test
    void alwaysAsksOneReplicaMoreThanTheLevelNeedsFromTheStart() {
        speculativeRetry = "ALWAYS";
        start(3, 2);
        nodes.get(1).coordinator.write(row(1500, "w", "v"), ConsistencyLevel.ALL, null).join();
        holdNext = Verb.READ;
        assertThat(read(nodes.get(1), 1500, "w", ConsistencyLevel.ONE)).isEqualTo("v");
        assertThat(sent(Verb.READ)).isEqualTo(2); // both replicas asked for the data at once
        assertThat(nodes.get(1).coordinator.speculativeRetries(TABLE)).isZero();
    }

    @Test
    void aHybridThresholdSpeculatesAtTheSmallerOfItsTwo() {
        speculativeRetry = "MIN(99p,20ms)";
        start(3, 2);
        nodes.get(1).coordinator.write(row(1500, "h", "v"), ConsistencyLevel.ALL, null).join();
        holdNext = Verb.READ;
        assertThat(read(nodes.get(1), 1500, "h", ConsistencyLevel.ONE)).isEqualTo("v");
        assertThat(nodes.get(1).coordinator.speculativeRetries(TABLE)).isEqualTo(1);
    }

    // ------------------------------------------------------------------ stale epochs

    /** Replicas of {@code refusing} refuse epoch-1 coordinators until {@code coordinator} catches up (once). */
    AtomicInteger refuseUntilCaughtUp(TestNode coordinator, List<TestNode> refusing) {
        refusing.forEach(n -> n.replicas.refuseStaleCoordinators(() -> 2)); // they saw placement change at epoch 2
        AtomicInteger catchUps = new AtomicInteger();
        coordinator.coordinator.onStaleEpoch(() -> {
            catchUps.incrementAndGet();
            refusing.forEach(n -> n.replicas.refuseStaleCoordinators(() -> 1)); // as if this node had reached 2
        });
        return catchUps;
    }

    @Test
    void singlePartitionReadsRefusedForAStaleEpochCatchUpAndRetryOnce() {
        start(3, 3);
        TestNode a = nodes.get(0);
        a.coordinator.write(row(500, "e", "v"), ConsistencyLevel.ALL, null).join();
        AtomicInteger catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        assertThat(read(a, 500, "e", ConsistencyLevel.QUORUM)).isEqualTo("v");
        assertThat(catchUps.get()).isEqualTo(1);

        // at ONE this node reads its own data: nothing to refuse, nothing to catch up with
        catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        assertThat(read(a, 500, "e", ConsistencyLevel.ONE)).isEqualTo("v");
        assertThat(catchUps.get()).isZero();
    }

    @Test
    void aReadFromANonReplicaRefusedForAStaleEpochCatchesUpAndRetriesOnce() {
        start(3, 1); // token 1500 belongs to node 2 alone; node 0 coordinates
        TestNode a = nodes.get(0);
        a.coordinator.write(row(1500, "r", "v"), ConsistencyLevel.ONE, null).join();
        AtomicInteger catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(2)));
        assertThat(read(a, 1500, "r", ConsistencyLevel.ONE)).isEqualTo("v");
        assertThat(catchUps.get()).isEqualTo(1);
        // without a way to catch up, the refusal is a timeout
        a.coordinator.onStaleEpoch(null);
        nodes.get(2).replicas.refuseStaleCoordinators(() -> 2);
        assertThatThrownBy(() -> read(a, 1500, "r", ConsistencyLevel.ONE)).cause()
                .isInstanceOf(ReadTimeoutException.class);
    }

    @Test
    void rangeReadsRefusedForAStaleEpochCatchUpAndRetryOnce() {
        start(3, 1);
        TestNode a = nodes.get(0);
        for (long t : new long[] {500, 1500, 2500}) {
            a.coordinator.write(row(t, "k" + t, "v" + t), ConsistencyLevel.ONE, null).join();
        }
        AtomicInteger catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        ReadResult r = a.coordinator.read(ReadCommand.range(TABLE, null, null).nowInSeconds(NOW).build(),
                ConsistencyLevel.ONE, null).join();
        assertThat(r.partitionCount()).isEqualTo(3 + 3); // and the three warm-up partitions
        assertThat(catchUps.get()).isEqualTo(1);
    }

    @Test
    void batchesRefusedForAStaleEpochCatchUpAndRetryOnce() {
        start(3, 1);
        TestNode a = nodes.get(0);
        List<Mutation> ms = List.of(row(500, "b1", "1"), row(1500, "b2", "2"), row(2500, "b3", "3"));
        AtomicInteger catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        a.coordinator.write(ms, ConsistencyLevel.ONE, null).join(); // unlogged
        assertThat(catchUps.get()).isEqualTo(1);
        assertThat(value(nodes.get(2).storage.read(read(1500, "b2")).join())).isEqualTo("2");

        List<Mutation> logged = List.of(row(500, "l1", "1"), row(1500, "l2", "2"), row(2500, "l3", "3"));
        catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        a.coordinator.writeLogged(logged, ConsistencyLevel.ONE, null).join();
        assertThat(catchUps.get()).isEqualTo(1);
        assertThat(value(nodes.get(1).storage.read(read(500, "l1")).join())).isEqualTo("1");
        assertThat(value(nodes.get(2).storage.read(read(1500, "l2")).join())).isEqualTo("2");
    }

    /** A compare-and-set that writes {@code value} when the partition is empty. */
    CompletableFuture<CasResult> insertIfNotExists(Coordinator c, String key, String value) {
        return c.cas(TABLE, 500, key.getBytes(StandardCharsets.UTF_8), read(500, key), (current, ts) -> {
            if (!current.isEmpty()) {
                return null;
            }
            return new MutationBuilder().start(TABLE, 500, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1})
                    .rowMarker(ts, 0, 0).cell(0, ts, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)))
                    .endRow().build();
        }, ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM, null);
    }

    @Test
    void paxosRoundsRefusedForAStaleEpochCatchUpAndRetryOnce() {
        start(3, 3);
        TestNode a = nodes.get(0);
        // both other replicas refuse the prepare: no quorum promised, nothing proposed, so the round is retried
        AtomicInteger catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        assertThat(insertIfNotExists(a.coordinator, "x", "first").join().applied()).isTrue();
        assertThat(catchUps.get()).isEqualTo(1);
        int committed = 0;
        for (TestNode n : nodes) {
            committed += "first".equals(value(n.storage.read(read(500, "x")).join())) ? 1 : 0;
        }
        assertThat(committed).isGreaterThanOrEqualTo(2); // committed at QUORUM

        catchUps = refuseUntilCaughtUp(a, List.of(nodes.get(1), nodes.get(2)));
        assertThat(value(a.coordinator.read(read(500, "x"), ConsistencyLevel.SERIAL, null).join())).isEqualTo("first");
        assertThat(catchUps.get()).isEqualTo(1);
        assertThat(insertIfNotExists(a.coordinator, "x", "second").join().applied()).isFalse();
    }
}
