package io.charybdis.cluster.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.WriteTimeoutException;
import io.charybdis.cluster.hints.HintsConfig;
import io.charybdis.cluster.hints.HintsService;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counters on three nodes in one JVM: updates led by one replica that replicates its shard, concurrent coordinators
 * adding up exactly, a replica that missed updates catching up through hints and read repair, and the timeouts a
 * client sees when the leader or the replicas do not answer.
 */
@Timeout(90)
class CountersAcrossNodesTest {
    static final TableId TABLE = TableId.of(new UUID(42, 43));
    static final byte[] ROW = {1};

    @TempDir
    Path dir;

    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    final Set<Verb> droppedVerbs = ConcurrentHashMap.newKeySet();
    final Set<UUID> down = ConcurrentHashMap.newKeySet();
    final Liveness liveness = e -> !down.contains(e.hostId());
    final List<TestNode> nodes = new ArrayList<>();
    final List<HintsService> hints = new ArrayList<>();
    TokenRing ring;

    final class TestNode extends io.charybdis.cluster.testing.InProcessNode {
        TestNode(int i) {
            super(dir.resolve("n" + i), i, 2, "r1", (from, to, verb, response) -> cut.contains(to)
                    || cut.contains(from) || (!response && droppedVerbs.contains(verb)) ? FaultInjector.DROP : 0,
                    new TableDescriptor(TABLE, "ks", "c", Map.of(), Map.of("enabled", "false"), 864000));
        }
    }

    /** Three nodes owning tokens 0, 1000, 2000; every coordinator with the test's liveness, replication rf. */
    void start(int rf) {
        for (int i = 0; i < 3; i++) {
            nodes.add(new TestNode(i));
        }
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            tokens.put(nodes.get(i).endpoint, List.of(i * 1000L));
        }
        ring = TokenRing.of(tokens);
        for (TestNode n : nodes) {
            n.coordinator = coordinator(n, rf, null);
        }
    }

    Coordinator coordinator(TestNode n, int rf, HintsService h) {
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", String.valueOf(rf));
        return new Coordinator(n.storage, new ClusterMetadata(2, ring, n.endpoint), t -> replication, liveness,
                n.replicas, 1000, 2000, h);
    }

    @AfterEach
    void stop() {
        hints.forEach(HintsService::close);
        nodes.forEach(TestNode::close);
    }

    /** An update adding {@code d} to the counter (column 0) of partition {@code key}. */
    static Mutation delta(long token, String key, long d) {
        return new MutationBuilder().start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(ROW)
                .cell(0, System.currentTimeMillis() * 1000, 0, 0, ByteBuffer.allocate(8).putLong(0, d)).endRow().build();
    }

    static ReadCommand read(long token, String key) {
        return ReadCommand.partition(TABLE, token, key.getBytes(StandardCharsets.UTF_8))
                .nowInSeconds((int) (System.currentTimeMillis() / 1000)).build();
    }

    /** The counter's value in a read result: the sum of its shards (0 when there is none). */
    static long total(ReadResult r) {
        long sum = 0;
        ReadResult.Cursor c = r.cursor();
        while (c.nextPartition()) {
            while (c.nextRow()) {
                while (c.nextCell()) {
                    sum += c.valueBuffer().getLong(c.valueOffset(), ByteOrder.BIG_ENDIAN);
                }
            }
        }
        return sum;
    }

    static int shards(ReadResult r) {
        int n = 0;
        ReadResult.Cursor c = r.cursor();
        while (c.nextPartition()) {
            while (c.nextRow()) {
                while (c.nextCell()) {
                    assertThat(c.hasPath()).isTrue();
                    n++;
                }
            }
        }
        return n;
    }

    long local(TestNode n, long token, String key) {
        return total(n.storage.read(read(token, key)).join());
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void concurrentIncrementsFromEveryCoordinatorAddUpExactlyAtQuorum() throws Exception {
        start(3);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Long>> sums = new ArrayList<>();
            for (TestNode n : nodes) {
                sums.add(pool.submit(() -> {
                    long sum = 0;
                    List<CompletableFuture<Void>> inFlight = new ArrayList<>();
                    for (int i = 0; i < 300; i++) {
                        long d = i % 3 == 0 ? -1 : 2;
                        sum += d;
                        inFlight.add(n.coordinator.counterWrite(delta(500, "hits", d), ConsistencyLevel.QUORUM, null));
                        if (inFlight.size() == 32) {
                            inFlight.forEach(CompletableFuture::join);
                            inFlight.clear();
                        }
                    }
                    inFlight.forEach(CompletableFuture::join);
                    return sum;
                }));
            }
            long expected = 0;
            for (Future<Long> f : sums) {
                expected += f.get(60, TimeUnit.SECONDS);
            }
            for (TestNode n : nodes) {
                assertThat(total(n.coordinator.read(read(500, "hits"), ConsistencyLevel.QUORUM, null).join()))
                        .isEqualTo(expected);
            }
            long exact = expected;
            for (TestNode n : nodes) { // the third replica's copies were sent too, not waited for
                await(() -> local(n, 500, "hits") == exact, "every replica holds the total");
                // one shard per leader: each coordinator was a replica, so led its own updates
                assertThat(shards(n.storage.read(read(500, "hits")).join())).isEqualTo(3);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aReplicaThatWasDownCatchesUpThroughHintsAndReadRepairAtAll() throws Exception {
        start(3);
        HintsService h = new HintsService(HintsConfig.defaults(dir.resolve("hints")).withMaxHintWindowMillis(3_600_000),
                nodes.get(0).replicas::apply, id -> nodes.stream().map(n -> n.endpoint)
                .filter(e -> e.hostId().equals(id)).findFirst().orElse(null), liveness, e -> 0L, t -> 864000,
                () -> 2, 500).start();
        hints.add(h);
        Coordinator hinting = coordinator(nodes.get(0), 3, h);
        TestNode gone = nodes.get(2);
        cut.add(gone.address);
        down.add(gone.endpoint.hostId());
        for (int i = 0; i < 40; i++) {
            hinting.counterWrite(delta(500, "k", 3), ConsistencyLevel.QUORUM, null).join(); // node 0 leads, hints node 2
            nodes.get(1).coordinator.counterWrite(delta(500, "k", 1), ConsistencyLevel.QUORUM, null).join(); // no hints
        }
        await(() -> h.hintsWritten() == 40, "node 0's shards for node 2 are hinted");
        assertThat(local(gone, 500, "k")).isZero();

        cut.clear();
        down.clear();
        h.onUp(gone.endpoint);
        await(() -> h.hintsDelivered() == 40, "the hints are delivered");
        // the hints carry node 0's shard (not deltas): node 2 has all of it, and nothing yet of node 1's shard
        assertThat(local(gone, 500, "k")).isEqualTo(120);

        assertThat(total(gone.coordinator.read(read(500, "k"), ConsistencyLevel.ALL, null).join())).isEqualTo(160);
        assertThat(local(gone, 500, "k")).isEqualTo(160); // read repair wrote the merged shards back
        for (TestNode n : nodes) {
            assertThat(local(n, 500, "k")).isEqualTo(160);
        }
        // more updates after the repair still add up
        gone.coordinator.counterWrite(delta(500, "k", -10), ConsistencyLevel.ALL, null).join();
        assertThat(total(nodes.get(0).coordinator.read(read(500, "k"), ConsistencyLevel.ALL, null).join()))
                .isEqualTo(150);
    }

    /** {@code DELETE c}: the counter column's deletion, as the node writes it (see {@link CounterShards}). */
    static Mutation deletion(long token, String key) {
        return new MutationBuilder().start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(ROW)
                .complexDeletion(0, CounterShards.DELETION_TIMESTAMP, (int) (System.currentTimeMillis() / 1000))
                .endRow().build();
    }

    @Test
    void aDeletedCounterStaysDeletedOnEveryReplicaWhateverLeadsLaterUpdates() throws Exception {
        start(3);
        for (TestNode n : nodes) {
            n.coordinator.counterWrite(delta(500, "d", 4), ConsistencyLevel.ALL, null).join();
        }
        // node 2 misses the deletion: it still holds every shard, its own included
        TestNode missed = nodes.get(2);
        cut.add(missed.address);
        down.add(missed.endpoint.hostId());
        nodes.get(0).coordinator.write(deletion(500, "d"), ConsistencyLevel.QUORUM, null).join();
        assertThat(local(nodes.get(0), 500, "d")).isZero();
        assertThat(local(missed, 500, "d")).isEqualTo(12);
        cut.clear();
        down.clear();
        // later updates, led by every replica (node 2 from its shard of before the deletion), stay shadowed
        for (TestNode n : nodes) {
            n.coordinator.counterWrite(delta(500, "d", 5), ConsistencyLevel.ALL, null).join();
        }
        assertThat(local(nodes.get(0), 500, "d")).isZero();
        assertThat(local(nodes.get(1), 500, "d")).isZero();
        assertThat(total(missed.coordinator.read(read(500, "d"), ConsistencyLevel.ALL, null).join())).isZero();
        for (TestNode n : nodes) { // read repair carried the deletion to node 2
            assertThat(local(n, 500, "d")).isZero();
            assertThat(shards(n.storage.read(read(500, "d")).join())).isZero();
        }
    }

    @Test
    void aCoordinatorThatIsNotAReplicaSendsTheUpdateToALeader() {
        start(1);
        // token 1500 belongs to node 2 alone; node 0 coordinates
        nodes.get(0).coordinator.counterWrite(delta(1500, "r", 5), ConsistencyLevel.ONE, null).join();
        nodes.get(1).coordinator.counterWrite(delta(1500, "r", 6), ConsistencyLevel.ONE, null).join();
        assertThat(local(nodes.get(2), 1500, "r")).isEqualTo(11);
        assertThat(shards(nodes.get(2).storage.read(read(1500, "r")).join())).isEqualTo(1); // the leader's only
        assertThat(local(nodes.get(0), 1500, "r")).isZero();
        assertThat(total(nodes.get(1).coordinator.read(read(1500, "r"), ConsistencyLevel.ONE, null).join()))
                .isEqualTo(11);
    }

    @Test
    void aLeaderThatDoesNotAnswerIsAWriteTimeoutOfTypeCounter() {
        start(2);
        // token 500: replicas nodes 1 and 2; node 0 forwards to one of them, which counts as a write at ONE
        nodes.get(0).coordinator.counterWrite(delta(500, "t", 1), ConsistencyLevel.QUORUM, null).join();
        droppedVerbs.add(Verb.COUNTER_WRITE);
        assertThatThrownBy(() -> nodes.get(0).coordinator.counterWrite(delta(500, "t", 1), ConsistencyLevel.QUORUM,
                null).join()).isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.ONE);
                    assertThat(e.received()).isZero();
                    assertThat(e.blockFor()).isEqualTo(1);
                    assertThat(e.writeType()).isEqualTo(WriteTimeoutException.WriteType.COUNTER);
                });
    }

    @Test
    void replicasThatDoNotAnswerTheLeaderAreAWriteTimeoutOfTypeCounterAfterTheLeaderApplied() {
        start(3);
        nodes.get(0).coordinator.counterWrite(delta(500, "a", 1), ConsistencyLevel.ALL, null).join();
        cut.add(nodes.get(1).address);
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> nodes.get(0).coordinator.counterWrite(delta(500, "a", 1), ConsistencyLevel.QUORUM,
                null).join()).isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.QUORUM);
                    assertThat(e.received()).isEqualTo(1); // the leader itself
                    assertThat(e.blockFor()).isEqualTo(2);
                    assertThat(e.writeType()).isEqualTo(WriteTimeoutException.WriteType.COUNTER);
                });
        assertThat(local(nodes.get(0), 500, "a")).isEqualTo(2); // applied on the leader: not idempotent, not retried
    }

    @Test
    void repairAndCompactionMergeShardsOfReplicasThatMissedSome() throws Exception {
        start(3);
        // each replica in turn misses the updates the other two lead
        for (int missing = 0; missing < 3; missing++) {
            TestNode gone = nodes.get(missing);
            cut.add(gone.address);
            for (TestNode n : nodes) {
                if (n != gone) {
                    for (int i = 0; i < 10; i++) {
                        n.coordinator.counterWrite(delta(500, "r", 1 + missing), ConsistencyLevel.QUORUM, null).join();
                    }
                }
            }
            cut.clear();
            for (TestNode n : nodes) {
                n.storage.flush(TABLE).join(); // each round's shard versions in an SSTable of their own
            }
        }
        // a shard carries its leader's total, so a replica that missed some versions of a shard has all of it again
        // with the next version it gets: after the three rounds the shards are 0 -> 50, 1 -> 40, 2 -> 30 (120 in
        // all); node 0 has them all, node 1 has shard 2 of round 0 (10), node 2 shards 0 and 1 of rounds 1 and 0
        assertThat(List.of(local(nodes.get(0), 500, "r"), local(nodes.get(1), 500, "r"), local(nodes.get(2), 500, "r")))
                .containsExactly(120L, 100L, 60L);
        var outcome = nodes.get(0).repair.repair(TABLE, new io.charybdis.cluster.streaming.TokenRange(0, 1000),
                nodes.stream().map(n -> n.endpoint).toList(), line -> { }).get(60, TimeUnit.SECONDS);
        assertThat(outcome.differingRanges()).isPositive();
        for (TestNode n : nodes) { // streamed shards merge: per counter id the latest clock, summed over the ids
            assertThat(local(n, 500, "r")).isEqualTo(120);
            n.storage.flush(TABLE).join();
            n.storage.forceMajorCompaction(TABLE).join(); // SSTable merges keep the latest version of each shard
            assertThat(local(n, 500, "r")).isEqualTo(120);
            assertThat(shards(n.storage.read(read(500, "r")).join())).isEqualTo(3);
        }
    }
}
