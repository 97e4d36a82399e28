package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;
import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.RowMerger;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The in-memory, writable part of one table on one shard.
 *
 * <p>Implementation notes: everything lives off-heap in a {@link MemtableArena}: the partition index is an
 * indexable skip list of partition nodes ordered by (token, key), and each partition has its own skip list of
 * row nodes ordered by clustering, each pointing at a row record ({@link MemtableLayout}); a {@link PartitionHash}
 * beside the partition list answers point lookups without walking it. The heap holds this
 * object and a few reusable cursors, nothing per partition or row. A write of an existing row merges the old
 * and new versions ({@link RowMerger}, no shadowing, in arrival order, so the row keeps the clustering as first
 * written) into a fresh arena record and repoints the row node; the
 * old record becomes waste until the memtable is flushed and freed. Touched only by its shard thread while
 * writable; once switched out for flushing it is immutable and may be read by an I/O thread (readers use their
 * own flyweights: {@link #get} and each iterator make one).
 */
public final class Memtable {
    private final MemtableArena arena;
    private final PartitionHash hash;
    private final PartitionSearch partitionSearch;
    private final RowSearch rowSearch;
    private final SerializedPartition incoming = new SerializedPartition();
    private final RowMerger rowMerger;
    private final ExpandableArrayBuffer scratch;
    private final DirectBuffer[] bufs = new DirectBuffer[2];
    private final int[] offs = new int[2];
    private long partitionHead = NIL;
    private int partitionCount;
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = Long.MIN_VALUE;
    private long firstSegment = -1;
    private long lastSegment = -1;
    private long operations;
    private int refCount = 1;

    public Memtable(ShardAllocator allocator, RowMerger rowMerger, ExpandableArrayBuffer scratch) {
        this.arena = new MemtableArena(allocator);
        this.hash = new PartitionHash(allocator, arena);
        this.rowMerger = rowMerger;
        this.scratch = scratch;
        long seed = System.nanoTime();
        this.partitionSearch = new PartitionSearch(arena, seed);
        this.rowSearch = new RowSearch(arena, seed * 31 + 17);
    }

    /** Applies a mutation; {@code segmentId} is the commit log segment holding it (-1 for none). */
    public void apply(Mutation m, long segmentId) {
        if (segmentId >= 0) {
            if (firstSegment < 0) {
                firstSegment = segmentId;
            }
            lastSegment = Math.max(lastSegment, segmentId);
        }
        operations++;
        SerializedPartition in = incoming.wrap(m.buffer(), m.partitionOffset(), false);
        long node = findOrInsertPartition(in);
        UnsafeBuffer nb = arena.buffer(node);
        int p = payload(nb, MemtableArena.offset(node));
        long pdTs = in.deletionTimestamp();
        if (pdTs != NO_TIMESTAMP) {
            trackTimestamp(pdTs);
            long curTs = nb.getLong(p + PP_DELETION_TS);
            if (pdTs > curTs || (pdTs == curTs && in.deletionLocalTime() > nb.getInt(p + PP_DELETION_LDT))) {
                nb.putLong(p + PP_DELETION_TS, pdTs);
                nb.putInt(p + PP_DELETION_LDT, in.deletionLocalTime());
            }
        }
        for (int i = 0, n = in.rangeTombstoneCount(); i < n; i++) {
            int o = in.rangeTombstoneOffset(i);
            trackTimestamp(Rows.rtTimestamp(in.buffer(), o));
            appendRangeTombstone(nb, p, in.buffer(), o, Rows.rtLength(in.buffer(), o));
        }
        for (int i = 0, n = in.rowCount(); i < n; i++) {
            DirectBuffer b = in.buffer();
            int ro = in.rowOffset(i);
            trackRowTimestamps(b, ro);
            applyRow(nb, p, b, ro);
        }
    }

    private long findOrInsertPartition(SerializedPartition in) {
        if (partitionHead == NIL) {
            partitionHead = partitionSearch.newHead(MAX_HEIGHT);
        }
        long known = hash.find(in.token(), in.keyBuffer(), in.keyOffset(), in.keyLength());
        if (known != NIL) {
            return known;
        }
        PartitionSearch s = partitionSearch.key(in.token(), in.keyBuffer(), in.keyOffset(), in.keyLength());
        s.seek(partitionHead);
        int keyLength = in.keyLength();
        int h = s.randomHeight();
        long node = arena.allocate(nodeSize(h, PP_KEY + keyLength));
        UnsafeBuffer b = arena.buffer(node);
        int o = MemtableArena.offset(node);
        b.putInt(o + N_HEIGHT, h);
        b.putInt(o + N_AUX, keyLength);
        int p = payload(b, o);
        b.putLong(p + PP_TOKEN, in.token());
        b.putLong(p + PP_DELETION_TS, NO_TIMESTAMP);
        b.putInt(p + PP_DELETION_LDT, NO_DELETION_TIME);
        b.putInt(p + PP_RT_COUNT, 0);
        b.putLong(p + PP_ROWS, NIL);
        b.putLong(p + PP_RT_HEAD, NIL);
        b.putLong(p + PP_RT_TAIL, NIL);
        b.putBytes(p + PP_KEY, in.keyBuffer(), in.keyOffset(), keyLength);
        partitionHead = s.insert(partitionHead, node, h);
        hash.add(in.token(), node);
        partitionCount++;
        return node;
    }

    private void appendRangeTombstone(UnsafeBuffer nb, int p, DirectBuffer src, int off, int len) {
        long link = arena.allocate(RT_RECORD + len);
        UnsafeBuffer lb = arena.buffer(link);
        int lo = MemtableArena.offset(link);
        lb.putLong(lo + RT_NEXT, NIL);
        lb.putBytes(lo + RT_RECORD, src, off, len);
        long tail = nb.getLong(p + PP_RT_TAIL);
        if (tail == NIL) {
            nb.putLong(p + PP_RT_HEAD, link);
        } else {
            arena.buffer(tail).putLong(MemtableArena.offset(tail) + RT_NEXT, link);
        }
        nb.putLong(p + PP_RT_TAIL, link);
        nb.putInt(p + PP_RT_COUNT, nb.getInt(p + PP_RT_COUNT) + 1);
    }

    private void applyRow(UnsafeBuffer nb, int p, DirectBuffer b, int ro) {
        long head = nb.getLong(p + PP_ROWS);
        RowSearch s = rowSearch.clustering(b, Rows.clusteringOffset(ro), Rows.clusteringLength(b, ro));
        long found = head == NIL ? NIL : s.seek(head);
        if (s.matches(found)) {
            long old = s.row(found);
            bufs[0] = arena.buffer(old);
            offs[0] = MemtableArena.offset(old);
            bufs[1] = b;
            offs[1] = ro;
            int len = rowMerger.merge(bufs, offs, 2, NO_TIMESTAMP, PurgePolicy.NONE, scratch, 0, true);
            bufs[0] = null;
            bufs[1] = null;
            if (len > 0) {
                s.replaceRow(found, arena.copy(scratch, 0, len));
            }
            return;
        }
        if (!Rows.hasContent(b, ro)) {
            return;
        }
        if (head == NIL) {
            head = s.newHead(ROW_HEAD_HEIGHT);
            nb.putLong(p + PP_ROWS, head);
            s.seek(head);
        }
        long row = arena.copy(b, ro, Rows.length(b, ro));
        int h = s.randomHeight();
        long node = arena.allocate(nodeSize(h, ROW_PAYLOAD));
        UnsafeBuffer rb = arena.buffer(node);
        int o = MemtableArena.offset(node);
        rb.putInt(o + N_HEIGHT, h);
        rb.putLong(payload(rb, o) + RP_ROW, row);
        long newHead = s.insert(head, node, h);
        if (newHead != head) {
            nb.putLong(p + PP_ROWS, newHead);
        }
    }

    private void trackTimestamp(long ts) {
        if (ts < minTimestamp) {
            minTimestamp = ts;
        }
        if (ts > maxTimestamp) {
            maxTimestamp = ts;
        }
    }

    private void trackRowTimestamps(DirectBuffer b, int ro) {
        long m = Rows.markerTimestamp(b, ro);
        if (m != NO_TIMESTAMP) {
            trackTimestamp(m);
        }
        long d = Rows.deletionTimestamp(b, ro);
        if (d != NO_TIMESTAMP) {
            trackTimestamp(d);
        }
        int c = Rows.firstCellOffset(b, ro);
        for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
            trackTimestamp(Cells.timestamp(b, c));
            c += Cells.length(b, c);
        }
    }

    /**
     * The partition, or null. Shard thread only: the view is this memtable's one lookup flyweight, valid until
     * the next {@code get} on this memtable (iterators have their own).
     */
    public PartitionView get(DecoratedKey key) {
        if (partitionHead == NIL) {
            return null;
        }
        if (lookupView == null) {
            lookupView = new MemPartition(arena);
        }
        lookupKey.wrap(key.key());
        long node = hash.find(key.token(), lookupKey, 0, key.key().length);
        return node != NIL ? lookupView.wrap(node) : null;
    }

    private final UnsafeBuffer lookupKey = new UnsafeBuffer(new byte[0]);
    private MemPartition lookupView;

    /**
     * Partitions from {@code from} (inclusive, null = first) in order. Each iterator reuses one flyweight: a
     * partition it returned is valid until its next call to {@code next()}.
     */
    public Iterable<PartitionView> from(DecoratedKey from) {
        return () -> new PartitionIterator(from);
    }

    public Iterable<PartitionView> partitions() {
        return from(null);
    }

    private final class PartitionIterator implements Iterator<PartitionView> {
        private final MemPartition view = new MemPartition(arena);
        private long next;

        PartitionIterator(DecoratedKey from) {
            if (partitionHead == NIL) {
                next = NIL;
            } else if (from == null) {
                next = partitionSearch.successor(partitionHead);
            } else {
                PartitionSearch s = new PartitionSearch(arena, 1);
                next = s.key(from.token(), new UnsafeBuffer(from.key()), 0, from.key().length).seek(partitionHead);
            }
        }

        @Override
        public boolean hasNext() {
            return next != NIL;
        }

        @Override
        public PartitionView next() {
            if (next == NIL) {
                throw new NoSuchElementException();
            }
            view.wrap(next);
            next = partitionSearch.successor(next);
            return view;
        }
    }

    public boolean isEmpty() {
        return partitionCount == 0;
    }

    public int partitionCount() {
        return partitionCount;
    }

    public long allocatedBytes() {
        return arena.allocatedBytes() + hash.allocatedBytes();
    }

    public long minTimestamp() {
        return minTimestamp;
    }

    public long maxTimestamp() {
        return maxTimestamp;
    }

    public long firstSegment() {
        return firstSegment;
    }

    public long lastSegment() {
        return lastSegment;
    }

    public long operations() {
        return operations;
    }

    public void retain() {
        refCount++;
    }

    /** Frees the arena when the last reference goes. Shard thread only. */
    public void release() {
        if (--refCount == 0) {
            arena.free();
            hash.clear();
            partitionHead = NIL;
            partitionCount = 0;
        }
    }
}
