package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.cluster.messaging.Verb;
import io.charybdis.node.CharybdisNode;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas made to diverge — the mutations to the third node dropped while rows are inserted, updated and deleted at
 * QUORUM — hold the same data after Apache Cassandra's own {@code nodetool repair --full} (5.0.6, a separate
 * process, through the reference launcher next to the repository) run against the first node.
 */
@Timeout(600)
class RepairWithNodetoolTest {
    static final Path NODETOOL = io.charybdis.node.testing.ApacheNodetool.NODETOOL;

    @TempDir
    Path dir;

    ClusterNodes cluster;
    final AtomicBoolean cut = new AtomicBoolean();
    volatile InetSocketAddress victim;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static Path jdk17() {
        return io.charybdis.node.testing.ApacheNodetool.jdk17();
    }

    @Test
    void divergedReplicasAreEqualAfterNodetoolRepair() throws Exception {
        Path jdk = jdk17();
        Assumptions.assumeTrue(Files.isExecutable(NODETOOL), "the reference nodetool launcher is absent: " + NODETOOL);
        Assumptions.assumeTrue(jdk != null, "no JDK 17 to run Apache Cassandra's nodetool (set JAVA17_HOME)");

        cluster = new ClusterNodes(dir, (from, to, verb, response) ->
                cut.get() && verb == Verb.MUTATION && !response && to.equals(victim) ? FaultInjector.DROP : 0);
        victim = cluster.storageAddress(3);
        cluster.hintedHandoff = false; // the writes node 3 misses stay missed until the repair (no hints replayed)
        CharybdisNode n1 = cluster.start(1);
        CharybdisNode n2 = cluster.start(2);
        CharybdisNode n3 = cluster.start(3);
        try (CqlSession s = ClusterNodes.session(n1)) {
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            Node first = null;
            for (Node n : s.getMetadata().getNodes().values()) {
                if (((InetSocketAddress) n.getEndPoint().resolve()).getAddress().equals(n1.info().rpcAddress())) {
                    first = n;
                }
            }
            PreparedStatement insert = s.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
            PreparedStatement delete = s.prepare("DELETE FROM ks.t WHERE k = ?");
            for (int k = 0; k < 200; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.ALL).setNode(first));
            }
            cut.set(true); // the third node misses what follows
            for (int k = 200; k < 400; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM).setNode(first));
            }
            for (int k = 0; k < 50; k++) {
                s.execute(insert.bind(k, "updated" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                        .setNode(first));
            }
            for (int k = 50; k < 70; k++) {
                s.execute(delete.bind(k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM).setNode(first));
            }
            cut.set(false);
        }
        n2.storage().flushAll().get(30, TimeUnit.SECONDS); // some of it in SSTables, some in memtables
        TableId table = ClusterNodes.table(n1, "ks", "t");
        TreeMap<DecoratedKey, Mutation> before1 = ClusterNodes.contents(n1, table);
        TreeMap<DecoratedKey, Mutation> before3 = ClusterNodes.contents(n3, table);
        assertThat(before1).hasSize(400);
        assertThat(before3).hasSize(200); // diverged: none of the later inserts, updates or deletions
        assertThat(digest(ClusterNodes.contents(n2, table))).isEqualTo(digest(before1));

        List<String> command = List.of(NODETOOL.toString(), "-h", n1.jmx().host(), "-p",
                String.valueOf(n1.jmx().port()), "repair", "--full", "ks");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", jdk.toString());
        pb.environment().put("PATH", jdk.resolve("bin") + ":" + System.getenv("PATH"));
        Path log = dir.resolve("nodetool.log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean done = p.waitFor(420, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(done).as("nodetool repair finished; output:\n%s", output).isTrue();
        assertThat(p.exitValue()).as("nodetool repair exit status; output:\n%s", output).isZero();
        System.out.println("nodetool repair --full ks:\n" + output);
        assertThat(output).contains("Repair completed successfully").contains("out of sync");

        // the cluster as nodetool shows it
        String status = nodetool(jdk, n1, "status", "ks");
        assertThat(status.lines().filter(l -> l.startsWith("UN ")).count()).as(status).isEqualTo(3);
        assertThat(status).contains("100.0%").contains(n3.info().hostId().toString());
        // every member's load is known (each answers the failure detector's probes with it), none shown as "?"
        assertThat(status.lines().filter(l -> l.startsWith("UN ")))
                .allSatisfy(l -> assertThat(l.split("\\s+")[2]).as(l).matches("[0-9.]+"));
        String endpoints = nodetool(jdk, n1, "getendpoints", "ks", "t", "7");
        assertThat(endpoints.lines().filter(l -> l.startsWith("127.0.0.")).count()).as(endpoints).isEqualTo(3);
        String ring = nodetool(jdk, n1, "ring", "ks");
        assertThat(ring.lines().filter(l -> l.contains(" Up ") && l.contains(" Normal ")).count()).as(ring)
                .isEqualTo(3 * 8);
        String describe = nodetool(jdk, n1, "describecluster");
        assertThat(describe).contains("Live: 3").contains("Unreachable: 0");
        String netstats = nodetool(jdk, n1, "netstats");
        assertThat(netstats).contains("Mode: NORMAL").contains("Not sending any streams.").contains("Small messages");
        String gossip = nodetool(jdk, n1, "gossipinfo");
        assertThat(gossip.lines().filter(l -> l.startsWith("/127.0.0.")).count()).as(gossip).isEqualTo(3);

        Map<DecoratedKey, String> after1 = digest(ClusterNodes.contents(n1, table));
        assertThat(after1).hasSize(400);
        assertThat(digest(ClusterNodes.contents(n2, table))).isEqualTo(after1);
        assertThat(digest(ClusterNodes.contents(n3, table))).isEqualTo(after1);

        // nodetool rebuild: the third node's copy of the table is lost; it streams it back from the other replicas
        n3.storage().truncate(table).get(30, TimeUnit.SECONDS);
        assertThat(ClusterNodes.contents(n3, table)).isEmpty();
        nodetool(jdk, n3, "rebuild");
        assertThat(digest(ClusterNodes.contents(n3, table))).isEqualTo(after1);
        assertThat(nodetool(jdk, n3, false, "rebuild", "nodc")).contains("Provided datacenter 'nodc' is not a valid "
                + "datacenter, available datacenters are: datacenter1");

        // nodetool move: refused with vnodes, as Cassandra refuses it
        assertThat(nodetool(jdk, n1, false, "move", "100"))
                .contains("This node has more than one token and cannot be moved thusly.");

        // nodetool assassinate: a live member is refused; the third node dies, and leaves the ring without streaming
        assertThat(nodetool(jdk, n1, false, "assassinate", "127.0.0.3")).contains("is alive");
        java.util.UUID dead = n3.cluster().self();
        n3.close();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (n1.cluster().members().stream().anyMatch(m -> m.hostId().equals(dead) && m.alive())
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        nodetool(jdk, n1, "assassinate", "127.0.0.3");
        assertThat(n1.cluster().members()).hasSize(2).noneMatch(m -> m.hostId().equals(dead));
        assertThat(nodetool(jdk, n2, "status").lines().filter(l -> l.startsWith("UN ")).count()).isEqualTo(2);
    }

    /** Each partition's whole content (cells with timestamps, tombstones) as hex, to compare replicas. */
    static Map<DecoratedKey, String> digest(TreeMap<DecoratedKey, Mutation> contents) throws IOException {
        Map<DecoratedKey, String> out = new TreeMap<>();
        for (var e : contents.entrySet()) {
            java.nio.ByteBuffer b = e.getValue().asByteBuffer();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            out.put(e.getKey(), java.util.HexFormat.of().formatHex(bytes));
        }
        return out;
    }

    String nodetool(Path jdk, CharybdisNode n, String... args) throws Exception {
        return nodetool(jdk, n, true, args);
    }

    /** Apache's nodetool against {@code n}: its output; its exit status zero when {@code succeeds}, else non-zero. */
    String nodetool(Path jdk, CharybdisNode n, boolean succeeds, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(NODETOOL.toString(), "-h", n.jmx().host(), "-p",
                String.valueOf(n.jmx().port())));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", jdk.toString());
        pb.environment().put("PATH", jdk.resolve("bin") + ":" + System.getenv("PATH"));
        Path log = Files.createTempFile(dir, "nodetool", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println("nodetool " + String.join(" ", args) + ":\n" + output);
        if (succeeds) {
            assertThat(p.exitValue()).as("nodetool %s: %s", String.join(" ", args), output).isZero();
        } else {
            assertThat(p.exitValue()).as("nodetool %s: %s", String.join(" ", args), output).isNotZero();
        }
        return output;
    }
}
