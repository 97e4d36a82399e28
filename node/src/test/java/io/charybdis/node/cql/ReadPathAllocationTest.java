package io.charybdis.node.cql;

import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.SchemaStore;
import io.charybdis.node.schema.TableLifecycle;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.SystemKeyspaces;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.request.QueryOptions;
import io.charybdis.storage.Storage;
import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4's benchmark clause, as a test: executing a prepared SELECT allocates nothing per returned row. Runs the
 * same prepared statement in-process (QueryProcessor and the storage engine, no network) for 1 row and for 100
 * rows of one partition, and compares the bytes allocated per request by the threads that do the work (this one,
 * which binds, executes and takes the RESULT body, and the storage shard thread, which reads and encodes rows),
 * from {@link com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long)}. It counts bytes; it does not time.
 */
@Timeout(300)
class ReadPathAllocationTest {
    /** Slack per row: the RESULT buffer grows a few times (pooled, off-heap) on the way to 100 rows. */
    private static final double MAX_BYTES_PER_ROW = 16;
    private static final int ROWS = 100;

    private static Path dir;
    private static ExecutorService shard;
    private static long shardThread;
    private static Storage storage;
    private static QueryProcessor processor;
    private static ResourceLeakDetector.Level leakLevel;
    private static final ClientState CLIENT = new ClientState("allocation-test");
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @BeforeAll
    static void start() throws Exception {
        // paranoid leak detection (the build's setting) records a stack trace per buffer access: not what we measure
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        dir = Files.createTempDirectory("charybdis-alloc");
        shard = Executors.newSingleThreadExecutor();
        shardThread = shard.submit(() -> Thread.currentThread().threadId()).get();
        storage = Storage.open(StorageConfig.defaults(dir), List.of(shard));
        SchemaManager schemas = new SchemaManager(new SchemaStore(dir), SystemKeyspaces.builtIn());
        schemas.setLifecycle(new TableLifecycle() {
            public void created(TableMetadata t) {
                storage.registerTable(TableDescriptor.of(new TableId(t.id()), t.keyspace(), t.name()));
            }

            public void altered(TableMetadata before, TableMetadata after) {
            }

            public void dropped(TableMetadata t) {
            }
        });
        processor = new QueryProcessor(schemas, io.charybdis.node.NodeCoordinator.forTests(storage, schemas), SystemKeyspaces::find, () -> null, 1 << 20);
        run("CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        run("CREATE TABLE a.wide (p int, c int, v1 int, v2 text, v3 bigint, v4 double, PRIMARY KEY (p, c))");
        QueryProcessor.Prepared wide = processor.prepare(
                "INSERT INTO a.wide (p, c, v1, v2, v3, v4) VALUES (?, ?, ?, ?, ?, ?)", null, CLIENT);
        run("CREATE TABLE a.rich (p1 int, p2 text, c1 text, c2 timeuuid, s int static, v int, w text, "
                + "tags set<int>, PRIMARY KEY ((p1, p2), c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)");
        QueryProcessor.Prepared rich = processor.prepare(
                "INSERT INTO a.rich (p1, p2, c1, c2, s, v, w, tags) VALUES (?, ?, ?, ?, ?, ?, ?, {1, 2}) USING TTL 86400",
                null, CLIENT);
        run("CREATE TYPE a.addr (street text, number int, zip text)");
        run("CREATE TABLE a.colls (p int, c int, l list<text>, s set<text>, m map<int, text>, u addr, "
                + "PRIMARY KEY (p, c))");
        QueryProcessor.Prepared colls = processor.prepare("INSERT INTO a.colls (p, c, l, s, m, u) VALUES (?, ?, "
                + "['x', 'yy', 'zzz'], {'a', 'bb', ''}, {1: 'one', 2: 'two', -3: 'minus'}, "
                + "{street: 'main', zip: '0001'})", null, CLIENT);
        for (int p = 0; p < 4; p++) {
            for (int c = 0; c < 2 * ROWS; c++) {
                execute(colls, 5000, ints(p), ints(c));
                execute(wide, 5000, ints(p), ints(c), ints(p * c), text("text-" + p + "-" + c),
                        ByteBuffer.allocate(8).putLong(0, (long) p << 32 | c), ByteBuffer.allocate(8).putDouble(0, c / 3.0));
                execute(rich, 5000, ints(p), text("key" + p), text("ck\u0000" + c), timeuuid(c), ints(p), ints(c),
                        text("w" + c));
            }
        }
    }

    /** Sums read in place keep Cassandra's results: exact for avg, wrapping to the argument type for sum. */
    @Test
    void sumsAndAveragesOverflowAsBefore() throws Exception {
        run("CREATE TABLE a.nums (p int, c int, b bigint, i int, t tinyint, PRIMARY KEY (p, c))");
        QueryProcessor.Prepared insert = processor.prepare("INSERT INTO a.nums (p, c, b, i, t) VALUES (0, ?, ?, ?, ?)",
                null, CLIENT);
        java.math.BigInteger b = java.math.BigInteger.ZERO;
        for (int c = 0; c < 4; c++) {
            long v = Long.MAX_VALUE - c;
            b = b.add(java.math.BigInteger.valueOf(v));
            execute(insert, 5000, ints(c), ByteBuffer.allocate(8).putLong(0, v), ints(Integer.MAX_VALUE),
                    ByteBuffer.wrap(new byte[]{127}));
        }
        QueryProcessor.Prepared select = processor.prepare(
                "SELECT sum(b), avg(b), sum(i), avg(i), sum(t), avg(t) FROM a.nums WHERE p = 0", null, CLIENT);
        QueryOptions options = new QueryOptions(Consistency.ONE, List.of(), null, true, 5000, null, null,
                Long.MIN_VALUE, null, Integer.MIN_VALUE);
        ResultMessage.Rows rows = (ResultMessage.Rows) processor.execute(select, options, CLIENT, ALLOC,
                ProtocolVersion.V4).get();
        ByteBuf body = rows.writer().finish();
        try {
            body.skipBytes(4 + 4 + 4); // kind, flags (no metadata), column count
            assertThat(body.readInt()).isEqualTo(1);
            assertThat(body.readInt()).isEqualTo(8);
            assertThat(body.readLong()).isEqualTo(b.longValue());
            assertThat(body.readInt()).isEqualTo(8);
            assertThat(body.readLong()).isEqualTo(b.divide(java.math.BigInteger.valueOf(4)).longValue());
            assertThat(body.readInt()).isEqualTo(4);
            assertThat(body.readInt()).isEqualTo(Integer.MAX_VALUE * 4);
            assertThat(body.readInt()).isEqualTo(4);
            assertThat(body.readInt()).isEqualTo(Integer.MAX_VALUE);
            assertThat(body.readInt()).isEqualTo(1);
            assertThat(body.readByte()).isEqualTo((byte) (127 * 4));
            assertThat(body.readInt()).isEqualTo(1);
            assertThat(body.readByte()).isEqualTo((byte) 127);
        } finally {
            body.release();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        ResourceLeakDetector.setLevel(leakLevel);
        if (storage != null) {
            storage.close();
        }
        shard.shutdownNow();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void sliceOfPlainColumnsAllocatesNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT c, v1, v2, v3, v4 FROM a.wide WHERE p = ? AND c >= ? LIMIT ?",
                ints(1), ints(50));
    }

    @Test
    void wildcardAllocatesNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT * FROM a.wide WHERE p = ? LIMIT ?", ints(2));
    }

    @Test
    void compositeKeyDescendingTextStaticWritetimeAndTtlAllocateNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT p1, p2, c1, c2, s, v, w, writetime(v), ttl(w) FROM a.rich "
                + "WHERE p1 = ? AND p2 = ? LIMIT ?", ints(3), text("key3"));
    }

    @Test
    void pagedSliceAllocatesNothingPerRow() throws Exception {
        // the whole page in one read, the paging state of the next page at its end: still nothing per row
        String cql = "SELECT c, v2 FROM a.wide WHERE p = ? LIMIT ?";
        QueryProcessor.Prepared p = processor.prepare(cql, null, CLIENT);
        double one = bytesPerRequest(p, 1, ints(0), ints(1000));
        double many = bytesPerRequest(p, ROWS, ints(0), ints(1000));
        report("paged: " + cql, one, many);
        assertThat((many - one) / (ROWS - 1)).isLessThan(MAX_BYTES_PER_ROW);
    }

    @Test
    void reversedSliceAllocatesNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT c, v2, v4 FROM a.wide WHERE p = ? AND c < ? ORDER BY c DESC LIMIT ?",
                ints(1), ints(150));
    }

    @Test
    void filteringAllocatesNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT c, v1 FROM a.wide WHERE p = ? AND c >= ? AND v1 >= 0 LIMIT ? ALLOW FILTERING",
                ints(1), ints(50));
    }

    @Test
    void aggregatesAllocateNothingPerRow() throws Exception {
        // one result row; the clustering range decides how many rows feed it: [50, 51) against [50, 150)
        String cql = "SELECT count(*), count(v2), min(v2), max(v1), sum(v3), avg(v4), sum(v1) FROM a.wide "
                + "WHERE p = ? AND c >= ? AND c < ?";
        QueryProcessor.Prepared p = processor.prepare(cql, null, CLIENT);
        double one = bytesPerRequest(p, 5000, ints(3), ints(50), ints(51));
        double many = bytesPerRequest(p, 5000, ints(3), ints(50), ints(50 + ROWS));
        report(cql, one, many);
        assertThat((many - one) / (ROWS - 1)).isLessThan(MAX_BYTES_PER_ROW);
    }

    @Test
    void nonFrozenCollectionsAndUdtsAllocateNothingPerRow() throws Exception {
        assertNoAllocationPerRow("SELECT c, l, s, m, u FROM a.colls WHERE p = ? LIMIT ?", ints(1));
        assertNoAllocationPerRow("SELECT p1, p2, c1, tags FROM a.rich WHERE p1 = ? AND p2 = ? LIMIT ?", ints(1),
                text("key1"));
    }

    @Test
    void collectionsReadBackAsWritten() throws Exception {
        QueryProcessor.Prepared p = processor.prepare("SELECT l, s, m, u FROM a.colls WHERE p = 2 AND c = 7", null,
                CLIENT);
        QueryOptions options = new QueryOptions(Consistency.ONE, List.of(), null, true, 5000, null, null,
                Long.MIN_VALUE, null, Integer.MIN_VALUE);
        ResultMessage.Rows rows = (ResultMessage.Rows) processor.execute(p, options, CLIENT, ALLOC,
                ProtocolVersion.V4).get();
        ByteBuf body = rows.writer().finish();
        try {
            body.skipBytes(4 + 4 + 4);
            assertThat(body.readInt()).isEqualTo(1);
            assertThat(strings(body)).containsExactly("x", "yy", "zzz");
            assertThat(strings(body)).containsExactly("", "a", "bb");
            body.skipBytes(4); // map value length
            assertThat(body.readInt()).isEqualTo(3);
            List<String> map = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                assertThat(body.readInt()).isEqualTo(4);
                int k = body.readInt();
                int n = body.readInt();
                map.add(k + "=" + body.readCharSequence(n, StandardCharsets.UTF_8));
            }
            assertThat(map).containsExactly("-3=minus", "1=one", "2=two");
            body.skipBytes(4); // udt value length
            assertThat(body.readCharSequence(body.readInt(), StandardCharsets.UTF_8).toString()).isEqualTo("main");
            assertThat(body.readInt()).isEqualTo(-1); // number: no cell
            assertThat(body.readCharSequence(body.readInt(), StandardCharsets.UTF_8).toString()).isEqualTo("0001");
        } finally {
            body.release();
        }
    }

    /** A list or set value of the RESULT body: its length, count, then each element's length and bytes. */
    private static List<String> strings(ByteBuf body) {
        body.skipBytes(4);
        int n = body.readInt();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(body.readCharSequence(body.readInt(), StandardCharsets.UTF_8).toString());
        }
        return out;
    }

    /**
     * Not an assertion: the shapes that still allocate per row, measured the same way, for BENCHMARKS.md (see the
     * test's output).
     */
    @Test
    void measuresShapesThatStillAllocatePerRow() throws Exception {
        for (String cql : List.of(
                "SELECT JSON c, v1, v2 FROM a.wide WHERE p = ? AND c >= ? LIMIT ?",
                "SELECT c, v1 + 1, blobAsText(textAsBlob(v2)) FROM a.wide WHERE p = ? AND c >= ? LIMIT ?",
                "SELECT c, v1 FROM a.wide WHERE p IN (?, 0) AND c >= ? ORDER BY c DESC LIMIT ?",
                "SELECT c, max(v1) FROM a.wide WHERE p = ? AND c >= ? GROUP BY c LIMIT ?")) {
            QueryProcessor.Prepared p = processor.prepare(cql, null, CLIENT);
            ByteBuffer[] first = cql.contains("a.rich") ? new ByteBuffer[]{ints(1), text("key1")}
                    : new ByteBuffer[]{ints(1), ints(50)};
            int pageSize = cql.contains(" IN ") ? -1 : 5000; // ORDER BY with IN: no paging
            report(cql, bytesPerRequest(p, pageSize, append(first, ints(1))),
                    bytesPerRequest(p, pageSize, append(first, ints(ROWS))));
        }
    }

    private static void assertNoAllocationPerRow(String cql, ByteBuffer... values) throws Exception {
        QueryProcessor.Prepared p = processor.prepare(cql, null, CLIENT);
        double one = bytesPerRequest(p, 5000, append(values, ints(1)));
        double many = bytesPerRequest(p, 5000, append(values, ints(ROWS)));
        report(cql, one, many);
        assertThat((many - one) / (ROWS - 1)).as("bytes allocated per row by %s (1 row: %.0f B, %d rows: %.0f B)",
                cql, one, ROWS, many).isLessThan(MAX_BYTES_PER_ROW);
    }

    private static void report(String cql, double one, double many) {
        System.out.printf("%s: 1 row %.0f B/request, %d rows %.0f B/request, %.1f B/row%n", cql, one, ROWS, many,
                (many - one) / (ROWS - 1));
    }

    /**
     * Bytes allocated per request by this thread and the shard thread: the least over a few rounds (a round can
     * catch unrelated work, e.g. a JIT deoptimization or a periodic storage task), after a warm-up.
     */
    private static double bytesPerRequest(QueryProcessor.Prepared p, int pageSize, ByteBuffer... values)
            throws Exception {
        int expectedRows = -1;
        for (int i = 0; i < 3000; i++) {
            int rows = execute(p, pageSize, values);
            assertThat(expectedRows == -1 || rows == expectedRows).isTrue();
            expectedRows = rows;
        }
        assertThat(expectedRows).isPositive();
        double best = Double.MAX_VALUE;
        long self = Thread.currentThread().threadId();
        for (int round = 0; round < 5; round++) {
            int n = 500;
            long before = THREADS.getThreadAllocatedBytes(self) + THREADS.getThreadAllocatedBytes(shardThread);
            for (int i = 0; i < n; i++) {
                execute(p, pageSize, values);
            }
            long after = THREADS.getThreadAllocatedBytes(self) + THREADS.getThreadAllocatedBytes(shardThread);
            best = Math.min(best, (after - before) / (double) n);
        }
        return best;
    }

    /** Executes, takes the RESULT body as the connection would, releases it; returns the row count. */
    private static int execute(QueryProcessor.Prepared p, int pageSize, ByteBuffer... values) throws Exception {
        QueryOptions options = new QueryOptions(Consistency.ONE, Arrays.asList(values), null, false, pageSize, null,
                null, Long.MIN_VALUE, null, Integer.MIN_VALUE);
        ResultMessage r = processor.execute(p, options, CLIENT, ALLOC, ProtocolVersion.V4).get();
        if (r instanceof ResultMessage.Rows rows) {
            int count = rows.writer().rowCount();
            ByteBuf body = rows.writer().finish();
            body.release();
            return count;
        }
        return 0;
    }

    private static void run(String cql) throws Exception {
        processor.analyze(CqlParser.prepare(cql), null, CLIENT).execute(new QueryContext(ALLOC, ProtocolVersion.V4,
                QueryOptions.of(Consistency.ONE), CLIENT, List.of(), System.currentTimeMillis() * 1000,
                (int) (System.currentTimeMillis() / 1000))).get();
    }

    private static ByteBuffer[] append(ByteBuffer[] values, ByteBuffer last) {
        List<ByteBuffer> all = new ArrayList<>(Arrays.asList(values));
        all.add(last);
        return all.toArray(new ByteBuffer[0]);
    }

    private static ByteBuffer ints(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    private static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A version 1 UUID whose timestamp is {@code i}. */
    private static ByteBuffer timeuuid(int i) {
        long msb = ((long) i << 32) | 0x1000L;
        return ByteBuffer.allocate(16).putLong(0, msb).putLong(8, 0x8000_0000_0000_0000L | i);
    }
}
