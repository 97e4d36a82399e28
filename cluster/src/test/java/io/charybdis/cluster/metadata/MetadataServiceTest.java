package io.charybdis.cluster.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class MetadataServiceTest {
    @TempDir
    Path dir;

    final List<MetadataService> started = new ArrayList<>();
    final Map<UUID, MetadataState> seen = new ConcurrentHashMap<>();

    static InetSocketAddress freeAddress() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
    }

    static NodeRecord record(int i, long... tokens) {
        List<Long> ts = new ArrayList<>();
        for (long t : tokens) {
            ts.add(t);
        }
        return new NodeRecord(new UUID(7, i), InetAddress.getLoopbackAddress(), 7000 + i, InetAddress.getLoopbackAddress(), 9042,
                "dc1", "rack1", 2,
                "5.0.6", ts);
    }

    MetadataService start(int i, InetSocketAddress address, List<InetSocketAddress> seeds, NodeRecord me) {
        MetadataService s = MetadataService.start("Test Cluster " + dir.getFileName(), dir.resolve("n" + i), address, seeds, me,
                state -> seen.put(me.hostId(), state));
        started.add(s);
        return s;
    }

    @AfterEach
    void stop() {
        started.forEach(MetadataService::close);
    }

    static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in 30 s");
            }
            Thread.sleep(50);
        }
    }

    @Test
    void nodesJoinThroughASeedAndAgreeOnTheRing() throws Exception {
        InetSocketAddress a0 = freeAddress();
        InetSocketAddress a1 = freeAddress();
        InetSocketAddress a2 = freeAddress();
        List<InetSocketAddress> seeds = List.of(a0);
        MetadataService n0 = start(0, a0, seeds, record(0, -100, 100));
        MetadataService n1 = start(1, a1, seeds, record(1, 0));
        MetadataService n2 = start(2, a2, seeds, record(2, 50, 200));
        await(() -> n0.state().members().size() == 3 && n1.state().members().size() == 3
                && n2.state().members().size() == 3);
        assertThat(n1.state().epoch()).isEqualTo(n0.state().epoch());
        assertThat(n2.state()).isEqualTo(n0.state());
        ClusterMetadata md = n2.state().clusterMetadata(new UUID(7, 2));
        assertThat(md.ring().endpoints()).hasSize(3);
        assertThat(md.ring().primaryOwner(1).hostId()).isEqualTo(new UUID(7, 2)); // (0, 50] -> token 50
        assertThat(md.ring().primaryOwner(-50).hostId()).isEqualTo(new UUID(7, 1)); // (-100, 0] -> token 0
        assertThat(n0.members()).hasSize(3);
        assertThat(seen.get(new UUID(7, 0)).members()).hasSize(3); // listeners saw it
    }

    @Test
    void nodesJoiningAtTheSameTimeAllBecomeMembers() throws Exception {
        InetSocketAddress a0 = freeAddress();
        List<InetSocketAddress> seeds = List.of(a0);
        MetadataService n0 = start(0, a0, seeds, record(0, -1000));
        List<Thread> joiners = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 1; i <= 3; i++) {
            int n = i;
            InetSocketAddress a = freeAddress();
            joiners.add(Thread.ofPlatform().start(() -> {
                try {
                    MetadataService s = MetadataService.start("Test Cluster " + dir.getFileName(), dir.resolve("n" + n),
                            a, seeds, record(n, n * 100L), state -> { });
                    synchronized (started) {
                        started.add(s);
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        for (Thread t : joiners) {
            t.join();
        }
        assertThat(failures).isEmpty();
        await(() -> n0.state().members().size() == 4);
        assertThat(n0.members()).hasSize(4); // every one is a voting member of the group: none overwrote another
    }

    @Test
    void aTokenOwnedByAnotherMemberIsRefusedEverywhere() throws Exception {
        InetSocketAddress a0 = freeAddress();
        InetSocketAddress a1 = freeAddress();
        MetadataService n0 = start(0, a0, List.of(a0), record(0, 10, 20));
        assertThatThrownBy(() -> start(1, a1, List.of(a0), record(1, 20)))
                .hasMessageContaining("token 20 is owned by host " + new UUID(7, 0));
        assertThat(n0.state().members()).containsOnlyKeys(new UUID(7, 0));
    }

    @Test
    void aRestartedMemberReplaysTheLogAndALeaveIsSeenByAll() throws Exception {
        InetSocketAddress a0 = freeAddress();
        InetSocketAddress a1 = freeAddress();
        InetSocketAddress a2 = freeAddress();
        List<InetSocketAddress> seeds = List.of(a0);
        MetadataService n0 = start(0, a0, seeds, record(0, 1));
        MetadataService n1 = start(1, a1, seeds, record(1, 2));
        MetadataService n2 = start(2, a2, seeds, record(2, 3));
        await(() -> n2.state().members().size() == 3);
        n2.close();
        started.remove(n2);
        MetadataService again = start(2, a2, seeds, record(2, 3));
        await(() -> again.state().members().size() == 3);
        n1.leave(new UUID(7, 0));
        await(() -> again.state().members().size() == 2 && n0.state().members().size() == 2);
        assertThat(again.state().members()).doesNotContainKey(new UUID(7, 0));
        assertThat(again.state().epoch()).isEqualTo(n1.state().epoch());
    }

    @Test
    void schemaChangesAreOrderedAndAStaleBaseIsRefused() throws Exception {
        InetSocketAddress a0 = freeAddress();
        InetSocketAddress a1 = freeAddress();
        MetadataService n0 = start(0, a0, List.of(a0), record(0, 1));
        MetadataService n1 = start(1, a1, List.of(a0), record(1, 2));
        UUID none = new UUID(0, 0);
        UUID v1 = UUID.randomUUID();
        n1.changeSchema(none, v1, "one".getBytes(), List.of("CREATED KEYSPACE ks")).get();
        long t0 = System.nanoTime();
        n0.catchUp(); // a linearizable read on n0: afterwards it has applied the change
        assertThat(n0.state().schema().version()).isEqualTo(v1);
        n1.catchUp();
        System.out.println("catchUp took ms=" + (System.nanoTime() - t0) / 1_000_000);
        assertThat(n1.state().schema().version()).isEqualTo(v1); // applied here before the future completed
        await(() -> n0.state().schema().version().equals(v1));
        assertThat(new String(n0.state().schema().document())).isEqualTo("one");
        assertThat(n0.state().schema().events()).containsExactly("CREATED KEYSPACE ks");
        assertThatThrownBy(() -> n0.changeSchema(none, UUID.randomUUID(), "two".getBytes(), List.of()).join())
                .cause().isInstanceOf(SchemaConflictException.class);
        assertThat(n1.state().schema().version()).isEqualTo(v1);
    }

    @Test
    void theStateIsSnapshottedTheLogPurgedAndARestartStartsFromTheSnapshot() throws Exception {
        long before = MetadataService.snapshotEvery;
        MetadataService.snapshotEvery = 8;
        try {
            InetSocketAddress a0 = freeAddress();
            InetSocketAddress a1 = freeAddress();
            MetadataService n0 = start(0, a0, List.of(a0), record(0, 1));
            MetadataService n1 = start(1, a1, List.of(a0), record(1, 2));
            UUID version = new UUID(0, 0);
            for (int i = 0; i < 30; i++) {
                UUID next = UUID.randomUUID();
                n0.changeSchema(version, next, ("doc " + i).getBytes(), List.of("CHANGE " + i)).get();
                version = next;
            }
            UUID last = version;
            n1.catchUp();
            await(() -> n1.state().schema().version().equals(last));
            java.nio.file.Path sm = dir.resolve("n1");
            await(() -> {
                try (var files = java.nio.file.Files.walk(sm)) {
                    return files.anyMatch(f -> f.getFileName().toString().matches("snapshot\\.\\d+_\\d+"));
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            long epoch = n1.state().epoch();
            n1.close();
            started.remove(n1);
            seen.remove(new UUID(7, 1));
            MetadataService again = start(1, a1, List.of(a0), record(1, 2));
            await(() -> again.state().epoch() >= epoch);
            assertThat(again.state().schema().version()).isEqualTo(last);
            assertThat(new String(again.state().schema().document())).isEqualTo("doc 29");
            assertThat(again.state().members()).hasSize(2);
            assertThat(seen.get(new UUID(7, 1)).schema().version()).isEqualTo(last); // the listener was told
        } finally {
            MetadataService.snapshotEvery = before;
        }
    }
}
