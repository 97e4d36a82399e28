package io.charybdis.storage.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.CommitLogSync;
import io.charybdis.storage.StorageConfig;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A shard makes a table's state when the table is registered; a request that overtakes the registration too. */
@Timeout(30)
class ShardRegistrationTest {
    @TempDir
    Path dir;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "registration-test-shard");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService io = Executors.newSingleThreadExecutor();
    private final Map<TableId, TableEntry> registry = new ConcurrentHashMap<>();
    private Shard shard;

    @BeforeEach
    void open() throws Exception {
        StorageConfig config = new StorageConfig(dir.resolve("data"), dir.resolve("commitlog"), CommitLogSync.PERIODIC,
                50, 1, 64 * 1024, 8L << 20, false);
        Files.createDirectories(config.commitLogDirectory());
        shard = new Shard(0, executor, new ShardContext(config, 1, registry, io, new AtomicLong(), new AtomicLong(),
                new io.charybdis.storage.CompactionHistory()));
    }

    @AfterEach
    void close() throws Exception {
        shard.closeScheduler();
        shard.submit(shard::close).get(10, TimeUnit.SECONDS);
        // a second state made for one table would leave its memtable allocated
        assertThat(shard.allocator().allocatedBytes()).isZero();
        executor.shutdownNow();
        io.shutdownNow();
    }

    private TableEntry register(String name) {
        TableDescriptor d = new TableDescriptor(TableId.random(), "ks", name, Map.of(), Map.of("enabled", "false"), 864000);
        TableEntry e = new TableEntry(d, dir.resolve(name), 0, 1);
        e.setInitial(0, List.of());
        registry.put(d.id(), e);
        return e;
    }

    private TableShard stateOnShard(TableId id) throws Exception {
        return shard.submit(() -> CompletableFuture.completedFuture(shard.tables.find(id))).get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldMakeTheTableStateWhenTheTableIsRegisteredNotOnItsFirstWrite() throws Exception {
        TableEntry e = register("t");
        shard.registerTable(e);

        TableShard ts = stateOnShard(e.descriptor().id());
        assertThat(ts).isNotNull();
        assertThat(e.published(0)).isSameAs(ts);
    }

    @Test
    void shouldMakeTheStateOnceWhenARequestOvertakesTheRegistration() throws Exception {
        TableEntry e = register("t");
        TableId id = e.descriptor().id();
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        // the request is queued before the registration message
        CompletableFuture<ReadResult> read = shard.requestRead(ReadCommand.partition(id, 42, new byte[] {1}).build());
        shard.registerTable(e);
        release.countDown();

        assertThat(read.get(10, TimeUnit.SECONDS).isEmpty()).isTrue();
        TableShard ts = stateOnShard(id);
        assertThat(ts).isNotNull();
        assertThat(e.published(0)).isSameAs(ts);
    }

    @Test
    void shouldNotMakeStateForATableNoLongerRegistered() throws Exception {
        TableEntry e = register("t");
        registry.remove(e.descriptor().id());
        shard.registerTable(e);

        assertThat(stateOnShard(e.descriptor().id())).isNull();
    }
}
