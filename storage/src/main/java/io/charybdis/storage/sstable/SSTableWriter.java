package io.charybdis.storage.sstable;

import static io.charybdis.storage.mutation.MutationLayout.*;
import static io.charybdis.storage.sstable.SSTableFormat.*;

import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.util.Crc;
import io.charybdis.storage.util.EstimatedHistogram;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes one SSTable from partition records appended in (token, key) order. Runs on an I/O thread.
 * {@link #finish()} fsyncs every component, renames them from their {@code tmp-} names (TOC last) and fsyncs
 * the directory; {@link #abort()} removes what was written.
 */
public final class SSTableWriter {
    private final Path dir;
    private final long generation;
    private final Compression compression;
    private final int shardId;
    private final int shardCount;
    private final FileOutput data;
    private final FileOutput index;
    private final BloomFilter filter;
    private ShardAllocator filterAllocator;
    private UnsafeBuffer filterMemory;
    private final byte[] chunk;
    private final byte[] compressed;
    private int chunkFill;
    private final List<Long> chunkOffsets = new ArrayList<>();
    private long uncompressed;
    private final ExpandableArrayBuffer block = new ExpandableArrayBuffer(INDEX_BLOCK_TARGET + 512);
    private int blockLength;
    private int blockEntries;
    private final ExpandableArrayBuffer summary = new ExpandableArrayBuffer(1024);
    private int summaryLength = 4;
    private int blockCount;
    private final SerializedPartition view = new SerializedPartition();
    private long partitions;
    private long rows;
    private long tombstones;
    /** Per partition: its record's length and its cells (Cassandra's estimated histograms, see SSTableFormat). */
    private final EstimatedHistogram partitionSizes = EstimatedHistogram.partitionSizes();
    private final EstimatedHistogram cellCounts = EstimatedHistogram.cellCounts();
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;
    private long minToken;
    private byte[] minKey;
    private long maxToken;
    private byte[] maxKey;
    private boolean done;
    private int level;

    /** A writer whose Bloom filter is on the heap (tests, tools). */
    public SSTableWriter(Path dir, long generation, Compression compression, int shardId, int shardCount,
                         long expectedPartitions) throws IOException {
        this(dir, generation, compression, shardId, shardCount, expectedPartitions, null);
    }

    /**
     * A writer whose Bloom filter is in off-heap memory from {@code allocator} (null = heap), given back by
     * {@link #finish()} or {@link #abort()}.
     */
    public SSTableWriter(Path dir, long generation, Compression compression, int shardId, int shardCount,
                         long expectedPartitions, ShardAllocator allocator) throws IOException {
        this.dir = dir;
        this.generation = generation;
        this.compression = compression;
        this.shardId = shardId;
        this.shardCount = shardCount;
        this.data = new FileOutput(tmp(COMPONENTS[0]));
        this.index = new FileOutput(tmp(COMPONENTS[1]));
        this.chunk = new byte[compression.chunkLength()];
        this.compressed = new byte[compression.maxCompressedLength(compression.chunkLength())];
        data.writeHeader(COMPONENT_DATA, generation);
        index.writeHeader(COMPONENT_INDEX, generation);
        long expected = Math.max(1, expectedPartitions);
        if (allocator == null) {
            this.filter = new BloomFilter(expected);
        } else {
            int words = BloomFilter.wordCount(expected);
            this.filterAllocator = allocator;
            this.filterMemory = allocator.allocate(words * 8);
            this.filter = new BloomFilter(filterMemory, 0, words, BloomFilter.HASH_COUNT);
        }
    }

    private Path tmp(String component) {
        return dir.resolve(TMP_PREFIX + fileName(generation, component));
    }

    public long generation() {
        return generation;
    }

    public long partitions() {
        return partitions;
    }

    /** The LCS level recorded in the Statistics component (default 0). */
    public SSTableWriter level(int newLevel) {
        this.level = newLevel;
        return this;
    }

    /** Uncompressed partition bytes appended so far. */
    public long uncompressedBytes() {
        return uncompressed;
    }

    /** Bytes written to the data file so far (compressed chunks), about the SSTable's final size. */
    public long bytesWritten() {
        return data.position();
    }

    /** Appends one partition record (must sort after the previous one). */
    public void append(DirectBuffer buf, int off) throws IOException {
        SerializedPartition p = view.wrap(buf, off, false);
        int length = p.length();
        long token = p.token();
        byte[] key = new byte[p.keyLength()];
        buf.getBytes(p.keyOffset(), key);
        if (minKey == null) {
            minToken = token;
            minKey = key;
        }
        maxToken = token;
        maxKey = key;
        filter.add(token);
        cellCounts.add(collectStats(p));
        partitionSizes.add(length);
        long position = uncompressed;
        // index entry
        int e = blockLength;
        block.putLong(8 + e, token);
        block.putInt(8 + e + 8, key.length);
        block.putBytes(8 + e + 12, key);
        block.putLong(8 + e + 12 + key.length, position);
        block.putInt(8 + e + 20 + key.length, length);
        if (blockEntries == 0) {
            summary.putLong(summaryLength + 12, token);
            summary.putInt(summaryLength + 20, key.length);
            summary.putBytes(summaryLength + 24, key);
        }
        blockLength += 24 + key.length;
        blockEntries++;
        if (blockLength >= INDEX_BLOCK_TARGET) {
            flushBlock();
        }
        // data
        int done = 0;
        while (done < length) {
            int n = Math.min(length - done, chunk.length - chunkFill);
            buf.getBytes(off + done, chunk, chunkFill, n);
            chunkFill += n;
            done += n;
            if (chunkFill == chunk.length) {
                flushChunk();
            }
        }
        uncompressed += length;
        partitions++;
    }

    /** Folds the partition into the timestamp, row and tombstone figures; returns its cell count. */
    private long collectStats(SerializedPartition p) {
        if (p.deletionTimestamp() != NO_TIMESTAMP) {
            ts(p.deletionTimestamp());
            tombstones++;
        }
        for (int i = 0; i < p.rangeTombstoneCount(); i++) {
            ts(Rows.rtTimestamp(p.buffer(), p.rangeTombstoneOffset(i)));
            tombstones++;
        }
        DirectBuffer b = p.buffer();
        long cells = 0;
        for (int r = 0; r < p.rowCount(); r++) {
            int ro = p.rowOffset(r);
            rows++;
            if (Rows.markerTimestamp(b, ro) != NO_TIMESTAMP) {
                ts(Rows.markerTimestamp(b, ro));
            }
            if (Rows.deletionTimestamp(b, ro) != NO_TIMESTAMP) {
                ts(Rows.deletionTimestamp(b, ro));
                tombstones++;
            }
            int c = Rows.firstCellOffset(b, ro);
            for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
                ts(Cells.timestamp(b, c));
                byte flags = Cells.flags(b, c);
                if ((flags & (FLAG_TOMBSTONE | FLAG_COMPLEX_DELETION)) != 0) {
                    tombstones++;
                }
                if ((flags & (FLAG_COMPLEX_DELETION | FLAG_WRITTEN_CLUSTERING)) == 0) {
                    cells++;
                }
                c += Cells.length(b, c);
            }
        }
        return cells;
    }

    private void ts(long t) {
        minTs = Math.min(minTs, t);
        maxTs = Math.max(maxTs, t);
    }

    private void flushChunk() throws IOException {
        if (chunkFill == 0) {
            return;
        }
        chunkOffsets.add(data.position());
        int n = compression.compress(chunk, chunkFill, compressed);
        byte[] stored = n < 0 ? chunk : compressed;
        int storedLength = n < 0 ? chunkFill : n;
        data.writeInt(storedLength);
        data.writeInt(n < 0 ? (chunkFill | RAW_FLAG) : chunkFill);
        data.writeInt(Crc.crc32(stored, 0, storedLength));
        data.write(stored, 0, storedLength);
        chunkFill = 0;
    }

    private void flushBlock() throws IOException {
        if (blockEntries == 0) {
            return;
        }
        block.putInt(0, blockEntries);
        block.putInt(4, blockLength);
        int total = 8 + blockLength;
        int crc = Crc.crc32(block, 0, total);
        block.putInt(total, crc);
        long offset = index.position();
        byte[] bytes = new byte[total + 4];
        block.getBytes(0, bytes);
        index.write(bytes, 0, bytes.length);
        summary.putLong(summaryLength, offset);
        summary.putInt(summaryLength + 8, total + 4);
        summaryLength += 24 + summary.getInt(summaryLength + 20);
        blockCount++;
        blockEntries = 0;
        blockLength = 0;
    }

    private void freeFilter() {
        if (filterMemory != null) {
            filterAllocator.free(filterMemory);
            filterMemory = null;
        }
    }

    /** Completes the SSTable and returns the paths of its components (final names); frees the filter. */
    public List<Path> finish() throws IOException {
        try {
            return doFinish();
        } finally {
            freeFilter();
        }
    }

    private List<Path> doFinish() throws IOException {
        flushChunk();
        flushBlock();
        // data: offsets table + trailer
        long offsetsPosition = data.position();
        ByteBuffer t = ByteBuffer.allocate(chunkOffsets.size() * 8 + DATA_TRAILER).order(ByteOrder.LITTLE_ENDIAN);
        for (long o : chunkOffsets) {
            t.putLong(o);
        }
        t.putLong(offsetsPosition).putInt(chunkOffsets.size()).putInt(compression.chunkLength())
                .put(compression.algorithm()).putLong(uncompressed);
        int crc = Crc.crc32(t.array(), 0, t.position());
        t.putInt(crc).putInt(FOOTER_MAGIC);
        data.write(t.array(), 0, t.position());
        data.finish();
        // index: summary + trailer
        summary.putInt(0, blockCount);
        long summaryPosition = index.position();
        byte[] s = new byte[summaryLength];
        summary.getBytes(0, s);
        index.write(s, 0, s.length);
        index.writeLong(summaryPosition);
        index.writeInt(summaryLength);
        index.writeInt(Crc.crc32(s, 0, s.length));
        index.writeInt(FOOTER_MAGIC);
        index.finish();
        // filter
        try (FileOutput f = new FileOutput(tmp(COMPONENTS[2]))) {
            f.writeHeader(COMPONENT_FILTER, generation);
            f.writeInt(filter.hashCount());
            f.writeInt(filter.wordCount());
            for (int i = 0, n = filter.wordCount(); i < n; i++) {
                f.writeLong(filter.word(i));
            }
            f.writeInt(f.crcSoFar());
            f.writeInt(FOOTER_MAGIC);
            f.finish();
        }
        // statistics
        try (FileOutput f = new FileOutput(tmp(COMPONENTS[3]))) {
            f.writeHeader(COMPONENT_STATS, generation);
            f.writeLong(partitions);
            f.writeLong(rows);
            f.writeLong(minTs);
            f.writeLong(maxTs);
            f.writeLong(tombstones);
            f.writeLong(minToken);
            f.writeInt(minKey == null ? 0 : minKey.length);
            if (minKey != null) {
                f.write(minKey, 0, minKey.length);
            }
            f.writeLong(maxToken);
            f.writeInt(maxKey == null ? 0 : maxKey.length);
            if (maxKey != null) {
                f.write(maxKey, 0, maxKey.length);
            }
            f.writeInt(shardId);
            f.writeInt(shardCount);
            f.writeLong(uncompressed);
            f.writeInt(level);
            writeCounts(f, partitionSizes.counts());
            writeCounts(f, cellCounts.counts());
            f.writeInt(f.crcSoFar());
            f.writeInt(FOOTER_MAGIC);
            f.finish();
        }
        // TOC
        Path toc = tmp(COMPONENTS[4]);
        try (FileChannel ch = FileChannel.open(toc, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(String.join("\n", COMPONENTS).concat("\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        List<Path> finals = new ArrayList<>();
        for (String c : COMPONENTS) {
            Path target = dir.resolve(fileName(generation, c));
            Files.move(tmp(c), target, StandardCopyOption.ATOMIC_MOVE);
            finals.add(target);
        }
        syncDirectory(dir);
        done = true;
        return finals;
    }

    private static void writeCounts(FileOutput f, long[] counts) throws IOException {
        f.writeInt(counts.length);
        for (long c : counts) {
            f.writeLong(c);
        }
    }

    public void abort() {
        freeFilter();
        if (done) {
            return;
        }
        try {
            data.close();
            index.close();
        } catch (IOException ignored) {
            // best effort
        }
        for (String c : COMPONENTS) {
            try {
                Files.deleteIfExists(tmp(c));
                Files.deleteIfExists(dir.resolve(fileName(generation, c)));
            } catch (IOException ignored) {
                // best effort; startup cleanup removes leftovers
            }
        }
    }

    public static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // not supported on every platform
        }
    }

    static UnsafeBuffer wrap(byte[] b) {
        return new UnsafeBuffer(b);
    }
}
