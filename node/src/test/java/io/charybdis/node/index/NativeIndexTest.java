package io.charybdis.node.index;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.TableId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Native secondary indexes at the storage level, through a real node: the index stays right across flushes,
 * compactions, deletes, overwrites and TTL expiry; its entries live in the engine's off-heap structures (the heap
 * does not grow with the indexed rows); an index created over existing data is built, in the background.
 */
@Timeout(180)
class NativeIndexTest {
    static Path dir;
    static CharybdisNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-index");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
                        .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_TIMEOUT,
                                java.time.Duration.ofSeconds(30)).build())
                .build();
        session.execute("CREATE KEYSPACE ix WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static List<String> keys(String cql) {
        List<String> out = new ArrayList<>();
        for (Row r : session.execute(SimpleStatement.newInstance(cql).setPageSize(7))) {
            out.add(r.getInt(0) + ":" + r.getInt(1));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static TableId indexTable(String table, String index) {
        TableMetadata t = node.schemas().schema().keyspace("ix").table(table);
        return new TableId(t.indexes().get(index).tableId(t.id()));
    }

    /** The entries of value {@code v} (an int) in the index table, over every shard. */
    private static int entries(TableId index, int v) {
        byte[] key = IndexEntries.partitionKey(java.nio.ByteBuffer.allocate(4).putInt(0, v));
        int n = node.storage().shardCount();
        int rows = 0;
        for (int s = 0; s < n; s++) {
            var cmd = io.charybdis.storage.read.ReadCommand.partition(index, IndexEntries.token(key, s, n), key)
                    .nowInSeconds((int) (System.currentTimeMillis() / 1000)).build();
            var r = node.storage().read(cmd).join();
            try {
                rows += r.rowCount();
            } finally {
                r.release();
            }
        }
        return rows;
    }

    private static TableId baseTable(String table) {
        return new TableId(node.schemas().schema().keyspace("ix").table(table).id());
    }

    @Test
    void indexStaysRightAcrossFlushCompactionDeletesOverwritesAndTtl() throws Exception {
        session.execute("CREATE TABLE ix.t (k int, c int, v int, PRIMARY KEY (k, c))");
        session.execute("CREATE INDEX t_v ON ix.t (v)");
        for (int k = 0; k < 50; k++) {
            for (int c = 0; c < 4; c++) {
                session.execute("INSERT INTO ix.t (k, c, v) VALUES (" + k + ", " + c + ", " + (c % 2) + ")");
            }
        }
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).hasSize(100);
        node.storage().flushAll().get();
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).hasSize(100);
        // overwrites (memtable over SSTable entries), deletes of rows, partitions, cells
        for (int k = 0; k < 10; k++) {
            session.execute("UPDATE ix.t SET v = 5 WHERE k = " + k + " AND c = 1");
        }
        session.execute("DELETE FROM ix.t WHERE k = 10 AND c = 3");
        session.execute("DELETE FROM ix.t WHERE k = 11");
        session.execute("DELETE v FROM ix.t WHERE k = 12 AND c = 1");
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            for (int c = 1; c < 4; c += 2) {
                if ((k < 10 && c == 1) || (k == 10 && c == 3) || k == 11 || (k == 12 && c == 1)) {
                    continue;
                }
                expected.add(k + ":" + c);
            }
        }
        expected.sort(Comparator.naturalOrder());
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).isEqualTo(expected);
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 5")).hasSize(10);
        // the read that found them deleted the stale entries (as Cassandra does)
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (entries(indexTable("t", "t_v"), 1) != expected.size()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(20);
        }
        node.storage().flushAll().get();
        node.storage().forceMajorCompaction(baseTable("t")).get();
        node.storage().forceMajorCompaction(indexTable("t", "t_v")).get();
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).isEqualTo(expected);
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 5")).hasSize(10);
        // TTL: the value and its entry expire together
        session.execute("INSERT INTO ix.t (k, c, v) VALUES (100, 0, 9) USING TTL 1");
        session.execute("INSERT INTO ix.t (k, c, v) VALUES (101, 0, 9)");
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 9")).containsExactly("100:0", "101:0");
        Thread.sleep(2100);
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 9")).containsExactly("101:0");
        node.storage().flushAll().get();
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 9")).containsExactly("101:0");
        // TRUNCATE empties the index too
        session.execute("TRUNCATE ix.t");
        assertThat(entries(indexTable("t", "t_v"), 1)).isZero();
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).isEmpty();
        session.execute("INSERT INTO ix.t (k, c, v) VALUES (1, 1, 1)");
        assertThat(keys("SELECT k, c FROM ix.t WHERE v = 1")).containsExactly("1:1");
    }

    @Test
    void indexCreatedOverExistingDataIsBuiltAndReported() throws Exception {
        session.execute("CREATE TABLE ix.b (k int, c int, v text, PRIMARY KEY (k, c))");
        for (int k = 0; k < 300; k++) {
            session.execute("INSERT INTO ix.b (k, c, v) VALUES (" + k + ", 0, '" + (k % 3 == 0 ? "x" : "y") + "')");
        }
        node.storage().flushAll().get();
        session.execute("CREATE INDEX b_v ON ix.b (v)");
        awaitBuilt("b_v");
        assertThat(keys("SELECT k, c FROM ix.b WHERE v = 'x'")).hasSize(100);
        assertThat(keys("SELECT k, c FROM ix.b WHERE v = 'y'")).hasSize(200);
    }

    @Test
    void staticColumnIndexReturnsEveryRowOfItsPartitions() throws Exception {
        session.execute("CREATE TABLE ix.st (k int, c int, v int, s int static, PRIMARY KEY (k, c))");
        session.execute("INSERT INTO ix.st (k, c, v, s) VALUES (0, 0, 1, 10)");
        session.execute("INSERT INTO ix.st (k, c, v) VALUES (0, 1, 2)");
        session.execute("INSERT INTO ix.st (k, c, v, s) VALUES (1, 0, 1, 11)");
        session.execute("INSERT INTO ix.st (k, s) VALUES (2, 10)");
        session.execute("CREATE INDEX st_s ON ix.st (s)");
        awaitBuilt("st_s");
        List<String> rows = new ArrayList<>();
        for (Row r : session.execute(SimpleStatement.newInstance("SELECT k, c FROM ix.st WHERE s = 10").setPageSize(1))) {
            rows.add(r.getInt(0) + ":" + (r.isNull(1) ? "null" : r.getInt(1)));
        }
        rows.sort(Comparator.naturalOrder());
        assertThat(rows).containsExactly("0:0", "0:1", "2:null");
        session.execute("UPDATE ix.st SET s = 12 WHERE k = 0");
        assertThat(keys("SELECT k, c FROM ix.st WHERE s = 12")).containsExactly("0:0", "0:1");
        assertThat(session.execute("SELECT k FROM ix.st WHERE s = 10").all()).hasSize(1);
    }

    @Test
    void partitionKeyComponentIndexFindsPartitionsWithStaticContentOnly() throws Exception {
        session.execute("CREATE TABLE ix.pk (k1 int, k2 int, c int, s int static, v int, PRIMARY KEY ((k1, k2), c))");
        session.execute("INSERT INTO ix.pk (k1, k2, c, s, v) VALUES (1, 1, 1, 9, 1)");
        session.execute("INSERT INTO ix.pk (k1, k2, s) VALUES (2, 1, 9)");
        session.execute("CREATE INDEX pk_k2 ON ix.pk (k2)");
        awaitBuilt("pk_k2");
        session.execute("INSERT INTO ix.pk (k1, k2, c, v) VALUES (1, 1, 2, 2) USING TTL 2");
        session.execute("INSERT INTO ix.pk (k1, k2, c, v) VALUES (3, 1, 1, 1)");
        session.execute("UPDATE ix.pk SET s = 9 WHERE k1 = 4 AND k2 = 1");
        session.execute("INSERT INTO ix.pk (k1, k2, c, v) VALUES (5, 1, 1, 1)");
        session.execute("DELETE FROM ix.pk WHERE k1 = 5 AND k2 = 1");
        List<String> rows = new ArrayList<>();
        for (Row r : session.execute(SimpleStatement.newInstance("SELECT k1, c FROM ix.pk WHERE k2 = 1").setPageSize(1))) {
            rows.add(r.getInt(0) + ":" + (r.isNull(1) ? "null" : r.getInt(1)));
        }
        rows.sort(Comparator.naturalOrder());
        // each partition once: its rows, or its static row when it has none; the deleted one not at all
        assertThat(rows).containsExactly("1:1", "1:2", "2:null", "3:1", "4:null");
        // a row's TTL does not take the partition's entry with it
        Thread.sleep(2500);
        node.storage().flushAll().get();
        assertThat(keys("SELECT k1, c FROM ix.pk WHERE k2 = 1 AND k1 = 1 ALLOW FILTERING")).containsExactly("1:1");
    }

    private static void awaitBuilt(String index) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (session.execute("SELECT index_name FROM system.\"IndexInfo\" WHERE table_name = 'ix'").all().stream()
                .noneMatch(r -> r.getString(0).equals(index))) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void preparedIndexQueriesPageWithBoundValues() {
        session.execute("CREATE TABLE ix.p (k int, c int, m map<text, int>, PRIMARY KEY (k, c))");
        session.execute("CREATE INDEX p_m ON ix.p (entries(m))");
        var insert = session.prepare("INSERT INTO ix.p (k, c, m) VALUES (?, ?, ?)");
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            for (int c = 0; c < 3; c++) {
                boolean hit = (k + c) % 2 == 0;
                session.execute(insert.bind(k, c, java.util.Map.of("x", hit ? 1 : 2, "y", c)));
                if (hit) {
                    expected.add(k + ":" + c);
                }
            }
        }
        var select = session.prepare("SELECT k, c FROM ix.p WHERE m[?] = ?");
        List<String> got = new ArrayList<>();
        var rs = session.execute(select.bind("x", 1).setPageSize(7));
        for (Row r : rs) {
            got.add(r.getInt(0) + ":" + r.getInt(1));
        }
        int pages = rs.getExecutionInfos().size();
        assertThat(got).hasSize(expected.size()).doesNotHaveDuplicates();
        got.sort(Comparator.naturalOrder());
        expected.sort(Comparator.naturalOrder());
        assertThat(got).isEqualTo(expected);
        assertThat(pages).isGreaterThanOrEqualTo(expected.size() / 7);
    }

    @Test
    void indexEntriesAreOffHeap() throws Exception {
        session.execute("CREATE TABLE ix.h (k int PRIMARY KEY, v int)");
        session.execute("CREATE INDEX h_v ON ix.h (v)");
        long before = node.storage().allocatedOffHeapBytes();
        long heapBefore = usedHeapAfterGc();
        var insert = session.prepare("INSERT INTO ix.h (k, v) VALUES (?, ?)");
        for (int k = 0; k < 20_000; k++) {
            session.execute(insert.bind(k, k));
        }
        long heapAfter = usedHeapAfterGc();
        long offHeapGrowth = node.storage().allocatedOffHeapBytes() - before;
        // the index memtable holds 20,000 entries off-heap; the heap does not grow with them
        assertThat(offHeapGrowth).isGreaterThan(20_000L * 40);
        assertThat(heapAfter - heapBefore).isLessThan(offHeapGrowth / 2 + 8L * 1024 * 1024);
        assertThat(keys("SELECT k, v FROM ix.h WHERE v = 12345")).containsExactly("12345:12345");
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
