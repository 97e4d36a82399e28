package io.charybdis.node.cql.statements;

import static io.charybdis.storage.mutation.MutationLayout.R_MARKER_TTL;
import static io.charybdis.storage.mutation.MutationLayout.RT_END_LENGTH;
import static io.charybdis.storage.mutation.MutationLayout.RT_START_LENGTH;

import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.SetType;
import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;

/**
 * The size Cassandra gives a partition update when it checks a batch against {@code batch_size_warn_threshold} and
 * {@code batch_size_fail_threshold}, so that a batch warns and fails at the same size on both. Cassandra counts the
 * data of the update, not its serialized form: per partition 8 bytes of partition deletion and a static row of 21
 * bytes (liveness 8 + deletion 13) even when there is none; per row the clustering values' bytes, its liveness (8,
 * or 20 when it expires) and its deletion (13); per cell 20 bytes (timestamp 8, ttl 4, local deletion time 8) plus
 * the value and the cell path; per non-frozen collection in a row 12 for its complex deletion; with range tombstones 4
 * plus, per tombstone, 12 and its bounds.
 *
 * <p>Two approximations: range tombstone bounds count their stored (byte-comparable) length, and a row written by
 * several statements of the batch counts once per statement (Cassandra merges them first). Both only make the size
 * larger, and only for shapes that are rare in batches spanning partitions.
 */
final class BatchSize {
    private static final int ROW_BASE = 8 + 13;
    private static final int PARTITION_BASE = 8 + ROW_BASE;
    private static final int EXPIRING_LIVENESS_EXTRA = 4 + 8;
    private static final int CELL_BASE = 8 + 4 + 8;
    private static final int COMPLEX_DELETION = 12;

    private BatchSize() {
    }

    /** Cassandra's {@code PartitionUpdate.dataSize()} of {@code m}, a mutation of {@code table}. */
    static long dataSize(Mutation m, TableMetadata table) {
        SerializedPartition p = new SerializedPartition().wrap(m.buffer(), m.partitionOffset(), false);
        long size = PARTITION_BASE;
        int rts = p.rangeTombstoneCount();
        if (rts > 0) {
            size += 4;
            for (int i = 0; i < rts; i++) {
                DirectBuffer b = p.rangeTombstoneBuffer(i);
                int off = p.rangeTombstoneOffset(i);
                size += 12 + Math.max(0, b.getInt(off + RT_START_LENGTH)) + Math.max(0, b.getInt(off + RT_END_LENGTH));
            }
        }
        ByteBuffer[] clustering = new ByteBuffer[table.clustering().size()];
        for (int i = 0; i < p.rowCount(); i++) {
            DirectBuffer b = p.rowBuffer(i);
            int off = p.rowOffset(i);
            if (!Rows.isStatic(b, off)) {
                size += ROW_BASE + clusteringSize(table, b, off, clustering);
                if (b.getInt(off + R_MARKER_TTL) != 0) {
                    size += EXPIRING_LIVENESS_EXTRA;
                }
            }
            size += cellsSize(table, b, off);
        }
        return size;
    }

    private static int clusteringSize(TableMetadata table, DirectBuffer b, int off, ByteBuffer[] out) {
        if (out.length == 0) {
            return 0;
        }
        byte[] key = new byte[Rows.clusteringLength(b, off)];
        b.getBytes(Rows.clusteringOffset(off), key);
        ClusteringCodec.decode(table, key, out);
        int size = 0;
        for (ByteBuffer v : out) {
            size += v == null ? 0 : v.remaining();
        }
        return size;
    }

    private static long cellsSize(TableMetadata table, DirectBuffer b, int rowOff) {
        long size = 0;
        int c = Rows.firstCellOffset(b, rowOff);
        int lastComplex = -1;
        for (int i = Rows.cellCount(b, rowOff); i > 0; i--) {
            int column = Cells.column(b, c);
            if (Cells.isWrittenClustering(b, c)) {
                c += Cells.length(b, c); // the clustering as written: part of the key, not a cell, to Cassandra
                continue;
            }
            boolean complex = Cells.isComplexDeletion(b, c) || Cells.pathLength(b, c) > 0;
            if (complex && column != lastComplex) {
                size += COMPLEX_DELETION;
                lastComplex = column;
            }
            if (!Cells.isComplexDeletion(b, c)) {
                size += CELL_BASE + Cells.valueLength(b, c) + pathSize(table.columnByCellId(column), b, c);
            }
            c += Cells.length(b, c);
        }
        return size;
    }

    /** Set elements and map keys are stored byte-comparable; Cassandra counts their plain serialized bytes. */
    private static int pathSize(ColumnMetadata column, DirectBuffer b, int c) {
        int length = Cells.pathLength(b, c);
        if (length <= 0 || column == null) {
            return Math.max(0, length);
        }
        DataType keyType = switch (column.type()) {
            case SetType s -> s.element();
            case MapType mt -> mt.key();
            default -> null;
        };
        if (keyType == null) {
            return length;
        }
        byte[] path = new byte[length];
        b.getBytes(Cells.valueOffset(b, c) - length, path);
        return ClusteringCodec.decodeSingle(keyType, ByteBuffer.wrap(path)).remaining();
    }
}
