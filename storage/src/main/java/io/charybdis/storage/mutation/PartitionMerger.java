package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Merges the versions of one partition held by several sources (memtables, SSTables) into one reconciled
 * partition record, tombstones kept (minus what {@link PurgePolicy} purges) and shadowed data dropped.
 * Used by reads (then filtered for liveness), flushes (one source) and compactions. Reusable, not thread-safe.
 *
 * <p>Shadowing: the partition deletion shadows everything with timestamp <= its own; a range tombstone shadows
 * non-static rows whose clustering is in [start, end); both act as an outer deletion for {@link RowMerger}.
 * Range tombstones are kept as written (not normalised), exact duplicates and those shadowed by the partition
 * deletion dropped.
 */
public final class PartitionMerger {
    private final RowMerger rowMerger = new RowMerger();
    private final UnsafeBuffer bound = new UnsafeBuffer(new byte[0]);
    private DirectBuffer[] rtBufs = new DirectBuffer[8];
    private int[] rtOffs = new int[8];
    private DirectBuffer[] rowBufs = new DirectBuffer[8];
    private int[] rowOffs = new int[8];
    private int[] idx = new int[8];
    private int[] end = new int[8];
    private int[] group = new int[8];

    /** Whether the last {@link #merge} with a row count left out rows of [lo, hi) past those it merged. */
    private boolean truncated;

    /**
     * Merges rows whose clustering is in [lo, hi) (null = unbounded) plus the static row.
     *
     * @return bytes written at {@code out[outOff]}; 0 if nothing remains (no deletion, tombstone or row)
     */
    public int merge(PartitionView[] views, int k, byte[] lo, byte[] hi, PurgePolicy purge,
                     MutableDirectBuffer out, int outOff) {
        return merge(views, k, lo, hi, Integer.MAX_VALUE, false, purge, out, outOff);
    }

    /**
     * As {@link #merge(PartitionView[], int, byte[], byte[], PurgePolicy, MutableDirectBuffer, int)}, but merges only
     * the first rows of [lo, hi) in read order (from hi down when {@code reversed}): at least {@code rows} of them,
     * each complete (every view's version of it merged), so that a read needing a page of rows does not merge the
     * rest of a large partition. {@link #truncated()} tells whether rows were left out.
     */
    public int merge(PartitionView[] views, int k, byte[] lo, byte[] hi, int rows, boolean reversed,
                     PurgePolicy purge, MutableDirectBuffer out, int outOff) {
        ensure(k);
        truncated = false;
        PartitionView first = views[0];
        long pdTs = NO_TIMESTAMP;
        int pdLdt = NO_DELETION_TIME;
        int rtTotal = 0;
        for (int i = 0; i < k; i++) {
            long ts = views[i].deletionTimestamp();
            int ldt = views[i].deletionLocalTime();
            if (ts > pdTs || (ts == pdTs && ts != NO_TIMESTAMP && ldt > pdLdt)) {
                pdTs = ts;
                pdLdt = ldt;
            }
            rtTotal += views[i].rangeTombstoneCount();
        }
        if (rtBufs.length < rtTotal) {
            rtBufs = new DirectBuffer[rtTotal * 2];
            rtOffs = new int[rtTotal * 2];
        }
        int rtCount = 0;
        for (int i = 0; i < k; i++) {
            PartitionView v = views[i];
            for (int r = 0, n = v.rangeTombstoneCount(); r < n; r++) {
                DirectBuffer b = v.rangeTombstoneBuffer(r);
                int o = v.rangeTombstoneOffset(r);
                if (Rows.rtTimestamp(b, o) <= pdTs) {
                    continue;
                }
                boolean dup = false;
                for (int j = 0; j < rtCount && !dup; j++) {
                    dup = Rows.rtEquals(rtBufs[j], rtOffs[j], b, o);
                }
                if (!dup) {
                    rtBufs[rtCount] = b;
                    rtOffs[rtCount++] = o;
                }
            }
        }

        int keyLength = first.keyLength();
        out.putLong(outOff + P_TOKEN, first.token());
        out.putInt(outOff + P_KEY_LENGTH, keyLength);
        out.putBytes(outOff + P_KEY, first.keyBuffer(), first.keyOffset(), keyLength);
        int q = outOff + P_KEY + keyLength;
        int rtWritten = 0;
        for (int j = 0; j < rtCount; j++) {
            DirectBuffer b = rtBufs[j];
            int o = rtOffs[j];
            if (!purge.purgeable(Rows.rtTimestamp(b, o), Rows.rtLocalDeletionTime(b, o))) {
                int len = Rows.rtLength(b, o);
                out.putBytes(q, b, o, len);
                q += len;
                rtWritten++;
            }
        }

        // row cursors: [idx, end) of regular rows per view, after the static row if any
        int rowsWritten = 0;
        int statics = 0;
        for (int i = 0; i < k; i++) {
            PartitionView v = views[i];
            int n = v.rowCount();
            int start = 0;
            if (n > 0 && Rows.isStatic(v.rowBuffer(0), v.rowOffset(0))) {
                rowBufs[statics] = v.rowBuffer(0);
                rowOffs[statics++] = v.rowOffset(0);
                start = 1;
            }
            if (lo != null) {
                bound.wrap(lo);
                start = Math.max(start, v.lowerBound(bound, 0, lo.length));
            }
            int stop = n;
            if (hi != null) {
                bound.wrap(hi);
                stop = v.lowerBound(bound, 0, hi.length);
            }
            idx[i] = start;
            end[i] = Math.max(start, stop);
        }
        if (rows < Integer.MAX_VALUE) {
            narrow(views, k, rows, reversed);
        }
        if (statics > 0) {
            int len = rowMerger.merge(rowBufs, rowOffs, statics, pdTs, purge, out, q);
            if (len > 0) {
                q += len;
                rowsWritten++;
            }
        }
        while (true) {
            int min = -1;
            for (int i = 0; i < k; i++) {
                if (idx[i] < end[i] && (min < 0 || Rows.compareClustering(
                        views[i].rowBuffer(idx[i]), views[i].rowOffset(idx[i]),
                        views[min].rowBuffer(idx[min]), views[min].rowOffset(idx[min])) < 0)) {
                    min = i;
                }
            }
            if (min < 0) {
                break;
            }
            DirectBuffer mb = views[min].rowBuffer(idx[min]);
            int mo = views[min].rowOffset(idx[min]);
            int g = 0;
            for (int i = 0; i < k; i++) {
                if (idx[i] < end[i] && (i == min || Rows.compareClustering(
                        views[i].rowBuffer(idx[i]), views[i].rowOffset(idx[i]), mb, mo) == 0)) {
                    group[g] = i;
                    rowBufs[g] = views[i].rowBuffer(idx[i]);
                    rowOffs[g++] = views[i].rowOffset(idx[i]);
                }
            }
            for (int j = 0; j < g; j++) {
                idx[group[j]]++;
            }
            long shadow = pdTs;
            int cOff = Rows.clusteringOffset(mo);
            int cLen = Rows.clusteringLength(mb, mo);
            for (int j = 0; j < rtCount; j++) {
                long ts = Rows.rtTimestamp(rtBufs[j], rtOffs[j]);
                if (ts > shadow && Rows.rtCovers(rtBufs[j], rtOffs[j], mb, cOff, cLen)) {
                    shadow = ts;
                }
            }
            int len = rowMerger.merge(rowBufs, rowOffs, g, shadow, purge, out, q);
            if (len > 0) {
                q += len;
                rowsWritten++;
            }
        }
        if (pdTs != NO_TIMESTAMP && purge.purgeable(pdTs, pdLdt)) {
            pdTs = NO_TIMESTAMP;
            pdLdt = NO_DELETION_TIME;
        }
        if (pdTs == NO_TIMESTAMP && rtWritten == 0 && rowsWritten == 0) {
            return 0;
        }
        out.putInt(outOff + P_LENGTH, q - outOff);
        out.putLong(outOff + P_DELETION_TS, pdTs);
        out.putInt(outOff + P_DELETION_LDT, pdLdt);
        out.putInt(outOff + P_RT_COUNT, rtWritten);
        out.putInt(outOff + P_ROW_COUNT, rowsWritten);
        return q - outOff;
    }

    public boolean truncated() {
        return truncated;
    }

    /**
     * Narrows every view's [idx, end) to the rows at or before (forward) the earliest {@code rows}-th row of any view
     * that has that many: the first {@code rows} merged rows all lie there, and each view keeps all its rows up to that
     * bound, so every row merged is complete. Reversed: the rows at or after the latest {@code rows}-th row from the
     * end.
     */
    private void narrow(PartitionView[] views, int k, int rows, boolean reversed) {
        int at = -1; // the view holding the bound row, and its index
        int atRow = -1;
        for (int i = 0; i < k; i++) {
            if (end[i] - idx[i] < rows) {
                continue;
            }
            int r = reversed ? end[i] - rows : idx[i] + rows - 1;
            if (at < 0) {
                at = i;
                atRow = r;
                continue;
            }
            int c = Rows.compareClustering(views[i].rowBuffer(r), views[i].rowOffset(r), views[at].rowBuffer(atRow),
                    views[at].rowOffset(atRow));
            if (reversed ? c > 0 : c < 0) {
                at = i;
                atRow = r;
            }
        }
        if (at < 0) {
            return;
        }
        DirectBuffer bb = views[at].rowBuffer(atRow);
        int bo = views[at].rowOffset(atRow);
        int cOff = Rows.clusteringOffset(bo);
        int cLen = Rows.clusteringLength(bb, bo);
        for (int i = 0; i < k; i++) {
            if (idx[i] >= end[i]) {
                continue;
            }
            int b = views[i].lowerBound(bb, cOff, cLen); // first row >= the bound
            if (reversed) {
                if (b > idx[i]) {
                    idx[i] = Math.min(b, end[i]);
                    truncated = true;
                }
            } else {
                if (b < end[i] && Rows.compareClustering(views[i].rowBuffer(b), views[i].rowOffset(b), bb, bo) == 0) {
                    b++; // the bound row itself is kept
                }
                if (b < end[i]) {
                    end[i] = Math.max(b, idx[i]);
                    truncated = true;
                }
            }
        }
    }

    private void ensure(int k) {
        if (idx.length < k) {
            int n = k * 2;
            idx = new int[n];
            end = new int[n];
            group = new int[n];
            rowBufs = new DirectBuffer[n];
            rowOffs = new int[n];
        }
    }
}
