package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;

import io.charybdis.storage.util.ByteComparables;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Point-lookup index of a memtable's partitions beside the ordered skip list: an open-addressing hash table in
 * native memory from the shard's allocator (accounted, freed with the memtable). A lookup costs a probe of
 * contiguous slots and one partition node, where the skip list costs a node per step; the skip list stays the
 * only index for order (iteration, seeks) and for placing new partitions.
 *
 * <pre>
 * Slot table: capacity (a power of two) slots of 16 bytes, linear probing, load factor at most 0.7
 *   0                 8                  16
 *   +-----------------+------------------+
 *   | long token      | long node        |   node: arena pointer of the partition node, NIL = empty slot
 *   +-----------------+------------------+
 *   home slot = mix(token) & (capacity - 1); the token in the slot spares a node visit on a mismatch
 * </pre>
 * Partitions are never removed from a memtable, so there is no deletion. Not thread-safe for writes; lookups
 * from several threads are safe once the memtable no longer changes.
 */
final class PartitionHash {
    static final int SLOT_SIZE = 16;
    static final int S_TOKEN = 0;
    static final int S_NODE = 8;
    private static final int MIN_CAPACITY = 256;

    private final ShardAllocator allocator;
    private final MemtableArena arena;
    private long table;
    private int capacity;
    private int count;

    PartitionHash(ShardAllocator allocator, MemtableArena arena) {
        this.allocator = allocator;
        this.arena = arena;
    }

    private static int home(long token, int mask) {
        long z = token * 0x9E3779B97F4A7C15L;
        return (int) (z ^ (z >>> 32)) & mask;
    }

    /** The partition node of (token, key), NIL if absent. */
    long find(long token, DirectBuffer key, int offset, int length) {
        if (count == 0) {
            return NIL;
        }
        int mask = capacity - 1;
        for (int i = home(token, mask); ; i = (i + 1) & mask) {
            long s = table + (long) i * SLOT_SIZE;
            long node = UnsafeApi.getLong(s + S_NODE);
            if (node == NIL) {
                return NIL;
            }
            if (UnsafeApi.getLong(s + S_TOKEN) == token && keyEquals(node, key, offset, length)) {
                return node;
            }
        }
    }

    private boolean keyEquals(long node, DirectBuffer key, int offset, int length) {
        UnsafeBuffer b = arena.buffer(node);
        int o = MemtableArena.offset(node);
        return b.getInt(o + N_AUX) == length
                && ByteComparables.compare(b, payload(b, o) + PP_KEY, length, key, offset, length) == 0;
    }

    /** Adds a partition known to be absent. */
    void add(long token, long node) {
        if (table == 0 || (count + 1) * 10L > capacity * 7L) {
            grow();
        }
        put(table, capacity - 1, token, node);
        count++;
    }

    private static void put(long table, int mask, long token, long node) {
        int i = home(token, mask);
        while (UnsafeApi.getLong(table + (long) i * SLOT_SIZE + S_NODE) != NIL) {
            i = (i + 1) & mask;
        }
        long s = table + (long) i * SLOT_SIZE;
        UnsafeApi.putLong(s + S_TOKEN, token);
        UnsafeApi.putLong(s + S_NODE, node);
    }

    private void grow() {
        int newCapacity = table == 0 ? MIN_CAPACITY : capacity * 2;
        long bytes = (long) newCapacity * SLOT_SIZE;
        long newTable = allocator.allocateMemory(bytes);
        UnsafeApi.setMemory(newTable, bytes, (byte) 0);
        for (int i = 0; i < capacity; i++) {
            long s = table + (long) i * SLOT_SIZE;
            long node = UnsafeApi.getLong(s + S_NODE);
            if (node != NIL) {
                put(newTable, newCapacity - 1, UnsafeApi.getLong(s + S_TOKEN), node);
            }
        }
        free();
        table = newTable;
        capacity = newCapacity;
    }

    /** Bytes of native memory held. */
    long allocatedBytes() {
        return (long) capacity * SLOT_SIZE;
    }

    void free() {
        if (table != 0) {
            allocator.freeMemory(table, (long) capacity * SLOT_SIZE);
            table = 0;
            capacity = 0;
        }
    }

    void clear() {
        free();
        count = 0;
    }
}
