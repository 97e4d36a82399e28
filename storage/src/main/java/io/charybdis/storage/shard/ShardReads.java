package io.charybdis.storage.shard;

import io.charybdis.storage.cache.RowCache;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.read.ResultWriter;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.util.ByteComparables;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads on one shard: single-partition reads here, range reads in {@link RangeReader}, both merged by
 * {@link #emit}.
 *
 * <p>Implementation notes: a partition read is answered from memory when it can (row cache hit merged with the
 * memtables, or no SSTable may hold the key) and completes at once; otherwise the SSTables that may hold the key are
 * read on the shared I/O pool and the result is merged back on the shard. The row cache holds the reconciled
 * SSTable content of a partition (never memtable data): a miss populates it with what was read, unless a flush or
 * truncate changed what the SSTables mean since the read started ({@link TableShard#cachePhase}). Shard thread only,
 * except the I/O pool's part of a read.
 */
final class ShardReads {
    private final Shard shard;
    private final RangeReader ranges;
    private final PartitionMerger merger = new PartitionMerger();
    private final ExpandableArrayBuffer mergeOut = new ExpandableArrayBuffer(4096);
    private final ExpandableArrayBuffer cacheScratch = new ExpandableArrayBuffer(1024);
    private final SerializedPartition mergedView = new SerializedPartition();

    ShardReads(Shard shard) {
        this.shard = shard;
        this.ranges = new RangeReader(shard, this);
    }

    CompletableFuture<ReadResult> read(ReadCommand c) {
        return read(c, null);
    }

    /** @param trace a traced request's tracing session (single-partition reads tell it their steps); or null */
    CompletableFuture<ReadResult> read(ReadCommand c, Consumer<String> trace) {
        shard.countForegroundOp();
        if (!c.isSinglePartition()) {
            CompletableFuture<ReadResult> f = ranges.read(c);
            TableShard ts = shard.tables.find(c.table());
            if (ts != null) {
                f.whenComplete((r, e) -> recordScanned(ts, r));
            }
            return f;
        }
        long started = System.nanoTime();
        CompletableFuture<ReadResult> f = readPartition(c, trace);
        TableShard ts = shard.tables.find(c.table());
        if (ts != null) {
            if (f.isDone()) {
                ts.readLatency.recordNanos(System.nanoTime() - started);
                if (!f.isCompletedExceptionally()) {
                    recordScanned(ts, f.getNow(null));
                }
            } else {
                f.whenComplete((r, e) -> {
                    ts.readLatency.recordNanos(System.nanoTime() - started);
                    recordScanned(ts, r);
                });
            }
        }
        return f;
    }

    private static void recordScanned(TableShard ts, ReadResult r) {
        if (r != null) {
            ts.liveScanned.record(r.liveRowsScanned());
            ts.tombstonesScanned.record(r.tombstonesScanned());
        }
    }

    CompletableFuture<ReadResult> readPartition(ReadCommand c) {
        return readPartition(c, null);
    }

    CompletableFuture<ReadResult> readPartition(ReadCommand c, Consumer<String> trace) {
        TableShard ts = shard.tables.get(c.table());
        CompletableFuture<ReadResult> f = new CompletableFuture<>();
        RowCache cache = shard.memory.cache;
        boolean useCache = ts.entry.descriptor().rowCacheEnabled();
        if (useCache) {
            PartitionView cached = cache.get(c.table(), c.token(), c.key());
            if (cached != null) {
                // as in Cassandra, a row cache hit is not a read of SSTables: the histogram does not count it
                List<PartitionView> views = memtableViews(ts.memtable, ts.flushing, new DecoratedKey(c.token(), c.key()));
                views.add(cached);
                if (trace != null) {
                    trace.accept("Row cache hit");
                }
                ResultWriter w = new ResultWriter(c);
                emit(c, views, w);
                f.complete(w.build());
                return f;
            }
        }
        if (trace != null) {
            trace.accept("Acquiring sstable references");
        }
        ReadSources src = ReadSources.capture(ts, r -> r.mayContain(c.token(), c.key()));
        ts.recordSSTablesPerRead(src.sstables().size());
        int phase = ts.cachePhase;
        List<PartitionView> kept = src.sstables().isEmpty() ? null
                : shard.memory.largePartition.views(c, src.sstables());
        if (kept != null) {
            // the next page of the large partition read last: its SSTable parts are still the ones read then
            if (trace != null) {
                trace.accept("Reusing the SSTable parts of the partition's previous page");
            }
            finishPartitionRead(c, src, null, kept, f, trace);
            return f;
        }
        if (src.sstables().isEmpty()) {
            if (useCache) {
                cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, shard.memory.cacheLimit());
            }
            finishPartitionRead(c, src, List.of(), null, f, trace);
            return f;
        }
        shard.io(() -> {
            List<byte[]> parts = new ArrayList<>();
            Throwable error = readParts(src, c.token(), c.key(), parts);
            Throwable err = error;
            shard.post(() -> {
                if (err != null) {
                    src.release();
                    f.completeExceptionally(err);
                } else {
                    if (phase == ts.cachePhase && !ts.dropped && !shard.isClosed()) {
                        if (useCache) {
                            populate(c, parts);
                        }
                        shard.memory.largePartition.keep(c, src.sstables(), parts,
                                shard.memory.shardBudget - shard.memory.memtableBytes());
                    }
                    finishPartitionRead(c, src, parts, null, f, trace);
                }
            });
        }, f);
        return f;
    }

    /**
     * The whole partition as this shard holds it, reconciled but unfiltered (tombstones, expiring and expired
     * cells kept, nothing purged), as a mutation that would recreate it; null when the shard holds nothing of it.
     * What a coordinator compares and repairs replicas with. Reads memtables and SSTables (not the row cache).
     */
    CompletableFuture<io.charybdis.storage.mutation.Mutation> readRaw(io.charybdis.storage.TableId table, long token,
                                                                     byte[] key) {
        TableShard ts = shard.tables.get(table);
        CompletableFuture<io.charybdis.storage.mutation.Mutation> f = new CompletableFuture<>();
        ReadSources src = ReadSources.capture(ts, r -> r.mayContain(token, key));
        shard.io(() -> {
            List<byte[]> parts = new ArrayList<>();
            Throwable error = readParts(src, token, key, parts);
            Throwable err = error;
            shard.post(() -> {
                try {
                    if (err != null) {
                        f.completeExceptionally(err);
                        return;
                    }
                    List<PartitionView> views = views(src, parts, new DecoratedKey(token, key));
                    if (views.isEmpty()) {
                        f.complete(null);
                        return;
                    }
                    int len = merger.merge(views.toArray(PartitionView[]::new), views.size(), null, null,
                            PurgePolicy.NONE, mergeOut, 0);
                    f.complete(len == 0 ? null : io.charybdis.storage.mutation.Mutation.ofPartition(table, mergeOut, 0, len));
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                } finally {
                    src.release();
                }
            });
        }, f);
        return f;
    }

    /** Caches the reconciled SSTable content of a partition just read (all SSTables that may hold it). */
    private void populate(ReadCommand c, List<byte[]> parts) {
        RowCache cache = shard.memory.cache;
        long limit = shard.memory.cacheLimit();
        if (parts.isEmpty()) {
            cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, limit);
            return;
        }
        for (byte[] part : parts) {
            if (part.length > shard.memory.maxCachedPartition()) {
                // an SSTable alone holds more of it than the cache takes: not merged whole on every read (each page
                // of a large partition) only to be found too large
                return;
            }
        }
        PartitionView[] views = new PartitionView[parts.size()];
        for (int i = 0; i < views.length; i++) {
            views[i] = new SerializedPartition().wrap(new UnsafeBuffer(parts.get(i)), 0, false);
        }
        int len = merger.merge(views, views.length, null, null, PurgePolicy.NONE, cacheScratch, 0);
        if (len == 0) {
            cache.putAbsent(c.table(), c.token(), c.key(), cacheScratch, limit);
        } else if (len <= shard.memory.maxCachedPartition()) {
            cache.put(c.table(), c.token(), c.key(), cacheScratch, 0, len, limit);
        }
    }

    /** Reads the partition from each SSTable of {@code src} into {@code parts} (I/O thread); the failure, or null. */
    private static Throwable readParts(ReadSources src, long token, byte[] key, List<byte[]> parts) {
        try {
            for (SSTableReader r : src.sstables()) {
                byte[] p = r.readPartition(token, key);
                if (p != null) {
                    parts.add(p);
                }
            }
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** The partition's views: the captured memtables' then the SSTable parts read. */
    private static List<PartitionView> views(ReadSources src, List<byte[]> parts, DecoratedKey dk) {
        List<PartitionView> views = new ArrayList<>();
        for (Memtable m : src.memtables()) {
            PartitionView v = m.get(dk);
            if (v != null) {
                views.add(v);
            }
        }
        for (byte[] p : parts) {
            views.add(new SerializedPartition().wrap(new UnsafeBuffer(p), 0, false));
        }
        return views;
    }

    private static List<PartitionView> memtableViews(Memtable memtable, List<Memtable> flushing, DecoratedKey dk) {
        List<PartitionView> views = new ArrayList<>(2 + flushing.size());
        PartitionView v = memtable.get(dk);
        if (v != null) {
            views.add(v);
        }
        for (Memtable m : flushing) {
            v = m.get(dk);
            if (v != null) {
                views.add(v);
            }
        }
        return views;
    }

    /** @param kept the SSTable parts' views kept from the previous page (then {@code parts} is null), or null */
    private void finishPartitionRead(ReadCommand c, ReadSources src, List<byte[]> parts, List<PartitionView> kept,
                                     CompletableFuture<ReadResult> f, Consumer<String> trace) {
        try {
            DecoratedKey dk = new DecoratedKey(c.token(), c.key());
            List<PartitionView> views;
            if (kept == null) {
                views = views(src, parts, dk);
            } else {
                views = views(src, List.of(), dk);
                views.addAll(kept);
            }
            if (trace != null) {
                trace.accept("Merged data from memtables and " + src.sstables().size() + " sstables");
            }
            ResultWriter w = new ResultWriter(c);
            emit(c, views, w);
            f.complete(w.build());
        } catch (Throwable t) {
            f.completeExceptionally(t);
        } finally {
            src.release();
        }
    }

    /** Reconciles the views of one partition (within the command's slice bounds) into the result. */
    void emit(ReadCommand c, List<PartitionView> views, ResultWriter w) {
        if (views.isEmpty()) {
            return;
        }
        byte[] lo = null;
        byte[] hi = null;
        if (!c.slices().isEmpty()) {
            lo = c.slices().get(0).start();
            hi = c.slices().get(c.slices().size() - 1).end();
        }
        PartitionView first = views.get(0);
        if (c.resumesIn(first.token(), first.keyBuffer(), first.keyOffset(), first.keyLength())) {
            // a page resuming inside the partition: nothing before the resume point (after it when reversed) is wanted
            byte[] r = c.startAfter().clustering();
            if (c.reversed()) {
                hi = hi == null || ByteComparables.compare(r, hi) < 0 ? r : hi;
            } else {
                lo = lo == null || ByteComparables.compare(r, lo) > 0 ? r : lo;
            }
        }
        PartitionView[] vs = views.toArray(PartitionView[]::new);
        // merges only about the rows the limits want (a page of a large partition), more if too few of them are live
        int wanted = w.rowsWanted();
        int rows = wanted >= Integer.MAX_VALUE - MERGE_SLACK ? Integer.MAX_VALUE : wanted + MERGE_SLACK;
        while (true) {
            w.mark();
            int len = merger.merge(vs, vs.length, lo, hi, rows, c.reversed(), PurgePolicy.NONE, mergeOut, 0);
            if (len > 0) {
                w.addPartition(mergedView.wrap(mergeOut, 0, false));
            }
            if (!merger.truncated() || w.partitionStopped()) {
                return;
            }
            w.reset();
            rows = rows >= Integer.MAX_VALUE / 4 ? Integer.MAX_VALUE : rows * 4;
        }
    }

    /** Rows merged beyond those a read's limits want, for rows that turn out dead (see emit). */
    private static final int MERGE_SLACK = 16;
}
