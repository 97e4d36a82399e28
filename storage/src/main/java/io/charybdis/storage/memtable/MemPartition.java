package io.charybdis.storage.memtable;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionView;
import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One partition of a memtable. Rows and range tombstones live in the memtable's arena; this on-heap object holds
 * the partition deletion and sorted arrays of arena pointers (8 bytes per row, no per-cell objects).
 * Next step: move the row index into the arena as a B-tree so the heap holds nothing per row.
 */
final class MemPartition implements PartitionView {
    private final DecoratedKey key;
    private final UnsafeBuffer keyBuffer;
    private final MemtableArena arena;
    long deletionTs = NO_TIMESTAMP;
    int deletionLdt = NO_DELETION_TIME;
    private long[] rts = new long[0];
    private int rtCount;
    private long[] rows = new long[2];
    private int rowCount;

    MemPartition(DecoratedKey key, MemtableArena arena) {
        this.key = key;
        this.keyBuffer = new UnsafeBuffer(key.key());
        this.arena = arena;
    }

    DecoratedKey key() {
        return key;
    }

    void addRangeTombstone(long ptr) {
        if (rtCount == rts.length) {
            rts = Arrays.copyOf(rts, Math.max(2, rtCount * 2));
        }
        rts[rtCount++] = ptr;
    }

    /** Index of the row with this clustering, or -(insertion point) - 1. */
    int find(DirectBuffer b, int off, int len) {
        int i = lowerBound(b, off, len);
        if (i < rowCount) {
            long ptr = rows[i];
            UnsafeBuffer rb = arena.buffer(ptr);
            int ro = MemtableArena.offset(ptr);
            if (io.charybdis.storage.mutation.Rows.compareClustering(rb, ro, b, off, len) == 0) {
                return i;
            }
        }
        return -i - 1;
    }

    void replaceRow(int i, long ptr) {
        rows[i] = ptr;
    }

    long rowPointer(int i) {
        return rows[i];
    }

    void insertRow(int at, long ptr) {
        if (rowCount == rows.length) {
            rows = Arrays.copyOf(rows, rowCount * 2);
        }
        System.arraycopy(rows, at, rows, at + 1, rowCount - at);
        rows[at] = ptr;
        rowCount++;
    }

    @Override
    public long token() {
        return key.token();
    }

    @Override
    public DirectBuffer keyBuffer() {
        return keyBuffer;
    }

    @Override
    public int keyOffset() {
        return 0;
    }

    @Override
    public int keyLength() {
        return key.key().length;
    }

    @Override
    public long deletionTimestamp() {
        return deletionTs;
    }

    @Override
    public int deletionLocalTime() {
        return deletionLdt;
    }

    @Override
    public int rangeTombstoneCount() {
        return rtCount;
    }

    @Override
    public DirectBuffer rangeTombstoneBuffer(int i) {
        return arena.buffer(rts[i]);
    }

    @Override
    public int rangeTombstoneOffset(int i) {
        return MemtableArena.offset(rts[i]);
    }

    @Override
    public int rowCount() {
        return rowCount;
    }

    @Override
    public DirectBuffer rowBuffer(int i) {
        return arena.buffer(rows[i]);
    }

    @Override
    public int rowOffset(int i) {
        return MemtableArena.offset(rows[i]);
    }
}
