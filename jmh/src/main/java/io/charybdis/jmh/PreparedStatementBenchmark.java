package io.charybdis.jmh;

import io.charybdis.node.cql.ClientState;
import io.charybdis.node.cql.QueryProcessor;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.SchemaStore;
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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Executing prepared statements through the CQL layer and the storage engine, without the network: a small
 * INSERT, a point SELECT and a 100-row (and 1-row) slice SELECT of one partition, whose RESULT bodies are
 * encoded and released. Measures the per-request cost of the hot
 * path (binding, mutation building, commit log append, memtable, read, row encoding).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class PreparedStatementBenchmark {
    private Path dir;
    private ExecutorService shard;
    private Storage storage;
    private QueryProcessor processor;
    private QueryProcessor.Prepared insert;
    private QueryProcessor.Prepared select;
    private QueryProcessor.Prepared slice;
    private final ClientState client = new ClientState("bench");
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private int next;
    private static final int WIDE_PARTITIONS = 100;
    private static final int WIDE_ROWS = 200;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("charybdis-jmh");
        shard = Executors.newSingleThreadExecutor();
        storage = Storage.open(StorageConfig.defaults(dir), List.of(shard));
        SchemaManager schemas = new SchemaManager(new SchemaStore(dir), SystemKeyspaces.builtIn());
        schemas.setLifecycle(new io.charybdis.node.schema.TableLifecycle() {
            public void created(io.charybdis.node.schema.TableMetadata t) {
                storage.registerTable(TableDescriptor.of(new TableId(t.id()), t.keyspace(), t.name()));
            }

            public void altered(io.charybdis.node.schema.TableMetadata b, io.charybdis.node.schema.TableMetadata a) {
            }

            public void dropped(io.charybdis.node.schema.TableMetadata t) {
            }
        });
        processor = new QueryProcessor(schemas, io.charybdis.node.NodeCoordinator.forTests(storage, schemas), SystemKeyspaces::find, () -> null, 1 << 20);
        run("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        run("CREATE TABLE b.kv (k int PRIMARY KEY, v text)");
        insert = processor.prepare("INSERT INTO b.kv (k, v) VALUES (?, ?)", null, client);
        select = processor.prepare("SELECT k, v FROM b.kv WHERE k = ?", null, client);
        for (int i = 0; i < 10_000; i++) {
            execute(insert, ByteBuffer.allocate(4).putInt(0, i), ByteBuffer.wrap(("value-" + i).getBytes()));
        }
        run("CREATE TABLE b.wide (p int, c int, v1 int, v2 text, v3 bigint, v4 double, PRIMARY KEY (p, c))");
        QueryProcessor.Prepared wideInsert = processor.prepare(
                "INSERT INTO b.wide (p, c, v1, v2, v3, v4) VALUES (?, ?, ?, ?, ?, ?)", null, client);
        for (int p = 0; p < WIDE_PARTITIONS; p++) {
            for (int c = 0; c < WIDE_ROWS; c++) {
                execute(wideInsert, ByteBuffer.allocate(4).putInt(0, p), ByteBuffer.allocate(4).putInt(0, c),
                        ByteBuffer.allocate(4).putInt(0, p * c), ByteBuffer.wrap(("text-" + p + "-" + c).getBytes()),
                        ByteBuffer.allocate(8).putLong(0, (long) p << 32 | c), ByteBuffer.allocate(8).putDouble(0, c / 3.0));
            }
        }
        slice = processor.prepare("SELECT c, v1, v2, v3, v4 FROM b.wide WHERE p = ? AND c >= ? LIMIT ?", null, client);
    }

    private void run(String cql) throws Exception {
        processor.analyze(CqlParser.prepare(cql), null, client).execute(
                new io.charybdis.node.cql.QueryContext(alloc, ProtocolVersion.V4, QueryOptions.of(Consistency.ONE),
                        client, List.of(), System.currentTimeMillis() * 1000, (int) (System.currentTimeMillis() / 1000)))
                .get();
    }

    private Object execute(QueryProcessor.Prepared p, ByteBuffer... values) throws Exception {
        QueryOptions options = new QueryOptions(Consistency.ONE, List.of(values), null, false, 5000, null, null,
                Long.MIN_VALUE, null, Integer.MIN_VALUE);
        ResultMessage r = processor.execute(p, options, client, alloc, ProtocolVersion.V4).get();
        if (r instanceof ResultMessage.Rows rows) {
            ByteBuf body = rows.writer().finish();
            int size = body.readableBytes();
            body.release();
            return size;
        }
        return r;
    }

    @Benchmark
    public Object preparedInsert() throws Exception {
        int k = next++ & 0xFFFF;
        return execute(insert, ByteBuffer.allocate(4).putInt(0, k), ByteBuffer.wrap(new byte[]{'x', 'y', 'z'}));
    }

    @Benchmark
    public Object preparedPointSelect() throws Exception {
        int k = next++ % 10_000;
        return execute(select, ByteBuffer.allocate(4).putInt(0, k));
    }

    /** The slice SELECT, 1 row: the same statement as {@link #preparedSlice100}, for the per-row difference. */
    @Benchmark
    public Object preparedSlice1() throws Exception {
        return slice(1);
    }

    /** A prepared SELECT of a 100-row slice of one partition: clustering key and four regular columns. */
    @Benchmark
    public Object preparedSlice100() throws Exception {
        return slice(100);
    }

    private Object slice(int rows) throws Exception {
        int p = next++ % WIDE_PARTITIONS;
        return execute(slice, ByteBuffer.allocate(4).putInt(0, p), ByteBuffer.allocate(4).putInt(0, 50),
                ByteBuffer.allocate(4).putInt(0, rows));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        storage.close();
        shard.shutdownNow();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
