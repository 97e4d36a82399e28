package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.util.ByteComparables;
import org.agrona.DirectBuffer;

/** Static accessors of rows and range tombstones in {@link MutationLayout} form. */
public final class Rows {
    private Rows() {
    }

    public static int length(DirectBuffer b, int off) {
        return b.getInt(off + R_LENGTH);
    }

    public static int clusteringLength(DirectBuffer b, int off) {
        return b.getInt(off + R_CLUSTERING_LENGTH);
    }

    public static int clusteringOffset(int off) {
        return off + R_CLUSTERING;
    }

    public static boolean isStatic(DirectBuffer b, int off) {
        return b.getInt(off + R_CLUSTERING_LENGTH) == 0;
    }

    public static int firstCellOffset(DirectBuffer b, int off) {
        return off + R_CLUSTERING + b.getInt(off + R_CLUSTERING_LENGTH);
    }

    public static int cellCount(DirectBuffer b, int off) {
        return b.getInt(off + R_CELL_COUNT);
    }

    /** Whether the row holds a marker, a deletion or a cell other than its written clustering. */
    public static boolean hasContent(DirectBuffer b, int off) {
        int cells = b.getInt(off + R_CELL_COUNT);
        if (cells > 0 && Cells.isWrittenClustering(b, firstCellOffset(b, off))) {
            cells--;
        }
        return cells > 0 || b.getLong(off + R_MARKER_TS) != NO_TIMESTAMP || b.getLong(off + R_DELETION_TS) != NO_TIMESTAMP;
    }

    /** The offset of the row's written clustering cell (always its first cell), or -1 when it has none. */
    public static int writtenClusteringOffset(DirectBuffer b, int off) {
        if (b.getInt(off + R_CELL_COUNT) == 0) {
            return -1;
        }
        int c = firstCellOffset(b, off);
        return Cells.isWrittenClustering(b, c) ? c : -1;
    }

    public static long markerTimestamp(DirectBuffer b, int off) {
        return b.getLong(off + R_MARKER_TS);
    }

    public static long deletionTimestamp(DirectBuffer b, int off) {
        return b.getLong(off + R_DELETION_TS);
    }

    public static boolean isMarkerLive(DirectBuffer b, int off, int nowInSeconds) {
        long ts = b.getLong(off + R_MARKER_TS);
        return ts != NO_TIMESTAMP && (b.getInt(off + R_MARKER_TTL) == 0 || nowInSeconds < b.getInt(off + R_MARKER_LET));
    }

    public static int compareClustering(DirectBuffer a, int aRow, DirectBuffer b, int off, int len) {
        return ByteComparables.compare(a, aRow + R_CLUSTERING, a.getInt(aRow + R_CLUSTERING_LENGTH), b, off, len);
    }

    public static int compareClustering(DirectBuffer a, int aRow, DirectBuffer b, int bRow) {
        return ByteComparables.compare(a, aRow + R_CLUSTERING, a.getInt(aRow + R_CLUSTERING_LENGTH),
                b, bRow + R_CLUSTERING, b.getInt(bRow + R_CLUSTERING_LENGTH));
    }

    // range tombstones

    public static int rtLength(DirectBuffer b, int off) {
        return RT_BOUNDS + Math.max(0, b.getInt(off + RT_START_LENGTH)) + Math.max(0, b.getInt(off + RT_END_LENGTH));
    }

    public static long rtTimestamp(DirectBuffer b, int off) {
        return b.getLong(off + RT_TS);
    }

    public static int rtLocalDeletionTime(DirectBuffer b, int off) {
        return b.getInt(off + RT_LDT);
    }

    /** Whether the range tombstone covers a (non-static) clustering. */
    public static boolean rtCovers(DirectBuffer rb, int rtOff, DirectBuffer cb, int cOff, int cLen) {
        if (cLen == 0) {
            return false;
        }
        int sl = rb.getInt(rtOff + RT_START_LENGTH);
        int el = rb.getInt(rtOff + RT_END_LENGTH);
        int start = rtOff + RT_BOUNDS;
        if (sl >= 0 && ByteComparables.compare(rb, start, sl, cb, cOff, cLen) > 0) {
            return false;
        }
        return el < 0 || ByteComparables.compare(cb, cOff, cLen, rb, start + Math.max(0, sl), el) < 0;
    }

    public static boolean rtEquals(DirectBuffer a, int aOff, DirectBuffer b, int bOff) {
        int len = rtLength(a, aOff);
        if (len != rtLength(b, bOff)) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (a.getByte(aOff + i) != b.getByte(bOff + i)) {
                return false;
            }
        }
        return true;
    }
}
