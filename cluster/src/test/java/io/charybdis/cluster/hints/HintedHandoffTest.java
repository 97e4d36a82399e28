package io.charybdis.cluster.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.UnavailableException;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hinted handoff on three nodes in one JVM (replication factor 3, or 1 where a test needs every replica down):
 * faults are injected through the messaging hook (a node cut off drops every frame to and from it) and liveness is
 * set by the test, so each case decides whether a replica is "down" (the failure detector's view) or merely silent.
 */
@Timeout(60)
class HintedHandoffTest {
    static final TableId TABLE = TableId.of(new UUID(42, 42));
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @TempDir
    Path dir;

    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    final Set<UUID> down = ConcurrentHashMap.newKeySet();
    final Map<UUID, Long> downSince = new ConcurrentHashMap<>();
    final List<TestNode> nodes = new ArrayList<>();
    final List<HintsService> services = new ArrayList<>();
    final MutationBuilder b = new MutationBuilder();
    final Liveness liveness = e -> !down.contains(e.hostId());
    TokenRing ring;
    int gcGrace = 864000;

    final class TestNode extends io.charybdis.cluster.testing.InProcessNode {
        TestNode(int i) {
            super(dir.resolve("n" + i), i, 2, "r1",
                    (from, to, verb, response) -> cut.contains(to) || cut.contains(from) ? FaultInjector.DROP : 0,
                    new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of("enabled", "false"), 864000));
        }
    }

    void start() {
        for (int i = 0; i < 3; i++) {
            nodes.add(new TestNode(i));
        }
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            tokens.put(nodes.get(i).endpoint, List.of(i * 1000L));
        }
        ring = TokenRing.of(tokens);
    }

    HintsConfig config() {
        return HintsConfig.defaults(dir.resolve("hints")).withMaxHintWindowMillis(3_600_000);
    }

    /** Node 0's hints: delivered to the endpoints of the ring, with the test's liveness and downtimes. */
    HintsService hints(HintsConfig config) throws IOException {
        TestNode n0 = nodes.get(0);
        HintsService h = new HintsService(config, n0.replicas::apply, id -> nodes.stream().map(n -> n.endpoint)
                .filter(e -> e.hostId().equals(id)).findFirst().orElse(null), liveness,
                e -> downSince.getOrDefault(e.hostId(), 0L), t -> gcGrace, () -> 2, 500);
        services.add(h);
        return h;
    }

    Coordinator coordinator(HintsService hints, int rf) {
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", String.valueOf(rf));
        TestNode n0 = nodes.get(0);
        return new Coordinator(n0.storage, new ClusterMetadata(2, ring, n0.endpoint), t -> replication, liveness,
                n0.replicas, 500, 500, hints);
    }

    @AfterEach
    void stop() {
        services.forEach(HintsService::close);
        nodes.forEach(TestNode::close);
    }

    void markDown(TestNode n) {
        cut.add(n.address);
        down.add(n.endpoint.hostId());
        downSince.put(n.endpoint.hostId(), System.currentTimeMillis());
    }

    void markUp(TestNode n) {
        cut.remove(n.address);
        down.remove(n.endpoint.hostId());
        downSince.remove(n.endpoint.hostId());
    }

    Mutation row(long token, String key, String value) {
        b.start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1}).rowMarker(10, 0, 0)
                .cell(0, 10, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8))).endRow();
        return b.build();
    }

    String local(TestNode n, long token, String key) {
        ReadResult r = n.storage.read(ReadCommand.partition(TABLE, token, key.getBytes(StandardCharsets.UTF_8))
                .nowInSeconds(NOW).build()).join();
        ReadResult.Cursor c = r.cursor();
        if (!c.nextPartition() || !c.nextRow() || !c.nextCell()) {
            return null;
        }
        return new String(c.valueBytes(), StandardCharsets.UTF_8);
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    long hintFiles() throws IOException {
        Path d = dir.resolve("hints");
        if (!Files.isDirectory(d)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> p.toString().endsWith(HintsLayout.SUFFIX)).count();
        }
    }

    @Test
    void aWriteToADownReplicaIsHintedAndDeliveredWhenItComesUp() throws Exception {
        start();
        HintsService h = hints(config()).start();
        Coordinator c = coordinator(h, 3);
        TestNode gone = nodes.get(2);
        markDown(gone);
        for (int i = 0; i < 50; i++) {
            c.write(row(500, "k" + i, "v" + i), ConsistencyLevel.QUORUM, null).join();
        }
        await(() -> h.hintsWritten() == 50, "50 hints are written");
        assertThat(local(gone, 500, "k0")).isNull();
        assertThat(h.pending()).singleElement().satisfies(p -> {
            assertThat(p.host()).isEqualTo(gone.endpoint.hostId());
            assertThat(p.bytes()).isPositive();
        });

        markUp(gone);
        h.onUp(gone.endpoint);
        await(() -> h.hintsDelivered() == 50, "the hints are delivered");
        for (int i = 0; i < 50; i++) {
            assertThat(local(gone, 500, "k" + i)).isEqualTo("v" + i);
        }
        await(() -> h.pending().isEmpty(), "nothing is pending");
        assertThat(hintFiles()).isZero();
    }

    @Test
    void aLiveReplicaThatDoesNotAnswerInTimeGetsAHintDeliveredByThePeriodicDispatch() throws Exception {
        start();
        HintsService h = hints(config());
        Coordinator c = coordinator(h, 3);
        TestNode silent = nodes.get(2);
        c.write(row(500, "warm", "up"), ConsistencyLevel.ALL, null).join(); // connections open first
        cut.add(silent.address); // the failure detector still counts it up
        c.write(row(500, "t", "timed-out"), ConsistencyLevel.QUORUM, null).join();
        await(() -> h.hintsWritten() == 1, "the write that timed out is hinted");
        assertThat(local(silent, 500, "t")).isNull();
        cut.clear();
        h.dispatchAll(); // what the 10-second trigger does for every live node with hints
        await(() -> "timed-out".equals(local(silent, 500, "t")), "the hint reaches the replica");
        assertThat(h.hintsDelivered()).isEqualTo(1);
    }

    @Test
    void consistencyLevelAnyIsMetByAHintWhenEveryReplicaIsDown() throws Exception {
        start();
        HintsService h = hints(config());
        Coordinator c = coordinator(h, 1);
        TestNode owner = nodes.get(2); // token 1500: its only replica is the node owning 2000
        markDown(owner);
        c.write(row(1500, "any", "hinted"), ConsistencyLevel.ANY, null).join();
        assertThat(h.hintsWritten()).isEqualTo(1);
        assertThatThrownBy(() -> c.write(row(1500, "one", "x"), ConsistencyLevel.ONE, null).join())
                .cause().isInstanceOf(UnavailableException.class);

        markUp(owner);
        h.dispatchAll();
        await(() -> "hinted".equals(local(owner, 1500, "any")), "the hint held for CL ANY is delivered");

        // without hinted handoff, nothing can hold a write at ANY when every replica is down: Unavailable
        HintsService off = hints(new HintsConfig(false, dir.resolve("hints-off"), 3_600_000, Set.of(), 1 << 20, 0,
                10_000, 0, 1, true, false));
        Coordinator c2 = coordinator(off, 1);
        markDown(owner);
        assertThatThrownBy(() -> c2.write(row(1500, "any2", "x"), ConsistencyLevel.ANY, null).join())
                .cause().isInstanceOf(UnavailableException.class);
        assertThat(off.hintsWritten()).isZero();
    }

    @Test
    void noHintIsWrittenForANodeDownLongerThanTheWindowOrInADisabledDatacenter() throws Exception {
        start();
        HintsService h = hints(config().withMaxHintWindowMillis(1000));
        Coordinator c = coordinator(h, 3);
        TestNode gone = nodes.get(2);
        markDown(gone);
        downSince.put(gone.endpoint.hostId(), System.currentTimeMillis() - 5000);
        c.write(row(500, "late", "x"), ConsistencyLevel.QUORUM, null).join();
        assertThat(h.hintsWritten()).isZero();
        assertThat(h.hintsPastWindow()).isEqualTo(1);

        HintsService dcOff = hints(new HintsConfig(true, dir.resolve("hints-dc"), 3_600_000, Set.of("dc1"), 1 << 20,
                0, 10_000, 0, 1, true, false));
        assertThat(dcOff.shouldHint(gone.endpoint)).isFalse();
    }

    @Test
    void thePersistentWindowCountsFromTheOldestHintStoredForTheNode() throws Exception {
        start();
        HintsService h = hints(config().withMaxHintWindowMillis(300));
        Coordinator c = coordinator(h, 3);
        TestNode gone = nodes.get(2);
        c.write(row(500, "warm", "up"), ConsistencyLevel.ALL, null).join();
        cut.add(gone.address); // never convicted: only its stored hints age
        c.write(row(500, "first", "x"), ConsistencyLevel.QUORUM, null).join();
        await(() -> h.hintsWritten() == 1, "the first hint is written");
        Thread.sleep(400);
        assertThat(h.shouldHint(gone.endpoint)).isFalse();
        assertThat(h.hintsPastWindow()).isEqualTo(1);
    }

    @Test
    void hintsSurviveARestartOfTheCoordinatorAndExpiredOnesAreDropped() throws Exception {
        start();
        HintsService h = hints(config());
        Coordinator c = coordinator(h, 3);
        TestNode gone = nodes.get(2);
        markDown(gone);
        c.write(row(500, "durable", "kept"), ConsistencyLevel.QUORUM, null).join();
        gcGrace = 0; // this one's table allows no time to live: expired at delivery
        c.write(row(500, "short", "gone"), ConsistencyLevel.QUORUM, null).join();
        await(() -> h.hintsWritten() == 2, "two hints are written");
        h.close();
        services.remove(h);
        assertThat(hintFiles()).isEqualTo(1);

        HintsService again = hints(config());
        assertThat(again.pendingBytes(gone.endpoint.hostId())).isPositive();
        markUp(gone);
        Thread.sleep(5);
        again.onUp(gone.endpoint);
        await(() -> again.pending().isEmpty(), "the hints read back after the restart are delivered");
        assertThat(local(gone, 500, "durable")).isEqualTo("kept");
        assertThat(local(gone, 500, "short")).isNull();
        assertThat(again.hintsDelivered()).isEqualTo(1);
        assertThat(again.hintsExpired()).isEqualTo(1);
        assertThat(hintFiles()).isZero();
    }

    @Test
    void hintsForOneHostStopAtMaxHintsSizePerHost() throws Exception {
        start();
        Mutation m = row(500, "k", "v");
        HintsService h = hints(config().withMaxSizePerHostBytes(HintsLayout.recordSize(m.serializedSize())
                + HintsLayout.HEADER_SIZE));
        Endpoint target = nodes.get(2).endpoint;
        assertThat(h.hint(target, m).join()).isTrue();
        assertThat(h.hint(target, m).join()).isFalse();
        assertThat(h.hintsWritten()).isEqualTo(1);
        assertThat(h.hintsNotWritten()).isEqualTo(1);
    }

    @Test
    void aTornLastRecordIsIgnoredAndFilesRollAtMaxHintsFileSize() throws Exception {
        start();
        Mutation m = row(500, "k", "v");
        int record = HintsLayout.recordSize(m.serializedSize());
        HintsService h = hints(config().withMaxFileSizeBytes(HintsLayout.HEADER_SIZE + 3L * record));
        Endpoint target = nodes.get(2).endpoint;
        for (int i = 0; i < 5; i++) {
            assertThat(h.hint(target, m).join()).isTrue();
        }
        assertThat(h.pending()).singleElement().satisfies(p -> assertThat(p.files()).isEqualTo(2));
        h.close();
        services.remove(h);
        Path second;
        try (Stream<Path> s = Files.list(dir.resolve("hints"))) {
            second = s.max((x, y) -> Long.compare(HintsLayout.sequence(x.getFileName().toString()),
                    HintsLayout.sequence(y.getFileName().toString()))).orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(second.toFile(), "rw")) {
            f.setLength(f.length() - 3); // the node died while appending the last record
        }
        try (HintsReader r = new HintsReader(second, 0)) {
            assertThat(r.next()).isNotNull();
            assertThat(r.next()).isNull();
        }
        Files.write(second, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.WRITE);
        assertThatThrownBy(() -> new HintsReader(second, 0)).isInstanceOf(CorruptHintsException.class)
                .hasMessageContaining(second.toString());
    }
}
