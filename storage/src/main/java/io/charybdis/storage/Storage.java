package io.charybdis.storage;

import io.charybdis.storage.commitlog.CommitLogLayout;
import io.charybdis.storage.commitlog.CommitLogReplayer;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ResultWriter;
import io.charybdis.storage.schedule.BacklogController;
import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.shard.Shard;
import io.charybdis.storage.shard.ShardContext;
import io.charybdis.storage.shard.ShardRouting;
import io.charybdis.storage.shard.TableEntry;
import io.charybdis.storage.sstable.SSTableFormat;
import io.charybdis.storage.sstable.SSTableCopy;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.util.EstimatedHistogram;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local storage engine of a node: N shards, one per executor handed in by the node (each a single thread,
 * in production a Netty event loop). Thread-safe: every method may be called from any thread; work runs on the
 * owning shard and futures complete on a shard thread (or an engine thread for multi-shard operations).
 * {@link #close()} must not be called from a shard thread.
 *
 * <p>Lifecycle: {@link #open}, {@link #registerTable} for every known table, {@link #replayCommitLog}, then
 * serve; {@link #drain} before a clean shutdown, {@link #close} last.
 */
public final class Storage implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Storage.class);
    /** Requests each shard's bounded queue holds by default. */
    public static final int DEFAULT_REQUEST_QUEUE_CAPACITY = Shard.DEFAULT_REQUEST_QUEUE_CAPACITY;

    private final StorageConfig config;
    private final Shard[] shards;
    private final List<ShardAllocator> sstableAllocators = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<TableId, TableEntry> tables = new ConcurrentHashMap<>();
    private final ExecutorService io;
    private final ScheduledExecutorService timer;
    private final List<Path> segmentsToReplay;
    private final ShardContext ctx;
    private volatile boolean closed;

    private Storage(StorageConfig config, List<? extends Executor> executors, int requestQueueCapacity) throws IOException {
        this.config = config;
        for (Path d : config.dataDirectories()) {
            Files.createDirectories(d);
        }
        Files.createDirectories(config.commitLogDirectory());
        cleanLeftovers(config.dataDirectories());
        this.segmentsToReplay = CommitLogReplayer.segments(config.commitLogDirectory());
        long maxSegment = 0;
        for (Path p : segmentsToReplay) {
            maxSegment = Math.max(maxSegment, CommitLogLayout.segmentId(p.getFileName().toString()));
        }
        AtomicInteger ioThreads = new AtomicInteger();
        this.io = Executors.newFixedThreadPool(Math.max(2, Math.min(8, executors.size())), r -> {
            Thread t = new Thread(r, "storage-io-" + ioThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "storage-timer");
            t.setDaemon(true);
            return t;
        });
        this.ctx = new ShardContext(config, executors.size(), tables, io, new AtomicLong(maxSegment),
                new AtomicLong(config.compactionThroughputBytesPerSecond()), new CompactionHistory());
        this.shards = new Shard[executors.size()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(i, executors.get(i), ctx, requestQueueCapacity);
        }
        timer.scheduleAtFixedRate(() -> onEachShard(Shard::adjustFlushShares), BacklogController.FLUSH_PERIOD_MILLIS,
                BacklogController.FLUSH_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        timer.scheduleAtFixedRate(() -> onEachShard(Shard::adjustCompactionShares), BacklogController.COMPACTION_PERIOD_MILLIS,
                BacklogController.COMPACTION_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        if (config.commitLogSync() == CommitLogSync.PERIODIC) {
            long period = Math.max(1, config.commitLogSyncPeriodMillis());
            timer.scheduleAtFixedRate(this::periodicSync, period, period, TimeUnit.MILLISECONDS);
        }
    }

    /** Creates directories and removes leftovers of interrupted writes; does not replay the commit log. */
    public static Storage open(StorageConfig config, List<? extends Executor> shardExecutors) {
        return open(config, shardExecutors, DEFAULT_REQUEST_QUEUE_CAPACITY);
    }

    /**
     * As {@link #open(StorageConfig, List)}, with each shard's bounded request queue holding
     * {@code requestQueueCapacity} requests (rounded up to a power of two); a request that finds it full fails with
     * {@link ShardOverloadedException}.
     */
    public static Storage open(StorageConfig config, List<? extends Executor> shardExecutors, int requestQueueCapacity) {
        if (shardExecutors.isEmpty()) {
            throw new IllegalArgumentException("at least one shard executor is required");
        }
        if (requestQueueCapacity < 1) {
            throw new IllegalArgumentException("requestQueueCapacity=" + requestQueueCapacity + " must be >= 1");
        }
        try {
            return new Storage(config, shardExecutors, requestQueueCapacity);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open storage dataDirectory=" + config.dataDirectory(), e);
        }
    }

    private void onEachShard(java.util.function.Consumer<Shard> op) {
        if (closed) {
            return;
        }
        for (Shard s : shards) {
            try {
                s.execute(() -> op.accept(s));
            } catch (RuntimeException e) {
                // the shard's executor is gone (shutting down)
            }
        }
    }

    private void periodicSync() {
        for (Shard s : shards) {
            s.execute(() -> s.syncCommitLog());
        }
    }

    public int shardCount() {
        return shards.length;
    }

    public int shardOf(long token) {
        return ShardRouting.shardOf(token, shards.length);
    }

    /** Off-heap bytes currently allocated by all shards (memtables, cache); zero after {@link #close()}. */
    public long allocatedOffHeapBytes() {
        long n = 0;
        for (Shard s : shards) {
            n += s.allocator().allocatedBytes();
        }
        return n;
    }

    /**
     * Off-heap bytes currently held by open SSTables of every table ever registered (Bloom filters, index
     * summaries, chunk offsets); zero after {@link #close()}.
     */
    public long sstableOffHeapBytes() {
        long n = 0;
        for (ShardAllocator a : sstableAllocators) {
            n += a.allocatedBytes();
        }
        return n;
    }

    /** Row cache figures of all shards. */
    public RowCacheStats rowCacheStats() {
        long entries = 0, bytes = 0, hits = 0, misses = 0, evictions = 0, invalidations = 0;
        for (Shard s : shards) {
            io.charybdis.storage.cache.RowCache c = s.cache();
            entries += c.size();
            bytes += c.bytes();
            hits += c.hits();
            misses += c.misses();
            evictions += c.evictions();
            invalidations += c.invalidations();
        }
        return new RowCacheStats(entries, bytes, hits, misses, evictions, invalidations);
    }

    // ------------------------------------------------------------------ schema

    public Path tableDirectory(TableDescriptor t) {
        return tableDirectory(config.dataDirectory(), t);
    }

    private static Path tableDirectory(Path dataDirectory, TableDescriptor t) {
        return dataDirectory.resolve(t.keyspace()).resolve(t.name() + "-" + t.id().toHexString());
    }

    /** The table's directory in each data directory, the first data directory's first. */
    public List<Path> tableDirectories(TableDescriptor t) {
        List<Path> dirs = new ArrayList<>();
        for (Path d : config.dataDirectories()) {
            dirs.add(tableDirectory(d, t));
        }
        return dirs;
    }

    /** Registers a table (idempotent: a known id only has its descriptor updated) and loads its SSTables. */
    public void registerTable(TableDescriptor t) {
        checkOpen();
        TableEntry existing = tables.get(t.id());
        if (existing != null) {
            existing.descriptor(t);
            return;
        }
        List<Path> dirs = tableDirectories(t);
        try {
            for (Path d : dirs) {
                Files.createDirectories(d);
            }
            cleanTableDirectory(dirs);
            // generation -> its directory (generations are unique across the table's directories)
            java.util.TreeMap<Long, Path> generations = new java.util.TreeMap<>();
            long maxGen = 0;
            for (Path d : dirs) {
                try (Stream<Path> s = Files.list(d)) {
                    for (Path p : (Iterable<Path>) s::iterator) {
                        long g = generationOf(p.getFileName().toString());
                        if (g >= 0) {
                            maxGen = Math.max(maxGen, g);
                            if (p.getFileName().toString().endsWith("-TOC.txt")) {
                                Path other = generations.put(g, d);
                                if (other != null) {
                                    throw new StorageException("sstable generation=" + g + " of table="
                                            + t.keyspace() + "." + t.name() + " is in two directories: " + other
                                            + " and " + d);
                                }
                            }
                        }
                    }
                }
            }
            TableEntry entry = new TableEntry(t, dirs, maxGen, shards.length);
            sstableAllocators.add(entry.sstableAllocator());
            List<List<SSTableReader>> perShard = new ArrayList<>();
            for (int i = 0; i < shards.length; i++) {
                perShard.add(new ArrayList<>());
            }
            for (Map.Entry<Long, Path> gen : generations.entrySet()) {
                SSTableReader r = SSTableReader.open(gen.getValue(), gen.getKey(), entry.sstableAllocator());
                assignToShards(r, perShard);
            }
            for (int i = 0; i < shards.length; i++) {
                entry.setInitial(i, perShard.get(i));
            }
            if (tables.putIfAbsent(t.id(), entry) != null) {
                perShard.forEach(l -> l.forEach(SSTableReader::release));
                tables.get(t.id()).descriptor(t);
            } else {
                // each shard makes the table's state now (a request that overtakes this makes it itself)
                for (Shard s : shards) {
                    s.registerTable(entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot register table=" + t.keyspace() + "." + t.name() + " dirs=" + dirs,
                    e);
        }
    }

    public void alterTable(TableDescriptor t) {
        TableEntry e = tables.get(t.id());
        if (e == null) {
            registerTable(t);
        } else {
            e.descriptor(t);
        }
    }

    /** Drops a table: its memtables and SSTables are discarded and its directory deleted. */
    public CompletableFuture<Void> dropTable(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.completedFuture(null);
        }
        return onAllShards(s -> s.truncate(id, true)).thenRunAsync(() -> {
            tables.remove(id);
            for (Path d : e.directories()) {
                deleteRecursively(d);
            }
        }, io);
    }

    public CompletableFuture<Void> truncate(TableId id) {
        return onAllShards(s -> s.truncate(id, false));
    }

    // ------------------------------------------------------------------ data
    // apply, read and atomically run inline when called on the owning shard's thread, else they go through its
    // bounded request queue: when that is full the future fails with ShardOverloadedException (nothing ran).

    /** Requests waiting in the bounded queue of each shard, in shard order. */
    public int[] queuedRequests() {
        int[] depths = new int[shards.length];
        for (int i = 0; i < shards.length; i++) {
            depths[i] = shards[i].queuedRequests();
        }
        return depths;
    }

    /** Requests refused by full shard queues since open, all shards. */
    public long rejectedRequests() {
        long n = 0;
        for (Shard s : shards) {
            n += s.rejectedRequests();
        }
        return n;
    }

    /** Applies a mutation on the shard owning its token: commit log, then memtable; completes when durable. */
    public CompletableFuture<Void> apply(Mutation m) {
        return shards[shardOf(m.token())].requestApply(m);
    }

    /**
     * As {@link #apply(Mutation)} for a traced request: {@code trace} (null: not traced) is told, on the owning
     * shard, of the commit log append and the memtable write, in Cassandra's words.
     */
    public CompletableFuture<Void> apply(Mutation m, java.util.function.Consumer<String> trace) {
        return trace == null ? apply(m) : shards[shardOf(m.token())].requestApply(m, trace);
    }

    /**
     * Sets (null: removes) the writes every write of table {@code id} implies on other tables of the same shard; see
     * {@link DerivedWrites}. The table must be registered.
     */
    public void derivedWrites(TableId id, DerivedWrites d) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        e.derived(d);
    }

    /**
     * Applies, on the shard owning {@code base}'s token, the derived writes of {@code base} (a partition the table
     * already holds, e.g. from {@link #readRawPartition}) without applying {@code base} itself: builds derived data
     * (an index) for existing data. Not logged: flush the derived table to make it durable.
     */
    public CompletableFuture<Void> derive(Mutation base) {
        return shards[shardOf(base.token())].requestDerive(base);
    }

    /**
     * As {@link #read(ReadCommand)} for a traced request: a single-partition read tells {@code trace} (null: not
     * traced), on the owning shard, where it found the partition (row cache, or memtables and how many SSTables).
     */
    public CompletableFuture<ReadResult> read(ReadCommand c, java.util.function.Consumer<String> trace) {
        return trace != null && c.isSinglePartition() ? shards[shardOf(c.token())].requestRead(c, trace) : read(c);
    }

    public CompletableFuture<ReadResult> read(ReadCommand c) {
        if (c.isSinglePartition()) {
            return shards[shardOf(c.token())].requestRead(c);
        }
        List<CompletableFuture<ReadResult>> parts = new ArrayList<>();
        for (Shard s : shards) {
            parts.add(s.requestRead(c));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<ReadResult> rs = new ArrayList<>();
            for (CompletableFuture<ReadResult> f : parts) {
                rs.add(f.join());
            }
            return shards.length == 1 ? rs.get(0) : ResultWriter.mergeRange(c, rs);
        });
    }

    /**
     * The whole partition as this node holds it — reconciled from memtables and SSTables, tombstones and expiring
     * cells kept — as a mutation that recreates it, or null when this node holds nothing of it: what a coordinator
     * compares replicas by and repairs them with.
     */
    public CompletableFuture<Mutation> readRawPartition(TableId table, long token, byte[] key) {
        return shards[shardOf(token)].requestRawPartition(table, token, key);
    }

    /**
     * One page of a token range as shard {@code shard} holds it: the partitions with tokens in [startToken,
     * endToken], after {@code after} when not null, at most {@code limit}, each whole and unfiltered (tombstones
     * and timestamps kept) as {@link #readRawPartition} gives it. What streaming sends and repair hashes; the caller
     * resumes after the last partition of a full page.
     */
    public CompletableFuture<List<Mutation>> readRawRange(TableId table, int shard, long startToken,
                                                          io.charybdis.storage.mutation.DecoratedKey after,
                                                          long endToken, int limit) {
        return shards[shard].requestRawRange(table, startToken, after, endToken, limit);
    }

    /**
     * Reads {@code current} (a single-partition read of (token, key)) and applies what {@code decide} returns
     * (null = nothing), with no other write to that partition in between. {@code decide} runs on the shard thread.
     */
    public CompletableFuture<CasResult> atomically(TableId table, long token, byte[] key, ReadCommand current,
                                                   Function<ReadResult, Mutation> decide) {
        return shards[shardOf(token)].requestAtomically(table, token, key, current, decide);
    }

    public CompletableFuture<CasResult> atomically(TableId table, long token, ByteBuffer key, ReadCommand current,
                                                   Function<ReadResult, Mutation> decide) {
        byte[] k = new byte[key.remaining()];
        key.duplicate().get(k);
        return atomically(table, token, k, current, decide);
    }

    // ------------------------------------------------------------------ maintenance

    public CompletableFuture<Void> flush(TableId id) {
        return onAllShards(s -> s.flush(id));
    }

    public CompletableFuture<Void> flushAll() {
        return onAllShards(Shard::flushAll);
    }

    /** Flushes everything, syncs the commit log and stops accepting writes. */
    public CompletableFuture<Void> drain() {
        return onAllShards(Shard::stopWrites)
                .thenCompose(v -> flushAll())
                .thenCompose(v -> onAllShards(Shard::syncCommitLog));
    }

    /**
     * The directory of a registered table in the first data directory (its snapshots are under
     * {@code snapshots/<tag>} in it, and in each of {@link #tableDirectories(TableId)}).
     */
    public Path tableDirectory(TableId id) {
        return tableDirectories(id).get(0);
    }

    /** The directories of a registered table's SSTables, one per data directory, the first data directory's first. */
    public List<Path> tableDirectories(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.directories();
    }

    /**
     * Flushes the table, then hard-links its SSTable files under {@code <table dir>/snapshots/<tag>} of the table
     * directory each SSTable lies in (hard links stay on their file system).
     */
    public CompletableFuture<List<Path>> snapshot(TableId id, String tag) {
        return snapshot(id, tag, true);
    }

    /**
     * Hard-links the table's SSTable files under {@code <table dir>/snapshots/<tag>}, after a flush unless
     * {@code flush} is false (then what is only in memtables is not in the snapshot).
     */
    public CompletableFuture<List<Path>> snapshot(TableId id, String tag, boolean flush) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        if (tag.isEmpty() || tag.contains("/") || tag.contains("..")) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("bad snapshot tag=" + tag));
        }
        return (flush ? flush(id) : CompletableFuture.<Void>completedFuture(null)).thenCompose(v -> {
            List<CompletableFuture<List<SSTableReader>>> fs = new ArrayList<>();
            for (Shard s : shards) {
                fs.add(s.submit(() -> s.acquireSSTables(id)));
            }
            return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).thenApplyAsync(x -> {
                Set<SSTableReader> all = new HashSet<>();
                for (CompletableFuture<List<SSTableReader>> f : fs) {
                    all.addAll(f.join());
                }
                List<Path> links = new ArrayList<>();
                try {
                    for (Path d : e.directories()) {
                        Files.createDirectories(d.resolve("snapshots").resolve(tag));
                    }
                    for (SSTableReader r : all) {
                        for (Path p : r.files()) {
                            Path link = p.getParent().resolve("snapshots").resolve(tag).resolve(p.getFileName());
                            Files.createDirectories(link.getParent());
                            if (!Files.exists(link)) {
                                Files.createLink(link, p);
                            }
                            links.add(link);
                        }
                    }
                } catch (IOException ex) {
                    throw new UncheckedIOException("snapshot failed table=" + id + " tag=" + tag, ex);
                } finally {
                    // one release per acquire
                    for (CompletableFuture<List<SSTableReader>> f : fs) {
                        f.join().forEach(SSTableReader::release);
                    }
                }
                return links;
            }, io);
        });
    }

    /**
     * Size estimates of the table's live SSTables (memtables are not counted, as in Cassandra's) per token range
     * ({@code starts[i]}, {@code ends[i]}]: for each range, {estimated partitions, their mean size in bytes}. An
     * SSTable's partitions in a range are estimated from its index summary
     * ({@link SSTableReader#estimatedPartitions}), their size from its partition-size histogram; nothing is read
     * from disk.
     */
    public CompletableFuture<double[][]> partitionEstimates(TableId id, long[] starts, long[] ends) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        List<CompletableFuture<List<SSTableReader>>> fs = new ArrayList<>();
        for (Shard s : shards) {
            fs.add(s.submit(() -> s.acquireSSTables(id)));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).thenApplyAsync(x -> {
            // an SSTable of another shard layout is served by several shards: counted once
            Set<SSTableReader> all = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (CompletableFuture<List<SSTableReader>> f : fs) {
                all.addAll(f.join());
            }
            double[][] out = new double[starts.length][2];
            try {
                for (SSTableReader r : all) {
                    double mean = r.stats() == null ? 0
                            : EstimatedHistogram.mean(r.stats().partitionSizes());
                    for (int i = 0; i < starts.length; i++) {
                        double n = r.estimatedPartitions(starts[i], ends[i]);
                        out[i][0] += n;
                        out[i][1] += n * mean;
                    }
                }
            } finally {
                for (CompletableFuture<List<SSTableReader>> f : fs) {
                    f.join().forEach(SSTableReader::release);
                }
            }
            for (double[] range : out) {
                range[1] = range[0] > 0 ? range[1] / range[0] : 0;
            }
            return out;
        }, io);
    }

    /** Replays the commit log segments found at open into the registered tables' memtables, flushes, deletes them. */
    public CompletableFuture<Void> replayCommitLog() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                replay();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "commitlog-replay");
        t.setDaemon(true);
        t.start();
        return done;
    }

    private void replay() throws IOException {
        Map<TableId, Long> skipped = new HashMap<>();
        long replayed = 0;
        for (Path segment : segmentsToReplay) {
            List<CompletableFuture<Void>> applied = new ArrayList<>();
            CommitLogReplayer.replay(segment, config.ignoreCommitLogCorruption(), m -> {
                if (!tables.containsKey(m.table())) {
                    skipped.merge(m.table(), 1L, Long::sum);
                    return;
                }
                Shard s = shards[shardOf(m.token())];
                applied.add(s.submit(() -> s.apply(m, false)));
            });
            CompletableFuture.allOf(applied.toArray(CompletableFuture[]::new)).join();
            replayed += applied.size();
        }
        skipped.forEach((table, n) -> LOG.info("commit log replay skipped mutations of unknown table id={} count={}", table, n));
        flushAll().join();
        for (Path segment : segmentsToReplay) {
            Files.deleteIfExists(segment);
        }
        LOG.info("commit log replay done segments={} mutations={}", segmentsToReplay.size(), replayed);
        segmentsToReplay.clear();
    }

    public TableStats stats(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.stats();
    }

    public TableMetrics metrics(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.metrics();
    }

    /** Local read (single-partition) and write latencies of the table, summed over shards. */
    public TableLatencies latencies(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.latencies();
    }

    /** Partition sizes and cells per partition over the table's live SSTables (the table metrics' histograms). */
    public PartitionHistograms partitionHistograms(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.partitionHistograms();
    }

    /** Uncompressed data length of the table's live SSTables. */
    public long uncompressedBytes(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.uncompressedBytes();
    }

    // ------------------------------------------------------------------ compaction management

    /** Each shard's memory, cache, commit log and scheduler figures, each taken on its shard; in shard order. */
    public CompletableFuture<List<ShardSnapshot>> shardSnapshots() {
        List<CompletableFuture<ShardSnapshot>> fs = new ArrayList<>();
        for (Shard s : shards) {
            fs.add(s.submit(s::snapshot));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new))
                .thenApply(v -> fs.stream().map(CompletableFuture::join).toList());
    }

    /** Slots of {@link #sstablesPerRead}: index n counts reads that consulted n SSTables, the last "that many or more". */
    public static int sstablesPerReadSlots() {
        return TableEntry.SSTABLES_PER_READ_SLOTS;
    }

    /** One table's single-partition reads on one shard by SSTables consulted; safe from any thread. */
    public long[] sstablesPerRead(TableId id, int shard) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        long[] counts = new long[sstablesPerReadSlots()];
        e.addSSTablesPerRead(shard, counts);
        return counts;
    }

    /** Running compactions, pending work and backlog per table, and each shard's controller state. */
    public CompletableFuture<CompactionStatus> compactionStatus() {
        List<CompletableFuture<CompactionStatus.ShardStatus>> fs = new ArrayList<>();
        for (Shard s : shards) {
            fs.add(s.submit(s::compactionStatus));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<CompactionStatus.ShardStatus> parts = new ArrayList<>();
            for (CompletableFuture<CompactionStatus.ShardStatus> f : fs) {
                parts.add(f.join());
            }
            return CompactionStatus.merge(parts);
        });
    }

    /**
     * Drops the table's partitions whose token {@code keep} rejects (nodetool cleanup: ranges this node no longer
     * replicates): flushes, then rewrites every SSTable of every shard without them.
     */
    public CompletableFuture<Void> cleanup(TableId id, java.util.function.LongPredicate keep) {
        return flush(id).thenCompose(v -> onAllShards(s -> s.cleanup(id, keep)));
    }

    /**
     * Compacts all of the table's SSTables on every shard into one run (size-tiered: one SSTable; leveled: SSTables
     * of sstable_size_in_mb in the lowest level that holds them all), once the compactions running are done.
     * Purges what gc_grace_seconds allows. Completes when every shard is done.
     */
    public CompletableFuture<Void> forceMajorCompaction(TableId id) {
        if (!tables.containsKey(id)) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        return onAllShards(s -> s.forceMajorCompaction(id));
    }

    /** The compaction throughput cap for the whole node in bytes per second; 0 = none (the controller alone). */
    public long compactionThroughputCap() {
        return ctx.compactionThroughputCap().get();
    }

    /**
     * Changes the compaction throughput cap at run time ({@code nodetool setcompactionthroughput}); each shard
     * gets an equal part of it at once. 0 removes the cap and leaves compaction to the backlog controller.
     */
    public void setCompactionThroughputCap(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("compaction throughput must be >= 0, not " + bytesPerSecond);
        }
        ctx.compactionThroughputCap().set(bytesPerSecond);
        onEachShard(Shard::applyThroughputCap);
    }

    /**
     * Where each finished compaction goes (the node writes it to system.compaction_history); called on the shard
     * that compacted, in a task of its own after the compaction is installed; must not block. Set once.
     */
    public void onCompactionFinished(java.util.function.Consumer<CompactionHistory.Entry> sink) {
        ctx.compactionHistory().setSink(sink);
    }

    /** Each shard's scheduling groups now, shard by shard (nodetool tpstats); safe from any thread. */
    public List<SchedulingGroupStats> schedulingGroups() {
        List<SchedulingGroupStats> r = new ArrayList<>();
        for (Shard s : shards) {
            r.addAll(s.schedulingGroups());
        }
        return r;
    }

    /**
     * Stops (false) or restarts (true) automatic compaction of the table (nodetool disableautocompaction /
     * enableautocompaction), whatever its compaction option {@code 'enabled'} says, as Cassandra does: while stopped
     * its strategy picks nothing; running compactions finish, and nodetool compact still compacts. Not persisted: a
     * restarted node, or a change of the table's compaction options, goes back to what {@code 'enabled'} says.
     */
    public CompletableFuture<Void> setAutoCompaction(TableId id, boolean enabled) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        e.autoCompactionDisabled(!enabled);
        return enabled ? onAllShards(s -> s.maybeCompact(id)) : CompletableFuture.completedFuture(null);
    }

    public boolean autoCompactionDisabled(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            throw new StorageException("unknown table id=" + id);
        }
        return e.autoCompactionDisabled();
    }

    /**
     * nodetool refresh: loads the SSTables found in the table's directory whose generation number this node never
     * handed out (files copied in by hand, e.g. from another node); returns how many. Reserving the numbers first
     * keeps a flush or compaction running meanwhile from taking one of them. SSTables of a generation the node
     * already used (its own, live or deleted) are not touched: import them with {@link #importSSTables}, which
     * renumbers.
     */
    public CompletableFuture<Integer> refresh(TableId id) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                List<Long> found = SSTableCopy.generations(e.directory());
                if (found.isEmpty()) {
                    return List.<SSTableReader>of();
                }
                long before = e.reserveGenerationsUpTo(found.get(found.size() - 1));
                List<SSTableReader> loaded = new ArrayList<>();
                for (long g : found) {
                    if (g <= before) {
                        continue;
                    }
                    SSTableReader r = SSTableReader.open(e.directory(), g, e.sstableAllocator());
                    if (r.isCorrupt()) {
                        r.release();
                        LOG.error("refresh table={}.{}: generation={} is unreadable, not loaded", e.descriptor().keyspace(),
                                e.descriptor().name(), g);
                    } else {
                        loaded.add(r);
                    }
                }
                return loaded;
            } catch (IOException ex) {
                throw new UncheckedIOException("refresh failed dir=" + e.directory(), ex);
            }
        }, io).thenCompose(loaded -> addSSTables(id, loaded).thenApply(v -> loaded.size()));
    }

    /**
     * nodetool import: copies the SSTables of each directory (Charybdis's own format, of this table's schema: a
     * snapshot, another node's files) into the table under new generation numbers, then serves them; without
     * {@code keepSources} the source files are deleted once copied. Returns the directories that could not be
     * imported whole (missing, unreadable, or holding a corrupt SSTable: its copy is removed, the others stay).
     */
    public CompletableFuture<List<String>> importSSTables(TableId id, List<Path> directories, boolean keepSources) {
        TableEntry e = tables.get(id);
        if (e == null) {
            return CompletableFuture.failedFuture(new StorageException("unknown table id=" + id));
        }
        List<String> failed = new ArrayList<>();
        return CompletableFuture.supplyAsync(() -> {
            List<SSTableReader> loaded = new ArrayList<>();
            for (Path dir : directories) {
                boolean ok = Files.isDirectory(dir);
                if (!ok) {
                    LOG.error("import table={}.{}: no directory {}", e.descriptor().keyspace(), e.descriptor().name(), dir);
                }
                try {
                    for (long g : ok ? SSTableCopy.generations(dir) : List.<Long>of()) {
                        long to = e.nextGeneration();
                        try {
                            SSTableCopy.copy(dir, g, e.directory(), to);
                        } catch (IOException | RuntimeException ex) {
                            LOG.error("import table={}.{}: {} generation={} not imported: {}", e.descriptor().keyspace(),
                                    e.descriptor().name(), dir, g, ex.toString());
                            SSTableCopy.delete(e.directory(), to);
                            ok = false;
                            continue;
                        }
                        SSTableReader r = SSTableReader.open(e.directory(), to, e.sstableAllocator());
                        if (r.isCorrupt()) {
                            r.markObsolete();
                            r.release();
                            ok = false;
                            continue;
                        }
                        loaded.add(r);
                        if (!keepSources) {
                            SSTableCopy.delete(dir, g);
                        }
                    }
                } catch (IOException ex) {
                    LOG.error("import table={}.{}: {}: {}", e.descriptor().keyspace(), e.descriptor().name(), dir,
                            ex.toString());
                    ok = false;
                }
                if (!ok) {
                    failed.add(dir.toString());
                }
            }
            return loaded;
        }, io).thenCompose(loaded -> addSSTables(id, loaded)).thenApply(v -> failed);
    }

    /** Hands loaded SSTables to the shards that own them (every shard, filtered by token, if written elsewhere). */
    private CompletableFuture<Void> addSSTables(TableId id, List<SSTableReader> loaded) {
        if (loaded.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<List<SSTableReader>> perShard = new ArrayList<>();
        for (int i = 0; i < shards.length; i++) {
            perShard.add(new ArrayList<>());
        }
        for (SSTableReader r : loaded) {
            assignToShards(r, perShard);
        }
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < shards.length; i++) {
            Shard s = shards[i];
            List<SSTableReader> mine = perShard.get(i);
            if (!mine.isEmpty()) {
                fs.add(s.submit(() -> s.addSSTables(id, mine)));
            }
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new));
    }

    /** Stops every running compaction (their inputs stay; the strategies pick again later). Returns how many. */
    public CompletableFuture<Integer> stopCompactions() {
        List<CompletableFuture<Integer>> fs = new ArrayList<>();
        for (Shard s : shards) {
            fs.add(s.submit(s::stopCompactions));
        }
        return CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new))
                .thenApply(v -> fs.stream().mapToInt(CompletableFuture::join).sum());
    }

    /** Syncs the commit log and stops; releases all off-heap memory. Do not call from a shard thread. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        onAllShards(Shard::stopWrites).join();
        closed = true;
        timer.shutdownNow();
        io.shutdown();
        try {
            if (!io.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.warn("storage I/O tasks still running at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Shard s : shards) {
            s.closeScheduler();
        }
        onAllShards(Shard::close).join();
        for (TableEntry e : tables.values()) {
            for (int i = 0; i < shards.length; i++) {
                e.takeInitialForClose(i).forEach(SSTableReader::release);
            }
        }
    }

    private CompletableFuture<Void> onAllShards(Function<Shard, CompletableFuture<?>> op) {
        CompletableFuture<?>[] fs = new CompletableFuture<?>[shards.length];
        for (int i = 0; i < shards.length; i++) {
            Shard s = shards[i];
            fs[i] = s.submit(() -> op.apply(s).thenApply(x -> null));
        }
        return CompletableFuture.allOf(fs);
    }

    private void checkOpen() {
        if (closed) {
            throw new StorageException("storage is closed");
        }
    }

    // ------------------------------------------------------------------ files

    static long generationOf(String fileName) {
        if (!fileName.startsWith(SSTableFormat.PREFIX)) {
            return -1;
        }
        int dash = fileName.indexOf('-', SSTableFormat.PREFIX.length());
        if (dash < 0) {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(SSTableFormat.PREFIX.length(), dash));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Cleans every table directory of every data directory; a table's directories in the different data directories
     * (same {@code keyspace/table-id} below each) are cleaned together, as their compaction logs span them.
     */
    private static void cleanLeftovers(List<Path> dataDirs) throws IOException {
        Map<Path, List<Path>> byTable = new java.util.LinkedHashMap<>();
        for (Path dataDir : dataDirs) {
            try (Stream<Path> ks = Files.list(dataDir)) {
                for (Path k : (Iterable<Path>) ks::iterator) {
                    if (!Files.isDirectory(k)) {
                        continue;
                    }
                    try (Stream<Path> ts = Files.list(k)) {
                        for (Path t : (Iterable<Path>) ts::iterator) {
                            if (Files.isDirectory(t)) {
                                byTable.computeIfAbsent(dataDir.relativize(t), x -> new ArrayList<>()).add(t);
                            }
                        }
                    }
                }
            }
        }
        for (List<Path> dirs : byTable.values()) {
            cleanTableDirectory(dirs);
        }
    }

    /**
     * Finishes or rolls back interrupted compactions of a table kept in {@code dirs}, then removes temporary files
     * and the components of SSTables that never got their TOC.
     */
    private static void cleanTableDirectory(List<Path> dirs) throws IOException {
        CompactionLog.recover(dirs);
        for (Path dir : dirs) {
            cleanIncomplete(dir);
        }
    }

    private static void cleanIncomplete(Path dir) throws IOException {
        Set<Long> complete = new HashSet<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(files::add);
        }
        for (Path p : files) {
            String n = p.getFileName().toString();
            if (n.endsWith("-TOC.txt") && generationOf(n) >= 0) {
                complete.add(generationOf(n));
            }
        }
        for (Path p : files) {
            String n = p.getFileName().toString();
            if (n.startsWith(SSTableFormat.TMP_PREFIX)) {
                LOG.info("removing leftover temporary file={}", p);
                Files.deleteIfExists(p);
            } else if (generationOf(n) >= 0 && !complete.contains(generationOf(n))) {
                LOG.info("removing component of incomplete sstable file={}", p);
                Files.deleteIfExists(p);
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("could not delete file={}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            LOG.warn("could not delete dir={}: {}", dir, e.toString());
        }
    }

    /**
     * Puts an SSTable with the shard that owns all of it, or, written with another shard count (or unreadable),
     * with every shard, which each read it filtered by token (one reference per shard).
     */
    private void assignToShards(SSTableReader r, List<List<SSTableReader>> perShard) {
        int owner = -1;
        for (int i = 0; i < shards.length; i++) {
            if (r.ownedBy(i, shards.length)) {
                owner = i;
            }
        }
        if (owner >= 0) {
            perShard.get(owner).add(r);
            return;
        }
        for (int i = 0; i < shards.length; i++) {
            if (i > 0) {
                r.acquire();
            }
            perShard.get(i).add(r);
        }
    }
}
