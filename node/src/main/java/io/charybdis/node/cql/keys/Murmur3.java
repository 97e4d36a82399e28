package io.charybdis.node.cql.keys;

import java.nio.ByteBuffer;

/**
 * The token function of Cassandra's {@code Murmur3Partitioner}: the first 64 bits of MurmurHash3 x64/128 (seed 0)
 * over the serialized partition key.
 *
 * <p>Implementation notes: Cassandra's variant differs from the reference MurmurHash3 in one place that
 * changes results for keys whose length is not a multiple of 16: the tail bytes are sign-extended when they are
 * widened to 64 bits. Drivers reproduce that quirk to route requests, so we must too. {@link Long#MIN_VALUE}
 * is not a valid token and is mapped to {@link Long#MAX_VALUE}, as Cassandra does.
 */
public final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {
    }

    public static long token(ByteBuffer key) {
        long h = hash64(key, key.position(), key.remaining());
        return h == Long.MIN_VALUE ? Long.MAX_VALUE : h;
    }

    public static long token(byte[] key) {
        return token(ByteBuffer.wrap(key));
    }

    static long hash64(ByteBuffer key, int offset, int length) {
        int nblocks = length >> 4;
        long h1 = 0;
        long h2 = 0;
        for (int i = 0; i < nblocks; i++) {
            long k1 = block(key, offset + (i << 4));
            long k2 = block(key, offset + (i << 4) + 8);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = offset + (nblocks << 4);
        long k1 = 0;
        long k2 = 0;
        switch (length & 15) {
            case 15: k2 ^= ((long) key.get(tail + 14)) << 48; // fall through
            case 14: k2 ^= ((long) key.get(tail + 13)) << 40; // fall through
            case 13: k2 ^= ((long) key.get(tail + 12)) << 32; // fall through
            case 12: k2 ^= ((long) key.get(tail + 11)) << 24; // fall through
            case 11: k2 ^= ((long) key.get(tail + 10)) << 16; // fall through
            case 10: k2 ^= ((long) key.get(tail + 9)) << 8; // fall through
            case 9:
                k2 ^= key.get(tail + 8);
                k2 *= C2;
                k2 = Long.rotateLeft(k2, 33);
                k2 *= C1;
                h2 ^= k2;
                // fall through
            case 8: k1 ^= ((long) key.get(tail + 7)) << 56; // fall through
            case 7: k1 ^= ((long) key.get(tail + 6)) << 48; // fall through
            case 6: k1 ^= ((long) key.get(tail + 5)) << 40; // fall through
            case 5: k1 ^= ((long) key.get(tail + 4)) << 32; // fall through
            case 4: k1 ^= ((long) key.get(tail + 3)) << 24; // fall through
            case 3: k1 ^= ((long) key.get(tail + 2)) << 16; // fall through
            case 2: k1 ^= ((long) key.get(tail + 1)) << 8; // fall through
            case 1:
                k1 ^= key.get(tail);
                k1 *= C1;
                k1 = Long.rotateLeft(k1, 31);
                k1 *= C2;
                h1 ^= k1;
                break;
            default:
                break;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        return h1;
    }

    private static long block(ByteBuffer key, int index) {
        long r = 0;
        for (int i = 7; i >= 0; i--) {
            r = (r << 8) | (key.get(index + i) & 0xffL);
        }
        return r;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
