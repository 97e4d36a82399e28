package io.charybdis.storage.memtable;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Byte layouts of the memtable index, all inside the memtable's {@link MemtableArena} (little-endian, offsets
 * relative to the start of the record). A pointer is an arena pointer ({@code (slab + 1) << 32 | offset});
 * {@link #NIL} (0) is never a valid one, so freshly allocated (zeroed) memory reads as "no link".
 *
 * <p>Both indexes are indexable skip lists (Pugh's skip list; level spans as in Redis' zset): a node of height
 * h has h forward links, each with the number of level-0 steps it jumps, which gives the rank of any node and the
 * node at any rank in O(log n).
 *
 * <pre>
 * Skip list node (partition node, row node, and the head of either list)
 *   0        4          8                                  28                   8 + 20h
 *   +--------+----------+----------------------------------+----- ... ---------+-------------------+
 *   | int h  | int aux  | long next0 int span0 long prefix0 | level 1 .. h-1    | payload ...       |
 *   +--------+----------+----------------------------------+----- ... ---------+-------------------+
 *   aux: partition node = key length; row-list head = row count; partition-list head = unused
 *   span(i) = rank(next(i)) - rank(this node) when next(i) != NIL (the head has rank 0)
 *   prefix(i) = key prefix of next(i): its token (partitions, signed order) or the first 8 clustering bytes
 *     big-endian, zero-padded (rows, unsigned order); a seek compares it before visiting next(i) and visits the
 *     node only when the prefixes are equal
 *
 * Partition node payload (at P = 8 + 20h), ordered by (token signed, key bytes unsigned)
 *   P+0  long token                      P+24 long rowsHead (row-list head node, NIL = no rows yet)
 *   P+8  long deletionTimestamp          P+32 long rtHead (first range tombstone link, NIL = none)
 *   P+16 int  deletionLocalTime          P+40 long rtTail (last link, appended in write order)
 *   P+20 int  rangeTombstoneCount        P+48 key bytes (aux of them)
 *
 * Row node payload (at P), ordered by clustering bytes unsigned (static row = empty clustering, first)
 *   P+0  long row: pointer to the row record (MutationLayout row), replaced when the row is merged
 *
 * Range tombstone link
 *   0  long next (NIL = last)            8  range tombstone record (MutationLayout)
 *
 * Memtable
 *   partition-list head (height MAX_HEIGHT, allocated on the first write)
 *     |-- partition node --- partition node --- ...          (level 0 is the ordered list)
 *            |-- rowsHead: row-list head (height 1, regrown to twice its height when a row node needs more)
 *            |       |-- row node -- row node -- ...  each row node --> row record
 *            |-- rtHead --> link --> link (rtTail)
 * </pre>
 */
public final class MemtableLayout {
    private MemtableLayout() {
    }

    public static final long NIL = 0;
    public static final int MAX_HEIGHT = 16;
    public static final int ROW_HEAD_HEIGHT = 1;

    public static final int N_HEIGHT = 0;
    public static final int N_AUX = 4;
    public static final int N_LEVELS = 8;
    public static final int LEVEL_SIZE = 20;
    public static final int L_NEXT = 0;
    public static final int L_SPAN = 8;
    public static final int L_PREFIX = 12;

    public static final int PP_TOKEN = 0;
    public static final int PP_DELETION_TS = 8;
    public static final int PP_DELETION_LDT = 16;
    public static final int PP_RT_COUNT = 20;
    public static final int PP_ROWS = 24;
    public static final int PP_RT_HEAD = 32;
    public static final int PP_RT_TAIL = 40;
    public static final int PP_KEY = 48;

    public static final int RP_ROW = 0;
    public static final int ROW_PAYLOAD = 8;

    public static final int RT_NEXT = 0;
    public static final int RT_RECORD = 8;

    public static int nodeSize(int height, int payload) {
        return N_LEVELS + height * LEVEL_SIZE + payload;
    }

    public static int height(DirectBuffer b, int node) {
        return b.getInt(node + N_HEIGHT);
    }

    public static int payload(DirectBuffer b, int node) {
        return node + N_LEVELS + b.getInt(node + N_HEIGHT) * LEVEL_SIZE;
    }

    public static int level(int node, int i) {
        return node + N_LEVELS + i * LEVEL_SIZE;
    }

    public static long next(DirectBuffer b, int node, int i) {
        return b.getLong(level(node, i) + L_NEXT);
    }

    public static int span(DirectBuffer b, int node, int i) {
        return b.getInt(level(node, i) + L_SPAN);
    }

    public static long prefix(DirectBuffer b, int node, int i) {
        return b.getLong(level(node, i) + L_PREFIX);
    }

    public static void link(MutableDirectBuffer b, int node, int i, long next, int span, long prefix) {
        int l = level(node, i);
        b.putLong(l + L_NEXT, next);
        b.putInt(l + L_SPAN, span);
        b.putLong(l + L_PREFIX, prefix);
    }
}
