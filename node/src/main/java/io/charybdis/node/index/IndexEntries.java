package io.charybdis.node.index;

import io.charybdis.node.cql.keys.Murmur3;
import io.charybdis.storage.DerivedWrites;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The layout of a native index's hidden table (one per index, node and shard).
 *
 * <pre>
 * partition key   0x01 | indexed value bytes          (the marker keeps an empty value a non-empty key)
 * token           a token of the writing shard, from the Murmur3 hash of the partition key
 *                 ({@link DerivedWrites#tokenInShard}): each shard indexes the base rows it owns, in its own slice
 * clustering      +----------------------+-------------------+-----------+--------------------------+
 *                 | base token ^ MIN, BE | base key length BE | base key  | base clustering (storage) |
 *                 | 8 bytes              | 4 bytes            |           | empty for a partition    |
 *                 +----------------------+-------------------+-----------+--------------------------+
 * row             a row marker only, with the indexed cell's timestamp and TTL
 * </pre>
 *
 * Unsigned byte order of the clustering is base token order, then key, then clustering: index results come out in
 * the order of a token range scan, and a base position (token, key, clustering) names the entry to page from.
 */
public final class IndexEntries {
    static final int HEADER = 12;

    private IndexEntries() {
    }

    public static byte[] partitionKey(ByteBuffer value) {
        byte[] k = new byte[1 + value.remaining()];
        k[0] = 1;
        value.duplicate().get(k, 1, value.remaining());
        return k;
    }

    public static long token(byte[] partitionKey, int shard, int shardCount) {
        return DerivedWrites.tokenInShard(Murmur3.token(ByteBuffer.wrap(partitionKey)), shard, shardCount);
    }

    public static byte[] clustering(long baseToken, byte[] key, int keyOffset, int keyLength, byte[] ck, int ckOffset,
                                    int ckLength) {
        byte[] out = new byte[HEADER + keyLength + ckLength];
        ByteBuffer b = ByteBuffer.wrap(out);
        b.putLong(baseToken ^ Long.MIN_VALUE).putInt(keyLength).put(key, keyOffset, keyLength).put(ck, ckOffset, ckLength);
        return out;
    }

    public static byte[] clustering(long baseToken, byte[] key, byte[] ck) {
        byte[] c = ck == null ? new byte[0] : ck;
        return clustering(baseToken, key, 0, key.length, c, 0, c.length);
    }

    /** The smallest clustering strictly after {@code c} (no clustering lies between the two). */
    public static byte[] after(byte[] c) {
        return Arrays.copyOf(c, c.length + 1);
    }

    public static long baseToken(byte[] c, int off) {
        return ByteBuffer.wrap(c, off, 8).getLong() ^ Long.MIN_VALUE;
    }

    public static int keyLength(byte[] c, int off) {
        return ByteBuffer.wrap(c, off + 8, 4).getInt();
    }
}
