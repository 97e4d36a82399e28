package io.charybdis.storage.shard;

import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ResultWriter;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.util.ByteComparables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Range reads (a token range, or a whole table) on one shard, in batches.
 *
 * <p>Implementation notes: the sources are captured once ({@link ReadSources}). Each step reads on the I/O pool up
 * to {@value #RANGE_BATCH} partitions of each SSTable not yet exhausted, from the position reached, and notes
 * {@code upper}, the lowest last key of the SSTables that filled their batch; back on the shard, the memtables and
 * those batches are merged up to {@code upper} (inclusive) only, since beyond it an SSTable may hold partitions not
 * read yet. The next step starts just after {@code upper}; the read ends when the result is full or every SSTable
 * is exhausted ({@code upper} null). Only partitions whose token this shard owns are returned: SSTables of another
 * shard layout hold other shards' data too. Shard thread only, except the I/O pool's batch reads.
 */
final class RangeReader {
    private static final int RANGE_BATCH = 64;

    private final Shard shard;
    private final ShardReads reads;

    RangeReader(Shard shard, ShardReads reads) {
        this.shard = shard;
        this.reads = reads;
    }

    CompletableFuture<ReadResult> read(ReadCommand c) {
        TableShard ts = shard.tables.get(c.table());
        CompletableFuture<ReadResult> f = new CompletableFuture<>();
        ReadSources src = ReadSources.capture(ts, r -> true);
        RangeRead rr = new RangeRead(c, src, new ResultWriter(c), f);
        step(rr);
        return f;
    }

    /** One range read in progress. */
    private final class RangeRead {
        final ReadCommand cmd;
        final ReadSources src;
        final ResultWriter writer;
        final CompletableFuture<ReadResult> future;
        DecoratedKey from; // next position to consider, inclusive
        boolean fromExclusive;
        final boolean[] sstableDone;

        RangeRead(ReadCommand cmd, ReadSources src, ResultWriter writer, CompletableFuture<ReadResult> future) {
            this.cmd = cmd;
            this.src = src;
            this.writer = writer;
            this.future = future;
            this.from = new DecoratedKey(cmd.lowestToken(), new byte[0]);
            this.sstableDone = new boolean[src.sstables().size()];
        }

        boolean accepts(long token, byte[] key) {
            UnsafeBuffer kb = new UnsafeBuffer(key);
            return cmd.afterStart(token, kb, 0, key.length) && owned(token);
        }

        boolean beyondEnd(long token, byte[] key) {
            return !cmd.beforeEnd(token, new UnsafeBuffer(key), 0, key.length);
        }
    }

    private boolean owned(long token) {
        return ShardRouting.shardOf(token, shard.ctx.shardCount()) == shard.id;
    }

    private void step(RangeRead rr) {
        boolean anySSTable = false;
        for (boolean d : rr.sstableDone) {
            anySSTable |= !d;
        }
        if (!anySSTable) {
            process(rr, new ArrayList<>(), null);
            return;
        }
        DecoratedKey from = rr.from;
        boolean exclusive = rr.fromExclusive;
        shard.io(() -> {
            List<List<byte[]>> batches = new ArrayList<>();
            DecoratedKey upper = null;
            Throwable error = null;
            DecoratedKey[] lastOfEnded = new DecoratedKey[rr.src.sstables().size()];
            try {
                for (int i = 0; i < rr.src.sstables().size(); i++) {
                    List<byte[]> batch = new ArrayList<>();
                    batches.add(batch);
                    if (rr.sstableDone[i]) {
                        continue;
                    }
                    SSTableReader.Scanner s = rr.src.sstables().get(i).scanner(from.token(), from.key());
                    boolean more = false;
                    DecoratedKey last = null;
                    while (s.advance()) {
                        if (rr.beyondEnd(s.token(), s.key())) {
                            break;
                        }
                        if (exclusive && s.token() == from.token() && Arrays.equals(s.key(), from.key())) {
                            continue;
                        }
                        if (!rr.accepts(s.token(), s.key())) {
                            continue;
                        }
                        batch.add(s.partition());
                        last = new DecoratedKey(s.token(), s.key());
                        if (batch.size() >= RANGE_BATCH) {
                            more = true;
                            break;
                        }
                    }
                    if (!more) {
                        rr.sstableDone[i] = true;
                        lastOfEnded[i] = last;
                    } else if (upper == null || last.compareTo(upper) < 0) {
                        upper = last;
                    }
                }
                // an SSTable read to its end is done only if this step keeps all it gave: what lies beyond the
                // bound another SSTable's full batch sets is dropped by process(), so it is read again next step
                for (int i = 0; i < lastOfEnded.length; i++) {
                    if (upper != null && lastOfEnded[i] != null && lastOfEnded[i].compareTo(upper) > 0) {
                        rr.sstableDone[i] = false;
                    }
                }
            } catch (Throwable t) {
                error = t;
            }
            Throwable err = error;
            DecoratedKey up = upper;
            shard.post(() -> {
                if (err != null) {
                    rr.src.release();
                    rr.future.completeExceptionally(err);
                } else {
                    process(rr, batches, up);
                }
            });
        }, rr.future);
    }

    /** Merges memtable partitions and the SSTable batch up to {@code upper} (inclusive; null = to the end). */
    private void process(RangeRead rr, List<List<byte[]>> batches, DecoratedKey upper) {
        try {
            List<Iterator<? extends PartitionView>> its = new ArrayList<>();
            for (Memtable m : rr.src.memtables()) {
                its.add(m.from(rr.from).iterator());
            }
            for (List<byte[]> b : batches) {
                List<PartitionView> vs = new ArrayList<>();
                for (byte[] p : b) {
                    SerializedPartition sp = new SerializedPartition().wrap(new UnsafeBuffer(p), 0, false);
                    if (upper == null || compare(sp, upper) <= 0) {
                        vs.add(sp);
                    }
                }
                its.add(vs.iterator());
            }
            int k = its.size();
            PartitionView[] heads = new PartitionView[k];
            for (int i = 0; i < k; i++) {
                heads[i] = nextAccepted(rr, its.get(i), upper);
            }
            List<PartitionView> group = new ArrayList<>();
            while (!rr.writer.isFull()) {
                int min = -1;
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (min < 0 || compare(heads[i], heads[min]) < 0)) {
                        min = i;
                    }
                }
                if (min < 0) {
                    break;
                }
                PartitionView first = heads[min];
                group.clear();
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (i == min || compare(heads[i], first) == 0)) {
                        group.add(heads[i]);
                    }
                }
                reads.emit(rr.cmd, group, rr.writer);
                for (int i = 0; i < k; i++) {
                    if (heads[i] != null && (i == min || compare(heads[i], first) == 0)) {
                        if (i != min) {
                            heads[i] = nextAccepted(rr, its.get(i), upper);
                        }
                    }
                }
                heads[min] = nextAccepted(rr, its.get(min), upper);
            }
            if (rr.writer.isFull() || upper == null) {
                rr.src.release();
                rr.future.complete(rr.writer.build());
                return;
            }
            rr.from = upper;
            rr.fromExclusive = true;
            step(rr);
        } catch (Throwable t) {
            rr.src.release();
            rr.future.completeExceptionally(t);
        }
    }

    private PartitionView nextAccepted(RangeRead rr, Iterator<? extends PartitionView> it, DecoratedKey upper) {
        while (it.hasNext()) {
            PartitionView v = it.next();
            if (upper != null && compare(v, upper) > 0) {
                return null;
            }
            if (rr.fromExclusive && compare(v, rr.from) <= 0) {
                continue;
            }
            if (!rr.cmd.beforeEnd(v.token(), v.keyBuffer(), v.keyOffset(), v.keyLength())) {
                return null;
            }
            if (rr.cmd.afterStart(v.token(), v.keyBuffer(), v.keyOffset(), v.keyLength()) && owned(v.token())) {
                return v;
            }
        }
        return null;
    }

    private static int compare(PartitionView a, PartitionView b) {
        int c = Long.compare(a.token(), b.token());
        return c != 0 ? c : ByteComparables.compare(
                a.keyBuffer(), a.keyOffset(), a.keyLength(), b.keyBuffer(), b.keyOffset(), b.keyLength());
    }

    private static int compare(PartitionView a, DecoratedKey k) {
        int c = Long.compare(a.token(), k.token());
        return c != 0 ? c : ByteComparables.compare(a.keyBuffer(), a.keyOffset(), a.keyLength(), k.key());
    }
}
