package io.charybdis.storage.shard;

import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;

/** One table's state on one shard: the writable memtable, memtables being flushed, live SSTables. */
final class TableShard {
    final TableEntry entry;
    Memtable memtable;
    final List<Memtable> flushing = new ArrayList<>();
    final List<SSTableReader> sstables = new ArrayList<>();
    /** Bumped by truncate/drop: flushes and compactions started before discard their output. */
    int epoch;
    boolean compacting;
    boolean dropped;

    // published for TableStats (written by the shard thread only)
    volatile int statSSTables;
    volatile long statDiskBytes;
    volatile long statMemtableBytes;
    volatile long statMemtablePartitions;
    volatile long statSSTablePartitions;
    volatile long statFlushes;
    volatile long statCompactions;
    volatile int statPendingFlushes;

    TableShard(TableEntry entry, Memtable memtable) {
        this.entry = entry;
        this.memtable = memtable;
    }

    void publishStats() {
        statSSTables = sstables.size();
        long disk = 0;
        long parts = 0;
        for (SSTableReader r : sstables) {
            disk += r.onDiskBytes();
            parts += r.partitionCount();
        }
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

    List<SSTableReader> sstablesSnapshot() {
        return new ArrayList<>(sstables);
    }
}
