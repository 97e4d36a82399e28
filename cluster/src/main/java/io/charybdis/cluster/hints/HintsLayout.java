package io.charybdis.cluster.hints;

import java.util.UUID;

/**
 * A hints file {@code <hostId>-<sequence>.hints}: the hints one node holds for one other node, appended in the order
 * they were written, little-endian.
 * <pre>
 * header (36 bytes)
 *   0 int magic 0x43484E54 ("CHNT")   4 int version   8 long hostId msb   16 long hostId lsb
 *  24 long sequence                  32 int crc32(bytes 0..31)
 * records, back to back
 *   0 int length (of the mutation)   4 long created (ms since the epoch)   12 int ttl (seconds: the table's
 *  gc_grace_seconds when the hint was written)   16 mutation (MutationLayout)   16+length int crc32(bytes 0..15+length)
 * </pre>
 * A node killed while appending may leave a torn tail: reading stops there (the hint was never acknowledged as
 * written). A bad record followed by more data is corruption: the rest of the file is skipped and reported.
 */
public final class HintsLayout {
    private HintsLayout() {
    }

    public static final int MAGIC = 0x43484E54;
    public static final int VERSION = 1;
    public static final int HEADER_SIZE = 36;
    public static final int RECORD_HEADER = 16;
    public static final int RECORD_TRAILER = 4;
    public static final String SUFFIX = ".hints";

    public static int recordSize(int mutationLength) {
        return RECORD_HEADER + mutationLength + RECORD_TRAILER;
    }

    public static String fileName(UUID host, long sequence) {
        return host + "-" + sequence + SUFFIX;
    }

    /** The host of a hints file name, null if the name is not one. */
    public static UUID host(String fileName) {
        if (!fileName.endsWith(SUFFIX) || fileName.length() < 38) {
            return null;
        }
        try {
            return UUID.fromString(fileName.substring(0, 36));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The sequence of a hints file name, -1 if the name is not one. */
    public static long sequence(String fileName) {
        if (host(fileName) == null || fileName.charAt(36) != '-') {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(37, fileName.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
