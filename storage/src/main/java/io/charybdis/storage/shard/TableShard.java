package io.charybdis.storage.shard;

import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.charybdis.storage.compaction.BacklogTracker;
import io.charybdis.storage.compaction.CompactionStrategy;

/** One table's state on one shard: the writable memtable, memtables being flushed, live SSTables. */
final class TableShard {
    static final int SSTABLES_PER_READ_SLOTS = 65;
    final TableEntry entry;
    Memtable memtable;
    final List<Memtable> flushing = new ArrayList<>();
    final List<SSTableReader> sstables = new ArrayList<>();
    /** Bumped by truncate/drop: flushes and compactions started before discard their output. */
    int epoch;
    /** Bumped when SSTable content changes meaning (flush, truncate): reads that started before do not populate the cache. */
    int cachePhase;
    /** Reads by number of SSTables consulted: index n for n SSTables, the last slot for "that many or more". */
    final java.util.concurrent.atomic.AtomicLongArray sstablesPerRead = new java.util.concurrent.atomic.AtomicLongArray(SSTABLES_PER_READ_SLOTS);
    /** The same over the last one to two minutes (see {@link RecentCounts}), for percentiles as nodetool shows them. */
    final RecentCounts recentSSTablesPerRead = new RecentCounts(SSTABLES_PER_READ_SLOTS);
    /** Local latencies of single-partition reads and of writes (recorded on any thread). */
    final io.charybdis.storage.LatencyHistogram readLatency = new io.charybdis.storage.LatencyHistogram();
    final io.charybdis.storage.LatencyHistogram writeLatency = new io.charybdis.storage.LatencyHistogram();
    /** Per read, rows with live data and tombstones it went through. */
    final io.charybdis.storage.LatencyHistogram liveScanned = new io.charybdis.storage.LatencyHistogram();
    final io.charybdis.storage.LatencyHistogram tombstonesScanned = new io.charybdis.storage.LatencyHistogram();
    boolean dropped;
    CompactionStrategy strategy;
    Map<String, String> strategySource;
    private BacklogTracker tracker;
    /** Inputs of running compactions (identity). */
    final Set<SSTableReader> compacting = Collections.newSetFromMap(new IdentityHashMap<>());
    final List<CompactionTask> running = new ArrayList<>();
    final List<CompletableFuture<Void>> majorWaiters = new ArrayList<>();
    /** The tokens the next major compaction keeps (cleanup drops the others); null: all. Shard thread only. */
    java.util.function.LongPredicate majorKeep;

    // published for TableStats (written by the shard thread only)
    volatile int statSSTables;
    volatile long statDiskBytes;
    volatile long statMemtableBytes;
    volatile long statMemtablePartitions;
    volatile long statSSTablePartitions;
    volatile long statFlushes;
    volatile long statCompactions;
    volatile int statPendingFlushes;
    volatile long statBytesCompacted;
    volatile double statBacklog;
    volatile long statUncompressedBytes;
    /** The live SSTables as last published, for figures read from their statistics; replaced when the set changes. */
    volatile SSTableReader[] statSSTableList = new SSTableReader[0];

    TableShard(TableEntry entry, Memtable memtable) {
        this.entry = entry;
        this.memtable = memtable;
    }

    void publishStats() {
        statSSTables = sstables.size();
        publishSSTableList();
        long disk = 0;
        long parts = 0;
        long uncompressed = 0;
        for (SSTableReader r : sstables) {
            disk += r.onDiskBytes();
            parts += r.partitionCount();
            uncompressed += r.uncompressedLength();
        }
        statUncompressedBytes = uncompressed;
        statDiskBytes = disk;
        statSSTablePartitions = parts;
        long mem = memtable.allocatedBytes();
        long mp = memtable.partitionCount();
        for (Memtable m : flushing) {
            mem += m.allocatedBytes();
            mp += m.partitionCount();
        }
        statMemtableBytes = mem;
        statMemtablePartitions = mp;
        statPendingFlushes = flushing.size();
    }

    /** Publishes the live SSTables' list when it changed (this runs after every write: no allocation otherwise). */
    private void publishSSTableList() {
        SSTableReader[] published = statSSTableList;
        boolean same = published.length == sstables.size();
        for (int i = 0; same && i < published.length; i++) {
            same = published[i] == sstables.get(i);
        }
        if (!same) {
            statSSTableList = sstables.toArray(new SSTableReader[0]);
        }
    }

    /** The strategy's backlog tracker; set by the shard together with the strategy. */
    BacklogTracker tracker() {
        return tracker;
    }

    void resetTracker(BacklogTracker t, List<SSTableReader> live) {
        tracker = t;
        t.replaceSSTables(List.of(), live);
    }

    void recordSSTablesPerRead(int n) {
        int slot = Math.min(n, SSTABLES_PER_READ_SLOTS - 1);
        sstablesPerRead.lazySet(slot, sstablesPerRead.get(slot) + 1);
        recentSSTablesPerRead.record(slot, System.nanoTime());
    }

    List<SSTableReader> sstablesSnapshot() {
        return new ArrayList<>(sstables);
    }
}
