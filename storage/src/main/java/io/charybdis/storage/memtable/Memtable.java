package io.charybdis.storage.memtable;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.RowMerger;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import java.util.Collection;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * The in-memory, writable part of one table on one shard.
 *
 * <p>Implementation notes: data (rows, range tombstones) lives off-heap in a {@link MemtableArena}; the partition
 * index is an on-heap {@link TreeMap} ordered by (token, key) with one small object per partition and a sorted
 * {@code long[]} of row pointers (next step: an arena-resident B-tree). A write of an existing row merges the old
 * and new versions ({@link RowMerger}, no shadowing) into a fresh arena record and repoints the index; the old
 * record becomes waste until the memtable is flushed and freed. Touched only by its shard thread while
 * writable; once switched out for flushing it is immutable and may be read by an I/O thread.
 */
public final class Memtable {
    private final MemtableArena arena;
    private final TreeMap<DecoratedKey, MemPartition> partitions = new TreeMap<>();
    private final SerializedPartition incoming = new SerializedPartition();
    private final RowMerger rowMerger;
    private final ExpandableArrayBuffer scratch;
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = Long.MIN_VALUE;
    private long firstSegment = -1;
    private long lastSegment = -1;
    private long operations;
    private int refCount = 1;

    public Memtable(ShardAllocator allocator, RowMerger rowMerger, ExpandableArrayBuffer scratch) {
        this.arena = new MemtableArena(allocator);
        this.rowMerger = rowMerger;
        this.scratch = scratch;
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
        DecoratedKey key = DecoratedKey.of(in.token(), in.keyBuffer(), in.keyOffset(), in.keyLength());
        MemPartition p = partitions.get(key);
        if (p == null) {
            p = new MemPartition(key, arena);
            partitions.put(key, p);
        }
        long pdTs = in.deletionTimestamp();
        if (pdTs != NO_TIMESTAMP) {
            trackTimestamp(pdTs);
            if (pdTs > p.deletionTs || (pdTs == p.deletionTs && in.deletionLocalTime() > p.deletionLdt)) {
                p.deletionTs = pdTs;
                p.deletionLdt = in.deletionLocalTime();
            }
        }
        for (int i = 0, n = in.rangeTombstoneCount(); i < n; i++) {
            int o = in.rangeTombstoneOffset(i);
            trackTimestamp(Rows.rtTimestamp(in.buffer(), o));
            p.addRangeTombstone(arena.copy(in.buffer(), o, Rows.rtLength(in.buffer(), o)));
        }
        DirectBuffer[] bufs = new DirectBuffer[2];
        int[] offs = new int[2];
        for (int i = 0, n = in.rowCount(); i < n; i++) {
            DirectBuffer b = in.buffer();
            int ro = in.rowOffset(i);
            trackRowTimestamps(b, ro);
            int found = p.find(b, Rows.clusteringOffset(ro), Rows.clusteringLength(b, ro));
            if (found >= 0) {
                long old = p.rowPointer(found);
                bufs[0] = arena.buffer(old);
                offs[0] = MemtableArena.offset(old);
                bufs[1] = b;
                offs[1] = ro;
                int len = rowMerger.merge(bufs, offs, 2, NO_TIMESTAMP, PurgePolicy.NONE, scratch, 0);
                if (len > 0) {
                    p.replaceRow(found, arena.copy(scratch, 0, len));
                }
            } else if (Rows.cellCount(b, ro) > 0 || Rows.markerTimestamp(b, ro) != NO_TIMESTAMP
                    || Rows.deletionTimestamp(b, ro) != NO_TIMESTAMP) {
                p.insertRow(-found - 1, arena.copy(b, ro, Rows.length(b, ro)));
            }
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

    public PartitionView get(DecoratedKey key) {
        return partitions.get(key);
    }

    /** Partitions from {@code from} (inclusive, null = first) in order. */
    public Collection<? extends PartitionView> from(DecoratedKey from) {
        NavigableMap<DecoratedKey, MemPartition> m = from == null ? partitions : partitions.tailMap(from, true);
        return m.values();
    }

    public Collection<? extends PartitionView> partitions() {
        return partitions.values();
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    public int partitionCount() {
        return partitions.size();
    }

    public long allocatedBytes() {
        return arena.allocatedBytes();
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
            partitions.clear();
        }
    }
}
