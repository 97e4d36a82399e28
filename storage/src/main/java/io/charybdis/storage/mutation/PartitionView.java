package io.charybdis.storage.mutation;

import org.agrona.DirectBuffer;

/**
 * Read access to one partition's data in {@link MutationLayout} form, wherever it lives (memtable arena, a
 * decompressed SSTable partition, a merge result). Rows are sorted by clustering and unique.
 */
public interface PartitionView {
    long token();

    DirectBuffer keyBuffer();

    int keyOffset();

    int keyLength();

    long deletionTimestamp();

    int deletionLocalTime();

    int rangeTombstoneCount();

    DirectBuffer rangeTombstoneBuffer(int i);

    int rangeTombstoneOffset(int i);

    int rowCount();

    DirectBuffer rowBuffer(int i);

    int rowOffset(int i);

    /** Index of the first row whose clustering is >= the given one (rowCount() if none). */
    default int lowerBound(DirectBuffer b, int off, int len) {
        int lo = 0;
        int hi = rowCount();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            DirectBuffer rb = rowBuffer(mid);
            int ro = rowOffset(mid);
            if (Rows.compareClustering(rb, ro, b, off, len) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
