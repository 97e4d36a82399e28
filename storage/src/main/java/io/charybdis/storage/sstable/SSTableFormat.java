package io.charybdis.storage.sstable;

/**
 * On-disk layout of an SSTable: five files per generation N in the table directory, all little-endian. Every
 * binary file starts with the common header and ends with a checksummed trailer; files are written under a
 * {@code tmp-} name, fsynced and renamed, the TOC last (its presence marks a complete SSTable). Each file's header
 * carries the version of its own layout ({@link #version(int)}); readers accept every version from 1 up to it.
 *
 * <pre>
 * Common header (20 bytes)
 *   0 int magic 0x43425353 ("CBSS")   4 int formatVersion   8 int component   12 long generation
 *
 * cb-N-Data.db: partition records (MutationLayout) back to back, in (token, key) order, cut into chunks of
 * chunkLength uncompressed bytes; a partition may span chunks.
 *   chunk:   int storedLength | int uncompressedLength (bit 31 set = stored raw) | int crc32(stored) | stored bytes
 *   then     long chunkOffset[chunkCount]
 *   trailer (33 bytes): long offsetsPosition | int chunkCount | int chunkLength | byte compressor
 *                       | long uncompressedLength | int crc32(offsets + preceding trailer fields) | int FOOTER_MAGIC
 *
 * cb-N-Index.db: blocks of ~4 KiB of entries, each block checked on its own
 *   block:   int entryCount | int payloadLength | entries | int crc32(block before this field)
 *   entry:   long token | int keyLength | key | long dataPosition (uncompressed) | int partitionLength
 *   summary: int blockCount, per block: long offset | int length | long firstToken | int firstKeyLength | key
 *   trailer (20 bytes): long summaryPosition | int summaryLength | int crc32(summary) | int FOOTER_MAGIC
 *
 * cb-N-Filter.db: header | int hashCount | int wordCount | long words[] | int crc32(all before) | int FOOTER_MAGIC
 * cb-N-Statistics.db: header | fields | int crc32(all before) | int FOOTER_MAGIC
 *   version 1 fields: long partitionCount | long rowCount | long minTimestamp | long maxTimestamp
 *                     | long tombstoneCount | long minToken | int minKeyLength | minKey | long maxToken
 *                     | int maxKeyLength | maxKey | int shardId | int shardCount | long uncompressedLength | int level
 *   version 2 fields: the version 1 fields, then two estimated histograms (see EstimatedHistogram), each
 *                     int countLength | long counts[countLength]: partition sizes in bytes (the uncompressed
 *                     partition record's length; 156 counts) and cells per partition (cells of every row, static
 *                     row included, tombstones included, a collection's complex deletion not; 119 counts).
 *                     Read from version 1: both histograms empty (all counts 0).
 * cb-N-TOC.txt: component names, one per line
 * </pre>
 */
public final class SSTableFormat {
    private SSTableFormat() {
    }

    public static final int MAGIC = 0x43425353;
    public static final int FOOTER_MAGIC = 0x46544F52;
    /** Version of the Data, Index and Filter layouts. */
    public static final int VERSION = 1;
    /** Version of the Statistics layout: 2 added the partition-size and cell-count histograms. */
    public static final int STATS_VERSION = 2;
    public static final int HEADER_SIZE = 20;

    public static final int COMPONENT_DATA = 1;
    public static final int COMPONENT_INDEX = 2;
    public static final int COMPONENT_FILTER = 3;
    public static final int COMPONENT_STATS = 4;

    public static final int CHUNK_HEADER = 12;
    public static final int RAW_FLAG = 0x8000_0000;
    public static final int DATA_TRAILER = 33;
    public static final int INDEX_TRAILER = 20;
    public static final int INDEX_BLOCK_TARGET = 4096;

    public static final String PREFIX = "cb-";
    public static final String TMP_PREFIX = "tmp-";
    public static final String[] COMPONENTS = {"Data.db", "Index.db", "Filter.db", "Statistics.db", "TOC.txt"};

    /** The layout version a writer puts in the header of {@code component}; the newest a reader accepts. */
    public static int version(int component) {
        return component == COMPONENT_STATS ? STATS_VERSION : VERSION;
    }

    public static String fileName(long generation, String component) {
        return PREFIX + generation + "-" + component;
    }
}
