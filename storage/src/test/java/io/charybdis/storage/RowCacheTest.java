package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class RowCacheTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    final MutationBuilder b = new MutationBuilder();

    static long token(int i) {
        return i * 7_919_000_001L - 100_000L;
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    Mutation row(TableId t, int i, long ts, String value) {
        b.start(t, token(i), key(i)).beginRow(new byte[] {1}).rowMarker(ts, 0, Integer.MAX_VALUE)
                .cell(0, ts, 0, Integer.MAX_VALUE, ByteBuffer.wrap(value.getBytes())).endRow();
        return b.build();
    }

    static String value(Storage s, TableId t, int i) {
        ReadResult r = s.read(ReadCommand.partition(t, token(i), key(i)).nowInSeconds(NOW).build())
                .orTimeout(10, TimeUnit.SECONDS).join();
        ReadResult.Cursor c = r.cursor();
        if (!c.nextPartition() || !c.nextRow() || !c.nextCell()) {
            return null;
        }
        return new String(c.valueBytes());
    }

    static void join(java.util.concurrent.CompletableFuture<?> f) {
        f.orTimeout(20, TimeUnit.SECONDS).join();
    }

    @Test
    void shouldServeHitsAndStayCoherentWithWritesFlushesAndTruncate(@TempDir Path dir) {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int i = 0; i < 20; i++) {
                join(s.apply(row(t.id(), i, 10, "v" + i)));
            }
            join(s.flush(t.id()));
            for (int i = 0; i < 20; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo("v" + i); // miss, populates
            }
            RowCacheStats afterMisses = s.rowCacheStats();
            assertThat(afterMisses.entries()).isEqualTo(20);
            for (int i = 0; i < 20; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo("v" + i);
            }
            assertThat(s.rowCacheStats().hits()).isGreaterThanOrEqualTo(afterMisses.hits() + 20);
            // a write to a cached partition is visible at once, before and after its flush
            join(s.apply(row(t.id(), 3, 20, "new")));
            join(s.apply(row(t.id(), 4, 5, "older")));
            assertThat(value(s, t.id(), 3)).isEqualTo("new");
            assertThat(value(s, t.id(), 4)).isEqualTo("v4");
            join(s.flush(t.id()));
            long hits = s.rowCacheStats().hits();
            assertThat(value(s, t.id(), 3)).isEqualTo("new");
            assertThat(value(s, t.id(), 4)).isEqualTo("v4");
            assertThat(s.rowCacheStats().hits()).isEqualTo(hits + 2);
            // absent partitions are cached too
            assertThat(value(s, t.id(), 999)).isNull();
            join(s.apply(row(t.id(), 999, 1, "late")));
            join(s.flush(t.id()));
            assertThat(value(s, t.id(), 999)).isEqualTo("late");
            join(s.truncate(t.id()));
            assertThat(s.rowCacheStats().entries()).isZero();
            assertThat(value(s, t.id(), 3)).isNull();
            ts.closeStorage();
        }
    }

    @Test
    void shouldEvictLeastRecentlyUsedUnderTheSharedBudget(@TempDir Path dir) {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        long budget = 1 << 20;
        StorageConfig config = TestSupport.config(dir, CommitLogSync.PERIODIC).withMemoryBudgetBytes(budget);
        try (TestSupport ts = new TestSupport(dir, 1, config)) {
            Storage s = ts.open(t);
            char[] big = new char[900];
            Arrays.fill(big, 'x');
            int n = 2000;
            for (int i = 0; i < n; i++) {
                join(s.apply(row(t.id(), i, 10, i + new String(big))));
            }
            join(s.flush(t.id()));
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < n; i++) {
                    assertThat(value(s, t.id(), i)).startsWith(i + "x");
                    assertThat(s.allocatedOffHeapBytes()).isLessThanOrEqualTo(budget);
                }
            }
            RowCacheStats st = s.rowCacheStats();
            assertThat(st.evictions()).isGreaterThan(0);
            assertThat(st.bytes()).isGreaterThan(budget / 2).isLessThanOrEqualTo(budget);
            // the most recently read partitions are the cached ones
            long hits = st.hits();
            assertThat(value(s, t.id(), n - 1)).isNotNull();
            assertThat(s.rowCacheStats().hits()).isEqualTo(hits + 1);
            // memtable growth evicts the cache: memtables and cache together stay within the budget
            for (int i = 0; i < 300; i++) {
                join(s.apply(row(t.id(), i, 20, "w" + i + new String(big))));
                assertThat(s.allocatedOffHeapBytes()).isLessThanOrEqualTo(budget + 64 * 1024);
            }
            for (int i = 0; i < 300; i++) {
                assertThat(value(s, t.id(), i)).startsWith("w" + i + "x");
            }
            ts.closeStorage();
        }
    }

    @Test
    void shouldNotCacheWhenTheTableOptsOut(@TempDir Path dir) {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of(), 864000,
                Map.of("enabled", "false"));
        assertThat(t.rowCacheEnabled()).isFalse();
        assertThat(TableDescriptor.of(t.id(), "ks", "t").rowCacheEnabled()).isTrue();
        assertThat(t.withCaching(Map.of("keys", "ALL", "rows_per_partition", "NONE")).rowCacheEnabled()).isTrue();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            join(s.apply(row(t.id(), 1, 10, "a")));
            join(s.flush(t.id()));
            assertThat(value(s, t.id(), 1)).isEqualTo("a");
            assertThat(value(s, t.id(), 1)).isEqualTo("a");
            assertThat(s.rowCacheStats().entries()).isZero();
            s.alterTable(t.withCaching(Map.of()));
            assertThat(value(s, t.id(), 1)).isEqualTo("a");
            assertThat(s.rowCacheStats().entries()).isEqualTo(1);
            ts.closeStorage();
        }
    }
}
