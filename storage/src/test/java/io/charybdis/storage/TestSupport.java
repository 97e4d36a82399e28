package io.charybdis.storage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Shard executors and a storage instance for tests; checks the off-heap allocator returns to zero. */
final class TestSupport implements AutoCloseable {
    final Path base;
    final int shards;
    final StorageConfig config;
    final List<ExecutorService> executors = new ArrayList<>();
    Storage storage;

    TestSupport(Path base, int shards, StorageConfig config) {
        this.base = base;
        this.shards = shards;
        this.config = config;
        for (int i = 0; i < shards; i++) {
            int n = i;
            executors.add(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "test-shard-" + n);
                t.setDaemon(true);
                return t;
            }));
        }
    }

    static StorageConfig config(Path base, CommitLogSync sync) {
        return new StorageConfig(base.resolve("data"), base.resolve("commitlog"), sync, 50, 1, 64 * 1024,
                8L << 20, false);
    }

    Storage open(TableDescriptor... tables) {
        storage = Storage.open(config, executors);
        for (TableDescriptor t : tables) {
            storage.registerTable(t);
        }
        storage.replayCommitLog().orTimeout(30, TimeUnit.SECONDS).join();
        return storage;
    }

    /** Closes the storage and asserts every off-heap byte was released. */
    void closeStorage() {
        if (storage != null) {
            storage.close();
            if (storage.allocatedOffHeapBytes() != 0) {
                throw new AssertionError("off-heap leak: " + storage.allocatedOffHeapBytes() + " bytes");
            }
            if (storage.sstableOffHeapBytes() != 0) {
                throw new AssertionError("off-heap leak of SSTable metadata: " + storage.sstableOffHeapBytes() + " bytes");
            }
            storage = null;
        }
    }

    static TableDescriptor table(String name, Map<String, String> compression, Map<String, String> compaction) {
        return new TableDescriptor(TableId.random(), "ks", name, compression, compaction, 864000);
    }

    @Override
    public void close() {
        closeStorage();
        for (ExecutorService e : executors) {
            e.shutdownNow();
        }
    }
}
