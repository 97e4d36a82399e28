package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Merges versions of one row (same clustering) from several sources into one reconciled row, dropping what the
 * row's own deletion, complex deletions and an outer shadowing deletion (partition deletion, range tombstones)
 * delete, and tombstones the {@link PurgePolicy} allows to purge. Reusable, not thread-safe.
 *
 * <p>Row marker precedence follows Cassandra's {@code LivenessInfo.supersedes}: higher timestamp; on a tie, if
 * both or neither expire the later expiration wins, else the expiring one. Row deletions: higher timestamp, then
 * later local deletion time. Cells: {@link Cells#firstWins}.
 *
 * <p>A written clustering cell (see {@link MutationLayout}) is not data: no deletion shadows it and no purge drops
 * it, and it is kept only while the row keeps something else (marker, deletion or a cell). When the sources are in
 * arrival order (a memtable merging an update into its row), the first source's wins, as Cassandra's memtable
 * keeps a row's existing Clustering; otherwise {@link Cells#firstWins} picks the earlier write.
 */
public final class RowMerger {
    private int[] pos = new int[8];
    private int[] remaining = new int[8];

    /**
     * {@link #merge(DirectBuffer[], int[], int, long, PurgePolicy, MutableDirectBuffer, int, boolean)} of sources in
     * no particular order (reads, flushes, compactions).
     */
    public int merge(DirectBuffer[] bufs, int[] offs, int k, long shadowTs, PurgePolicy purge,
                     MutableDirectBuffer out, int outOff) {
        return merge(bufs, offs, k, shadowTs, purge, out, outOff, false);
    }

    /**
     * @param arrivalOrder whether {@code bufs} hold the versions in the order they were written (the first source's
     *                     written clustering wins)
     * @return bytes written at {@code out[outOff]}, or 0 when nothing of the row remains
     */
    public int merge(DirectBuffer[] bufs, int[] offs, int k, long shadowTs, PurgePolicy purge,
                     MutableDirectBuffer out, int outOff, boolean arrivalOrder) {
        if (pos.length < k) {
            pos = new int[k * 2];
            remaining = new int[k * 2];
        }
        long mTs = NO_TIMESTAMP;
        int mTtl = 0;
        int mLet = NO_DELETION_TIME;
        long dTs = NO_TIMESTAMP;
        int dLdt = NO_DELETION_TIME;
        for (int i = 0; i < k; i++) {
            DirectBuffer b = bufs[i];
            int o = offs[i];
            long ts = b.getLong(o + R_MARKER_TS);
            if (ts != NO_TIMESTAMP) {
                int ttl = b.getInt(o + R_MARKER_TTL);
                int let = b.getInt(o + R_MARKER_LET);
                if (mTs == NO_TIMESTAMP || markerSupersedes(ts, ttl, let, mTs, mTtl, mLet)) {
                    mTs = ts;
                    mTtl = ttl;
                    mLet = let;
                }
            }
            long dts = b.getLong(o + R_DELETION_TS);
            int dldt = b.getInt(o + R_DELETION_LDT);
            if (dts > dTs || (dts == dTs && dts != NO_TIMESTAMP && dldt > dLdt)) {
                dTs = dts;
                dLdt = dldt;
            }
            pos[i] = Rows.firstCellOffset(b, o);
            remaining[i] = b.getInt(o + R_CELL_COUNT);
        }
        long eff = Math.max(shadowTs, dTs);
        if (dTs != NO_TIMESTAMP && (dTs <= shadowTs || purge.purgeable(dTs, dLdt))) {
            dTs = NO_TIMESTAMP;
            dLdt = NO_DELETION_TIME;
        }
        if (mTs != NO_TIMESTAMP && (mTs <= eff
                || (purge.expired(mTtl, mLet) && purge.purgeable(mTs, mLet)))) {
            mTs = NO_TIMESTAMP;
            mTtl = 0;
            mLet = NO_DELETION_TIME;
        }

        DirectBuffer cb0 = bufs[0];
        int clusteringLength = cb0.getInt(offs[0] + R_CLUSTERING_LENGTH);
        out.putBytes(outOff + R_CLUSTERING, cb0, offs[0] + R_CLUSTERING, clusteringLength);
        int q = outOff + R_CLUSTERING + clusteringLength;
        int cells = 0;
        int written = 0;
        int cdColumn = 0;
        long cdTs = NO_TIMESTAMP;
        while (true) {
            int min = -1;
            for (int i = 0; i < k; i++) {
                if (remaining[i] > 0 && (min < 0 || Cells.compareKey(bufs[i], pos[i], bufs[min], pos[min]) < 0)) {
                    min = i;
                }
            }
            if (min < 0) {
                break;
            }
            DirectBuffer wb = bufs[min];
            int wo = pos[min];
            boolean keepFirst = arrivalOrder && Cells.isWrittenClustering(wb, wo);
            for (int i = 0; i < k && !keepFirst; i++) {
                if (remaining[i] > 0 && (i == min || Cells.compareKey(bufs[i], pos[i], bufs[min], pos[min]) == 0)) {
                    if (i != min && !Cells.firstWins(wb, wo, bufs[i], pos[i])) {
                        wb = bufs[i];
                        wo = pos[i];
                    }
                }
            }
            // advance every input positioned on this key (compare against the saved winner position first)
            int minPos = pos[min];
            DirectBuffer minBuf = bufs[min];
            for (int i = 0; i < k; i++) {
                if (remaining[i] > 0 && (i == min || Cells.compareKey(bufs[i], pos[i], minBuf, minPos) == 0)) {
                    if (i != min) {
                        pos[i] += Cells.length(bufs[i], pos[i]);
                        remaining[i]--;
                    }
                }
            }
            pos[min] += Cells.length(minBuf, minPos);
            remaining[min]--;

            byte flags = wb.getByte(wo + C_FLAGS);
            int column = wb.getInt(wo + C_COLUMN);
            long ts = wb.getLong(wo + C_TS);
            int ldt = wb.getInt(wo + C_LDT);
            if ((flags & FLAG_WRITTEN_CLUSTERING) != 0) {
                written = 1;
            } else if ((flags & FLAG_COMPLEX_DELETION) != 0) {
                cdColumn = column;
                cdTs = ts;
                if (ts <= eff || purge.purgeable(ts, ldt)) {
                    continue;
                }
            } else {
                long colShadow = (cdTs != NO_TIMESTAMP && cdColumn == column) ? Math.max(eff, cdTs) : eff;
                if (ts <= colShadow) {
                    continue;
                }
                boolean dead = (flags & FLAG_TOMBSTONE) != 0 || purge.expired(wb.getInt(wo + C_TTL), ldt);
                if (dead && purge.purgeable(ts, ldt)) {
                    continue;
                }
            }
            int len = Cells.length(wb, wo);
            out.putBytes(q, wb, wo, len);
            q += len;
            cells++;
        }
        if (cells == written && mTs == NO_TIMESTAMP && dTs == NO_TIMESTAMP) {
            return 0;
        }
        out.putInt(outOff + R_LENGTH, q - outOff);
        out.putInt(outOff + R_CLUSTERING_LENGTH, clusteringLength);
        out.putLong(outOff + R_MARKER_TS, mTs);
        out.putInt(outOff + R_MARKER_TTL, mTtl);
        out.putInt(outOff + R_MARKER_LET, mLet);
        out.putLong(outOff + R_DELETION_TS, dTs);
        out.putInt(outOff + R_DELETION_LDT, dLdt);
        out.putInt(outOff + R_CELL_COUNT, cells);
        return q - outOff;
    }

    static boolean markerSupersedes(long ts, int ttl, int let, long oTs, int oTtl, int oLet) {
        if (ts != oTs) {
            return ts > oTs;
        }
        boolean exp = ttl > 0;
        boolean oExp = oTtl > 0;
        if (exp == oExp) {
            return let > oLet;
        }
        return exp;
    }
}
