package io.charybdis.storage.sstable;

import static io.charybdis.storage.sstable.SSTableFormat.*;

import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.util.ByteComparables;
import io.charybdis.storage.util.Crc;
import io.charybdis.storage.util.EstimatedHistogram;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read access to one SSTable; thread-safe (positional reads), used from I/O threads. Opening verifies the
 * checksums of the small components (statistics, filter, index summary, chunk offsets); index blocks and data
 * chunks are verified on every read. A reader whose files failed to open stays registered "corrupt": reads
 * that may touch it (key in its range when known, otherwise any) fail with {@link CorruptSSTableException}.
 *
 * <p>Lifetime: reference counted. The owning shard holds one reference; readers and compactions acquire more.
 * When the count drops to zero the files are closed, and deleted if the SSTable was marked obsolete.
 */
public final class SSTableReader implements io.charybdis.storage.compaction.CompactionSSTable {
    private static final Logger LOG = LoggerFactory.getLogger(SSTableReader.class);

    private final Path dir;
    private final long generation;
    private final AtomicInteger refs = new AtomicInteger(1);
    private volatile boolean obsolete;
    private volatile Runnable afterDelete;
    private volatile int level;
    private long createdAtMillis;
    private CorruptSSTableException failure;
    private SSTableStats stats;
    private BloomFilter filter;
    private FileChannel dataChannel;
    private FileChannel indexChannel;
    private final ShardAllocator allocator;
    private UnsafeBuffer filterMemory;
    private UnsafeBuffer summaryMemory;
    private UnsafeBuffer offsetsMemory;
    private int chunkCount;
    private IndexSummary summary;
    private long offsetsPosition;
    private int chunkLength;
    private byte compressor;
    private long onDiskBytes;

    private SSTableReader(Path dir, long generation, ShardAllocator allocator) {
        this.dir = dir;
        this.generation = generation;
        this.allocator = allocator;
    }

    /**
     * Opens an SSTable; never throws for corruption (see class notes), only for plain I/O failures. The Bloom
     * filter, index summary and chunk offsets are loaded into off-heap memory from {@code allocator}, given back
     * when the last reference is released.
     */
    public static SSTableReader open(Path dir, long generation, ShardAllocator allocator) {
        SSTableReader r = new SSTableReader(dir, generation, allocator);
        try {
            r.load();
        } catch (CorruptSSTableException e) {
            LOG.error("sstable unreadable, reads touching it will fail: {}", e.getMessage());
            r.failure = e;
            r.closeChannels();
            r.freeMemory();
        } catch (IOException | RuntimeException e) {
            r.failure = new CorruptSSTableException(r.path(COMPONENTS[0]), "open failed: " + e, e);
            LOG.error("sstable unreadable, reads touching it will fail: {}", r.failure.getMessage());
            r.closeChannels();
            r.freeMemory();
        }
        return r;
    }

    public Path path(String component) {
        return dir.resolve(fileName(generation, component));
    }

    @Override
    public long generation() {
        return generation;
    }

    public List<Path> files() {
        List<Path> l = new ArrayList<>();
        for (String c : COMPONENTS) {
            l.add(path(c));
        }
        return l;
    }

    private static ByteBuffer readAll(FileChannel ch, long pos, int len, Path p) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            int n = ch.read(b, pos + b.position());
            if (n < 0) {
                throw new CorruptSSTableException(p, "unexpected end of file at " + (pos + b.position()));
            }
        }
        b.flip();
        return b;
    }

    /** Reads {@code len} bytes at {@code pos} into the start of an off-heap buffer. */
    private static void readFully(FileChannel ch, long pos, UnsafeBuffer into, int len, Path p) throws IOException {
        ByteBuffer b = into.byteBuffer().duplicate().clear().limit(len);
        while (b.hasRemaining()) {
            int n = ch.read(b, pos + b.position());
            if (n < 0) {
                throw new CorruptSSTableException(p, "unexpected end of file at " + (pos + b.position()));
            }
        }
    }

    private static int crc32(UnsafeBuffer b, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(b.byteBuffer().duplicate().clear().position(offset).limit(offset + length));
        return (int) crc.getValue();
    }

    /** The filter file, whole, in off-heap memory; the filter is a view of its words. */
    private void loadFilter() throws IOException {
        Path p = path(COMPONENTS[2]);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < HEADER_SIZE + 16 || size > Integer.MAX_VALUE) {
                throw new CorruptSSTableException(p, "bad filter size=" + size);
            }
            int n = (int) size;
            filterMemory = allocator.allocate(n);
            readFully(ch, 0, filterMemory, n, p);
            checkHeader(filterMemory.byteBuffer().duplicate().clear().order(ByteOrder.LITTLE_ENDIAN), p, COMPONENT_FILTER);
            if (filterMemory.getInt(n - 4) != FOOTER_MAGIC || filterMemory.getInt(n - 8) != crc32(filterMemory, 0, n - 8)) {
                throw new CorruptSSTableException(p, "footer checksum mismatch");
            }
            int hashCount = filterMemory.getInt(HEADER_SIZE);
            int words = filterMemory.getInt(HEADER_SIZE + 4);
            if (words <= 0 || HEADER_SIZE + 8 + 8L * words + 8 != n || hashCount <= 0) {
                throw new CorruptSSTableException(p, "bad filter words=" + words + " hashCount=" + hashCount);
            }
            filter = new BloomFilter(filterMemory, HEADER_SIZE + 8, words, hashCount);
        }
    }

    /** Gives the off-heap components back; readers must hold no reference any more. */
    private synchronized void freeMemory() {
        filter = null;
        summary = null;
        chunkCount = 0;
        if (filterMemory != null) {
            allocator.free(filterMemory);
            filterMemory = null;
        }
        if (summaryMemory != null) {
            allocator.free(summaryMemory);
            summaryMemory = null;
        }
        if (offsetsMemory != null) {
            allocator.free(offsetsMemory);
            offsetsMemory = null;
        }
    }

    /** Checks the common header; returns the file's layout version (1 up to {@link SSTableFormat#version}). */
    private int checkHeader(ByteBuffer b, Path p, int component) {
        if (b.remaining() < HEADER_SIZE || b.getInt(0) != MAGIC) {
            throw new CorruptSSTableException(p, "bad magic");
        }
        int version = b.getInt(4);
        if (version < 1 || version > SSTableFormat.version(component)) {
            throw new CorruptSSTableException(p, "unsupported format version=" + version
                    + " (this build reads 1 to " + SSTableFormat.version(component) + ")");
        }
        if (b.getInt(8) != component || b.getLong(12) != generation) {
            throw new CorruptSSTableException(p, "header names component=" + b.getInt(8) + " generation=" + b.getLong(12));
        }
        return version;
    }

    /** Reads a small file whole and checks header and the whole-file CRC footer. */
    private ByteBuffer readChecked(Path p, int component) throws IOException {
        byte[] all = Files.readAllBytes(p);
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        checkHeader(b, p, component);
        int n = all.length;
        if (n < HEADER_SIZE + 8 || b.getInt(n - 4) != FOOTER_MAGIC || b.getInt(n - 8) != Crc.crc32(all, 0, n - 8)) {
            throw new CorruptSSTableException(p, "footer checksum mismatch");
        }
        b.position(HEADER_SIZE);
        b.limit(n - 8);
        return b;
    }

    private static long[] readCounts(ByteBuffer s, int expected, Path p) {
        int n = s.getInt();
        if (n != expected) {
            throw new CorruptSSTableException(p, "bad histogram countLength=" + n + " expected=" + expected);
        }
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = s.getLong();
            if (counts[i] < 0) {
                throw new CorruptSSTableException(p, "negative histogram count at bucket=" + i);
            }
        }
        return counts;
    }

    private void load() throws IOException {
        Path statsPath = path(COMPONENTS[3]);
        ByteBuffer s = readChecked(statsPath, COMPONENT_STATS);
        long partitions = s.getLong();
        long rows = s.getLong();
        long minTs = s.getLong();
        long maxTs = s.getLong();
        long tombstones = s.getLong();
        long minToken = s.getLong();
        byte[] minKey = new byte[s.getInt()];
        s.get(minKey);
        long maxToken = s.getLong();
        byte[] maxKey = new byte[s.getInt()];
        s.get(maxKey);
        int shardId = s.getInt();
        int shardCount = s.getInt();
        long uncompressedLength = s.getLong();
        int sstableLevel = s.getInt();
        long[] partitionSizes;
        long[] cellCounts;
        if (s.getInt(4) >= 2) {
            partitionSizes = readCounts(s, EstimatedHistogram.PARTITION_SIZE_OFFSETS + 1, statsPath);
            cellCounts = readCounts(s, EstimatedHistogram.CELL_COUNT_OFFSETS + 1, statsPath);
        } else { // written before the histograms were kept
            partitionSizes = new long[EstimatedHistogram.PARTITION_SIZE_OFFSETS + 1];
            cellCounts = new long[EstimatedHistogram.CELL_COUNT_OFFSETS + 1];
        }
        if (s.hasRemaining()) {
            throw new CorruptSSTableException(statsPath, "statistics longer than their fields, extra=" + s.remaining());
        }
        stats = new SSTableStats(partitions, rows, minTs, maxTs, tombstones, minToken, minKey, maxToken, maxKey,
                shardId, shardCount, uncompressedLength, sstableLevel, partitionSizes, cellCounts);

        loadFilter();

        Path dataPath = path(COMPONENTS[0]);
        dataChannel = FileChannel.open(dataPath, StandardOpenOption.READ);
        long dataSize = dataChannel.size();
        if (dataSize < HEADER_SIZE + DATA_TRAILER) {
            throw new CorruptSSTableException(dataPath, "file too short size=" + dataSize);
        }
        checkHeader(readAll(dataChannel, 0, HEADER_SIZE, dataPath), dataPath, COMPONENT_DATA);
        ByteBuffer tr = readAll(dataChannel, dataSize - DATA_TRAILER, DATA_TRAILER, dataPath);
        offsetsPosition = tr.getLong(0);
        int chunkCount = tr.getInt(8);
        chunkLength = tr.getInt(12);
        compressor = tr.get(16);
        if (tr.getInt(29) != FOOTER_MAGIC || offsetsPosition != dataSize - DATA_TRAILER - 8L * chunkCount || chunkCount < 0) {
            throw new CorruptSSTableException(dataPath, "bad trailer");
        }
        int offsLength = 8 * chunkCount + DATA_TRAILER;
        offsetsMemory = allocator.allocate(offsLength);
        readFully(dataChannel, offsetsPosition, offsetsMemory, offsLength, dataPath);
        if (crc32(offsetsMemory, 0, offsLength - 8) != offsetsMemory.getInt(offsLength - 8)) {
            throw new CorruptSSTableException(dataPath, "chunk offsets checksum mismatch");
        }
        this.chunkCount = chunkCount;

        Path indexPath = path(COMPONENTS[1]);
        indexChannel = FileChannel.open(indexPath, StandardOpenOption.READ);
        long indexSize = indexChannel.size();
        if (indexSize < HEADER_SIZE + INDEX_TRAILER) {
            throw new CorruptSSTableException(indexPath, "file too short size=" + indexSize);
        }
        checkHeader(readAll(indexChannel, 0, HEADER_SIZE, indexPath), indexPath, COMPONENT_INDEX);
        ByteBuffer it = readAll(indexChannel, indexSize - INDEX_TRAILER, INDEX_TRAILER, indexPath);
        long summaryPosition = it.getLong(0);
        int summaryLength = it.getInt(8);
        if (it.getInt(16) != FOOTER_MAGIC || summaryPosition + summaryLength != indexSize - INDEX_TRAILER || summaryLength < 4) {
            throw new CorruptSSTableException(indexPath, "bad trailer");
        }
        int blocks = readAll(indexChannel, summaryPosition, 4, indexPath).getInt(0);
        if (blocks < 0 || blocks > summaryLength / IndexSummary.E_KEY) {
            throw new CorruptSSTableException(indexPath, "bad summary blockCount=" + blocks);
        }
        summaryMemory = allocator.allocate(IndexSummary.capacity(summaryLength, blocks));
        readFully(indexChannel, summaryPosition, summaryMemory, summaryLength, indexPath);
        if (crc32(summaryMemory, 0, summaryLength) != it.getInt(12)) {
            throw new CorruptSSTableException(indexPath, "summary checksum mismatch");
        }
        summary = new IndexSummary(summaryMemory, summaryLength, indexPath);
        onDiskBytes = dataSize + indexSize + Files.size(path(COMPONENTS[2])) + Files.size(path(COMPONENTS[3]));
        level = stats.level();
        createdAtMillis = Files.getLastModifiedTime(path(COMPONENTS[4])).toMillis();
    }

    public boolean isCorrupt() {
        return failure != null;
    }

    public SSTableStats stats() {
        return stats;
    }

    public long partitionCount() {
        return stats == null ? 0 : stats.partitionCount();
    }

    @Override
    public long onDiskBytes() {
        return onDiskBytes;
    }

    @Override
    public long minTimestamp() {
        return stats == null ? Long.MIN_VALUE : stats.minTimestamp();
    }

    @Override
    public long maxTimestamp() {
        return stats == null ? Long.MAX_VALUE : stats.maxTimestamp();
    }

    @Override
    public int level() {
        return level;
    }

    @Override
    public void level(int newLevel) {
        level = newLevel;
    }

    @Override
    public long minToken() {
        return stats == null ? Long.MIN_VALUE : stats.minToken();
    }

    @Override
    public byte[] minKey() {
        return stats == null ? new byte[0] : stats.minKey();
    }

    @Override
    public long maxToken() {
        return stats == null ? Long.MAX_VALUE : stats.maxToken();
    }

    @Override
    public byte[] maxKey() {
        return stats == null ? new byte[0] : stats.maxKey();
    }

    @Override
    public long rowCount() {
        return stats == null ? 0 : stats.rowCount();
    }

    @Override
    public long tombstoneCount() {
        return stats == null ? 0 : stats.tombstoneCount();
    }

    @Override
    public long createdAtMillis() {
        return createdAtMillis;
    }

    /** Bytes of partition records (uncompressed), the unit of compaction progress. */
    public long uncompressedLength() {
        return stats == null ? 0 : stats.uncompressedLength();
    }

    /** Whether the shard that wrote this SSTable matches the current layout (else every shard reads it filtered). */
    public boolean ownedBy(int shard, int shardCount) {
        return stats != null && stats.shardCount() == shardCount && stats.shardId() == shard;
    }

    /** Cheap in-memory check (key range and Bloom filter); corrupt readers answer true within their range. */
    public boolean mayContain(long token, byte[] key) {
        if (stats == null) {
            return true;
        }
        if (stats.partitionCount() == 0
                || DecoratedKey.compare(token, key, stats.minToken(), stats.minKey()) < 0
                || DecoratedKey.compare(token, key, stats.maxToken(), stats.maxKey()) > 0) {
            return false;
        }
        return failure != null || filter.mightContain(token);
    }

    /**
     * Estimated number of this SSTable's partitions whose token lies in (fromExclusive, toInclusive], from its index
     * summary alone (no I/O): each index block holds an equal share of the partitions, spread evenly over the tokens
     * from its first key's to the next block's first (the last block: to the SSTable's last token). The estimates of
     * ranges that cover the ring add up to the partition count. 0 for a corrupt SSTable.
     */
    public double estimatedPartitions(long fromExclusive, long toInclusive) {
        IndexSummary s = summary;
        if (stats == null || s == null || failure != null || stats.partitionCount() == 0 || s.blockCount() == 0) {
            return 0;
        }
        int blocks = s.blockCount();
        double perBlock = (double) stats.partitionCount() / blocks;
        double total = 0;
        for (int i = 0; i < blocks; i++) {
            long lo = s.firstToken(i);
            long hi = i + 1 < blocks ? s.firstToken(i + 1) : stats.maxToken();
            total += perBlock * share(lo, hi, fromExclusive, toInclusive);
        }
        return total;
    }

    /** The share of the tokens [lo, hi] that lies in (from, to], taking the tokens as evenly spread. */
    static double share(long lo, long hi, long from, long to) {
        if (hi <= lo) {
            return lo > from && lo <= to ? 1 : 0;
        }
        double a = Math.max((double) lo, (double) from);
        double b = Math.min((double) hi, (double) to);
        return b <= a ? 0 : (b - a) / ((double) hi - (double) lo);
    }

    /** Whether the SSTable may hold keys in [from, to] (null = unbounded). */
    public boolean overlaps(long fromToken, long toToken) {
        if (stats == null) {
            return true;
        }
        return stats.partitionCount() > 0 && stats.maxToken() >= fromToken && stats.minToken() <= toToken;
    }

    private void checkUsable() {
        if (failure != null) {
            throw failure;
        }
    }

    /** The partition record of (token, key), or null if absent. I/O thread only. */
    public byte[] readPartition(long token, byte[] key) {
        checkUsable();
        int b = findBlock(token, key);
        if (b < 0) {
            return null;
        }
        ByteBuffer block = readBlock(b);
        int n = block.getInt(0);
        int p = 8;
        for (int i = 0; i < n; i++) {
            long t = block.getLong(p);
            int kl = block.getInt(p + 8);
            int c = Long.compare(t, token);
            if (c == 0) {
                c = java.util.Arrays.compareUnsigned(block.array(), p + 12, p + 12 + kl, key, 0, key.length);
            }
            if (c == 0) {
                long pos = block.getLong(p + 12 + kl);
                int len = block.getInt(p + 20 + kl);
                return readData(pos, len, new ChunkCache(), token, key);
            }
            if (c > 0) {
                return null;
            }
            p += 24 + kl;
        }
        return null;
    }

    /** Index of the last block whose first key is <= (token, key), -1 if none. */
    private int findBlock(long token, byte[] key) {
        return summary.findBlock(token, key);
    }

    private ByteBuffer readBlock(int b) {
        Path p = path(COMPONENTS[1]);
        try {
            long offset = summary.blockOffset(b);
            int len = summary.blockLength(b);
            if (len < 12 || offset < HEADER_SIZE) {
                throw new CorruptSSTableException(p, "bad summary entry block=" + b);
            }
            ByteBuffer block = readAll(indexChannel, offset, len, p);
            int payload = block.getInt(4);
            if (len < 12 || payload != len - 12 || Crc.crc32(block.array(), 0, len - 4) != block.getInt(len - 4)) {
                throw new CorruptSSTableException(p, "index block checksum mismatch block=" + b + " offset=" + offset);
            }
            return block;
        } catch (IOException e) {
            throw new CorruptSSTableException(p, "read failed: " + e, e);
        }
    }

    /** The last decompressed chunk, reused by sequential reads. */
    static final class ChunkCache {
        int index = -1;
        byte[] bytes;
        int length;
    }

    private byte[] readData(long pos, int len, ChunkCache cache, long token, byte[] key) {
        Path p = path(COMPONENTS[0]);
        if (len < 0 || pos < 0 || pos + len > stats.uncompressedLength()) {
            throw new CorruptSSTableException(p, "index entry out of range position=" + pos + " length=" + len);
        }
        byte[] out = new byte[len];
        int done = 0;
        while (done < len) {
            long at = pos + done;
            int ci = (int) (at / chunkLength);
            loadChunk(ci, cache, p);
            int within = (int) (at - (long) ci * chunkLength);
            int n = Math.min(len - done, cache.length - within);
            if (n <= 0) {
                throw new CorruptSSTableException(p, "chunk " + ci + " shorter than expected");
            }
            System.arraycopy(cache.bytes, within, out, done, n);
            done += n;
        }
        try {
            SerializedPartition sp = new SerializedPartition().wrap(new UnsafeBuffer(out), 0, true);
            if (sp.length() != len || (key != null && (sp.token() != token
                    || ByteComparables.compare(sp.keyBuffer(), sp.keyOffset(), sp.keyLength(), key) != 0))) {
                throw new IllegalArgumentException("partition at position=" + pos + " is not the indexed one");
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptSSTableException(p, e.getMessage(), e);
        }
        return out;
    }

    private void loadChunk(int ci, ChunkCache cache, Path p) {
        if (cache.index == ci) {
            return;
        }
        if (ci >= chunkCount) {
            throw new CorruptSSTableException(p, "chunk index out of range chunk=" + ci);
        }
        long start = offsetsMemory.getLong(8 * ci);
        long end = ci + 1 < chunkCount ? offsetsMemory.getLong(8 * (ci + 1)) : offsetsPosition;
        try {
            if (end - start < CHUNK_HEADER || end - start > CHUNK_HEADER + 2L * chunkLength + 1024) {
                throw new CorruptSSTableException(p, "bad chunk bounds chunk=" + ci);
            }
            ByteBuffer c = readAll(dataChannel, start, (int) (end - start), p);
            int stored = c.getInt(0);
            int rawLen = c.getInt(4);
            boolean raw = (rawLen & RAW_FLAG) != 0;
            int uncompressedLength = rawLen & ~RAW_FLAG;
            if (stored != end - start - CHUNK_HEADER || uncompressedLength > chunkLength || uncompressedLength < 0) {
                throw new CorruptSSTableException(p, "bad chunk header chunk=" + ci + " offset=" + start);
            }
            if (Crc.crc32(c.array(), CHUNK_HEADER, stored) != c.getInt(8)) {
                throw new CorruptSSTableException(p, "chunk checksum mismatch chunk=" + ci + " offset=" + start);
            }
            if (cache.bytes == null || cache.bytes.length < chunkLength) {
                cache.bytes = new byte[chunkLength];
            }
            if (raw || compressor == Compression.NONE) {
                System.arraycopy(c.array(), CHUNK_HEADER, cache.bytes, 0, stored);
            } else {
                byte[] src = new byte[stored];
                System.arraycopy(c.array(), CHUNK_HEADER, src, 0, stored);
                Compression.decompress(compressor, src, stored, cache.bytes, uncompressedLength);
            }
            cache.index = ci;
            cache.length = uncompressedLength;
        } catch (IOException e) {
            throw new CorruptSSTableException(p, "read failed: " + e, e);
        } catch (RuntimeException e) {
            if (e instanceof CorruptSSTableException ce) {
                throw ce;
            }
            throw new CorruptSSTableException(p, "chunk " + ci + " undecodable: " + e.getMessage(), e);
        }
    }

    /**
     * Sequential scan of partitions from a position (inclusive, null = first). I/O thread only.
     */
    public Scanner scanner(long fromToken, byte[] fromKey) {
        checkUsable();
        return new Scanner(fromToken, fromKey);
    }

    public Scanner scanner() {
        checkUsable();
        return new Scanner(Long.MIN_VALUE, null);
    }

    public final class Scanner {
        private final ChunkCache cache = new ChunkCache();
        private int block;
        private ByteBuffer current;
        private int remaining;
        private int pos;
        private long token;
        private byte[] key;
        private long dataPos;
        private int dataLen;

        Scanner(long fromToken, byte[] fromKey) {
            byte[] k = fromKey == null ? new byte[0] : fromKey;
            block = fromKey == null && fromToken == Long.MIN_VALUE ? 0 : Math.max(0, findBlock(fromToken, k));
            while (next()) {
                if (DecoratedKey.compare(token, key, fromToken, k) >= 0) {
                    pending = true;
                    break;
                }
            }
        }

        private boolean pending;
        private boolean exhausted;

        /** Advances to the next partition; false at the end. */
        public boolean advance() {
            if (pending) {
                pending = false;
                return !exhausted;
            }
            return next();
        }

        private boolean next() {
            while (remaining == 0) {
                if (block >= summary.blockCount()) {
                    exhausted = true;
                    return false;
                }
                current = readBlock(block++);
                remaining = current.getInt(0);
                pos = 8;
            }
            token = current.getLong(pos);
            int kl = current.getInt(pos + 8);
            key = new byte[kl];
            current.get(pos + 12, key);
            dataPos = current.getLong(pos + 12 + kl);
            dataLen = current.getInt(pos + 20 + kl);
            pos += 24 + kl;
            remaining--;
            return true;
        }

        public long token() {
            return token;
        }

        public byte[] key() {
            return key;
        }

        public byte[] partition() {
            return readData(dataPos, dataLen, cache, token, key);
        }
    }

    public boolean acquire() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    public void release() {
        if (refs.decrementAndGet() == 0) {
            closeChannels();
            freeMemory();
            if (obsolete) {
                deleteFiles();
                Runnable r = afterDelete;
                if (r != null) {
                    r.run();
                }
            }
        }
    }

    /** Marks the files for deletion once the last reference is released. */
    public void markObsolete() {
        obsolete = true;
    }

    /** Marks the files for deletion once the last reference is released, then runs {@code afterDelete}. */
    public void markObsolete(Runnable afterDelete) {
        this.afterDelete = afterDelete;
        obsolete = true;
    }

    private void deleteFiles() {
        // TOC first: a crash midway leaves no TOC, and startup removes the rest
        for (int i = COMPONENTS.length - 1; i >= 0; i--) {
            try {
                Files.deleteIfExists(path(COMPONENTS[i]));
            } catch (IOException e) {
                LOG.warn("could not delete file={}: {}", path(COMPONENTS[i]), e.toString());
            }
        }
    }

    private void closeChannels() {
        try {
            if (dataChannel != null) {
                dataChannel.close();
            }
            if (indexChannel != null) {
                indexChannel.close();
            }
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public String toString() {
        return "SSTable{dir=" + dir + ", generation=" + generation + (failure != null ? ", corrupt" : "") + "}";
    }
}
