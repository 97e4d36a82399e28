package io.charybdis.storage.shard;

import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableDescriptor;
import io.charybdis.storage.memtable.Memtable;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.schedule.ShardScheduler;
import io.charybdis.storage.sstable.Compression;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.sstable.SSTableWriter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import org.agrona.ExpandableArrayBuffer;

/** Writes one switched-out memtable to a new SSTable, a chunk per step, on the shard's background thread. */
final class FlushTask implements ShardScheduler.Task {
    final Shard shard;
    final TableShard ts;
    final Memtable memtable;
    final int epoch;
    final CompletableFuture<Void> done;
    private final double minShares;
    private final TableDescriptor descriptor;
    private final Path dir;
    private final long generation;
    private final int shardCount;
    private SSTableWriter writer;
    private Iterator<? extends PartitionView> partitions;
    private final PartitionMerger merger = new PartitionMerger();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private final PartitionView[] one = new PartitionView[1];
    private boolean finished;
    volatile long bytesWritten;

    FlushTask(Shard shard, TableShard ts, Memtable memtable, int epoch, long generation, int shardCount,
              double minShares, CompletableFuture<Void> done) {
        this.shard = shard;
        this.ts = ts;
        this.memtable = memtable;
        this.epoch = epoch;
        this.generation = generation;
        this.shardCount = shardCount;
        this.minShares = minShares;
        this.done = done;
        this.descriptor = ts.entry.descriptor();
        this.dir = ts.entry.nextDirectory(memtable.allocatedBytes());
    }

    @Override
    public long step() throws Exception {
        if (writer == null) {
            writer = new SSTableWriter(dir, generation, Compression.fromOptions(descriptor.compression()), shard.id,
                    shardCount, memtable.partitionCount(), ts.entry.sstableAllocator());
            partitions = memtable.partitions().iterator();
        }
        long start = writer.uncompressedBytes();
        while (partitions.hasNext() && writer.uncompressedBytes() - start < ShardScheduler.CHUNK_BYTES) {
            one[0] = partitions.next();
            if (merger.merge(one, 1, null, null, PurgePolicy.NONE, out, 0) > 0) {
                writer.append(out, 0);
            }
        }
        bytesWritten = writer.bytesWritten();
        long processed = writer.uncompressedBytes() - start;
        if (!partitions.hasNext()) {
            writer.finish();
            finished = true;
            SSTableReader reader = SSTableReader.open(dir, generation, ts.entry.sstableAllocator());
            shard.post(() -> shard.flusher.flushDone(this, reader, null));
        }
        return processed;
    }

    @Override
    public boolean done() {
        return finished;
    }

    @Override
    public void abort(Throwable cause) {
        if (writer != null) {
            writer.abort();
        }
        Throwable t = cause != null ? cause : new StorageException("flush abandoned: storage is closing");
        shard.post(() -> shard.flusher.flushDone(this, null, t));
    }

    @Override
    public double minShares() {
        return minShares;
    }
}
