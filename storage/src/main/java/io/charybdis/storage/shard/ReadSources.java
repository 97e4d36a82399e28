package io.charybdis.storage.shard;

import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a read sees of a table at one instant: its memtables (writable and flushing) and the SSTables the filter
 * keeps, each with a reference held until {@link #release}, so a flush or compaction that ends meanwhile cannot free
 * them under the read (on the I/O pool or between range batches).
 */
record ReadSources(List<Memtable> memtables, List<SSTableReader> sstables) {

    /** Takes the table's sources now, on the shard thread. */
    static ReadSources capture(TableShard ts, Predicate<SSTableReader> filter) {
        List<Memtable> ms = new ArrayList<>(1 + ts.flushing.size());
        ms.add(ts.memtable);
        ms.addAll(ts.flushing);
        ms.forEach(Memtable::retain);
        List<SSTableReader> ss = new ArrayList<>();
        for (SSTableReader r : ts.sstables) {
            if (filter.test(r) && r.acquire()) {
                ss.add(r);
            }
        }
        return new ReadSources(ms, ss);
    }

    void release() {
        memtables.forEach(Memtable::release);
        sstables.forEach(SSTableReader::release);
    }
}
