package io.charybdis.cluster.batchlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.UnavailableException;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOGGED batches over three nodes in one JVM (replication factor 1: each partition of a batch lives on another
 * node): the batchlog entry reaches two other nodes before any mutation and is deleted after; a batch whose
 * coordinator died after logging it is replayed; a batchlog nobody can take fails the batch before any mutation.
 */
@Timeout(60)
class BatchlogTest {
    static final TableId TABLE = TableId.of(new UUID(44, 44));
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @TempDir
    Path dir;

    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    final Set<UUID> down = ConcurrentHashMap.newKeySet();
    final List<Node> nodes = new ArrayList<>();

    final class Node extends io.charybdis.cluster.testing.InProcessNode {
        Node(int i) {
            super(dir.resolve("n" + i), i, 2, "r" + i,
                    (from, to, verb, response) -> cut.contains(to) || cut.contains(from) ? FaultInjector.DROP : 0,
                    new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of(), 864000), Batchlog.DESCRIPTOR);
        }

        int batchlogEntries() {
            return storage.read(ReadCommand.range(Batchlog.TABLE, null, null).nowInSeconds(
                    (int) (System.currentTimeMillis() / 1000)).build()).join().partitionCount();
        }

        String value(long token, String key) {
            ReadResult r = storage.read(ReadCommand.partition(TABLE, token, key.getBytes(StandardCharsets.UTF_8))
                    .nowInSeconds(NOW).build()).join();
            ReadResult.Cursor c = r.cursor();
            if (!c.nextPartition() || !c.nextRow() || !c.nextCell()) {
                return null;
            }
            return new String(c.valueBytes(), StandardCharsets.UTF_8);
        }
    }

    void start() {
        for (int i = 0; i < 3; i++) {
            nodes.add(new Node(i));
        }
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            tokens.put(nodes.get(i).endpoint, List.of(i * 1000L));
        }
        TokenRing ring = TokenRing.of(tokens);
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", "1");
        for (Node n : nodes) {
            n.coordinator = new Coordinator(n.storage, new ClusterMetadata(2, ring, n.endpoint), t -> replication,
                    e -> !down.contains(e.hostId()), n.replicas, 500, 500);
        }
    }

    @AfterEach
    void stop() {
        nodes.forEach(Node::close);
    }

    static Mutation row(long token, String key, String value) {
        return new MutationBuilder().start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1})
                .rowMarker(10, 0, 0).cell(0, 10, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)))
                .endRow().build();
    }

    /** Three partitions, one on each node (tokens owned by 0, 1000 and 2000). */
    static List<Mutation> batch(String v) {
        return List.of(row(-5, "a", v), row(500, "b", v), row(1500, "c", v));
    }

    static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aLoggedBatchIsLoggedOnTwoOtherNodesAppliedAndItsEntryDeleted() throws Exception {
        start();
        Node coordinator = nodes.get(0);
        assertThat(Batchlog.endpoints(coordinator.coordinator.metadata(), e -> true))
                .containsExactlyInAnyOrder(nodes.get(1).endpoint, nodes.get(2).endpoint);
        coordinator.coordinator.writeLogged(batch("x"), ConsistencyLevel.ONE, null).join();
        assertThat(nodes.get(0).value(-5, "a")).isEqualTo("x");
        assertThat(nodes.get(1).value(500, "b")).isEqualTo("x");
        assertThat(nodes.get(2).value(1500, "c")).isEqualTo("x");
        await(() -> nodes.get(1).batchlogEntries() == 0 && nodes.get(2).batchlogEntries() == 0,
                "the batchlog entries are deleted");
        assertThat(coordinator.batchlogEntries()).isZero(); // never logged on the coordinator itself
    }

    @Test
    void aBatchWhoseCoordinatorDiedAfterLoggingItIsReplayed() {
        start();
        Node survivor = nodes.get(1);
        long longAgo = System.currentTimeMillis() - 60_000;
        UUID old = Batchlog.newId(longAgo);
        survivor.storage.apply(Batchlog.entry(old, batch("replayed"), longAgo * 1000)).join();
        UUID young = Batchlog.newId(System.currentTimeMillis());
        survivor.storage.apply(Batchlog.entry(young, batch("in-progress"), System.currentTimeMillis() * 1000)).join();
        assertThat(Batchlog.createdMillis(old)).isBetween(longAgo, longAgo + 1);

        BatchlogManager m = new BatchlogManager(survivor.storage,
                ms -> survivor.coordinator.write(ms, ConsistencyLevel.ONE, null), 1000);
        assertThat(m.replayDue()).isEqualTo(1); // the young entry belongs to a batch still in progress
        assertThat(nodes.get(0).value(-5, "a")).isEqualTo("replayed");
        assertThat(nodes.get(1).value(500, "b")).isEqualTo("replayed");
        assertThat(nodes.get(2).value(1500, "c")).isEqualTo("replayed");
        assertThat(survivor.batchlogEntries()).isEqualTo(1);
        m.close();
    }

    @Test
    void aBatchlogNoNodeTakesFailsTheBatchBeforeAnyMutation() {
        start();
        Node coordinator = nodes.get(0);
        cut.add(nodes.get(1).address);
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> coordinator.coordinator.writeLogged(batch("lost"), ConsistencyLevel.ANY, null).join())
                .cause().isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
                    assertThat(e.writeType()).isEqualTo(WriteTimeoutException.WriteType.BATCH_LOG);
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.TWO);
                    assertThat(e.received()).isZero();
                });
        assertThat(coordinator.value(-5, "a")).isNull(); // its own partition was not written either

        down.add(nodes.get(1).endpoint.hostId());
        down.add(nodes.get(2).endpoint.hostId());
        assertThatThrownBy(() -> coordinator.coordinator.writeLogged(List.of(row(-5, "a", "1"), row(-6, "b", "2")),
                ConsistencyLevel.ONE, null).join()).cause().isInstanceOf(UnavailableException.class);
    }

    @Test
    void anEntryKeepsItsIdAndMutationsExactly() {
        start();
        List<Mutation> ms = batch("v");
        long created = System.currentTimeMillis();
        UUID id = Batchlog.newId(created);
        assertThat(id.version()).isEqualTo(1);
        assertThat(Batchlog.createdMillis(id)).isBetween(created, created + 1);
        Node n = nodes.get(0);
        n.storage.apply(Batchlog.entry(id, ms, created * 1000)).join();
        ReadResult.Cursor c = n.storage.read(ReadCommand.range(Batchlog.TABLE, null, null).nowInSeconds(NOW).build())
                .join().cursor();
        assertThat(c.nextPartition()).isTrue();
        assertThat(Batchlog.id(c.keyBytes())).isEqualTo(id);
        assertThat(c.nextRow()).isTrue();
        assertThat(c.nextCell()).isTrue();
        assertThat(c.columnId()).isEqualTo(Batchlog.MUTATIONS);
        List<Mutation> back = Batchlog.mutations(c.valueBytes());
        assertThat(back).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(back.get(i).asByteBuffer()).isEqualTo(ms.get(i).asByteBuffer());
        }
        n.storage.apply(Batchlog.removal(id, created * 1000 + 1, NOW)).join();
        assertThat(n.batchlogEntries()).isZero();
    }
}
