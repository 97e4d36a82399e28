package io.charybdis.node.cql.keys;

import io.charybdis.node.schema.TableMetadata;

import java.nio.ByteBuffer;

/**
 * The clustering values of a row as a client wrote them, for the columns whose row key ({@link ClusteringCodec})
 * keeps only the values' order and identity ({@link TableMetadata#clusteringKeptAsWritten()}: decimals, whose key
 * is the value without its scale, as Cassandra's DecimalType compares 1.0 and 1.00 equal). Stored beside the row
 * key in the storage engine's written clustering cell, which keeps the first write's form as Cassandra's memtable
 * keeps a row's existing Clustering; reads show these values instead of the ones decoded from the key.
 *
 * <pre>
 *  value   := column*           one per position of clusteringKeptAsWritten, in that order
 *  column  := int length        big-endian; -1 when the row has no value there (a clustering prefix's row)
 *             byte[length]      the value's serialized bytes
 * </pre>
 */
public final class WrittenClustering {
    private WrittenClustering() {
    }

    /**
     * The written form of the clustering {@code values} (the first {@code count} clustering columns' values; fewer
     * than the table has for a clustering prefix's row), or null when the table's keys keep every value as written.
     */
    public static ByteBuffer encode(TableMetadata table, ByteBuffer[] values, int count) {
        int[] kept = table.clusteringKeptAsWritten();
        if (kept.length == 0) {
            return null;
        }
        int size = 0;
        for (int column : kept) {
            size += 4 + (column < count ? values[column].remaining() : 0);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (int column : kept) {
            if (column < count) {
                out.putInt(values[column].remaining());
                out.put(values[column].duplicate());
            } else {
                out.putInt(-1);
            }
        }
        return out.flip();
    }

    /**
     * Points {@code out[base + column]} at each written value held in {@code src[off, off + len)}, re-targeting
     * {@code views} (one per kept column, each wrapping {@code src}): no allocation.
     *
     * @throws IllegalStateException if the bytes are not of this layout
     */
    public static void decode(int[] kept, byte[] src, int off, int len, ByteBuffer[] views, ByteBuffer[] out,
                              int base) {
        int p = off;
        int end = off + len;
        for (int i = 0; i < kept.length; i++) {
            if (end - p < 4) {
                throw malformed(len);
            }
            int n = ((src[p] & 0xFF) << 24) | ((src[p + 1] & 0xFF) << 16) | ((src[p + 2] & 0xFF) << 8)
                    | (src[p + 3] & 0xFF);
            p += 4;
            if (n < 0) {
                continue;
            }
            if (n > end - p) {
                throw malformed(len);
            }
            ByteBuffer v = views[i];
            v.limit(p + n);
            v.position(p);
            out[base + kept[i]] = v;
            p += n;
        }
    }

    private static IllegalStateException malformed(int len) {
        return new IllegalStateException("malformed written clustering: length=" + len);
    }
}
