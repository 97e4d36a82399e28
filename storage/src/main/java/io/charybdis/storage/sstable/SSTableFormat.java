package io.charybdis.storage.sstable;

/**
 * On-disk layout of an SSTable: five files per generation N in the table directory, all little-endian. Every
 * binary file starts with the common header and ends with a checksummed trailer; files are written under a
 * {@code tmp-} name, fsynced and renamed, the TOC last (its presence marks a complete SSTable).
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
 * cb-N-Statistics.db: header | fields of {@link SSTableStats} | int crc32(all before) | int FOOTER_MAGIC
 * cb-N-TOC.txt: component names, one per line
 * </pre>
 */
public final class SSTableFormat {
    private SSTableFormat() {
    }

    public static final int MAGIC = 0x43425353;
    public static final int FOOTER_MAGIC = 0x46544F52;
    public static final int VERSION = 1;
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

    public static String fileName(long generation, String component) {
        return PREFIX + generation + "-" + component;
    }
}
