package io.charybdis.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.charybdis.cluster.messaging.FaultInjector;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.jmx.ClusterOps;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fourth node bootstraps into a three-node cluster (RF=2) under a QUORUM write load, the old owners clean up what
 * they no longer replicate, and the fourth node is decommissioned again over JMX, the load still running: every
 * acknowledged row is still readable at ALL, and every partition is on exactly the replicas the ring names. Then a
 * third node dies and is removed (removenode): the two left re-replicate its ranges, each holding every row.
 */
@Timeout(300)
class BootstrapDecommissionTest {
    @TempDir
    Path dir;

    ClusterNodes cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFourthNodeBootstrapsUnderLoadAndIsDecommissionedWithoutLosingARow() throws Exception {
        cluster = new ClusterNodes(dir, FaultInjector.NONE);
        CharybdisNode n1 = cluster.start(1);
        cluster.start(2);
        cluster.start(3);
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Integer> acknowledged = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        Map<Long, Integer> tokens = new HashMap<>();
        try (CqlSession s = ClusterNodes.session(n1)) {
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
            s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
            PreparedStatement insert = s.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
            for (int k = 0; k < 300; k++) {
                s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
                acknowledged.add(k);
            }
            Thread writer = new Thread(() -> {
                int k = 300;
                while (writing.get()) {
                    try {
                        s.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
                        acknowledged.add(k);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet(); // not acknowledged: it may or may not be there
                    }
                    k++;
                }
            }, "write-load");
            writer.start();

            CharybdisNode n4 = cluster.start(4); // returns once it has bootstrapped
            ClusterOps ops4 = n4.cluster();
            assertThat(ops4.members()).hasSize(4).allMatch(m -> m.status().equals("NORMAL"));
            assertThat(ops4.streamingTotals()[0]).as("partitions streamed to the new node").isPositive();
            Thread.sleep(1000);
            for (int i = 0; i < 3; i++) { // the old owners drop what moved to the new node
                cluster.nodes.get(i).cluster().cleanup("ks", List.of());
            }
            int duringJoin = acknowledged.size();

            // nodetool decommission's call, on the node's MBean server (RMI stubs of several in-process JMX servers
            // all carry the first one's host name, so a remote connection would reach node 1)
            n4.jmx().mbeanServer().invoke(new ObjectName("org.apache.cassandra.db:type=StorageService"),
                    "decommission", new Object[] {false}, new String[] {"boolean"});
            UUID gone = ops4.self();
            assertThat(n1.cluster().members()).hasSize(3).noneMatch(m -> m.hostId().equals(gone));
            Thread.sleep(1000);
            writing.set(false);
            writer.join(30_000);
            assertThat(acknowledged.size()).as("writes acknowledged while the fourth node joined and left")
                    .isGreaterThan(duringJoin).isGreaterThan(300);

            // no acknowledged row lost: each reads back at ALL (both replicas answer)
            PreparedStatement select = s.prepare("SELECT v, token(k) FROM ks.t WHERE k = ?");
            for (int k : acknowledged) {
                Row r = s.execute(select.bind(k).setConsistencyLevel(DefaultConsistencyLevel.ALL)).one();
                assertThat(r).as("row k=%d", k).isNotNull();
                assertThat(r.getString(0)).isEqualTo("v" + k);
                tokens.put(r.getLong(1), k);
            }
        }

        // each partition on exactly the RF replicas the ring names, and nowhere else
        List<CharybdisNode> live = cluster.nodes.subList(0, 3);
        TableId table = ClusterNodes.table(n1, "ks", "t");
        Map<DecoratedKey, Set<UUID>> holders = new HashMap<>();
        for (CharybdisNode n : live) {
            for (DecoratedKey k : ClusterNodes.contents(n, table).keySet()) {
                holders.computeIfAbsent(k, x -> new HashSet<>()).add(n.cluster().self());
            }
        }
        assertThat(holders.size()).isGreaterThanOrEqualTo(acknowledged.size());
        List<String> wrong = new ArrayList<>();
        for (var e : holders.entrySet()) {
            Set<UUID> expected = new HashSet<>();
            for (ClusterOps.Member m : n1.cluster().replicas("ks", e.getKey().token())) {
                expected.add(m.hostId());
            }
            assertThat(expected).hasSize(2);
            // a write that failed (not acknowledged) may have reached one replica only; acknowledged ones are whole
            boolean ok = tokens.containsKey(e.getKey().token()) ? e.getValue().equals(expected)
                    : expected.containsAll(e.getValue());
            if (!ok) {
                wrong.add("token=" + e.getKey().token() + " held by " + e.getValue() + ", replicas " + expected);
            }
        }
        assertThat(wrong).as("partitions not on exactly their replicas").isEmpty();
        assertThat(holders.keySet().stream().map(DecoratedKey::token).toList()).containsAll(tokens.keySet());

        // removenode: the third node dies; the other two re-replicate its ranges from each other
        CharybdisNode n3 = cluster.nodes.get(2);
        UUID dead = n3.cluster().self();
        n3.close();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (n1.cluster().members().stream().anyMatch(m -> m.hostId().equals(dead) && m.alive())
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        n1.jmx().mbeanServer().invoke(new ObjectName("org.apache.cassandra.db:type=StorageService"), "removeNode",
                new Object[] {dead.toString()}, new String[] {String.class.getName()});
        assertThat(n1.cluster().members()).hasSize(2).noneMatch(m -> m.hostId().equals(dead));
        CharybdisNode n2 = cluster.nodes.get(1);
        Set<Long> on1 = new HashSet<>();
        ClusterNodes.contents(n1, table).keySet().forEach(k -> on1.add(k.token()));
        Set<Long> on2 = new HashSet<>();
        ClusterNodes.contents(n2, table).keySet().forEach(k -> on2.add(k.token()));
        assertThat(on1).as("RF=2 on two nodes: each holds every acknowledged row").containsAll(tokens.keySet());
        assertThat(on2).containsAll(tokens.keySet());
    }
}
