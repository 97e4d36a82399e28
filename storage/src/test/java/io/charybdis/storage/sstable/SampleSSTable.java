package io.charybdis.storage.sstable;

import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fixed content of the golden SSTables in {@code src/test/resources/sstable/v<N>/} (generation 1, uncompressed,
 * 1 KiB chunks, so every byte is deterministic): five partitions in token order that together use every part of the
 * partition layout. Their record lengths and cell counts are what a writer records in its histograms:
 *
 * <pre>
 *  #  token  key  content                                                     cells
 *  0  -100   a    one row, one 4-byte cell                                      1
 *  1     0   b    a partition deletion, no row                                  0
 *  2     5   c    static row (1 cell) + 3 rows of 2 cells, one a tombstone      7
 *  3    10   d    one row: a collection's complex deletion + 3 elements         3
 *  4    20   e    a range tombstone + one row with a 3000-byte cell and marker   1
 * </pre>
 */
final class SampleSSTable {
    static final TableId TABLE = new TableId(new java.util.UUID(0x0123456789ABCDEFL, 0x0FEDCBA987654321L));
    static final Map<String, String> COMPRESSION = Map.of("enabled", "false", "chunk_length_in_kb", "1");
    static final int[] CELLS = {1, 0, 7, 3, 1};

    private SampleSSTable() {
    }

    static List<Mutation> partitions() {
        MutationBuilder b = new MutationBuilder();
        List<Mutation> l = new ArrayList<>();
        l.add(b.start(TABLE, -100, bytes("a")).beginRow(new byte[] {1})
                .cell(0, 1000, 0, Integer.MAX_VALUE, ByteBuffer.wrap(new byte[] {1, 2, 3, 4})).endRow().build());
        l.add(b.start(TABLE, 0, bytes("b")).partitionDeletion(2000, 1_700_000_000).build());
        b.start(TABLE, 5, bytes("c")).beginRow(new byte[0])
                .cell(5, 3000, 0, Integer.MAX_VALUE, ByteBuffer.wrap(bytes("static"))).endRow();
        for (int r = 0; r < 3; r++) {
            b.beginRow(new byte[] {(byte) (r + 1)}).cell(0, 3000 + r, 0, Integer.MAX_VALUE, ByteBuffer.wrap(bytes("v" + r)));
            if (r == 1) {
                b.cellTombstone(1, 3100, 1_700_000_100);
            } else {
                b.cell(1, 3000 + r, 3600, 1_700_003_600, ByteBuffer.wrap(bytes("w" + r)));
            }
            b.endRow();
        }
        l.add(b.build());
        b.start(TABLE, 10, bytes("d")).beginRow(new byte[] {1}).complexDeletion(2, 3999, 1_700_000_200);
        for (int e = 0; e < 3; e++) {
            b.complexCell(2, new byte[] {(byte) e}, 4000 + e, 0, Integer.MAX_VALUE, ByteBuffer.wrap(bytes("e" + e)));
        }
        l.add(b.endRow().build());
        l.add(b.start(TABLE, 20, bytes("e")).rangeTombstone(new byte[] {1}, new byte[] {5}, 4500, 1_700_000_300)
                .beginRow(new byte[] {7}).rowMarker(5000, 0, 0)
                .cell(0, 5000, 0, Integer.MAX_VALUE, ByteBuffer.wrap(new byte[3000])).endRow().build());
        return l;
    }

    /** Writes the sample as generation {@code generation} of {@code dir}. */
    static List<Path> write(Path dir, long generation) throws Exception {
        SSTableWriter w = new SSTableWriter(dir, generation, Compression.fromOptions(COMPRESSION), 0, 1, 5);
        for (Mutation m : partitions()) {
            w.append(m.buffer(), m.partitionOffset());
        }
        return w.finish();
    }

    static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
