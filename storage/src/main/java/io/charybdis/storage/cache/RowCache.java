package io.charybdis.storage.cache;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.SerializedPartition;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
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
 *   <li><b>Memory.</b> Each entry is one direct buffer of exactly its length from the shard's
 *       {@link ShardAllocator}, so the allocator counts the cache byte for byte. The cache has no size of its own:
 *       the shard evicts it down to what its memtables leave of the shard's budget ({@link #evictTo}).</li>
 *   <li><b>Heap.</b> The index is a {@link LinkedHashMap} in access order (its iteration order is the LRU
 *       order); per entry the heap holds the key and one small object. Next step: an off-heap hash table.</li>
 * </ul>
 * Shard thread only, except the counters, which any thread may read.
 */
public final class RowCache {
    private final ShardAllocator allocator;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    private final HashMap<TableId, Integer> perTable = new HashMap<>();
    private final SerializedPartition view = new SerializedPartition();
    private volatile long bytes;
    private volatile int count;
    private volatile long hits;
    private volatile long misses;
    private volatile long evictions;
    private volatile long invalidations;

    private record Key(TableId table, DecoratedKey key) {
    }

    private static final class Entry {
        final UnsafeBuffer buffer;

        Entry(UnsafeBuffer buffer) {
            this.buffer = buffer;
        }

        int length() {
            return buffer.capacity();
        }
    }

    public RowCache(ShardAllocator allocator) {
        this.allocator = allocator;
    }

    /**
     * The cached partition, or null; marks it most recently used. The view stays valid until the next call
     * that changes this cache.
     */
    public PartitionView get(TableId table, long token, byte[] key) {
        Entry e = entries.get(new Key(table, new DecoratedKey(token, key)));
        if (e == null) {
            misses++;
            return null;
        }
        hits++;
        return view.wrap(e.buffer, 0, false);
    }

    /** Like {@link #get} without counting a hit or a miss (for maintenance such as folding a flush in). */
    public PartitionView peek(TableId table, long token, byte[] key) {
        Entry e = entries.get(new Key(table, new DecoratedKey(token, key)));
        return e == null ? null : view.wrap(e.buffer, 0, false);
    }

    /** Whether the partition is cached, without touching the LRU order or the counters. */
    public boolean contains(TableId table, long token, byte[] key) {
        return hasTable(table) && entries.containsKey(new Key(table, new DecoratedKey(token, key)));
    }

    public boolean hasTable(TableId table) {
        return perTable.containsKey(table);
    }

    /**
     * Caches (or replaces) a partition record of {@code length} bytes, evicting least recently used entries so
     * that the cache stays within {@code maxBytes}. Returns false (and caches nothing) if it does not fit.
     */
    public boolean put(TableId table, long token, byte[] key, DirectBuffer src, int offset, int length, long maxBytes) {
        Key k = new Key(table, new DecoratedKey(token, key));
        remove(k, false);
        if (length > maxBytes) {
            return false;
        }
        evictTo(maxBytes - length);
        UnsafeBuffer b = allocator.allocate(length);
        b.putBytes(0, src, offset, length);
        entries.put(k, new Entry(b));
        perTable.merge(table, 1, Integer::sum);
        bytes += length;
        count++;
        return true;
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
        if (hasTable(table)) {
            remove(new Key(table, new DecoratedKey(token, key)), true);
        }
    }

    private void remove(Key k, boolean invalidation) {
        Entry e = entries.remove(k);
        if (e != null) {
            free(k, e);
            if (invalidation) {
                invalidations++;
            }
        }
    }

    private void free(Key k, Entry e) {
        bytes -= e.length();
        count--;
        perTable.computeIfPresent(k.table(), (t, n) -> n == 1 ? null : n - 1);
        allocator.free(e.buffer);
    }

    /** Removes every entry of a table (truncate, drop). */
    public void invalidateTable(TableId table) {
        if (!hasTable(table)) {
            return;
        }
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, Entry> me = it.next();
            if (me.getKey().table().equals(table)) {
                it.remove();
                free(me.getKey(), me.getValue());
                invalidations++;
            }
        }
    }

    /** Evicts least recently used entries until at most {@code maxBytes} are cached; returns bytes freed. */
    public long evictTo(long maxBytes) {
        long freed = 0;
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (bytes > Math.max(0, maxBytes) && it.hasNext()) {
            Map.Entry<Key, Entry> me = it.next();
            it.remove();
            freed += me.getValue().length();
            free(me.getKey(), me.getValue());
            evictions++;
        }
        return freed;
    }

    public void clear() {
        evictTo(0);
    }

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
