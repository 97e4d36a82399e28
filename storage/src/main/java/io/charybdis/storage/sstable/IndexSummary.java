package io.charybdis.storage.sstable;

import io.charybdis.storage.util.ByteComparables;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The index summary of an open SSTable, off-heap: the first key of every index block, binary searched to pick the
 * one block a lookup reads. A flyweight over one buffer that {@link SSTableReader} fills from the index file and
 * frees with the reader.
 *
 * <pre>
 *   0                                S = summaryLength                S + 4 * blockCount
 *   +--------------------------------+--------------------------------+
 *   | summary, byte for byte as in   | int entryOffset[blockCount]    |  (built at load; offsets into
 *   | cb-N-Index.db                  |                                |   the summary part)
 *   +--------------------------------+--------------------------------+
 *   summary: int blockCount, then per block an entry
 *     0 long blockOffset   8 int blockLength   12 long firstToken   20 int firstKeyLength   24 first key bytes
 * </pre>
 */
final class IndexSummary {
    static final int E_OFFSET = 0;
    static final int E_LENGTH = 8;
    static final int E_TOKEN = 12;
    static final int E_KEY_LENGTH = 20;
    static final int E_KEY = 24;

    private final UnsafeBuffer buffer;
    private final int blocks;
    private final int table;

    /** Indexes a summary of {@code length} bytes at the start of {@code buffer} (capacity length + 4 * blocks). */
    IndexSummary(UnsafeBuffer buffer, int length, Path file) {
        this.buffer = buffer;
        this.blocks = buffer.getInt(0);
        this.table = length;
        if (blocks < 0 || buffer.capacity() < length + 4L * blocks) {
            throw new CorruptSSTableException(file, "bad summary blockCount=" + blocks);
        }
        int p = 4;
        for (int i = 0; i < blocks; i++) {
            if (p + E_KEY > length || buffer.getInt(p + E_KEY_LENGTH) < 0
                    || p + E_KEY + buffer.getInt(p + E_KEY_LENGTH) > length) {
                throw new CorruptSSTableException(file, "summary entry out of range block=" + i);
            }
            buffer.putInt(table + 4 * i, p);
            p += E_KEY + buffer.getInt(p + E_KEY_LENGTH);
        }
    }

    /** Bytes the summary part takes before the offset table, given its block count. */
    static int capacity(int summaryLength, int blockCount) {
        return summaryLength + 4 * blockCount;
    }

    int blockCount() {
        return blocks;
    }

    private int entry(int i) {
        return buffer.getInt(table + 4 * i);
    }

    /** The token of block i's first key. */
    long firstToken(int i) {
        return buffer.getLong(entry(i) + E_TOKEN);
    }

    long blockOffset(int i) {
        return buffer.getLong(entry(i) + E_OFFSET);
    }

    int blockLength(int i) {
        return buffer.getInt(entry(i) + E_LENGTH);
    }

    /** Sign of (first key of block i) - (token, key). */
    int compare(int i, long token, byte[] key) {
        int e = entry(i);
        int c = Long.compare(buffer.getLong(e + E_TOKEN), token);
        return c != 0 ? c : ByteComparables.compare(buffer, e + E_KEY, buffer.getInt(e + E_KEY_LENGTH), key);
    }

    /** Index of the last block whose first key is <= (token, key), -1 if none. */
    int findBlock(long token, byte[] key) {
        int lo = 0;
        int hi = blocks - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, token, key) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
