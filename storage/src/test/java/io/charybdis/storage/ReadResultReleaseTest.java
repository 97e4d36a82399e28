package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read results live in pooled buffers that {@link ReadResult#release()} gives back: released results cannot be
 * read any more, and reads that reuse the buffers (single-partition, and range reads merged from two shards, whose
 * per-shard parts are released by the merge) return exactly what was written.
 */
@Timeout(60)
class ReadResultReleaseTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @Test
    void releasedResultsAreUnreadableAndTheirBuffersServeLaterReads(@TempDir Path dir) {
        TableDescriptor t = TestSupport.table("t", Map.of(), Map.of());
        MutationBuilder b = new MutationBuilder();
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            int partitions = 40;
            for (int i = 0; i < partitions; i++) {
                b.start(t.id(), token(i), key(i));
                for (int r = 0; r <= i % 7; r++) {
                    b.beginRow(new byte[] {0x40, (byte) r}).rowMarker(10, 0, Integer.MAX_VALUE)
                            .cell(0, 10, 0, Integer.MAX_VALUE, ByteBuffer.wrap(("v" + i + "." + r).getBytes(
                                    StandardCharsets.UTF_8))).endRow();
                }
                Mutation m = b.build();
                s.apply(m).orTimeout(10, TimeUnit.SECONDS).join();
            }
            for (int round = 0; round < 20; round++) {
                ReadResult range = s.read(ReadCommand.range(t.id(), null, null).nowInSeconds(NOW).build())
                        .orTimeout(10, TimeUnit.SECONDS).join();
                Map<String, Integer> rows = new HashMap<>();
                ReadResult.Cursor c = range.cursor();
                while (c.nextPartition()) {
                    String k = new String(c.keyBytes(), StandardCharsets.UTF_8);
                    int i = Integer.parseInt(k.substring(4));
                    int n = 0;
                    while (c.nextRow()) {
                        assertThat(c.nextCell()).isTrue();
                        assertThat(new String(c.valueBytes(), StandardCharsets.UTF_8)).isEqualTo("v" + i + "." + n);
                        n++;
                    }
                    rows.put(k, n);
                }
                assertThat(rows).hasSize(partitions);
                range.release();
                range.release(); // idempotent
                assertThatThrownBy(() -> range.cursor().nextPartition()).isInstanceOf(IndexOutOfBoundsException.class);
                int i = round % partitions;
                ReadResult one = s.read(ReadCommand.partition(t.id(), token(i), key(i)).nowInSeconds(NOW).build())
                        .orTimeout(10, TimeUnit.SECONDS).join();
                ReadResult.Cursor p = one.cursor();
                assertThat(p.nextPartition()).isTrue();
                assertThat(p.nextRow() && p.nextCell()).isTrue();
                assertThat(new String(p.valueBytes(), StandardCharsets.UTF_8)).isEqualTo("v" + i + ".0");
                assertThat(one.lastKey()).isEqualTo(key(i));
                one.release();
            }
        }
    }

    static long token(int i) {
        return i * 7_919_000_001L - 100_000L;
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
