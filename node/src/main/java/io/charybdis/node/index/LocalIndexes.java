package io.charybdis.node.index;

import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * This node's native secondary indexes: a hidden storage table per index (held by the engine like any table:
 * off-heap memtables, SSTables, flush and compaction), the {@link IndexWriter} that keeps them in step with their
 * base table's writes, and the builds that index the data a table held when CREATE INDEX ran.
 *
 * <p>Implementation notes: an index is queryable once built. A new index's build runs on the {@code index-build}
 * thread: it walks the base table's partitions in token order and has the engine derive their entries on their
 * own shard ({@link Storage#derive}), then flushes the index table and records the index as built in
 * {@code index_builds} (the data directory, with the shard count), which {@code system."IndexInfo"} shows. Writes
 * that arrive during the build are indexed by the writer, registered first. At startup, an index not recorded as
 * built, or recorded under another shard count (its entries sit in other shards' token slices), is built again.
 * Builds over an index table that already holds entries are harmless: an entry written twice is one entry.
 */
public final class LocalIndexes implements IndexStatus {
    private static final Logger log = LoggerFactory.getLogger(LocalIndexes.class);
    private static final int BUILD_PAGE = 256;

    private final Storage storage;
    private final Path buildsFile;
    /** "tableId/index" of the built indexes (persisted), and keyspace -> built index names (shown). */
    private final Set<String> built = ConcurrentHashMap.newKeySet();
    /** The builds file names another shard count: index tables are emptied (at registration) before rebuilding. */
    private boolean reshard;
    private final Map<String, CompletableFuture<Void>> building = new ConcurrentHashMap<>();
    /** Per build in progress: completes once it knows whether the table was empty (see whenStarted). */
    private final Map<String, CompletableFuture<Void>> started = new ConcurrentHashMap<>();
    private final ExecutorService builder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "index-build");
        t.setDaemon(true);
        return t;
    });

    public LocalIndexes(Storage storage, Path dataDirectory) {
        this.storage = storage;
        this.buildsFile = dataDirectory.resolve("index_builds");
        try {
            if (Files.exists(buildsFile)) {
                List<String> lines = Files.readAllLines(buildsFile, StandardCharsets.UTF_8);
                // entries sit in the token slices of the shards that wrote them: with another shard count, every
                // index is built again
                if (!lines.isEmpty() && lines.get(0).strip().equals(shardsLine())) {
                    for (String line : lines.subList(1, lines.size())) {
                        if (!line.isBlank()) {
                            built.add(line.strip());
                        }
                    }
                } else if (!lines.isEmpty()) {
                    reshard = true;
                    log.info("Shard count changed (index builds recorded for {}): native indexes are built again",
                            lines.get(0).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + buildsFile, e);
        }
    }

    private String shardsLine() {
        return "shards=" + storage.shardCount();
    }

    private static String id(TableMetadata t, IndexMetadata i) {
        return t.id() + "/" + i.name();
    }

    /** Registers the index tables of {@code t} and its writer (the base table must be registered). */
    public void register(TableMetadata t) {
        List<IndexTarget> targets = new ArrayList<>();
        for (IndexMetadata i : t.indexes().values()) {
            IndexTarget target = IndexTarget.of(t, i);
            storage.registerTable(new TableDescriptor(target.indexTable(), t.keyspace(), target.indexTableName(),
                    t.params().compression(), Map.of(), t.params().gcGraceSeconds()));
            if (reshard) {
                // at startup, before the commit log replays (which derives the entries of its writes again): the
                // old entries are in the token slices of the old shards, where a shard may still find some
                storage.truncate(target.indexTable()).join();
            }
            targets.add(target);
        }
        storage.derivedWrites(new TableId(t.id()), targets.isEmpty() ? null : new IndexWriter(targets));
    }

    /** Startup registrations are over: from now on index tables are never emptied on registration. */
    public void started() {
        reshard = false;
    }

    /** Starts the builds of the indexes of {@code t} not built yet. */
    public void buildMissing(TableMetadata t) {
        for (IndexMetadata i : t.indexes().values()) {
            if (!built.contains(id(t, i))) {
                build(t, i);
            }
        }
    }

    /** The base table changed: indexes added are registered and built, indexes dropped lose their table. */
    public void altered(TableMetadata before, TableMetadata after) {
        register(after);
        for (IndexMetadata i : before.indexes().values()) {
            if (!after.indexes().containsKey(i.name())) {
                dropIndexTable(before, i);
            }
        }
        buildMissing(after);
    }

    public void dropped(TableMetadata t) {
        for (IndexMetadata i : t.indexes().values()) {
            dropIndexTable(t, i);
        }
    }

    private void dropIndexTable(TableMetadata t, IndexMetadata i) {
        if (built.remove(id(t, i))) {
            persist();
        }
        storage.dropTable(IndexTarget.tableIdOf(t, i)).whenComplete((v, e) -> {
            if (e != null) {
                log.warn("Could not release the data of dropped index {}.{}", t.keyspace(), i.name(), e);
            }
        });
    }

    @Override
    public boolean isBuilt(TableMetadata t, IndexMetadata i) {
        return built.contains(id(t, i));
    }

    /** Completes when the index is built (at once when it is); the build of a dropped index never completes. */
    @Override
    public CompletableFuture<Void> whenBuilt(TableMetadata t, IndexMetadata i) {
        if (built.contains(id(t, i))) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> f = building.get(id(t, i));
        return f == null ? CompletableFuture.completedFuture(null) : f;
    }

    @Override
    public CompletableFuture<Void> whenStarted(TableMetadata t, IndexMetadata i) {
        CompletableFuture<Void> f = started.get(id(t, i));
        return f == null ? CompletableFuture.completedFuture(null) : f;
    }

    private void build(TableMetadata t, IndexMetadata i) {
        String key = id(t, i);
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (building.putIfAbsent(key, done) != null) {
            return;
        }
        CompletableFuture<Void> decided = new CompletableFuture<>();
        started.put(key, decided);
        builder.execute(() -> {
            try {
                if (isEmpty(t)) {
                    // as Cassandra: the index of an empty table is built at once (writes from now on index it)
                    built.add(key);
                    persist();
                    done.complete(null);
                    return;
                }
                decided.complete(null);
                long partitions = scan(t);
                storage.flush(IndexTarget.tableIdOf(t, i)).join();
                built.add(key);
                persist();
                log.info("Index {}.{} built: {} partitions of {} indexed", t.keyspace(), i.name(), partitions,
                        t.name());
                done.complete(null);
            } catch (RuntimeException e) {
                log.warn("Index build {}.{} failed (the index stays unavailable until the next start)", t.keyspace(),
                        i.name(), e);
                done.completeExceptionally(e);
            } finally {
                decided.complete(null);
                started.remove(key, decided);
                building.remove(key, done);
            }
        });
    }

    /** Whether the table holds no live partition (a one-row range read over every shard). */
    private boolean isEmpty(TableMetadata t) {
        ReadResult r = storage.read(ReadCommand.range(new TableId(t.id()), null, null).partitionLimit(1).rowLimit(1)
                .nowInSeconds((int) (System.currentTimeMillis() / 1000)).build()).join();
        try {
            return r.isEmpty();
        } finally {
            r.release();
        }
    }

    /** Derives the entries of every partition the base table holds; returns how many partitions. */
    private long scan(TableMetadata t) {
        TableId id = new TableId(t.id());
        ReadCommand.ResumePoint after = null;
        long n = 0;
        while (true) {
            ReadCommand.Builder b = ReadCommand.range(id, null, null).perPartitionLimit(1).partitionLimit(BUILD_PAGE)
                    .rowLimit(BUILD_PAGE).nowInSeconds((int) (System.currentTimeMillis() / 1000));
            if (after != null) {
                b.startAfter(new ReadCommand.ResumePoint(after.token(), after.key(), null));
            }
            ReadResult r = storage.read(b.build()).join();
            try {
                ReadResult.Cursor c = r.cursor();
                List<CompletableFuture<Void>> derived = new ArrayList<>();
                while (c.nextPartition()) {
                    long token = c.token();
                    byte[] key = c.keyBytes();
                    derived.add(storage.readRawPartition(id, token, key).thenCompose(raw ->
                            raw == null ? CompletableFuture.<Void>completedFuture(null) : storage.derive(raw)));
                    n++;
                }
                CompletableFuture.allOf(derived.toArray(CompletableFuture[]::new)).join();
                if (!r.limitReached() || r.resumePoint() == null) {
                    return n;
                }
                after = r.resumePoint();
            } finally {
                r.release();
            }
        }
    }

    private synchronized void persist() {
        try {
            Path tmp = buildsFile.resolveSibling(buildsFile.getFileName() + ".tmp");
            List<String> lines = new ArrayList<>();
            lines.add(shardsLine());
            lines.addAll(built);
            Files.write(tmp, lines, StandardCharsets.UTF_8);
            Files.move(tmp, buildsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("Could not record built indexes in {}", buildsFile, e);
        }
    }

    public void close() {
        builder.shutdownNow();
    }
}
