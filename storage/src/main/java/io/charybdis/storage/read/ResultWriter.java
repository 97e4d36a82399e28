package io.charybdis.storage.read;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.util.ByteComparables;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Turns reconciled partitions (tombstones already applied, see
 * {@link io.charybdis.storage.mutation.PartitionMerger}) into a {@link ReadResult}, keeping only live data and
 * applying slices, order, the resume point, the column filter and the limits of a {@link ReadCommand}. A returned
 * row keeps its written clustering cell (see {@link io.charybdis.storage.mutation.MutationLayout}), whatever the
 * column filter, so that the reader can show the clustering as written.
 */
public final class ResultWriter {
    private final ReadCommand cmd;
    /** Pooled (see {@link ResultBuffers}): the result's bytes stay in it, with no copy, until it is released. */
    private final ExpandableArrayBuffer out = ResultBuffers.acquire();
    private final UnsafeBuffer bound = new UnsafeBuffer(new byte[0]);
    private int pos;
    private int rows;
    private int partitions;
    private boolean limitReached;
    private long lastToken;
    /** Where the key of the last written partition header lies in {@link #out}; -1 when none yet. */
    private int lastKeyOffset = -1;
    private int lastKeyLength;
    /** Where the clustering of the last counted row lies in {@link #out}; -1 for none (static-only partition). */
    private int lastClusteringOffset = -1;
    private int lastClusteringLength;
    private boolean headerWritten;
    private int partitionStart;
    private int partitionRows;
    private DirectBuffer curKeyBuf;
    private int curKeyOff;
    private int curKeyLen;
    private long curToken;
    /** Tombstones scanned as Cassandra counts them: dead cells, deleted rows without them, range tombstone bounds. */
    private int tombstones;
    /** Rows scanned that had live data (whether or not they were returned). */
    private int liveRows;
    private long lastScannedToken = Long.MIN_VALUE;

    public ResultWriter(ReadCommand cmd) {
        this.cmd = cmd;
    }

    public boolean isFull() {
        return limitReached;
    }

    public int rows() {
        return rows;
    }

    /** Rows still wanted from the partition about to be added: the smaller of what the row and per-partition limits allow. */
    public int rowsWanted() {
        return limitReached ? 0 : Math.min(cmd.rowLimit() - rows, cmd.perPartitionLimit());
    }

    /** Whether the partition last added stopped at a limit (rows, partitions or its per-partition rows). */
    public boolean partitionStopped() {
        return limitReached || partitionRows >= cmd.perPartitionLimit();
    }

    private final int[] marked = new int[13];
    private long markedLastToken;
    private long markedLastScannedToken;

    /** Remembers the state before a partition is added, for {@link #reset}. */
    public void mark() {
        int[] m = marked;
        m[0] = pos;
        m[1] = rows;
        m[2] = partitions;
        m[3] = limitReached ? 1 : 0;
        m[4] = lastKeyOffset;
        m[5] = lastKeyLength;
        m[6] = lastClusteringOffset;
        m[7] = lastClusteringLength;
        m[8] = headerWritten ? 1 : 0;
        m[9] = partitionStart;
        m[10] = partitionRows;
        m[11] = tombstones;
        m[12] = liveRows;
        markedLastToken = lastToken;
        markedLastScannedToken = lastScannedToken;
    }

    /** Forgets what was added since {@link #mark} (the same partition is then added again, merged further). */
    public void reset() {
        int[] m = marked;
        pos = m[0];
        rows = m[1];
        partitions = m[2];
        limitReached = m[3] == 1;
        lastKeyOffset = m[4];
        lastKeyLength = m[5];
        lastClusteringOffset = m[6];
        lastClusteringLength = m[7];
        headerWritten = m[8] == 1;
        partitionStart = m[9];
        partitionRows = m[10];
        tombstones = m[11];
        liveRows = m[12];
        lastToken = markedLastToken;
        lastScannedToken = markedLastScannedToken;
    }

    /** Emits the live content of one reconciled partition. */
    public void addPartition(SerializedPartition p) {
        if (limitReached) {
            return;
        }
        int now = cmd.nowInSeconds();
        boolean resumeHere = cmd.resumesIn(p.token(), p.keyBuffer(), p.keyOffset(), p.keyLength());
        byte[] resume = resumeHere ? cmd.startAfter().clustering() : null;
        int n = p.rowCount();
        int staticIdx = (n > 0 && Rows.isStatic(p.rowBuffer(0), p.rowOffset(0))) ? 0 : -1;
        boolean staticLive = staticIdx == 0 && isLive(p.buffer(), p.rowOffset(0), now);
        int first = staticIdx + 1;
        lastScannedToken = p.token();
        if (staticIdx == 0) {
            countScanned(p.buffer(), p.rowOffset(0), now);
        }
        beginPartition(p);
        int perPartition = cmd.perPartitionLimit();
        int stoppedAt = -1;
        java.util.List<ReadCommand.Slice> slices = cmd.slices().isEmpty() ? java.util.List.of(ReadCommand.Slice.ALL) : cmd.slices();
        int sliceCount = slices.size();
        outer:
        for (int s = 0; s < sliceCount; s++) {
            ReadCommand.Slice slice = slices.get(cmd.reversed() ? sliceCount - 1 - s : s);
            int lo = slice.start() == null ? first : Math.max(first, lowerBound(p, slice.start()));
            int hi = slice.end() == null ? n : lowerBound(p, slice.end());
            if (resume != null) {
                int r = lowerBound(p, resume);
                if (cmd.reversed()) {
                    hi = Math.min(hi, r);
                } else {
                    boolean exact = r < n && Rows.compareClustering(p.buffer(), p.rowOffset(r), bound, 0, resume.length) == 0;
                    lo = Math.max(lo, exact ? r + 1 : r);
                }
            }
            for (int k = 0; k < hi - lo; k++) {
                int i = cmd.reversed() ? hi - 1 - k : lo + k;
                int ro = p.rowOffset(i);
                if (!countScanned(p.buffer(), ro, now)) {
                    continue;
                }
                if (!headerWritten) {
                    writeHeader();
                    if (staticLive) {
                        writeRow(p.buffer(), p.rowOffset(0), now);
                    }
                }
                int written = pos + 1;
                writeRow(p.buffer(), ro, now);
                partitionRows++;
                rows++;
                lastClusteringOffset = Rows.clusteringOffset(written);
                lastClusteringLength = Rows.clusteringLength(out, written);
                if (rows >= cmd.rowLimit()) {
                    limitReached = true;
                    stoppedAt = ro;
                    break outer;
                }
                if (partitionRows >= perPartition) {
                    stoppedAt = ro;
                    break outer;
                }
            }
        }
        countRangeTombstones(p, slices, stoppedAt);
        if (!headerWritten && staticLive && resume == null) {
            writeHeader();
            writeRow(p.buffer(), p.rowOffset(0), now);
            rows++;
            lastClusteringOffset = -1;
            if (rows >= cmd.rowLimit()) {
                limitReached = true;
            }
        }
        if (headerWritten) {
            partitions++;
            if (partitions >= cmd.partitionLimit()) {
                limitReached = true;
            }
        }
    }

    private void beginPartition(SerializedPartition p) {
        headerWritten = false;
        partitionRows = 0;
        curKeyBuf = p.keyBuffer();
        curKeyOff = p.keyOffset();
        curKeyLen = p.keyLength();
        curToken = p.token();
    }

    private void writeHeader() {
        headerWritten = true;
        partitionStart = pos;
        out.putByte(pos, ReadResult.PARTITION);
        out.putLong(pos + 1, curToken);
        out.putInt(pos + 9, curKeyLen);
        out.putBytes(pos + 13, curKeyBuf, curKeyOff, curKeyLen);
        pos += 13 + curKeyLen;
        lastToken = curToken;
        lastKeyOffset = pos - curKeyLen;
        lastKeyLength = curKeyLen;
    }

    /**
     * Counts a scanned row as Cassandra's read metrics do: each dead cell (tombstone or expired) is a tombstone; a row
     * with live data is a live row; a deleted row with no dead cells is one tombstone. Returns whether it is live.
     */
    private boolean countScanned(DirectBuffer b, int ro, int now) {
        int dead = 0;
        boolean live = Rows.isMarkerLive(b, ro, now);
        int c = Rows.firstCellOffset(b, ro);
        for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
            if (!Cells.isComplexDeletion(b, c) && !Cells.isWrittenClustering(b, c)) {
                if (Cells.isLive(b, c, now)) {
                    live = true;
                } else {
                    dead++;
                }
            }
            c += Cells.length(b, c);
        }
        if (live) {
            liveRows++;
        } else if (dead == 0 && Rows.deletionTimestamp(b, ro) != NO_TIMESTAMP) {
            dead = 1;
        }
        addTombstones(dead);
        return live;
    }

    private void addTombstones(int n) {
        if (n == 0) {
            return;
        }
        tombstones += n;
        if (tombstones > cmd.tombstoneFailureThreshold()) {
            throw new TombstoneOverwhelmingException(tombstones, lastScannedToken);
        }
    }

    /**
     * Range tombstones count as two tombstones each (Cassandra reads an open and a close marker) when they meet a
     * slice of the read, up to where the scan stopped ({@code stoppedAt}: the offset of the last row read, -1 when
     * the slices were read to their end).
     */
    private void countRangeTombstones(SerializedPartition p, java.util.List<ReadCommand.Slice> slices, int stoppedAt) {
        int n = p.rangeTombstoneCount();
        int count = 0;
        for (int r = 0; r < n; r++) {
            DirectBuffer rb = p.rangeTombstoneBuffer(r);
            int ro = p.rangeTombstoneOffset(r);
            int sl = rb.getInt(ro + RT_START_LENGTH);
            int el = rb.getInt(ro + RT_END_LENGTH);
            int so = ro + RT_BOUNDS;
            int eo = so + Math.max(0, sl);
            boolean meets = false;
            for (ReadCommand.Slice slice : slices) {
                boolean startsBeforeSliceEnd = sl < 0 || slice.end() == null
                        || ByteComparables.compare(rb, so, sl, slice.end()) < 0;
                boolean endsAfterSliceStart = el < 0 || slice.start() == null
                        || ByteComparables.compare(rb, eo, el, slice.start()) > 0;
                if (startsBeforeSliceEnd && endsAfterSliceStart) {
                    meets = true;
                    break;
                }
            }
            if (meets && stoppedAt >= 0) {
                DirectBuffer b = p.buffer();
                int co = Rows.clusteringOffset(stoppedAt);
                int cl = Rows.clusteringLength(b, stoppedAt);
                meets = cmd.reversed()
                        ? el < 0 || ByteComparables.compare(rb, eo, el, b, co, cl) > 0
                        : sl < 0 || ByteComparables.compare(rb, so, sl, b, co, cl) <= 0;
            }
            if (meets) {
                count += 2;
            }
        }
        addTombstones(count);
    }

    private int lowerBound(SerializedPartition p, byte[] clustering) {
        bound.wrap(clustering);
        return p.lowerBound(bound, 0, clustering.length);
    }

    static boolean isLive(DirectBuffer b, int ro, int now) {
        if (Rows.isMarkerLive(b, ro, now)) {
            return true;
        }
        int c = Rows.firstCellOffset(b, ro);
        for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
            if (Cells.isLive(b, c, now)) {
                return true;
            }
            c += Cells.length(b, c);
        }
        return false;
    }

    private void writeRow(DirectBuffer b, int ro, int now) {
        int start = pos;
        out.putByte(pos, ReadResult.ROW);
        int r = pos + 1;
        int cl = Rows.clusteringLength(b, ro);
        boolean marker = Rows.isMarkerLive(b, ro, now);
        out.putInt(r + R_CLUSTERING_LENGTH, cl);
        out.putLong(r + R_MARKER_TS, marker ? b.getLong(ro + R_MARKER_TS) : NO_TIMESTAMP);
        out.putInt(r + R_MARKER_TTL, marker ? b.getInt(ro + R_MARKER_TTL) : 0);
        out.putInt(r + R_MARKER_LET, marker ? b.getInt(ro + R_MARKER_LET) : NO_DELETION_TIME);
        out.putLong(r + R_DELETION_TS, NO_TIMESTAMP);
        out.putInt(r + R_DELETION_LDT, NO_DELETION_TIME);
        out.putBytes(r + R_CLUSTERING, b, Rows.clusteringOffset(ro), cl);
        int q = r + R_CLUSTERING + cl;
        int cells = 0;
        int c = Rows.firstCellOffset(b, ro);
        for (int i = 0, n = Rows.cellCount(b, ro); i < n; i++) {
            int len = Cells.length(b, c);
            if ((Cells.isLive(b, c, now) && cmd.selectsColumn(Cells.column(b, c))) || Cells.isWrittenClustering(b, c)) {
                out.putBytes(q, b, c, len);
                q += len;
                cells++;
            }
            c += len;
        }
        out.putInt(r + R_CELL_COUNT, cells);
        out.putInt(r + R_LENGTH, q - r);
        pos = q;
        assert start < pos;
    }

    /** The result, in this writer's pooled buffer (no copy); the writer must not be used afterwards. */
    public ReadResult build() {
        out.putByte(pos, ReadResult.END);
        byte[] lastKey = lastKeyOffset < 0 ? null : copy(lastKeyOffset, lastKeyLength);
        byte[] lastClustering = lastKeyOffset < 0 || lastClusteringOffset < 0 ? null
                : copy(lastClusteringOffset, lastClusteringLength);
        ReadResult r = new ReadResult(out, out.byteArray(), pos + 1, partitions, rows, limitReached, lastToken, lastKey,
                lastClustering);
        r.scanned(liveRows, tombstones, lastScannedToken);
        return r;
    }

    private byte[] copy(int offset, int length) {
        byte[] b = new byte[length];
        out.getBytes(offset, b);
        return b;
    }

    /**
     * Merges per-shard results of a range read in (token, key) order, re-applying the row and partition limits.
     * Shards own disjoint partitions, so partitions are copied whole or cut at the row limit.
     */
    public static ReadResult mergeRange(ReadCommand cmd, java.util.List<ReadResult> parts) {
        int k = parts.size();
        ReadResult.Cursor[] cursors = new ReadResult.Cursor[k];
        boolean[] has = new boolean[k];
        boolean anyLimited = false;
        for (int i = 0; i < k; i++) {
            cursors[i] = parts.get(i).cursor();
            has[i] = cursors[i].nextPartition();
            anyLimited |= parts.get(i).limitReached();
        }
        ResultWriter w = new ResultWriter(cmd);
        for (ReadResult part : parts) {
            w.liveRows += part.liveRowsScanned();
            w.tombstones += part.tombstonesScanned();
            w.lastScannedToken = Math.max(w.lastScannedToken, part.lastScannedToken());
        }
        boolean truncated = false;
        while (true) {
            int min = -1;
            for (int i = 0; i < k; i++) {
                if (has[i] && (min < 0 || comparePartition(cursors[i], cursors[min]) < 0)) {
                    min = i;
                }
            }
            if (min < 0) {
                break;
            }
            if (w.limitReached) {
                truncated = true;
                break;
            }
            w.copyPartition(cursors[min]);
            has[min] = cursors[min].nextPartition();
        }
        if (anyLimited || truncated) {
            w.limitReached = true;
        }
        ReadResult merged = w.build();
        for (ReadResult part : parts) {
            part.release();
        }
        return merged;
    }

    private static int comparePartition(ReadResult.Cursor a, ReadResult.Cursor b) {
        int c = Long.compare(a.token(), b.token());
        return c != 0 ? c : io.charybdis.storage.util.ByteComparables.compare(
                a.keyBuffer(), a.keyOffset(), a.keyLength(), b.keyBuffer(), b.keyOffset(), b.keyLength());
    }

    private void copyPartition(ReadResult.Cursor c) {
        curKeyBuf = c.keyBuffer();
        curKeyOff = c.keyOffset();
        curKeyLen = c.keyLength();
        curToken = c.token();
        writeHeader();
        int regular = 0;
        boolean staticOnly = true;
        while (c.nextRow()) {
            int ro = c.clusteringOffset() - R_CLUSTERING;
            DirectBuffer b = c.clusteringBuffer();
            int len = Rows.length(b, ro);
            int written = pos + 1;
            out.putByte(pos, ReadResult.ROW);
            out.putBytes(written, b, ro, len);
            pos += 1 + len;
            if (!c.isStatic()) {
                staticOnly = false;
                regular++;
                rows++;
                lastClusteringOffset = Rows.clusteringOffset(written);
                lastClusteringLength = Rows.clusteringLength(out, written);
                if (rows >= cmd.rowLimit()) {
                    limitReached = true;
                    break;
                }
            }
        }
        if (staticOnly) {
            rows++;
            lastClusteringOffset = -1;
            if (rows >= cmd.rowLimit()) {
                limitReached = true;
            }
        }
        partitions++;
        if (partitions >= cmd.partitionLimit()) {
            limitReached = true;
        }
        assert regular >= 0 && partitionStart >= 0;
    }
}
