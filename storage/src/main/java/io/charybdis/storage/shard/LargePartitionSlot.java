package io.charybdis.storage.shard;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The SSTable parts of the last large partition a shard read, kept off-heap for the next page of it.
 *
 * <p>A paged read of a partition too large for the row cache asks for the same partition page after page, and
 * SSTables never change: while the same SSTables are read, the parts read for the previous page serve the next one,
 * whose merge then only touches the rows the page wants (the memtables are still read each time). One slot per
 * shard, in the shard's off-heap allocator and counted in its budget (it takes at most half of what memtables leave of
 * the budget), so a large partition paged through costs each page its own rows instead of a read of the whole partition.
 *
 * <p>Implementation notes: the readers are compared by identity and not referenced (no release is held), so a
 * compacted-away SSTable simply makes the slot miss; the slot is emptied when its table's data changes outside
 * reads (truncate, drop, imported SSTables) and when the shard closes. Shard thread only.
 */
final class LargePartitionSlot {
    /** Partitions smaller than this are cheap to read again; larger than MAX are not kept. */
    static final long MIN = 1 << 20;
    static final long MAX = 64L << 20;

    private final ShardAllocator allocator;
    /** The native block holding the parts one after another (0: empty). */
    private long address;
    private List<PartitionView> views;
    private TableId table;
    private long token;
    private byte[] key;
    private SSTableReader[] readers;
    private long bytes;

    LargePartitionSlot(ShardAllocator allocator) {
        this.allocator = allocator;
    }

    /** Off-heap bytes the slot holds. */
    long bytes() {
        return bytes;
    }

    /** The kept parts' views when they are those of {@code c}'s partition in exactly these SSTables; else null. */
    List<PartitionView> views(ReadCommand c, List<SSTableReader> sstables) {
        if (views == null || token != c.token() || !c.table().equals(table) || !Arrays.equals(key, c.key())
                || readers.length != sstables.size()) {
            return null;
        }
        for (int i = 0; i < readers.length; i++) {
            if (readers[i] != sstables.get(i)) {
                return null;
            }
        }
        return views;
    }

    /**
     * Keeps (a copy of) the parts just read for {@code c}'s partition from {@code sstables} when the partition is large
     * but not larger than {@code room} allows; the previous content is released either way.
     */
    void keep(ReadCommand c, List<SSTableReader> sstables, List<byte[]> parts, long room) {
        long size = 0;
        for (byte[] p : parts) {
            size += p.length;
        }
        if (size < MIN) {
            return; // a small partition does not displace the large one kept
        }
        clear();
        if (size > MAX || size > room / 2) {
            return;
        }
        address = allocator.allocateMemory(size);
        views = new ArrayList<>(parts.size());
        long at = address;
        for (byte[] p : parts) {
            UnsafeBuffer b = new UnsafeBuffer(at, p.length);
            b.putBytes(0, p);
            views.add(new SerializedPartition().wrap(b, 0, false));
            at += p.length;
        }
        bytes = size;
        table = c.table();
        token = c.token();
        key = c.key().clone();
        readers = sstables.toArray(SSTableReader[]::new);
    }

    /** Empties the slot if it holds a partition of {@code tid}. */
    void forget(TableId tid) {
        if (views != null && table.equals(tid)) {
            clear();
        }
    }

    /** Frees what the slot holds. */
    void clear() {
        if (address != 0) {
            allocator.freeMemory(address, bytes);
        }
        address = 0;
        views = null;
        table = null;
        key = null;
        readers = null;
        bytes = 0;
    }
}
