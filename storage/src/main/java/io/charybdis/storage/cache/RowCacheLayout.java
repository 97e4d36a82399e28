package io.charybdis.storage.cache;

/**
 * Byte layouts of the off-heap row cache ({@link RowCache}), little-endian, in raw native memory from the shard's
 * allocator. Addresses are absolute; 0 means none.
 *
 * <pre>
 * Slot table: capacity (a power of two) slots of 8 bytes, open addressing with linear probing
 *   +----------------+----------------+-----+----------------+
 *   | long entry 0   | long entry 1   | ... | long entry c-1 |   entry address, 0 = empty
 *   +----------------+----------------+-----+----------------+
 *   home slot of an entry = hash & (capacity - 1); load factor at most 1/2
 *
 * Entry: one allocation of HEADER + recordLength bytes
 *   0                8                16               24               32               40          44     48
 *   +----------------+----------------+----------------+----------------+----------------+-----------+------+---------
 *   | long hash      | long lruPrev   | long lruNext   | long table.msb | long table.lsb | int recLen| pad  | record
 *   +----------------+----------------+----------------+----------------+----------------+-----------+------+---------
 *   record: the cached partition in MutationLayout partition form (its token and key are the entry's key)
 *   LRU list: doubly linked through lruPrev/lruNext, least recently used at the head
 * </pre>
 */
public final class RowCacheLayout {
    private RowCacheLayout() {
    }

    public static final int SLOT_SIZE = 8;
    public static final int MIN_CAPACITY = 64;

    public static final int E_HASH = 0;
    public static final int E_PREV = 8;
    public static final int E_NEXT = 16;
    public static final int E_TABLE_MSB = 24;
    public static final int E_TABLE_LSB = 32;
    public static final int E_RECORD_LENGTH = 40;
    public static final int E_RECORD = 48;
}
