package io.charybdis.storage.commitlog;

import static io.charybdis.storage.commitlog.CommitLogLayout.*;

import io.charybdis.storage.CommitLogSync;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;

/**
 * The shard-thread side of one shard's commit log: decides which segment each entry goes to, tracks which
 * tables have unflushed data in which segment, and asks the {@link CommitLogWriter} thread to write, sync and
 * delete. A segment is deleted once every table dirty in it has flushed the memtables covering it.
 */
public final class CommitLogShard {
    private final CommitLogWriter writer;
    private final Thread thread;
    private final Executor shardExecutor;
    private final AtomicLong segmentIds;
    private final long segmentSize;
    private final CommitLogSync mode;
    private final TreeMap<Long, Set<TableId>> dirty = new TreeMap<>();
    private long segment = -1;
    private long segmentPosition;

    public CommitLogShard(Path dir, int shardId, CommitLogSync mode, long groupWindowMillis, long segmentSize,
                          AtomicLong segmentIds, Executor shardExecutor) {
        this.writer = new CommitLogWriter(dir, shardId, mode, groupWindowMillis);
        this.thread = new Thread(writer, "commitlog-shard-" + shardId);
        this.thread.setDaemon(true);
        this.thread.start();
        this.shardExecutor = shardExecutor;
        this.segmentIds = segmentIds;
        this.segmentSize = segmentSize;
        this.mode = mode;
    }

    /**
     * Appends a mutation; {@code ack} completes on the shard when durable per the sync mode.
     *
     * @return the segment id the entry goes to
     */
    public long append(Mutation m, CompletableFuture<Void> ack) {
        int size = ENTRY_HEADER + m.serializedSize();
        if (segment < 0 || (segmentPosition + size > segmentSize && segmentPosition > HEADER_SIZE)) {
            segment = segmentIds.incrementAndGet();
            segmentPosition = HEADER_SIZE;
            dirty.put(segment, new HashSet<>());
        }
        segmentPosition += size;
        dirty.get(segment).add(m.table());
        writer.submit(new CommitLogWriter.Append(segment, m.buffer().byteArray(), t -> shardExecutor.execute(() -> {
            if (t == null) {
                ack.complete(null);
            } else {
                ack.completeExceptionally(t);
            }
        })));
        return segment;
    }

    /**
     * Notes that {@code table}'s memtable holds data written along with an entry of {@code segment} (derived writes,
     * replayed from that entry): the segment is kept until that table has flushed too.
     */
    public void markDirty(long segment, io.charybdis.storage.TableId table) {
        Set<io.charybdis.storage.TableId> s = dirty.get(segment);
        if (s != null) {
            s.add(table);
        }
    }

    /** Requests an fsync; {@code done} runs on the writer thread afterwards. */
    public void sync(Runnable done) {
        writer.submit(new CommitLogWriter.Sync(done));
    }

    public int segmentCount() {
        return dirty.size();
    }

    public long oldestSegment() {
        return dirty.isEmpty() ? -1 : dirty.firstKey();
    }

    public Set<TableId> tablesDirtyIn(long segmentId) {
        Set<TableId> s = dirty.get(segmentId);
        return s == null ? Set.of() : s;
    }

    /**
     * A memtable of {@code table} covering segments [first, last] was flushed (or discarded);
     * {@code stillCovered} says whether another unflushed memtable of the table covers a segment.
     */
    public void markClean(TableId table, long first, long last, LongPredicate stillCovered) {
        if (first >= 0) {
            for (Map.Entry<Long, Set<TableId>> e : dirty.subMap(first, true, last, true).entrySet()) {
                if (!stillCovered.test(e.getKey())) {
                    e.getValue().remove(table);
                }
            }
        }
        deleteClean();
    }

    /** Forgets a table everywhere (truncate, drop). */
    public void forget(TableId table) {
        for (Set<TableId> s : dirty.values()) {
            s.remove(table);
        }
        deleteClean();
    }

    private void deleteClean() {
        Iterator<Map.Entry<Long, Set<TableId>>> it = dirty.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Set<TableId>> e = it.next();
            if (e.getValue().isEmpty() && e.getKey() != segment) {
                writer.submit(new CommitLogWriter.Delete(e.getKey()));
                it.remove();
            }
        }
    }

    public CommitLogSync mode() {
        return mode;
    }

    /** Syncs and stops the writer; {@code done} runs on the writer thread when the file is closed. */
    public void close(Runnable done) {
        writer.submit(new CommitLogWriter.Close(done));
    }

    public void join(long millis) throws InterruptedException {
        thread.join(millis);
    }
}
