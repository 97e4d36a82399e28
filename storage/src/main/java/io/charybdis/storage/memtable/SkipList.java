package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Search and insertion over an indexable skip list in a {@link MemtableArena} ({@link MemtableLayout}). An
 * instance is a reusable cursor holding a search key (set by the subclass) and the search path of the last
 * {@link #seek}; it owns no node. Not thread-safe: each reader or writer uses its own instance.
 *
 * <p>Implementation notes: ranks are 1-based (the head is rank 0), {@link #index} after a seek is the number of
 * nodes ordered before the key, i.e. the 0-based index of the node returned. Insertion follows the path
 * recorded by the seek for the same key, so it must directly follow it. A head too short for a new node's
 * height is regrown to at least twice its height (the old head becomes arena waste), and the new head returned
 * for the caller to store.
 */
abstract class SkipList {
    final MemtableArena arena;
    private final long[] update = new long[MAX_HEIGHT];
    private final int[] rank = new int[MAX_HEIGHT];
    private int pathHeight;
    private long seed;
    /** After {@link #seek}: the number of nodes whose key is below the search key. */
    int index;

    SkipList(MemtableArena arena, long seed) {
        this.arena = arena;
        this.seed = seed | 1;
    }

    /** Sign of (key of the node at {@code node} in {@code b}) - (search key). */
    abstract int compareNode(UnsafeBuffer b, int node);

    /** The search key's prefix ({@link MemtableLayout#L_PREFIX}). */
    abstract long keyPrefix();

    /** Sign of (a node's key prefix) - (search key prefix); 0 = undecided, compare the keys. */
    abstract int comparePrefix(long nodePrefix);

    final int compare(long node) {
        return compareNode(arena.buffer(node), MemtableArena.offset(node));
    }

    /** Allocates an empty head of the given height. */
    final long newHead(int height) {
        long h = arena.allocate(nodeSize(height, 0));
        arena.buffer(h).putInt(MemtableArena.offset(h) + N_HEIGHT, height);
        return h;
    }

    /** A random height, P(h >= k) = 4^-(k-1). */
    final int randomHeight() {
        long x = seed;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        seed = x;
        int h = 1 + (Long.numberOfTrailingZeros(x | (1L << 62)) >> 1);
        return Math.min(h, MAX_HEIGHT);
    }

    /** The first node whose key is >= the search key, NIL if none; sets {@link #index} and the insert path. */
    final long seek(long head) {
        long x = head;
        UnsafeBuffer xb = arena.buffer(x);
        int xo = MemtableArena.offset(x);
        int h = height(xb, xo);
        int r = 0;
        long stop = NIL; // the node that ended the previous level: known >= key, often next again below
        int stopCmp = 1;
        for (int i = h - 1; i >= 0; i--) {
            while (true) {
                long nx = next(xb, xo, i);
                if (nx == NIL || nx == stop) {
                    break;
                }
                UnsafeBuffer nb = arena.buffer(nx);
                int no = MemtableArena.offset(nx);
                int c = comparePrefix(prefix(xb, xo, i));
                if (c == 0) {
                    c = compareNode(nb, no);
                }
                if (c >= 0) {
                    stop = nx;
                    stopCmp = c;
                    break;
                }
                r += span(xb, xo, i);
                x = nx;
                xb = nb;
                xo = no;
            }
            update[i] = x;
            rank[i] = r;
        }
        pathHeight = h;
        index = r;
        long found = next(xb, xo, 0);
        exact = found != NIL && found == stop && stopCmp == 0;
        return found;
    }

    private boolean exact;

    /** Whether {@code node}, just returned by {@link #seek}, holds exactly the search key. */
    final boolean matches(long node) {
        return node != NIL && exact;
    }

    /**
     * Links {@code node} (of {@code height}, levels not yet set) where the last {@link #seek} ended. Returns the
     * head, which changed if it had to grow. Increments the head's count ({@code aux}).
     */
    final long insert(long head, long node, int height) {
        if (height > pathHeight) {
            head = growHead(head, height);
        }
        UnsafeBuffer nb = arena.buffer(node);
        int no = MemtableArena.offset(node);
        int r = index;
        long keyPrefix = keyPrefix();
        for (int i = 0; i < height; i++) {
            long p = update[i];
            UnsafeBuffer pb = arena.buffer(p);
            int po = MemtableArena.offset(p);
            long oldNext = next(pb, po, i);
            int oldSpan = span(pb, po, i);
            link(nb, no, i, oldNext, oldNext == NIL ? 0 : oldSpan - (r - rank[i]), prefix(pb, po, i));
            link(pb, po, i, node, r + 1 - rank[i], keyPrefix);
        }
        for (int i = height; i < pathHeight; i++) {
            long p = update[i];
            UnsafeBuffer pb = arena.buffer(p);
            int po = MemtableArena.offset(p);
            if (next(pb, po, i) != NIL) {
                pb.putInt(level(po, i) + L_SPAN, span(pb, po, i) + 1);
            }
        }
        UnsafeBuffer hb = arena.buffer(head);
        int ho = MemtableArena.offset(head);
        hb.putInt(ho + N_AUX, hb.getInt(ho + N_AUX) + 1);
        return head;
    }

    private long growHead(long old, int needed) {
        UnsafeBuffer ob = arena.buffer(old);
        int oo = MemtableArena.offset(old);
        int oh = height(ob, oo);
        int nh = Math.min(MAX_HEIGHT, Math.max(needed, 2 * oh));
        long head = newHead(nh);
        UnsafeBuffer hb = arena.buffer(head);
        int ho = MemtableArena.offset(head);
        hb.putInt(ho + N_AUX, ob.getInt(oo + N_AUX));
        for (int i = 0; i < oh; i++) {
            link(hb, ho, i, next(ob, oo, i), span(ob, oo, i), prefix(ob, oo, i));
        }
        for (int i = 0; i < pathHeight; i++) {
            if (update[i] == old) {
                update[i] = head;
            }
        }
        for (int i = pathHeight; i < nh; i++) {
            update[i] = head;
            rank[i] = 0;
        }
        pathHeight = nh;
        return head;
    }

    /** Number of nodes in the list of this head (its aux counter). */
    final int count(long head) {
        return head == NIL ? 0 : arena.buffer(head).getInt(MemtableArena.offset(head) + N_AUX);
    }

    /** The node at 0-based {@code i}, NIL if out of range. O(log n). */
    final long nodeAt(long head, int i) {
        if (head == NIL || i < 0) {
            return NIL;
        }
        int target = i + 1;
        long x = head;
        UnsafeBuffer xb = arena.buffer(x);
        int xo = MemtableArena.offset(x);
        int r = 0;
        for (int l = height(xb, xo) - 1; l >= 0; l--) {
            while (true) {
                long nx = next(xb, xo, l);
                if (nx == NIL || r + span(xb, xo, l) > target) {
                    break;
                }
                r += span(xb, xo, l);
                x = nx;
                xb = arena.buffer(x);
                xo = MemtableArena.offset(x);
            }
            if (r == target) {
                return x;
            }
        }
        return NIL;
    }

    /** The level-0 successor of a node. */
    final long successor(long node) {
        return next(arena.buffer(node), MemtableArena.offset(node), 0);
    }
}
