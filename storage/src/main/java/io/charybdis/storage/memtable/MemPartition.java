package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;

import io.charybdis.storage.mutation.PartitionView;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A reusable {@link PartitionView} flyweight over one partition node of a memtable ({@link MemtableLayout}).
 * Row access by index keeps a finger on the last node visited, so forward scans cost O(1) a row and any other
 * index (a reverse scan, a jump) O(log n); {@link #lowerBound} is a skip-list seek. Not thread-safe; valid
 * until the memtable is written again or released.
 */
final class MemPartition implements PartitionView {
    private final MemtableArena arena;
    private final RowSearch rows;
    private long node = NIL;
    private UnsafeBuffer buffer;
    private int offset;
    private int payload;
    private int fingerIndex = -1;
    private long fingerNode = NIL;
    private int rtIndex = -1;
    private long rtLink = NIL;

    MemPartition(MemtableArena arena) {
        this.arena = arena;
        this.rows = new RowSearch(arena, 1);
    }

    MemPartition wrap(long partitionNode) {
        node = partitionNode;
        buffer = arena.buffer(partitionNode);
        offset = MemtableArena.offset(partitionNode);
        payload = MemtableLayout.payload(buffer, offset);
        fingerIndex = -1;
        fingerNode = NIL;
        rtIndex = -1;
        rtLink = NIL;
        return this;
    }

    long node() {
        return node;
    }

    private long rowsHead() {
        return buffer.getLong(payload + PP_ROWS);
    }

    @Override
    public long token() {
        return buffer.getLong(payload + PP_TOKEN);
    }

    @Override
    public DirectBuffer keyBuffer() {
        return buffer;
    }

    @Override
    public int keyOffset() {
        return payload + PP_KEY;
    }

    @Override
    public int keyLength() {
        return buffer.getInt(offset + N_AUX);
    }

    @Override
    public long deletionTimestamp() {
        return buffer.getLong(payload + PP_DELETION_TS);
    }

    @Override
    public int deletionLocalTime() {
        return buffer.getInt(payload + PP_DELETION_LDT);
    }

    @Override
    public int rangeTombstoneCount() {
        return buffer.getInt(payload + PP_RT_COUNT);
    }

    private long rtLink(int i) {
        if (i != rtIndex) {
            if (i < rtIndex || rtIndex < 0) {
                rtIndex = 0;
                rtLink = buffer.getLong(payload + PP_RT_HEAD);
            }
            while (rtIndex < i) {
                rtLink = arena.buffer(rtLink).getLong(MemtableArena.offset(rtLink) + RT_NEXT);
                rtIndex++;
            }
        }
        return rtLink;
    }

    @Override
    public DirectBuffer rangeTombstoneBuffer(int i) {
        return arena.buffer(rtLink(i));
    }

    @Override
    public int rangeTombstoneOffset(int i) {
        return MemtableArena.offset(rtLink(i)) + RT_RECORD;
    }

    @Override
    public int rowCount() {
        return rows.count(rowsHead());
    }

    /** The row node at index i: the finger, its successor, or a search by rank. */
    private long rowNode(int i) {
        if (i != fingerIndex) {
            if (i == fingerIndex + 1 && fingerNode != NIL) {
                fingerNode = rows.successor(fingerNode);
            } else {
                fingerNode = rows.nodeAt(rowsHead(), i);
            }
            fingerIndex = i;
            if (fingerNode == NIL) {
                fingerIndex = -1;
                throw new IndexOutOfBoundsException("row index=" + i + " rowCount=" + rowCount());
            }
        }
        return fingerNode;
    }

    /** Arena pointer of the row record at index i. */
    long rowPointer(int i) {
        return rows.row(rowNode(i));
    }

    @Override
    public DirectBuffer rowBuffer(int i) {
        return arena.buffer(rowPointer(i));
    }

    @Override
    public int rowOffset(int i) {
        return MemtableArena.offset(rowPointer(i));
    }

    @Override
    public int lowerBound(DirectBuffer b, int off, int len) {
        long head = rowsHead();
        if (head == NIL) {
            return 0;
        }
        long n = rows.clustering(b, off, len).seek(head);
        if (n != NIL) {
            fingerIndex = rows.index;
            fingerNode = n;
        }
        return rows.index;
    }
}
