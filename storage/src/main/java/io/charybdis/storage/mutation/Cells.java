package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.util.ByteComparables;
import org.agrona.DirectBuffer;

/**
 * Static accessors and reconciliation of cells in {@link MutationLayout} form.
 *
 * <p>Reconciliation follows Cassandra's {@code Cells.resolveRegular}, which does not depend on the clock:
 * higher timestamp wins; on a tie a tombstone or expiring cell beats a live non-expiring one, a tombstone beats
 * an expiring cell, the later local deletion time wins, and finally the greater value (unsigned bytes).
 * Complex deletions reconcile like deletion times: higher timestamp, then later local deletion time.
 */
public final class Cells {
    private Cells() {
    }

    public static int length(DirectBuffer b, int off) {
        return C_PATH + b.getInt(off + C_PATH_LENGTH) + b.getInt(off + C_VALUE_LENGTH);
    }

    public static byte flags(DirectBuffer b, int off) {
        return b.getByte(off + C_FLAGS);
    }

    public static boolean isComplexDeletion(DirectBuffer b, int off) {
        return (b.getByte(off + C_FLAGS) & FLAG_COMPLEX_DELETION) != 0;
    }

    public static boolean isTombstone(DirectBuffer b, int off) {
        return (b.getByte(off + C_FLAGS) & FLAG_TOMBSTONE) != 0;
    }

    public static int column(DirectBuffer b, int off) {
        return b.getInt(off + C_COLUMN);
    }

    public static long timestamp(DirectBuffer b, int off) {
        return b.getLong(off + C_TS);
    }

    public static int ttl(DirectBuffer b, int off) {
        return b.getInt(off + C_TTL);
    }

    public static int localDeletionTime(DirectBuffer b, int off) {
        return b.getInt(off + C_LDT);
    }

    public static int pathLength(DirectBuffer b, int off) {
        return b.getInt(off + C_PATH_LENGTH);
    }

    public static int valueLength(DirectBuffer b, int off) {
        return b.getInt(off + C_VALUE_LENGTH);
    }

    public static int valueOffset(DirectBuffer b, int off) {
        return off + C_PATH + b.getInt(off + C_PATH_LENGTH);
    }

    /** Whether the cell is a row's written clustering (see {@link MutationLayout}), not a column's cell. */
    public static boolean isWrittenClustering(DirectBuffer b, int off) {
        return (b.getByte(off + C_FLAGS) & FLAG_WRITTEN_CLUSTERING) != 0;
    }

    /**
     * A live, non-deleted cell at {@code nowInSeconds} (complex deletions and written clusterings are never live).
     */
    public static boolean isLive(DirectBuffer b, int off, int nowInSeconds) {
        byte flags = b.getByte(off + C_FLAGS);
        if ((flags & (FLAG_TOMBSTONE | FLAG_COMPLEX_DELETION | FLAG_WRITTEN_CLUSTERING)) != 0) {
            return false;
        }
        return b.getInt(off + C_TTL) == 0 || nowInSeconds < b.getInt(off + C_LDT);
    }

    /** Order of cells in a row: column, then the complex deletion, then path. */
    public static int compareKey(DirectBuffer a, int aOff, DirectBuffer b, int bOff) {
        int c = Integer.compare(a.getInt(aOff + C_COLUMN), b.getInt(bOff + C_COLUMN));
        if (c != 0) {
            return c;
        }
        boolean aCd = (a.getByte(aOff + C_FLAGS) & FLAG_COMPLEX_DELETION) != 0;
        boolean bCd = (b.getByte(bOff + C_FLAGS) & FLAG_COMPLEX_DELETION) != 0;
        if (aCd != bCd) {
            return aCd ? -1 : 1;
        }
        return ByteComparables.compare(a, aOff + C_PATH, a.getInt(aOff + C_PATH_LENGTH),
                b, bOff + C_PATH, b.getInt(bOff + C_PATH_LENGTH));
    }

    /**
     * Whether cell a wins reconciliation against cell b of the same key (a wins exact ties). Of two written
     * clusterings, the earlier write wins: the lower timestamp, then the smaller value bytes.
     */
    public static boolean firstWins(DirectBuffer a, int aOff, DirectBuffer b, int bOff) {
        long at = a.getLong(aOff + C_TS);
        long bt = b.getLong(bOff + C_TS);
        byte af = a.getByte(aOff + C_FLAGS);
        if ((af & FLAG_WRITTEN_CLUSTERING) != 0) {
            if (at != bt) {
                return at < bt;
            }
            return ByteComparables.compare(a, valueOffset(a, aOff), a.getInt(aOff + C_VALUE_LENGTH),
                    b, valueOffset(b, bOff), b.getInt(bOff + C_VALUE_LENGTH)) <= 0;
        }
        if (at != bt) {
            return at > bt;
        }
        byte bf = b.getByte(bOff + C_FLAGS);
        int aLdt = a.getInt(aOff + C_LDT);
        int bLdt = b.getInt(bOff + C_LDT);
        if ((af & FLAG_COMPLEX_DELETION) != 0) {
            return aLdt >= bLdt;
        }
        boolean aTomb = (af & FLAG_TOMBSTONE) != 0;
        boolean bTomb = (bf & FLAG_TOMBSTONE) != 0;
        boolean aDel = aTomb || a.getInt(aOff + C_TTL) > 0;
        boolean bDel = bTomb || b.getInt(bOff + C_TTL) > 0;
        if (aDel || bDel) {
            if (aDel != bDel) {
                return aDel;
            }
            if (aTomb != bTomb) {
                return aTomb;
            }
            if (aLdt != bLdt) {
                return aLdt > bLdt;
            }
        }
        int vo = valueOffset(a, aOff);
        int wo = valueOffset(b, bOff);
        return ByteComparables.compare(a, vo, a.getInt(aOff + C_VALUE_LENGTH), b, wo, b.getInt(bOff + C_VALUE_LENGTH)) >= 0;
    }
}
