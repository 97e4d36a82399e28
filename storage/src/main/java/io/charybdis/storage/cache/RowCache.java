package io.charybdis.storage.cache;

import static io.charybdis.storage.cache.RowCacheLayout.*;
import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.util.ByteComparables;
import java.util.HashMap;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One shard's row cache: whole partitions, off-heap, least-recently-used eviction.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>What an entry holds.</b> The reconciled content of one partition (table, token, key) as found in the
 *       table's SSTables, in the engine's partition record format ({@code MutationLayout}), tombstones kept,
 *       nothing purged. Memtables are <em>not</em> folded in: a read merges the entry with the memtables, as it
 *       would merge SSTables, so a write never makes an entry stale. An entry may be an empty record (no
 *       deletion, no rows): "no SSTable holds this partition", which saves the I/O of Bloom filter false
 *       positives.</li>
 *   <li><b>Coherence</b> (kept by the shard, which owns this object): a flush folds each flushed memtable
 *       partition into its entry (or invalidates it), at the instant the new SSTable becomes visible; a miss
 *       populates the cache only if no flush or truncate of the table completed while its I/O ran (the shard
 *       checks a per-table phase counter); compaction rewrites SSTables without changing what they mean, so
 *       entries stay valid; truncate and drop invalidate the table's entries.</li>
 *   <li><b>Memory.</b> Each entry is one raw native allocation (a header, then the record) from the shard's
 *       {@link ShardAllocator}, and the index is an open-addressing hash table of entry addresses in native
 *       memory ({@link RowCacheLayout}); {@link #bytes()} counts both, so the allocator counts the cache byte for
 *       byte. The cache has no size of its own: the shard evicts it down to what its memtables leave of the
 *       shard's budget ({@link #evictTo}).</li>
 *   <li><b>Heap.</b> Nothing per entry: the LRU order is a doubly linked list through the entry headers, the
 *       table is probed by a 64-bit hash of (table, token, key) kept in each entry, then the key compared in
 *       place. The heap holds this object, two flyweights and a count of entries per table.</li>
 *   <li><b>Table.</b> Linear probing at a load factor of at most 1/2, doubled when full; removal shifts the
 *       following entries of the cluster back (no tombstones), so probes stop at the first empty slot.</li>
 * </ul>
 * Shard thread only, except the counters, which any thread may read.
 */
public final class RowCache {
    private final ShardAllocator allocator;
    private final HashMap<TableId, Integer> perTable = new HashMap<>();
    private final SerializedPartition view = new SerializedPartition();
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer probe = new UnsafeBuffer(0, 0);
    private long table;
    private int capacity;
    private long lruHead;
    private long lruTail;
    private volatile long bytes;
    private volatile int count;
    private volatile long hits;
    private volatile long misses;
    private volatile long evictions;
    private volatile long invalidations;

    public RowCache(ShardAllocator allocator) {
        this.allocator = allocator;
    }

    // ------------------------------------------------------------------ raw memory

    private static long getLong(long address) {
        return org.agrona.UnsafeApi.getLong(address);
    }

    private static void putLong(long address, long v) {
        org.agrona.UnsafeApi.putLong(address, v);
    }

    private static int getInt(long address) {
        return org.agrona.UnsafeApi.getInt(address);
    }

    private long slot(int i) {
        return getLong(table + (long) i * SLOT_SIZE);
    }

    private void slot(int i, long entry) {
        putLong(table + (long) i * SLOT_SIZE, entry);
    }

    private static long hash(TableId t, long token, byte[] key) {
        long h = t.msb() * 0x9E3779B97F4A7C15L ^ t.lsb() ^ Long.rotateLeft(token, 29);
        for (byte b : key) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }

    private static int entrySize(long e) {
        return E_RECORD + getInt(e + E_RECORD_LENGTH);
    }

    private boolean matches(long e, long h, TableId t, long token, byte[] key) {
        if (getLong(e + E_HASH) != h || getLong(e + E_TABLE_MSB) != t.msb() || getLong(e + E_TABLE_LSB) != t.lsb()) {
            return false;
        }
        probe.wrap(e + E_RECORD, getInt(e + E_RECORD_LENGTH));
        return probe.getLong(P_TOKEN) == token
                && ByteComparables.compare(probe, P_KEY, probe.getInt(P_KEY_LENGTH), key) == 0;
    }

    /** Slot index of the entry, or -1. */
    private int find(TableId t, long token, byte[] key) {
        if (count == 0 || !perTable.containsKey(t)) {
            return -1;
        }
        long h = hash(t, token, key);
        int mask = capacity - 1;
        for (int i = (int) h & mask; ; i = (i + 1) & mask) {
            long e = slot(i);
            if (e == 0) {
                return -1;
            }
            if (matches(e, h, t, token, key)) {
                return i;
            }
        }
    }

    private PartitionView view(long e) {
        record.wrap(e + E_RECORD, getInt(e + E_RECORD_LENGTH));
        return view.wrap(record, 0, false);
    }

    // ------------------------------------------------------------------ LRU list

    private void unlink(long e) {
        long prev = getLong(e + E_PREV);
        long next = getLong(e + E_NEXT);
        if (prev == 0) {
            lruHead = next;
        } else {
            putLong(prev + E_NEXT, next);
        }
        if (next == 0) {
            lruTail = prev;
        } else {
            putLong(next + E_PREV, prev);
        }
    }

    private void linkLast(long e) {
        putLong(e + E_PREV, lruTail);
        putLong(e + E_NEXT, 0);
        if (lruTail == 0) {
            lruHead = e;
        } else {
            putLong(lruTail + E_NEXT, e);
        }
        lruTail = e;
    }

    // ------------------------------------------------------------------ API

    /**
     * The cached partition, or null; marks it most recently used. The view stays valid until the next call
     * that changes this cache.
     */
    public PartitionView get(TableId table, long token, byte[] key) {
        int i = find(table, token, key);
        if (i < 0) {
            misses++;
            return null;
        }
        hits++;
        long e = slot(i);
        if (e != lruTail) {
            unlink(e);
            linkLast(e);
        }
        return view(e);
    }

    /** Like {@link #get} without counting a hit or a miss (for maintenance such as folding a flush in). */
    public PartitionView peek(TableId table, long token, byte[] key) {
        int i = find(table, token, key);
        return i < 0 ? null : view(slot(i));
    }

    /** Whether the partition is cached, without touching the LRU order or the counters. */
    public boolean contains(TableId table, long token, byte[] key) {
        return find(table, token, key) >= 0;
    }

    public boolean hasTable(TableId table) {
        return perTable.containsKey(table);
    }

    /**
     * Caches (or replaces) a partition record of {@code length} bytes, evicting least recently used entries so
     * that the cache stays within {@code maxBytes}. Returns false (and caches nothing) if it does not fit.
     */
    public boolean put(TableId table, long token, byte[] key, DirectBuffer src, int offset, int length, long maxBytes) {
        int at = find(table, token, key);
        if (at >= 0) {
            removeAt(at);
        }
        long size = E_RECORD + (long) length;
        if (size > maxBytes) {
            return false;
        }
        evictTo(maxBytes - size);
        ensureCapacity();
        long e = allocator.allocateMemory(size);
        long h = hash(table, token, key);
        putLong(e + E_HASH, h);
        putLong(e + E_TABLE_MSB, table.msb());
        putLong(e + E_TABLE_LSB, table.lsb());
        org.agrona.UnsafeApi.putInt(e + E_RECORD_LENGTH, length);
        org.agrona.UnsafeApi.putInt(e + E_RECORD_LENGTH + 4, 0);
        record.wrap(e + E_RECORD, length);
        record.putBytes(0, src, offset, length);
        int mask = capacity - 1;
        int i = (int) h & mask;
        while (slot(i) != 0) {
            i = (i + 1) & mask;
        }
        slot(i, e);
        linkLast(e);
        perTable.merge(table, 1, Integer::sum);
        bytes += size;
        count++;
        return true;
    }

    private void ensureCapacity() {
        if (table != 0 && (count + 1) * 2 <= capacity) {
            return;
        }
        int newCapacity = table == 0 ? MIN_CAPACITY : capacity * 2;
        long newTable = allocator.allocateMemory((long) newCapacity * SLOT_SIZE);
        org.agrona.UnsafeApi.setMemory(newTable, (long) newCapacity * SLOT_SIZE, (byte) 0);
        long oldTable = table;
        int oldCapacity = capacity;
        table = newTable;
        capacity = newCapacity;
        bytes += (long) newCapacity * SLOT_SIZE;
        if (oldTable != 0) {
            int mask = newCapacity - 1;
            for (int j = 0; j < oldCapacity; j++) {
                long e = getLong(oldTable + (long) j * SLOT_SIZE);
                if (e != 0) {
                    int i = (int) getLong(e + E_HASH) & mask;
                    while (slot(i) != 0) {
                        i = (i + 1) & mask;
                    }
                    slot(i, e);
                }
            }
            allocator.freeMemory(oldTable, (long) oldCapacity * SLOT_SIZE);
            bytes -= (long) oldCapacity * SLOT_SIZE;
        }
    }

    /** Caches the fact that no SSTable holds the partition: an empty partition record. */
    public boolean putAbsent(TableId table, long token, byte[] key, MutableDirectBuffer scratch, long maxBytes) {
        int len = writeEmpty(token, key, scratch);
        return put(table, token, key, scratch, 0, len, maxBytes);
    }

    /** Writes an empty partition record (no deletion, no rows) at scratch[0]; returns its length. */
    public static int writeEmpty(long token, byte[] key, MutableDirectBuffer scratch) {
        int len = P_KEY + key.length;
        scratch.putInt(P_LENGTH, len);
        scratch.putLong(P_TOKEN, token);
        scratch.putInt(P_KEY_LENGTH, key.length);
        scratch.putLong(P_DELETION_TS, NO_TIMESTAMP);
        scratch.putInt(P_DELETION_LDT, NO_DELETION_TIME);
        scratch.putInt(P_RT_COUNT, 0);
        scratch.putInt(P_ROW_COUNT, 0);
        scratch.putBytes(P_KEY, key);
        return len;
    }

    public void invalidate(TableId table, long token, byte[] key) {
        int i = find(table, token, key);
        if (i >= 0) {
            removeAt(i);
            invalidations++;
        }
    }

    /** Removes the entry in slot i: backward-shift deletion, then unlink and free. */
    private void removeAt(int i) {
        long e = slot(i);
        int mask = capacity - 1;
        int hole = i;
        for (int j = (i + 1) & mask; ; j = (j + 1) & mask) {
            long x = slot(j);
            if (x == 0) {
                break;
            }
            int home = (int) getLong(x + E_HASH) & mask;
            // x may move into the hole if its home is not cyclically within (hole, j]
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                slot(hole, x);
                hole = j;
            }
        }
        slot(hole, 0);
        free(e);
    }

    private void free(long e) {
        unlink(e);
        long size = entrySize(e);
        TableId t = TableId.of(getLong(e + E_TABLE_MSB), getLong(e + E_TABLE_LSB));
        perTable.computeIfPresent(t, (k, n) -> n == 1 ? null : n - 1);
        bytes -= size;
        count--;
        allocator.freeMemory(e, size);
    }

    private int slotOf(long e) {
        int mask = capacity - 1;
        for (int i = (int) getLong(e + E_HASH) & mask; ; i = (i + 1) & mask) {
            long x = slot(i);
            if (x == e) {
                return i;
            }
            if (x == 0) {
                throw new IllegalStateException("row cache entry not in its table");
            }
        }
    }

    /** Removes every entry of a table (truncate, drop). */
    public void invalidateTable(TableId table) {
        if (!hasTable(table)) {
            return;
        }
        long e = lruHead;
        while (e != 0) {
            long next = getLong(e + E_NEXT);
            if (getLong(e + E_TABLE_MSB) == table.msb() && getLong(e + E_TABLE_LSB) == table.lsb()) {
                removeAt(slotOf(e));
                invalidations++;
            }
            e = next;
        }
    }

    /** Evicts least recently used entries until at most {@code maxBytes} are cached; returns bytes freed. */
    public long evictTo(long maxBytes) {
        long freed = 0;
        while (bytes > Math.max(0, maxBytes) && lruHead != 0) {
            long e = lruHead;
            freed += entrySize(e);
            removeAt(slotOf(e));
            evictions++;
        }
        return freed;
    }

    /** Evicts everything and gives the table back. */
    public void clear() {
        evictTo(0);
        if (table != 0) {
            allocator.freeMemory(table, (long) capacity * SLOT_SIZE);
            bytes -= (long) capacity * SLOT_SIZE;
            table = 0;
            capacity = 0;
        }
    }

    /** Off-heap bytes of the cache: entries (headers and records) and the slot table. */
    public long bytes() {
        return bytes;
    }

    public int size() {
        return count;
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public long evictions() {
        return evictions;
    }

    public long invalidations() {
        return invalidations;
    }
}
