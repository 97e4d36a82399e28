package io.charybdis.cluster.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.cluster.Coordinator;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range reads over three nodes in one JVM, each owning two vnode ranges (tokens i*1000 and i*1000 + 3000): full
 * scans and token ranges walk the ring in token order, pages resume across nodes, and at QUORUM the replicas
 * asked are reconciled and repaired.
 */
@Timeout(60)
class RangeReadsAcrossNodesTest {
    static final TableId TABLE = TableId.of(new UUID(43, 43));
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @TempDir
    Path dir;

    final Set<InetSocketAddress> cut = ConcurrentHashMap.newKeySet();
    final List<Node> nodes = new ArrayList<>();
    final MutationBuilder b = new MutationBuilder();
    /** Partition tokens spread over every vnode range, the wrapping one included. */
    static final long[] TOKENS = {Long.MIN_VALUE + 7, -900, -1, 0, 1, 500, 999, 1000, 1001, 1999, 2000, 2500, 3000,
        3500, 4001, 5000, 5001, 9000, Long.MAX_VALUE - 3};

    final class Node extends io.charybdis.cluster.testing.InProcessNode {
        Node(int i) {
            super(dir.resolve("n" + i), i, 2, "r1",
                    (from, to, verb, response) -> cut.contains(to) || cut.contains(from) ? FaultInjector.DROP : 0,
                    new TableDescriptor(TABLE, "ks", "t", Map.of(), Map.of("enabled", "false"), 864000));
        }
    }

    void start(int rf) {
        for (int i = 0; i < 3; i++) {
            nodes.add(new Node(i));
        }
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            tokens.put(nodes.get(i).endpoint, List.of(i * 1000L, i * 1000L + 3000));
        }
        TokenRing ring = TokenRing.of(tokens);
        Map<String, String> replication = Map.of("class", "SimpleStrategy", "replication_factor", String.valueOf(rf));
        for (Node n : nodes) {
            n.coordinator = new Coordinator(n.storage, new ClusterMetadata(2, ring, n.endpoint), t -> replication,
                    e -> !cut.contains(new InetSocketAddress(e.address(), e.storagePort())), n.replicas, 500, 500);
        }
    }

    @AfterEach
    void stop() {
        nodes.forEach(Node::close);
    }

    Mutation row(long token, String key, String value) {
        b.start(TABLE, token, key.getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1}).rowMarker(10, 0, 0)
                .cell(0, 10, 0, 0, ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8))).endRow();
        return b.build();
    }

    static String key(long token) {
        return "k" + token;
    }

    void writeAll(ConsistencyLevel cl) {
        for (long t : TOKENS) {
            nodes.get(1).coordinator.write(row(t, key(t), "v" + t), cl, null).join();
        }
    }

    static ReadCommand.Builder scan() {
        return ReadCommand.range(TABLE, null, null).nowInSeconds(NOW);
    }

    /** (token, value) of every partition in the result, in order. */
    static List<String> rows(ReadResult r) {
        List<String> out = new ArrayList<>();
        ReadResult.Cursor c = r.cursor();
        while (c.nextPartition()) {
            while (c.nextRow()) {
                String v = c.nextCell() ? new String(c.valueBytes(), StandardCharsets.UTF_8) : "";
                out.add(c.token() + "=" + v);
            }
        }
        return out;
    }

    static List<String> expected(long from, long to) {
        List<String> out = new ArrayList<>();
        for (long t : TOKENS) {
            if (t > from && t <= to) {
                out.add(t + "=v" + t);
            }
        }
        return out;
    }

    @Test
    void aFullScanWalksTheRingInTokenOrderOverNodesThatEachOwnPartOfIt() {
        start(1);
        writeAll(ConsistencyLevel.ONE);
        int held = 0;
        for (Node n : nodes) {
            held += n.storage.read(scan().build()).join().partitionCount(); // each node holds its ranges only
        }
        assertThat(held).isEqualTo(TOKENS.length);
        for (Node n : nodes) {
            assertThat(rows(n.coordinator.read(scan().build(), ConsistencyLevel.ONE, null).join()))
                    .containsExactlyElementsOf(expected(Long.MIN_VALUE, Long.MAX_VALUE));
        }
    }

    @Test
    void tokenRangesAreClippedToTheReadsBounds() {
        start(1);
        writeAll(ConsistencyLevel.ONE);
        ReadCommand c = ReadCommand.range(TABLE, ReadCommand.KeyBound.token(500, false),
                ReadCommand.KeyBound.token(3500, true)).nowInSeconds(NOW).build();
        assertThat(rows(nodes.get(2).coordinator.read(c, ConsistencyLevel.ONE, null).join()))
                .containsExactlyElementsOf(expected(500, 3500));
        ReadCommand tail = ReadCommand.range(TABLE, ReadCommand.KeyBound.token(5000, true), null).nowInSeconds(NOW)
                .build();
        assertThat(rows(nodes.get(0).coordinator.read(tail, ConsistencyLevel.ONE, null).join()))
                .containsExactlyElementsOf(expected(4999, Long.MAX_VALUE));
    }

    @Test
    void pagesResumeAcrossNodesUntilTheScanIsExhausted() {
        start(1);
        writeAll(ConsistencyLevel.ONE);
        for (int pageSize : new int[] {1, 2, 5}) {
            List<String> seen = new ArrayList<>();
            ReadCommand.ResumePoint resume = null;
            int pages = 0;
            while (true) {
                ReadCommand.Builder cmd = scan().rowLimit(pageSize);
                if (resume != null) {
                    cmd.startAfter(resume);
                }
                ReadResult page = nodes.get(0).coordinator.read(cmd.build(), ConsistencyLevel.ONE, null).join();
                List<String> got = rows(page);
                assertThat(got.size()).isLessThanOrEqualTo(pageSize);
                seen.addAll(got);
                pages++;
                if (!page.limitReached() || got.isEmpty()) {
                    break;
                }
                resume = page.resumePoint();
            }
            assertThat(seen).as("page size %d", pageSize).containsExactlyElementsOf(expected(Long.MIN_VALUE,
                    Long.MAX_VALUE));
            assertThat(pages).isGreaterThanOrEqualTo(TOKENS.length / pageSize);
        }
        ReadResult limited = nodes.get(2).coordinator.read(scan().partitionLimit(4).build(), ConsistencyLevel.ONE, null)
                .join();
        assertThat(rows(limited)).containsExactlyElementsOf(expected(Long.MIN_VALUE, Long.MAX_VALUE).subList(0, 4));
        assertThat(limited.limitReached()).isTrue();
    }

    @Test
    void aQuorumScanReconcilesTheReplicasAskedAndRepairsTheOnesBehind() {
        start(2);
        writeAll(ConsistencyLevel.ALL);
        Node behind = nodes.get(0);
        cut.add(behind.address);
        // node 0 misses a new partition, an update and a deletion
        nodes.get(1).coordinator.write(row(1500, "new", "fresh"), ConsistencyLevel.ONE, null).join();
        b.start(TABLE, 1999, key(1999).getBytes(StandardCharsets.UTF_8)).beginRow(new byte[] {1}).rowMarker(20, 0, 0)
                .cell(0, 20, 0, 0, ByteBuffer.wrap("updated".getBytes(StandardCharsets.UTF_8))).endRow();
        nodes.get(1).coordinator.write(b.build(), ConsistencyLevel.ONE, null).join();
        b.start(TABLE, 2500, key(2500).getBytes(StandardCharsets.UTF_8)).partitionDeletion(20, NOW);
        nodes.get(1).coordinator.write(b.build(), ConsistencyLevel.ONE, null).join();
        cut.clear();

        List<String> want = new ArrayList<>(expected(Long.MIN_VALUE, Long.MAX_VALUE));
        want.remove("2500=v2500");
        want.add(want.indexOf("1999=v1999"), "1500=fresh");
        want.set(want.indexOf("1999=v1999"), "1999=updated");
        assertThat(rows(behind.coordinator.read(scan().build(), ConsistencyLevel.QUORUM, null).join()))
                .containsExactlyElementsOf(want);
        // node 0 replicates (1000, 2000] and (2000, 3000]: what it missed there was repaired by the scan
        List<String> own = rows(behind.storage.read(scan().build()).join());
        assertThat(own).contains("1500=fresh", "1999=updated").doesNotContain("2500=v2500", "1999=v1999");
        assertThat(rows(behind.coordinator.read(scan().build(), ConsistencyLevel.ALL, null).join()))
                .containsExactlyElementsOf(want);
    }

    @Test
    void aScanNeedsEnoughLiveReplicasOfEveryRange() {
        start(2);
        writeAll(ConsistencyLevel.ALL);
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> nodes.get(0).coordinator.read(scan().build(), ConsistencyLevel.ALL, null).join())
                .cause().isInstanceOf(UnavailableException.class);
        assertThat(rows(nodes.get(0).coordinator.read(scan().build(), ConsistencyLevel.ONE, null).join()))
                .containsExactlyElementsOf(expected(Long.MIN_VALUE, Long.MAX_VALUE));
    }

    @Test
    void truncateEmptiesTheTableOnEveryNodeAndNeedsThemAllUp() {
        start(2);
        writeAll(ConsistencyLevel.ALL);
        cut.add(nodes.get(2).address);
        assertThatThrownBy(() -> nodes.get(0).coordinator.truncate(TABLE, null).join()).cause()
                .isInstanceOfSatisfying(UnavailableException.class, e -> {
                    assertThat(e.consistency()).isEqualTo(ConsistencyLevel.ALL);
                    assertThat(e.required()).isEqualTo(3);
                    assertThat(e.alive()).isEqualTo(2);
                });
        assertThat(nodes.get(0).storage.read(scan().build()).join().isEmpty()).isFalse(); // nothing was truncated
        cut.clear();
        nodes.get(1).coordinator.truncate(TABLE, null).join();
        for (Node n : nodes) {
            assertThat(n.storage.read(scan().build()).join().isEmpty()).isTrue();
        }
        assertThat(rows(nodes.get(0).coordinator.read(scan().build(), ConsistencyLevel.ONE, null).join())).isEmpty();
    }
}
