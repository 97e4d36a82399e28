package io.charybdis.storage.shard;

import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.sstable.SSTableReader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Node-wide registration of a table: descriptor (replaced by ALTER), its directories (one in each data directory),
 * the generation counter of its SSTables and the SSTables found at registration, handed to each shard when it makes
 * its state of the table (at registration, see {@link ShardTables}).
 *
 * <p>Several data directories: generations are unique across all of the table's directories (one counter), so a
 * generation names one SSTable wherever it lies; each new SSTable (a flush, a compaction's output) goes to the next
 * directory in turn that has room for it ({@link #nextDirectory}), which spreads every shard's SSTables over the
 * directories; SSTables are read wherever they are.
 */
public final class TableEntry {
    private volatile TableDescriptor descriptor;
    /** The writes this table's writes imply on other tables of the shard (its local indexes); null: none. */
    private volatile io.charybdis.storage.DerivedWrites derived;
    private final List<Path> directories;
    /** The directory the next SSTable is written to, before the room check (any thread: flushes and compactions). */
    private final java.util.concurrent.atomic.AtomicInteger nextDirectory = new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicLong generation;
    /** per shard: SSTables loaded at registration, taken (set to null) by the shard when it makes its table state. */
    final List<SSTableReader>[] initial;
    private final java.util.concurrent.atomic.AtomicReferenceArray<TableShard> perShard;
    /** Off-heap memory of this table's open SSTables (Bloom filters, index summaries, chunk offsets). */
    private final ShardAllocator sstableAllocator = new ShardAllocator(-1);
    /**
     * Whether the strategy picks no compaction, as Cassandra's CompactionStrategyManager keeps it: the compaction
     * option {@code 'enabled'} sets it when the table is registered, and when the compaction options change unless
     * nodetool enable/disableautocompaction set it otherwise in between (runtime only: a restart goes back to the
     * option).
     */
    private volatile boolean autoCompactionDisabled;

    public TableEntry(TableDescriptor descriptor, Path directory, long maxGeneration, int shards) {
        this(descriptor, List.of(directory), maxGeneration, shards);
    }

    /** @param directories the table's directory in each data directory, the first data directory's first */
    @SuppressWarnings("unchecked")
    public TableEntry(TableDescriptor descriptor, List<Path> directories, long maxGeneration, int shards) {
        if (directories.isEmpty()) {
            throw new IllegalArgumentException("a table needs a directory");
        }
        this.descriptor = descriptor;
        this.autoCompactionDisabled = disabledByOption(descriptor);
        this.directories = List.copyOf(directories);
        this.generation = new AtomicLong(maxGeneration);
        this.initial = new List[shards];
        this.perShard = new java.util.concurrent.atomic.AtomicReferenceArray<>(shards);
    }

    public io.charybdis.storage.DerivedWrites derived() {
        return derived;
    }

    public void derived(io.charybdis.storage.DerivedWrites d) {
        this.derived = d;
    }

    /** The accounted allocator of this table's SSTable readers; thread-safe. */
    public ShardAllocator sstableAllocator() {
        return sstableAllocator;
    }

    void publish(int shard, TableShard ts) {
        perShard.set(shard, ts);
    }

    /** The state the shard made for this table, or null before it did. */
    TableShard published(int shard) {
        return perShard.get(shard);
    }

    /** Sums the figures each shard last published; safe from any thread. */
    public io.charybdis.storage.TableStats stats() {
        int sstables = 0;
        long disk = 0, mem = 0, memParts = 0, sstParts = 0, flushes = 0, compactions = 0, pending = 0;
        for (int i = 0; i < perShard.length(); i++) {
            TableShard ts = perShard.get(i);
            if (ts == null) {
                List<SSTableReader> init = initial[i];
                if (init != null) {
                    for (SSTableReader r : init) {
                        sstables++;
                        disk += r.onDiskBytes();
                        sstParts += r.partitionCount();
                    }
                }
                continue;
            }
            sstables += ts.statSSTables;
            disk += ts.statDiskBytes;
            mem += ts.statMemtableBytes;
            memParts += ts.statMemtablePartitions;
            sstParts += ts.statSSTablePartitions;
            flushes += ts.statFlushes;
            compactions += ts.statCompactions;
            pending += ts.statPendingFlushes;
        }
        return new io.charybdis.storage.TableStats(sstables, disk, mem, memParts, sstParts, flushes, compactions, pending);
    }

    /** Compaction and read metrics summed over the shards that touched the table; safe from any thread. */
    public io.charybdis.storage.TableMetrics metrics() {
        long bytes = 0, compactions = 0;
        double backlog = 0;
        long[] counts = new long[TableShard.SSTABLES_PER_READ_SLOTS];
        long[] recent = new long[TableShard.SSTABLES_PER_READ_SLOTS];
        long now = System.nanoTime();
        for (int i = 0; i < perShard.length(); i++) {
            TableShard ts = perShard.get(i);
            if (ts == null) {
                continue;
            }
            bytes += ts.statBytesCompacted;
            compactions += ts.statCompactions;
            backlog += ts.statBacklog;
            for (int j = 0; j < counts.length; j++) {
                counts[j] += ts.sstablesPerRead.get(j);
            }
            ts.recentSSTablesPerRead.addTo(recent, now);
        }
        return new io.charybdis.storage.TableMetrics(bytes, compactions, backlog,
                new io.charybdis.storage.TableMetrics.Histogram(counts),
                new io.charybdis.storage.TableMetrics.Histogram(recent));
    }

    /**
     * Adds one shard's counts of single-partition reads by SSTables consulted (index n: n SSTables, the last slot:
     * that many or more) to {@code into}; safe from any thread.
     */
    public static final int SSTABLES_PER_READ_SLOTS = TableShard.SSTABLES_PER_READ_SLOTS;

    public void addSSTablesPerRead(int shard, long[] into) {
        TableShard ts = perShard.get(shard);
        if (ts != null) {
            for (int j = 0; j < Math.min(into.length, TableShard.SSTABLES_PER_READ_SLOTS); j++) {
                into[j] += ts.sstablesPerRead.get(j);
            }
        }
    }

    /** Read and write latencies summed over the shards that touched the table; safe from any thread. */
    public io.charybdis.storage.TableLatencies latencies() {
        io.charybdis.storage.LatencyHistogram.Snapshot reads = io.charybdis.storage.LatencyHistogram.empty();
        io.charybdis.storage.LatencyHistogram.Snapshot writes = reads;
        io.charybdis.storage.LatencyHistogram.Snapshot live = reads;
        io.charybdis.storage.LatencyHistogram.Snapshot tombstones = reads;
        for (int i = 0; i < perShard.length(); i++) {
            TableShard ts = perShard.get(i);
            if (ts != null) {
                reads = io.charybdis.storage.LatencyHistogram.sum(reads, ts.readLatency.snapshot());
                writes = io.charybdis.storage.LatencyHistogram.sum(writes, ts.writeLatency.snapshot());
                live = io.charybdis.storage.LatencyHistogram.sum(live, ts.liveScanned.snapshot());
                tombstones = io.charybdis.storage.LatencyHistogram.sum(tombstones, ts.tombstonesScanned.snapshot());
            }
        }
        return new io.charybdis.storage.TableLatencies(reads, writes, live, tombstones);
    }

    /** Partition sizes and cell counts over the table's live SSTables on every shard; safe from any thread. */
    public io.charybdis.storage.PartitionHistograms partitionHistograms() {
        List<io.charybdis.storage.sstable.SSTableStats> all = new java.util.ArrayList<>();
        for (int i = 0; i < perShard.length(); i++) {
            TableShard ts = perShard.get(i);
            List<SSTableReader> readers = ts != null ? List.of(ts.statSSTableList) : initial[i];
            if (readers != null) {
                for (SSTableReader r : readers) {
                    if (r.stats() != null) { // a corrupt SSTable has none
                        all.add(r.stats());
                    }
                }
            }
        }
        return io.charybdis.storage.PartitionHistograms.of(all);
    }

    /** Uncompressed length of the table's SSTables' data (what Cassandra calls uncompressed load). */
    public long uncompressedBytes() {
        long n = 0;
        for (int i = 0; i < perShard.length(); i++) {
            TableShard ts = perShard.get(i);
            if (ts != null) {
                n += ts.statUncompressedBytes;
            } else {
                List<SSTableReader> init = initial[i];
                if (init != null) {
                    for (SSTableReader r : init) {
                        n += r.uncompressedLength();
                    }
                }
            }
        }
        return n;
    }

    public TableDescriptor descriptor() {
        return descriptor;
    }

    public void descriptor(TableDescriptor d) {
        TableDescriptor before = descriptor;
        descriptor = d;
        // new compaction options: their 'enabled' decides unless nodetool's switch overrode the old ones' (Cassandra's
        // CompactionStrategyManager keeps a switch made through JMX across an ALTER TABLE)
        if (!before.compaction().equals(d.compaction()) && autoCompactionDisabled == disabledByOption(before)) {
            autoCompactionDisabled = disabledByOption(d);
        }
    }

    private static boolean disabledByOption(TableDescriptor d) {
        return "false".equalsIgnoreCase(d.compaction().getOrDefault("enabled", "true").trim());
    }

    /** The table's directory in the first data directory (where compaction logs are kept). */
    public Path directory() {
        return directories.get(0);
    }

    /** The table's directory in every data directory, the first one first. */
    public List<Path> directories() {
        return directories;
    }

    /**
     * The directory a new SSTable of about {@code expectedBytes} goes to: the directories take turns, skipping one
     * whose file system has less usable space than that; when none has, the one with the most.
     */
    public Path nextDirectory(long expectedBytes) {
        int n = directories.size();
        if (n == 1) {
            return directories.get(0);
        }
        int first = Math.floorMod(nextDirectory.getAndIncrement(), n);
        Path roomiest = null;
        long most = -1;
        for (int i = 0; i < n; i++) {
            Path d = directories.get((first + i) % n);
            long usable = usableSpace(d);
            if (usable >= expectedBytes) {
                return d;
            }
            if (usable > most) {
                most = usable;
                roomiest = d;
            }
        }
        return roomiest;
    }

    private static long usableSpace(Path dir) {
        try {
            return java.nio.file.Files.getFileStore(dir).getUsableSpace();
        } catch (java.io.IOException e) {
            return -1; // unreadable: the last choice
        }
    }

    public long nextGeneration() {
        return generation.incrementAndGet();
    }

    /**
     * Makes every later {@link #nextGeneration()} exceed {@code atLeast}; returns the counter's value before, so
     * a generation above that value was never handed out (refresh: SSTables placed in the directory by hand).
     */
    public long reserveGenerationsUpTo(long atLeast) {
        return generation.getAndAccumulate(atLeast, Math::max);
    }

    public boolean autoCompactionDisabled() {
        return autoCompactionDisabled;
    }

    public void autoCompactionDisabled(boolean disabled) {
        this.autoCompactionDisabled = disabled;
    }

    public synchronized void setInitial(int shard, List<SSTableReader> readers) {
        initial[shard] = readers;
    }

    /** SSTables never handed to their shard (closed before the shard made its table state); for close. */
    public synchronized List<SSTableReader> takeInitialForClose(int shard) {
        return takeInitial(shard);
    }

    synchronized List<SSTableReader> takeInitial(int shard) {
        List<SSTableReader> r = initial[shard];
        initial[shard] = null;
        return r == null ? List.of() : r;
    }
}
