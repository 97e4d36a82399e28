package io.charybdis.node.model;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random writes with explicit timestamps (many ties), deletes of every kind, batches and lightweight transactions
 * are applied both to a node, through the Java driver, and to {@link CassandraModel}; every read is compared,
 * with flushes and restarts in between so that memtables, SSTables and commit log replay all take part.
 */
@Timeout(300)
class RandomizedDifferentialTest {
    private static final int PARTITIONS = 5;
    private static final int CLUSTERINGS = 8;
    private static final int OPERATIONS = 1500;

    private final Random random = new Random(Long.getLong("charybdis.test.seed", 20261122L));
    private final CassandraModel model = new CassandraModel();
    private long lwtTimestamp = Long.MAX_VALUE / 4;
    private Path dir;
    private CharybdisNode node;
    private CqlSession session;

    private void start() throws Exception {
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withKeyspace((String) null).build();
    }

    private void stop() {
        session.close();
        node.close();
    }

    @Test
    void shouldAgreeWithTheModelOnEveryRead() throws Exception {
        dir = Files.createTempDirectory("charybdis-model");
        try {
            start();
            session.execute("CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE m.t (pk int, ck int, v int, w text, st int static, tags set<int>, "
                    + "PRIMARY KEY (pk, ck))");
            for (int op = 1; op <= OPERATIONS; op++) {
                operation(op);
                if (op % 100 == 0) {
                    compareEverything("after operation " + op);
                }
                if (op % 250 == 0) {
                    node.storage().flushAll().join();
                }
                if (op % 500 == 0) {
                    stop();
                    start();
                    compareEverything("after restart at operation " + op);
                }
            }
            compareEverything("at the end");
            stop();
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private long ts() {
        return 1 + random.nextInt(400);
    }

    private int pk() {
        return random.nextInt(PARTITIONS);
    }

    private int ck() {
        return random.nextInt(CLUSTERINGS);
    }

    private Integer value() {
        return random.nextInt(6) == 0 ? null : random.nextInt(1000);
    }

    private String text() {
        return random.nextInt(6) == 0 ? null : "t" + random.nextInt(50);
    }

    /** One random operation; also the statement, for batches. */
    private SimpleStatement statement(long ts) {
        int pk = pk();
        int ck = ck();
        switch (random.nextInt(10)) {
            case 0, 1 -> {
                Integer v = value();
                String w = text();
                model.insert(pk, ck, v, w, ts);
                return SimpleStatement.newInstance("INSERT INTO m.t (pk, ck, v, w) VALUES (?, ?, ?, ?) USING TIMESTAMP "
                        + ts + (random.nextBoolean() ? " AND TTL 100000" : ""), pk, ck, v, w);
            }
            case 2 -> {
                Integer v = value();
                model.updateV(pk, ck, v, ts);
                return SimpleStatement.newInstance("UPDATE m.t USING TIMESTAMP " + ts + " SET v = ? WHERE pk = ? AND "
                        + "ck = ?", v, pk, ck);
            }
            case 3 -> {
                Integer st = value();
                model.updateStatic(pk, st, ts);
                return SimpleStatement.newInstance("UPDATE m.t USING TIMESTAMP " + ts + " SET st = ? WHERE pk = ?",
                        st, pk);
            }
            case 4 -> {
                int tag = random.nextInt(5);
                if (random.nextBoolean()) {
                    model.addTag(pk, ck, tag, ts);
                    return SimpleStatement.newInstance("UPDATE m.t USING TIMESTAMP " + ts + " SET tags = tags + {"
                            + tag + "} WHERE pk = ? AND ck = ?", pk, ck);
                }
                model.removeTag(pk, ck, tag, ts);
                return SimpleStatement.newInstance("UPDATE m.t USING TIMESTAMP " + ts + " SET tags = tags - {"
                        + tag + "} WHERE pk = ? AND ck = ?", pk, ck);
            }
            case 5 -> {
                List<Integer> tags = new ArrayList<>(new TreeSet<>(List.of(random.nextInt(5), random.nextInt(5))));
                model.setTags(pk, ck, tags, ts);
                return SimpleStatement.newInstance("UPDATE m.t USING TIMESTAMP " + ts + " SET tags = {"
                        + String.join(", ", tags.stream().map(String::valueOf).toList()) + "} WHERE pk = ? AND ck = ?",
                        pk, ck);
            }
            case 6 -> {
                model.deleteV(pk, ck, ts);
                return SimpleStatement.newInstance("DELETE v FROM m.t USING TIMESTAMP " + ts + " WHERE pk = ? AND "
                        + "ck = ?", pk, ck);
            }
            case 7 -> {
                model.deleteRow(pk, ck, ts);
                return SimpleStatement.newInstance("DELETE FROM m.t USING TIMESTAMP " + ts + " WHERE pk = ? AND "
                        + "ck = ?", pk, ck);
            }
            case 8 -> {
                int from = ck();
                int to = from + 1 + random.nextInt(3);
                model.deleteRange(pk, from, to, ts);
                return SimpleStatement.newInstance("DELETE FROM m.t USING TIMESTAMP " + ts + " WHERE pk = ? AND "
                        + "ck >= ? AND ck < ?", pk, from, to);
            }
            default -> {
                if (random.nextInt(4) != 0) {
                    Integer v = value();
                    model.insert(pk, ck, v, null, ts);
                    return SimpleStatement.newInstance("INSERT INTO m.t (pk, ck, v, w) VALUES (?, ?, ?, null) USING "
                            + "TIMESTAMP " + ts, pk, ck, v);
                }
                model.deletePartition(pk, ts);
                return SimpleStatement.newInstance("DELETE FROM m.t USING TIMESTAMP " + ts + " WHERE pk = ?", pk);
            }
        }
    }

    private void operation(int op) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            long ts = ts();
            BatchStatementBuilder b = BatchStatement.builder(random.nextBoolean() ? BatchType.LOGGED
                    : BatchType.UNLOGGED);
            int n = 2 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                b.addStatement(statement(ts));
            }
            session.execute(b.build());
        } else if (kind == 1) {
            int pk = pk();
            int ck = ck();
            Integer v = random.nextInt(1000);
            boolean exists = model.rowExists(pk, ck);
            Row r = session.execute(SimpleStatement.newInstance("INSERT INTO m.t (pk, ck, v) VALUES (?, ?, ?) IF NOT "
                    + "EXISTS", pk, ck, v)).one();
            assertThat(r.getBoolean("[applied]")).as("op %d IF NOT EXISTS on (%d, %d)", op, pk, ck).isEqualTo(!exists);
            if (!exists) {
                long ts = ++lwtTimestamp;
                model.insert(pk, ck, v, null, ts);
                // IF NOT EXISTS inserts only the given columns: undo the model's w tombstone
                model.partitions.get(pk).rows.get(ck).cells.remove("w");
            }
        } else {
            session.execute(statement(ts()));
        }
    }

    private void compareEverything(String when) {
        for (int pk = 0; pk < PARTITIONS; pk++) {
            List<CassandraModel.VisibleRow> expected = model.read(pk);
            List<CassandraModel.VisibleRow> actual = new ArrayList<>();
            for (Row r : session.execute(SimpleStatement.newInstance("SELECT ck, v, w, st, tags FROM m.t WHERE pk = ?",
                    pk))) {
                java.util.Set<Integer> tags = r.getSet("tags", Integer.class);
                actual.add(new CassandraModel.VisibleRow(r.isNull("ck") ? null : r.getInt("ck"),
                        r.isNull("v") ? null : r.getInt("v"), r.getString("w"), r.isNull("st") ? null : r.getInt("st"),
                        tags == null || tags.isEmpty() ? null : new TreeSet<>(tags)));
            }
            assertThat(actual).as("partition %d %s", pk, when).isEqualTo(expected);
        }
        long expectedRows = 0;
        for (int pk = 0; pk < PARTITIONS; pk++) {
            expectedRows += model.read(pk).size();
        }
        long scanned = session.execute("SELECT pk, ck FROM m.t").all().size();
        assertThat(scanned).as("full scan %s", when).isEqualTo(expectedRows);
    }
}
