package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import java.util.Arrays;
import org.agrona.DirectBuffer;

/** A reusable {@link PartitionView} flyweight over a serialized partition record. */
public final class SerializedPartition implements PartitionView {
    private DirectBuffer buffer;
    private int offset;
    private int[] rtOffsets = new int[4];
    private int[] rowOffsets = new int[16];
    private int rtCount;
    private int rowCount;

    /**
     * @param validate check that every length stays within the record (for data read from disk)
     * @throws IllegalArgumentException if validating and the record is malformed
     */
    public SerializedPartition wrap(DirectBuffer buffer, int offset, boolean validate) {
        this.buffer = buffer;
        this.offset = offset;
        int length = buffer.getInt(offset + P_LENGTH);
        int end = offset + length;
        if (validate && (length < P_KEY || end > buffer.capacity() || buffer.getInt(offset + P_KEY_LENGTH) < 0)) {
            throw new IllegalArgumentException("malformed partition record length=" + length);
        }
        rtCount = buffer.getInt(offset + P_RT_COUNT);
        rowCount = buffer.getInt(offset + P_ROW_COUNT);
        if (validate && (rtCount < 0 || rowCount < 0 || rtCount > length || rowCount > length)) {
            throw new IllegalArgumentException("malformed partition record rtCount=" + rtCount + " rowCount=" + rowCount);
        }
        if (rtOffsets.length < rtCount) {
            rtOffsets = new int[Math.max(rtCount, rtOffsets.length * 2)];
        }
        if (rowOffsets.length < rowCount) {
            rowOffsets = Arrays.copyOf(rowOffsets, Math.max(rowCount, rowOffsets.length * 2));
        }
        int p = offset + P_KEY + buffer.getInt(offset + P_KEY_LENGTH);
        for (int i = 0; i < rtCount; i++) {
            rtOffsets[i] = p;
            p += Rows.rtLength(buffer, p);
            if (validate && p > end) {
                throw new IllegalArgumentException("range tombstone " + i + " overruns partition record");
            }
        }
        for (int i = 0; i < rowCount; i++) {
            rowOffsets[i] = p;
            int rl = Rows.length(buffer, p);
            if (validate && (rl < R_CLUSTERING || p + rl > end)) {
                throw new IllegalArgumentException("row " + i + " overruns partition record length=" + rl);
            }
            p += rl;
        }
        if (validate && p != end) {
            throw new IllegalArgumentException("partition record length mismatch: " + (p - offset) + " != " + length);
        }
        return this;
    }

    public int length() {
        return buffer.getInt(offset + P_LENGTH);
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    @Override
    public long token() {
        return buffer.getLong(offset + P_TOKEN);
    }

    @Override
    public DirectBuffer keyBuffer() {
        return buffer;
    }

    @Override
    public int keyOffset() {
        return offset + P_KEY;
    }

    @Override
    public int keyLength() {
        return buffer.getInt(offset + P_KEY_LENGTH);
    }

    @Override
    public long deletionTimestamp() {
        return buffer.getLong(offset + P_DELETION_TS);
    }

    @Override
    public int deletionLocalTime() {
        return buffer.getInt(offset + P_DELETION_LDT);
    }

    @Override
    public int rangeTombstoneCount() {
        return rtCount;
    }

    @Override
    public DirectBuffer rangeTombstoneBuffer(int i) {
        return buffer;
    }

    @Override
    public int rangeTombstoneOffset(int i) {
        return rtOffsets[i];
    }

    @Override
    public int rowCount() {
        return rowCount;
    }

    @Override
    public DirectBuffer rowBuffer(int i) {
        return buffer;
    }

    @Override
    public int rowOffset(int i) {
        return rowOffsets[i];
    }
}
