package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.ClusteringDecoder;
import io.charybdis.node.cql.keys.OrderedCodec;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;

import java.nio.ByteBuffer;

/**
 * Gathers the cells of one multi-cell column (non-frozen list, set, map or UDT) of the current row, as positions in
 * the read result's array, and serializes them into the column's value in a buffer it owns and reuses: after the
 * first rows have grown the buffers, a row costs no allocation (unless set elements or map keys are decimals or
 * composite values, which decode through {@link ClusteringCodec}'s allocating path). The value is valid until the
 * next row, like every value of {@link RowData}.
 *
 * <p>Set elements and map keys are stored as byte-comparable cell paths and decoded back here; list elements and
 * map values are the cells' values; a UDT cell's path is its field index (two bytes, unsigned).
 */
final class MultiCellAssembler {
    private final TypeKind kind;
    private final DataType keyType;
    private final OrderedCodec.Kind keyKind;
    private final int fields;
    /** Four ints per cell: path offset, path length, value offset, value length. */
    private int[] cells = new int[32];
    private int count;
    private byte[] out = new byte[128];
    private ByteBuffer view = ByteBuffer.wrap(out);

    MultiCellAssembler(ColumnMetadata column) {
        DataType type = column.type();
        this.kind = Types.kind(type);
        this.keyType = switch (kind) {
            case SET -> Types.elementType(type);
            case MAP -> Types.keyType(type);
            default -> null;
        };
        OrderedCodec.Kind k = keyType == null ? null : Types.orderedKind(keyType);
        this.keyKind = k == OrderedCodec.Kind.DECIMAL ? null : k;
        this.fields = kind == TypeKind.UDT ? Types.fieldTypes(type).size() : 0;
        if (kind != TypeKind.SET && kind != TypeKind.MAP && kind != TypeKind.LIST && kind != TypeKind.UDT) {
            throw new IllegalStateException("not multi-cell: " + column);
        }
    }

    void clear() {
        count = 0;
    }

    boolean isEmpty() {
        return count == 0;
    }

    void add(int pathOffset, int pathLength, int valueOffset, int valueLength) {
        int i = count * 4;
        if (i + 4 > cells.length) {
            cells = java.util.Arrays.copyOf(cells, cells.length * 2);
        }
        cells[i] = pathOffset;
        cells[i + 1] = pathLength;
        cells[i + 2] = valueOffset;
        cells[i + 3] = valueLength;
        count++;
    }

    /** The column's serialized value from the gathered cells, whose bytes are in {@code src}. */
    ByteBuffer assemble(byte[] src) {
        int bound = 4 + 4 * fields;
        for (int c = 0; c < count; c++) {
            bound += 8 + cells[c * 4 + 1] + cells[c * 4 + 3];
        }
        if (out.length < bound) {
            out = new byte[Math.max(bound, out.length * 2)];
            view = ByteBuffer.wrap(out);
        }
        int q = switch (kind) {
            case LIST -> {
                int w = putInt(0, count);
                for (int c = 0; c < count; c++) {
                    w = putValue(w, src, cells[c * 4 + 2], cells[c * 4 + 3]);
                }
                yield w;
            }
            case SET, MAP -> {
                int w = putInt(0, count);
                for (int c = 0; c < count; c++) {
                    w = putKey(w, src, cells[c * 4], cells[c * 4 + 1]);
                    if (kind == TypeKind.MAP) {
                        w = putValue(w, src, cells[c * 4 + 2], cells[c * 4 + 3]);
                    }
                }
                yield w;
            }
            default -> { // UDT: every field in order, -1 for those without a cell
                int w = 0;
                int c = 0;
                for (int f = 0; f < fields; f++) {
                    while (c < count && fieldOf(src, c) < f) {
                        c++;
                    }
                    if (c < count && fieldOf(src, c) == f) {
                        w = putValue(w, src, cells[c * 4 + 2], cells[c * 4 + 3]);
                        c++;
                    } else {
                        w = putInt(w, -1);
                    }
                }
                yield w;
            }
        };
        view.limit(q);
        view.position(0);
        return view;
    }

    private int fieldOf(byte[] src, int c) {
        int p = cells[c * 4];
        return ((src[p] & 0xFF) << 8) | (src[p + 1] & 0xFF);
    }

    private int putInt(int w, int v) {
        out[w] = (byte) (v >>> 24);
        out[w + 1] = (byte) (v >>> 16);
        out[w + 2] = (byte) (v >>> 8);
        out[w + 3] = (byte) v;
        return w + 4;
    }

    private int putValue(int w, byte[] src, int offset, int length) {
        w = putInt(w, length);
        System.arraycopy(src, offset, out, w, length);
        return w + length;
    }

    /** A set element or map key: its byte-comparable cell path decoded back to the value's bytes. */
    private int putKey(int w, byte[] src, int offset, int length) {
        int start = w + 4;
        int end;
        if (length == 0 || src[offset] == ClusteringCodec.EMPTY_MARKER) {
            end = start;
        } else if (keyKind != null) {
            end = (int) ClusteringDecoder.decodeValue(keyKind, src, offset + 1, 0, out, start);
        } else {
            ByteBuffer v = ClusteringCodec.decodeSingle(keyType, ByteBuffer.wrap(src, offset, length).slice());
            end = start + v.remaining();
            if (end > out.length) { // not expected (decoding shrinks), but never write past the buffer
                out = java.util.Arrays.copyOf(out, end * 2);
                view = ByteBuffer.wrap(out);
            }
            v.get(v.position(), out, start, v.remaining());
        }
        putInt(w, end - start);
        return end;
    }
}
