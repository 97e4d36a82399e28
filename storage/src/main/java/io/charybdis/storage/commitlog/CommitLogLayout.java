package io.charybdis.storage.commitlog;

/**
 * Commit log segment file {@code CommitLog-<segmentId>.log}, one writer (shard) per segment, little-endian.
 * <pre>
 * header (24 bytes)
 *   0 int magic 0x4342434C ("CBCL")   4 int version   8 long segmentId   16 int shardId   20 int crc32(bytes 0..19)
 * entries, back to back
 *   0 int length (of the mutation)    4 int crc32(length field + mutation bytes)    8 mutation (MutationLayout)
 * </pre>
 * A crash may leave a torn tail (partial or zero-filled last entries): replay stops there with a warning.
 * A bad entry followed by more data is corruption in the middle and fails startup (unless ignored).
 */
public final class CommitLogLayout {
    private CommitLogLayout() {
    }

    public static final int MAGIC = 0x4342434C;
    public static final int VERSION = 1;
    public static final int HEADER_SIZE = 24;
    public static final int ENTRY_HEADER = 8;
    public static final String PREFIX = "CommitLog-";
    public static final String SUFFIX = ".log";

    public static String fileName(long segmentId) {
        return PREFIX + segmentId + SUFFIX;
    }

    /** Segment id from a file name, -1 if not a segment. */
    public static long segmentId(String fileName) {
        if (!fileName.startsWith(PREFIX) || !fileName.endsWith(SUFFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(PREFIX.length(), fileName.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
