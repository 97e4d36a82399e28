package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;

import io.charybdis.storage.mutation.Rows;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** A {@link SkipList} cursor over one partition's row list, keyed by clustering bytes unsigned. */
final class RowSearch extends SkipList {
    private DirectBuffer clustering;
    private int offset;
    private int length;
    private long prefix;

    RowSearch(MemtableArena arena, long seed) {
        super(arena, seed);
    }

    RowSearch clustering(DirectBuffer b, int off, int len) {
        this.clustering = b;
        this.offset = off;
        this.length = len;
        long p = 0;
        for (int k = 0; k < 8; k++) {
            p = (p << 8) | (k < len ? b.getByte(off + k) & 0xFF : 0);
        }
        this.prefix = p;
        return this;
    }

    @Override
    long keyPrefix() {
        return prefix;
    }

    @Override
    int comparePrefix(long nodePrefix) {
        return Long.compareUnsigned(nodePrefix, prefix);
    }

    /** Arena pointer of the row record a row node points to. */
    long row(long node) {
        return arena.buffer(node).getLong(payload(arena.buffer(node), MemtableArena.offset(node)) + RP_ROW);
    }

    void replaceRow(long node, long row) {
        UnsafeBuffer b = arena.buffer(node);
        b.putLong(payload(b, MemtableArena.offset(node)) + RP_ROW, row);
    }

    @Override
    int compareNode(UnsafeBuffer b, int node) {
        long row = b.getLong(payload(b, node) + RP_ROW);
        return Rows.compareClustering(arena.buffer(row), MemtableArena.offset(row), clustering, offset, length);
    }
}
