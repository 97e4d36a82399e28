package io.charybdis.storage.mutation;

import java.nio.ByteOrder;

/**
 * Byte layouts shared by mutations, memtables, SSTable data and read results. All integers are little-endian
 * (native order of every platform we run on); offsets are relative to the start of the record.
 *
 * <pre>
 * Mutation
 *   0                   4                  12                 20
 *   +-------------------+------------------+------------------+------------------------------+
 *   | int totalLength   | long tableId.msb | long tableId.lsb | partition record ...         |
 *   +-------------------+------------------+------------------+------------------------------+
 *
 * Partition record (rows sorted by clustering and unique, except inside a mutation where they
 * appear in build order and may repeat)
 *   0  int  partitionLength (whole record)     24 int  deletionLocalTime
 *   4  long token                              28 int  rangeTombstoneCount
 *   12 int  keyLength                          32 int  rowCount
 *   16 long deletionTimestamp (MIN = none)     36 key bytes
 *   then rangeTombstoneCount range tombstones, then rowCount rows
 *
 * Range tombstone                     covers clusterings in [start, end); never the static row
 *   0  int  startLength (-1 = unbounded)    8 long timestamp
 *   4  int  endLength (-1 = unbounded)     16 int  localDeletionTime
 *   20 start bytes, end bytes
 *
 * Row (the static row has an empty clustering and sorts first)
 *   0  int  rowLength (whole record)       24 long deletionTimestamp (MIN = none)
 *   4  int  clusteringLength               32 int  deletionLocalTime
 *   8  long markerTimestamp (MIN = none)   36 int  cellCount
 *   16 int  markerTtl (0 = none)           40 clustering bytes, then cellCount cells
 *   20 int  markerLocalExpirationTime
 *
 * Cell (sorted by columnId, then complex deletion before elements, then path unsigned)
 *   0  byte flags (1 TOMBSTONE, 2 HAS_PATH, 4 COMPLEX_DELETION, 8 WRITTEN_CLUSTERING)
 *   1  int  columnId                       21 int  pathLength
 *   5  long timestamp                      25 int  valueLength
 *   13 int  ttl (0 = none)                 29 path bytes, value bytes
 *   17 int  localDeletionTime: tombstone deletion time, expiring cell expiration time,
 *           {@link #NO_DELETION_TIME} for a live non-expiring cell
 *
 * Written clustering cell (flag WRITTEN_CLUSTERING, column {@link #WRITTEN_CLUSTERING_COLUMN}, so the row's first
 * cell): the clustering values exactly as a client wrote them, for tables whose clustering key encoding keeps only
 * the values' order and identity (a decimal's scale: 1.0 and 1.00 are one row). Opaque to storage; never live,
 * never a tombstone, never shadowed by a deletion; kept while its row has anything else. Reconciliation keeps the
 * first write: in a memtable the version already there (as Cassandra's memtable keeps a row's existing
 * Clustering), across sources the lower timestamp (then the smaller value bytes).
 * </pre>
 */
public final class MutationLayout {
    private MutationLayout() {
    }

    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;
    public static final int NO_DELETION_TIME = Integer.MAX_VALUE;

    // mutation
    public static final int M_TOTAL_LENGTH = 0;
    public static final int M_TABLE_MSB = 4;
    public static final int M_TABLE_LSB = 12;
    public static final int M_PARTITION = 20;

    // partition
    public static final int P_LENGTH = 0;
    public static final int P_TOKEN = 4;
    public static final int P_KEY_LENGTH = 12;
    public static final int P_DELETION_TS = 16;
    public static final int P_DELETION_LDT = 24;
    public static final int P_RT_COUNT = 28;
    public static final int P_ROW_COUNT = 32;
    public static final int P_KEY = 36;

    // range tombstone
    public static final int RT_START_LENGTH = 0;
    public static final int RT_END_LENGTH = 4;
    public static final int RT_TS = 8;
    public static final int RT_LDT = 16;
    public static final int RT_BOUNDS = 20;

    // row
    public static final int R_LENGTH = 0;
    public static final int R_CLUSTERING_LENGTH = 4;
    public static final int R_MARKER_TS = 8;
    public static final int R_MARKER_TTL = 16;
    public static final int R_MARKER_LET = 20;
    public static final int R_DELETION_TS = 24;
    public static final int R_DELETION_LDT = 32;
    public static final int R_CELL_COUNT = 36;
    public static final int R_CLUSTERING = 40;

    // cell
    public static final int C_FLAGS = 0;
    public static final int C_COLUMN = 1;
    public static final int C_TS = 5;
    public static final int C_TTL = 13;
    public static final int C_LDT = 17;
    public static final int C_PATH_LENGTH = 21;
    public static final int C_VALUE_LENGTH = 25;
    public static final int C_PATH = 29;

    public static final byte FLAG_TOMBSTONE = 1;
    public static final byte FLAG_HAS_PATH = 2;
    public static final byte FLAG_COMPLEX_DELETION = 4;
    public static final byte FLAG_WRITTEN_CLUSTERING = 8;
    /** The column id of the written clustering cell: below every real column, so always a row's first cell. */
    public static final int WRITTEN_CLUSTERING_COLUMN = -1;

    static {
        if (ByteOrder.nativeOrder() != ORDER) {
            throw new ExceptionInInitializerError("Charybdis storage requires a little-endian platform");
        }
    }
}
