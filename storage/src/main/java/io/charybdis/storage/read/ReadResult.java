package io.charybdis.storage.read;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Rows;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The live data a read returns, after reconciliation: no tombstones, no expired cells, in one compact buffer
 * read with a flyweight {@link Cursor}.
 *
 * <pre>
 * entries, back to back:
 *   'P' long token, int keyLength, key bytes     a partition; its rows follow
 *   'R' row record ({@link io.charybdis.storage.mutation.MutationLayout}; static row first, deletion = none,
 *       marker timestamp = MIN when the row has no live marker, only live selected cells)
 *   'E'                                          end
 * </pre>
 *
 * <p>The bytes usually live in a pooled buffer ({@link ResultBuffers}); a consumer that is done with a result may
 * {@link #release()} it so that a later read reuses the memory instead of allocating in proportion to its rows.
 */
public final class ReadResult {
    static final byte PARTITION = 'P';
    static final byte ROW = 'R';
    static final byte END = 'E';

    private static final byte[] RELEASED = new byte[0];

    private final UnsafeBuffer buffer;
    private final int partitionCount;
    private final int rowCount;
    private final boolean limitReached;
    private final long lastToken;
    private final byte[] lastKey;
    private final byte[] lastClustering;
    private int liveRowsScanned;
    private int tombstonesScanned;
    private long lastScannedToken = Long.MIN_VALUE;
    /** The pooled buffer the bytes live in, given back by {@link #release()}; null when not pooled. */
    private ExpandableArrayBuffer pooled;

    ReadResult(byte[] bytes, int partitionCount, int rowCount, boolean limitReached, long lastToken,
               byte[] lastKey, byte[] lastClustering) {
        this(null, bytes, bytes.length, partitionCount, rowCount, limitReached, lastToken, lastKey, lastClustering);
    }

    ReadResult(ExpandableArrayBuffer pooled, byte[] bytes, int length, int partitionCount, int rowCount,
               boolean limitReached, long lastToken, byte[] lastKey, byte[] lastClustering) {
        this.pooled = pooled;
        this.buffer = new UnsafeBuffer(bytes, 0, length);
        this.partitionCount = partitionCount;
        this.rowCount = rowCount;
        this.limitReached = limitReached;
        this.lastToken = lastToken;
        this.lastKey = lastKey;
        this.lastClustering = lastClustering;
    }

    void scanned(int liveRows, int tombstones, long lastToken) {
        this.liveRowsScanned = liveRows;
        this.tombstonesScanned = tombstones;
        this.lastScannedToken = lastToken;
    }

    /** Rows with live data the read went through (returned or not: filtered out by limits, columns are not). */
    public int liveRowsScanned() {
        return liveRowsScanned;
    }

    /** Tombstones the read went through, counted as Cassandra does for tombstone_warn_threshold. */
    public int tombstonesScanned() {
        return tombstonesScanned;
    }

    /** The token of the last partition the read went through; Long.MIN_VALUE when none. */
    public long lastScannedToken() {
        return lastScannedToken;
    }

    public static ReadResult empty() {
        return new ReadResult(new byte[] {END}, 0, 0, false, 0, null, null);
    }

    /**
     * Optional: says that nothing reads this result any more (no cursor, and no buffer over {@link Cursor#array()}),
     * so that its memory can serve a later read. Reading it afterwards fails (or, with views kept over its array,
     * reads another read's data). Idempotent; without it the memory is simply garbage collected.
     */
    public void release() {
        ExpandableArrayBuffer b = pooled;
        if (b != null) {
            pooled = null;
            buffer.wrap(RELEASED);
            ResultBuffers.release(b);
        }
    }

    public Cursor cursor() {
        return new Cursor(buffer);
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** Rows counted against the limit (live regular rows; a static-only partition counts as one). */
    public int rowCount() {
        return rowCount;
    }

    /** True when a row or partition limit stopped the read: there may be more data after {@link #lastKey()}. */
    public boolean limitReached() {
        return limitReached;
    }

    public boolean isExhausted() {
        return !limitReached;
    }

    public boolean isEmpty() {
        return partitionCount == 0;
    }

    public long lastToken() {
        return lastToken;
    }

    /** Key of the partition of the last returned row, null if nothing was returned. */
    public byte[] lastKey() {
        return lastKey == null ? null : lastKey.clone();
    }

    /** Clustering of the last returned row; null when it was a static-only partition (resume after it). */
    public byte[] lastClustering() {
        return lastClustering == null ? null : lastClustering.clone();
    }

    /** The resume point to pass as {@code startAfter} for the next page, null if nothing was returned. */
    public ReadCommand.ResumePoint resumePoint() {
        return lastKey == null ? null : new ReadCommand.ResumePoint(lastToken, lastKey, lastClustering);
    }

    public int serializedSize() {
        return buffer.capacity();
    }

    DirectBuffer buffer() {
        return buffer;
    }

    /** Copies the result's bytes (the {@link ResultWriter} layout) into {@code dst} at {@code offset}. */
    void copyBytes(byte[] dst, int offset) {
        buffer.getBytes(0, dst, offset, buffer.capacity());
    }

    /** Flyweight iterator: nextPartition, then nextRow, then nextCell. */
    public static final class Cursor {
        private final DirectBuffer b;
        private int pos;
        private int partition = -1;
        private int row = -1;
        private int cell = -1;
        private int cellsLeft;

        Cursor(DirectBuffer b) {
            this.b = b;
        }

        /**
         * The heap array holding the result: every offset this cursor gives ({@link #keyOffset()},
         * {@link #clusteringOffset()}, {@link #valueOffset()}, {@link #pathOffset()}) is an index into it, so callers
         * may read values in place (e.g. through a reused {@link ByteBuffer} view) instead of copying them. Valid
         * until the result is {@linkplain ReadResult#release() released}.
         */
        public byte[] array() {
            return b.byteArray();
        }

        public boolean nextPartition() {
            while (true) {
                byte tag = b.getByte(pos);
                if (tag == END) {
                    partition = -1;
                    row = -1;
                    return false;
                }
                if (tag == PARTITION) {
                    partition = pos + 1;
                    pos = partition + 12 + b.getInt(partition + 8);
                    row = -1;
                    cell = -1;
                    return true;
                }
                pos = pos + 1 + Rows.length(b, pos + 1);
            }
        }

        public long token() {
            return b.getLong(partition);
        }

        public DirectBuffer keyBuffer() {
            return b;
        }

        public int keyOffset() {
            return partition + 12;
        }

        public int keyLength() {
            return b.getInt(partition + 8);
        }

        public byte[] keyBytes() {
            byte[] k = new byte[keyLength()];
            b.getBytes(keyOffset(), k);
            return k;
        }

        public boolean nextRow() {
            if (b.getByte(pos) != ROW) {
                row = -1;
                return false;
            }
            row = pos + 1;
            pos = row + Rows.length(b, row);
            cell = -1;
            cellsLeft = Rows.cellCount(b, row);
            return true;
        }

        public boolean isStatic() {
            return Rows.isStatic(b, row);
        }

        public DirectBuffer clusteringBuffer() {
            return b;
        }

        public int clusteringOffset() {
            return Rows.clusteringOffset(row);
        }

        public int clusteringLength() {
            return Rows.clusteringLength(b, row);
        }

        public byte[] clusteringBytes() {
            byte[] c = new byte[clusteringLength()];
            b.getBytes(clusteringOffset(), c);
            return c;
        }

        /** Timestamp of the live row marker, Long.MIN_VALUE if none. */
        public long rowTimestamp() {
            return b.getLong(row + R_MARKER_TS);
        }

        public int rowTtl() {
            return b.getInt(row + R_MARKER_TTL);
        }

        public int rowLocalExpirationTime() {
            return b.getInt(row + R_MARKER_LET);
        }

        public int cellCount() {
            return Rows.cellCount(b, row);
        }

        public boolean nextCell() {
            if (cellsLeft == 0) {
                return false;
            }
            cell = cell < 0 ? Rows.firstCellOffset(b, row) : cell + Cells.length(b, cell);
            cellsLeft--;
            return true;
        }

        public int columnId() {
            return Cells.column(b, cell);
        }

        public boolean hasPath() {
            return (Cells.flags(b, cell) & FLAG_HAS_PATH) != 0;
        }

        /**
         * Whether the current cell is the row's written clustering (see
         * {@link io.charybdis.storage.mutation.MutationLayout}), not a column's.
         */
        public boolean isWrittenClustering() {
            return Cells.isWrittenClustering(b, cell);
        }

        public DirectBuffer pathBuffer() {
            return b;
        }

        public int pathOffset() {
            return cell + C_PATH;
        }

        public int pathLength() {
            return Cells.pathLength(b, cell);
        }

        public byte[] pathBytes() {
            byte[] p = new byte[pathLength()];
            b.getBytes(pathOffset(), p);
            return p;
        }

        public long timestamp() {
            return Cells.timestamp(b, cell);
        }

        public int ttl() {
            return Cells.ttl(b, cell);
        }

        /** Expiration time in seconds of an expiring cell; Integer.MAX_VALUE when the cell does not expire. */
        public int localExpirationTime() {
            return Cells.localDeletionTime(b, cell);
        }

        public DirectBuffer valueBuffer() {
            return b;
        }

        public int valueOffset() {
            return Cells.valueOffset(b, cell);
        }

        public int valueLength() {
            return Cells.valueLength(b, cell);
        }

        public byte[] valueBytes() {
            byte[] v = new byte[valueLength()];
            b.getBytes(valueOffset(), v);
            return v;
        }

        /** Copies the value into dst at its position (advancing it). */
        public void copyValue(ByteBuffer dst) {
            int len = valueLength();
            b.getBytes(valueOffset(), dst, dst.position(), len);
            dst.position(dst.position() + len);
        }

        public ByteBuffer value() {
            return ByteBuffer.wrap(valueBytes());
        }
    }
}
