package io.charybdis.node.index;

import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.PartitionKeyCodec;
import io.charybdis.node.cql.keys.WrittenClustering;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.storage.DerivedWrites;
import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.mutation.MutationLayout;
import io.charybdis.storage.mutation.Rows;
import io.charybdis.storage.mutation.SerializedPartition;
import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps the native indexes of one table in step with its writes: for every live indexed value a write carries, an
 * entry (see {@link IndexEntries}) in the index's hidden table of the same shard, with the value's timestamp and TTL.
 *
 * <p>Implementation notes: as Cassandra's legacy index, writes never read before writing. An overwritten or deleted
 * value leaves its old entry behind; a query checks each entry against the base row it names and skips stale ones,
 * so entries only ever need to be a superset of the live values. A TTL'd value's entry expires with it. Row
 * liveness for key-column indexes (partition key component, clustering column) comes from the row marker, or the
 * newest live cell of the row when an UPDATE wrote no marker. Runs on the shard thread (a {@link DerivedWrites}).
 */
final class IndexWriter implements DerivedWrites {
    private final List<IndexTarget> targets;
    private final int pkCount;
    /** Per shard thread: derive runs on every shard at once (one writer per table, shared by the shards). */
    private final ThreadLocal<SerializedPartition> view = ThreadLocal.withInitial(SerializedPartition::new);
    private final ThreadLocal<MutationBuilder> builder = ThreadLocal.withInitial(MutationBuilder::new);

    IndexWriter(List<IndexTarget> targets) {
        this.targets = List.copyOf(targets);
        this.pkCount = targets.get(0).table().partitionKey().size();
    }

    @Override
    public void derive(Mutation base, int shard, int shardCount, Consumer<Mutation> out) {
        SerializedPartition p = view.get().wrap(base.buffer(), base.partitionOffset(), false);
        byte[] key = base.partitionKey();
        long token = base.token();
        ByteBuffer[] keyParts = null;
        for (int i = 0; i < p.rowCount(); i++) {
            DirectBuffer b = p.rowBuffer(i);
            int row = p.rowOffset(i);
            int ckLength = Rows.clusteringLength(b, row);
            byte[] ck = new byte[ckLength];
            b.getBytes(Rows.clusteringOffset(row), ck);
            boolean staticRow = ckLength == 0;
            ByteBuffer[] ckParts = null;
            for (IndexTarget t : targets) {
                ColumnMetadata c = t.column();
                switch (c.kind()) {
                    case PARTITION_KEY, CLUSTERING -> {
                        if (staticRow && c.kind() == ColumnMetadata.Kind.CLUSTERING) {
                            continue;
                        }
                        // a partition key component is indexed from the static row too (as Cassandra does), with a
                        // partition-level entry: it finds a partition that has only static data
                        long[] live = rowLiveness(b, row);
                        if (live == null) {
                            continue;
                        }
                        ByteBuffer v;
                        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY) {
                            if (keyParts == null) {
                                keyParts = PartitionKeyCodec.split(ByteBuffer.wrap(key), pkCount);
                            }
                            v = keyParts[c.position()];
                        } else {
                            if (ckParts == null) {
                                ckParts = new ByteBuffer[t.table().clustering().size()];
                                ClusteringCodec.decode(t.table(), ck, ckParts);
                                int written = Rows.writtenClusteringOffset(b, row);
                                if (written >= 0) {
                                    // indexed as written, as Cassandra indexes the clustering's bytes
                                    byte[] w = new byte[Cells.valueLength(b, written)];
                                    b.getBytes(Cells.valueOffset(b, written), w);
                                    int[] kept = t.table().clusteringKeptAsWritten();
                                    WrittenClustering.decode(kept, w, 0, w.length, views(w, kept.length), ckParts, 0);
                                }
                            }
                            v = ckParts[c.position()];
                        }
                        if (v != null) {
                            emit(t, v, live[0], (int) live[1], (int) live[2], token, key, ck, shard, shardCount, out);
                        }
                    }
                    default -> {
                        if (c.isStatic() != staticRow) {
                            continue;
                        }
                        cells(t, b, row, token, key, ck, shard, shardCount, out);
                    }
                }
            }
        }
    }

    private void cells(IndexTarget t, DirectBuffer b, int row, long token, byte[] key, byte[] ck, int shard,
                       int shardCount, Consumer<Mutation> out) {
        int cellId = t.column().cellId();
        int off = Rows.firstCellOffset(b, row);
        int n = Rows.cellCount(b, row);
        TypeKind kind = Types.kind(t.column().type());
        for (int j = 0; j < n; j++, off += Cells.length(b, off)) {
            if (Cells.column(b, off) != cellId || Cells.isTombstone(b, off) || Cells.isComplexDeletion(b, off)) {
                continue;
            }
            ByteBuffer value = bytes(b, Cells.valueOffset(b, off), Cells.valueLength(b, off));
            ByteBuffer indexed;
            if (!t.perElement()) {
                indexed = value;
            } else {
                int pathLength = Cells.pathLength(b, off);
                ByteBuffer path = bytes(b, off + MutationLayout.C_PATH, pathLength);
                indexed = switch (t.kind()) {
                    case KEYS -> ClusteringCodec.decodeSingle(Types.keyType(t.column().type()), path);
                    case ENTRIES -> PartitionKeyCodec.compose(new ByteBuffer[]{
                            ClusteringCodec.decodeSingle(Types.keyType(t.column().type()), path), value});
                    default -> kind == TypeKind.SET
                            ? ClusteringCodec.decodeSingle(Types.elementType(t.column().type()), path) : value;
                };
            }
            emit(t, indexed, Cells.timestamp(b, off), Cells.ttl(b, off), Cells.localDeletionTime(b, off), token, key,
                    ck, shard, shardCount, out);
        }
    }

    /** {timestamp, ttl, expiration} of a row's liveness (marker, else newest live cell), or null for a dead row. */
    private static long[] rowLiveness(DirectBuffer b, int row) {
        long marker = Rows.markerTimestamp(b, row);
        if (marker != MutationLayout.NO_TIMESTAMP) {
            int ttl = b.getInt(row + MutationLayout.R_MARKER_TTL);
            return new long[]{marker, ttl, b.getInt(row + MutationLayout.R_MARKER_LET)};
        }
        long newest = MutationLayout.NO_TIMESTAMP;
        int off = Rows.firstCellOffset(b, row);
        int n = Rows.cellCount(b, row);
        for (int j = 0; j < n; j++, off += Cells.length(b, off)) {
            if (!Cells.isTombstone(b, off) && !Cells.isComplexDeletion(b, off) && !Cells.isWrittenClustering(b, off)) {
                newest = Math.max(newest, Cells.timestamp(b, off));
            }
        }
        return newest == MutationLayout.NO_TIMESTAMP ? null : new long[]{newest, 0, MutationLayout.NO_DELETION_TIME};
    }

    private void emit(IndexTarget t, ByteBuffer value, long ts, int ttl, int expiration, long token, byte[] key,
                      byte[] ck, int shard, int shardCount, Consumer<Mutation> out) {
        byte[] pk = IndexEntries.partitionKey(value);
        long indexToken = IndexEntries.token(pk, shard, shardCount);
        byte[] entryCk = IndexEntries.clustering(token, key, t.partitionLevel() ? null : ck);
        out.accept(builder.get().start(t.indexTable(), indexToken, pk).beginRow(entryCk).rowMarker(ts, ttl, expiration)
                .endRow().build());
    }

    private static ByteBuffer[] views(byte[] a, int n) {
        ByteBuffer[] v = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            v[i] = ByteBuffer.wrap(a);
        }
        return v;
    }

    private static ByteBuffer bytes(DirectBuffer b, int off, int len) {
        byte[] a = new byte[len];
        b.getBytes(off, a);
        return ByteBuffer.wrap(a);
    }
}
