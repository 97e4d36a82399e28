package io.charybdis.node.cql.keys;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.Types;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Decodes row keys ({@link ClusteringCodec}) of one table on the read path without allocating per row: values are
 * decoded into a scratch array owned by the decoder and handed out as reused {@link ByteBuffer} views over it, so
 * each decoded value is valid only until the next {@link #decode} call (who keeps one copies it).
 *
 * <p>Fixed-width, uuid, varint and byte-string columns (ascending or descending) decode with no allocation. A
 * decimal or a composite clustering column (frozen collection, tuple, UDT, vector) decodes through
 * {@link ClusteringCodec}'s allocating path, into a fresh buffer.
 */
public final class ClusteringDecoder {
    private final OrderedCodec.Kind[] kinds;
    private final boolean[] reversed;
    private final List<ColumnMetadata> columns;
    private final ByteBuffer[] views;
    private byte[] scratch;

    public ClusteringDecoder(TableMetadata table) {
        this.columns = table.clustering();
        int n = columns.size();
        kinds = new OrderedCodec.Kind[n];
        reversed = new boolean[n];
        views = new ByteBuffer[n];
        scratch = new byte[64];
        for (int i = 0; i < n; i++) {
            kinds[i] = Types.orderedKind(columns.get(i).type());
            reversed[i] = columns.get(i).reversed();
            views[i] = ByteBuffer.wrap(scratch);
        }
    }

    /**
     * Decodes the full row key in {@code src[off, off + len)} into {@code out[base .. base + clustering columns)}.
     * The values put there are this decoder's views (or, for decimal and composite columns, fresh buffers).
     */
    public void decode(byte[] src, int off, int len, ByteBuffer[] out, int base) {
        if (scratch.length < len) {
            // a decoded value is never longer than its encoding
            scratch = new byte[Math.max(len, scratch.length * 2)];
            for (int i = 0; i < views.length; i++) {
                views[i] = ByteBuffer.wrap(scratch);
            }
        }
        int p = off;
        int q = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (p >= off + len) {
                out[base + i] = null; // a clustering prefix's row (compound dense COMPACT STORAGE)
                continue;
            }
            int mask = reversed[i] ? 0xFF : 0;
            byte marker = (byte) (src[p++] ^ mask);
            int start = q;
            OrderedCodec.Kind kind = kinds[i];
            if (marker == ClusteringCodec.EMPTY) {
                // an empty value: zero bytes
            } else if (kind == null || kind == OrderedCodec.Kind.DECIMAL) {
                ByteBuffer in = ByteBuffer.wrap(src, p, off + len - p);
                if (mask != 0) {
                    byte[] inverted = new byte[in.remaining()];
                    for (int k = 0; k < inverted.length; k++) {
                        inverted[k] = (byte) ~src[p + k];
                    }
                    in = ByteBuffer.wrap(inverted);
                }
                int before = in.position();
                out[base + i] = ClusteringCodec.decodeValue(columns.get(i).type(), in);
                p += in.position() - before;
                continue;
            } else {
                long pq = decodeValue(kind, src, p, mask, scratch, q);
                p = (int) (pq >>> 32);
                q = (int) pq;
            }
            ByteBuffer v = views[i];
            v.limit(q);
            v.position(start);
            out[base + i] = v;
        }
    }

    /**
     * Decodes one value of a fixed-width, uuid, varint or byte-string kind (not DECIMAL, not composite) from its
     * byte-comparable form at {@code src[p]} (each byte XOR {@code mask}: 0xFF for a descending column) into
     * {@code dst[q]}, which must have room for the encoded length. Returns the positions after it, packed:
     * {@code (p << 32) | q}.
     */
    public static long decodeValue(OrderedCodec.Kind kind, byte[] src, int p, int mask, byte[] dst, int q) {
        switch (kind) {
            case INT8, INT16, INT32, INT64 -> {
                int w = kind.width;
                for (int k = 0; k < w; k++) {
                    dst[q + k] = (byte) (src[p + k] ^ mask);
                }
                dst[q] ^= (byte) 0x80;
                p += w;
                q += w;
            }
            case UINT32, BOOLEAN -> {
                int w = kind.width;
                for (int k = 0; k < w; k++) {
                    dst[q + k] = (byte) (src[p + k] ^ mask);
                }
                p += w;
                q += w;
            }
            case FLOAT -> {
                int bits = (int) getLong(src, p, 4, mask);
                bits = bits < 0 ? bits ^ 0x80000000 : ~bits;
                putLong(dst, q, bits, 4);
                p += 4;
                q += 4;
            }
            case DOUBLE -> {
                long bits = getLong(src, p, 8, mask);
                bits = bits < 0 ? bits ^ 0x8000000000000000L : ~bits;
                putLong(dst, q, bits, 8);
                p += 8;
                q += 8;
            }
            case BYTES -> {
                while (true) {
                    byte b = (byte) (src[p++] ^ mask);
                    if (b == 0) {
                        byte next = (byte) (src[p++] ^ mask);
                        if (next == 0) {
                            break;
                        }
                        dst[q++] = 0;
                    } else {
                        dst[q++] = b;
                    }
                }
            }
            case VARINT -> {
                byte cls = (byte) (src[p++] ^ mask);
                int n = (int) getLong(src, p, 4, mask);
                p += 4;
                if (cls == 0) {
                    n = ~n;
                }
                for (int k = 0; k < n; k++) {
                    dst[q + k] = (byte) (src[p + k] ^ mask);
                }
                p += n;
                q += n;
            }
            case UUID, TIMEUUID -> {
                boolean timeUuid = kind == OrderedCodec.Kind.TIMEUUID;
                int version = timeUuid ? 1 : (byte) (src[p++] ^ mask);
                long first = getLong(src, p, 8, mask);
                long msb;
                if (version == 1) {
                    long timeHi = (first >>> 48) & 0x0fffL;
                    long timeMid = (first >>> 32) & 0xffffL;
                    long timeLow = first & 0xffffffffL;
                    msb = (timeLow << 32) | (timeMid << 16) | 0x1000L | timeHi;
                } else {
                    msb = first;
                }
                long lsb = getLong(src, p + 8, 8, mask);
                if (timeUuid) {
                    lsb ^= 0x8080808080808080L;
                }
                p += 16;
                putLong(dst, q, msb, 8);
                putLong(dst, q + 8, lsb, 8);
                q += 16;
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return ((long) p << 32) | (q & 0xFFFFFFFFL);
    }

    /** Reads {@code width} bytes big-endian, each XOR {@code mask}. */
    private static long getLong(byte[] b, int p, int width, int mask) {
        long v = 0;
        for (int k = 0; k < width; k++) {
            v = (v << 8) | ((b[p + k] ^ mask) & 0xFF);
        }
        return v;
    }

    private static void putLong(byte[] b, int q, long v, int width) {
        for (int k = width - 1; k >= 0; k--) {
            b[q + k] = (byte) v;
            v >>>= 8;
        }
    }
}
