package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decision 2 of the architecture: the heap must not grow with the data set. Writes N and then 4N partitions and
 * compares the retained heap (after full collections) per partition, for data held in memtables, in SSTables
 * (Bloom filters, index summaries) and in the row cache. Bounds are tolerant: an on-heap index costs hundreds of
 * bytes per partition in a memtable or cache entry and about 2 bytes per partition in an SSTable.
 */
@Timeout(300)
class HeapGrowthTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    final MutationBuilder b = new MutationBuilder();
    final byte[] value = new byte[16];

    static StorageConfig config(Path dir) {
        return new StorageConfig(dir.resolve("data"), dir.resolve("commitlog"), CommitLogSync.PERIODIC, 1000, 1,
                8L << 20, 768L << 20, false);
    }

    static long token(int i) {
        return i * 0x9E3779B97F4A7C15L;
    }

    static byte[] key(int i) {
        return ("partition-" + i).getBytes();
    }

    static long retainedHeap() throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(40);
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    void write(Storage s, TableId t, int from, int to) {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (int i = from; i < to; i++) {
            b.start(t, token(i), key(i)).beginRow(new byte[] {0, 1}).rowMarker(1, 0, Integer.MAX_VALUE)
                    .cell(0, 1, 0, Integer.MAX_VALUE, ByteBuffer.wrap(value)).endRow();
            pending.add(s.apply(b.build()));
            if (pending.size() == 4096) {
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
    }

    static TableDescriptor table(String name, boolean cache) {
        return new TableDescriptor(TableId.random(), "ks", name, Map.of(), Map.of("enabled", "false"), 864000,
                Map.of("enabled", Boolean.toString(cache)));
    }

    @Test
    void shouldNotGrowHeapWithPartitionsInMemtables(@TempDir Path dir) throws Exception {
        int n = 40_000;
        TableDescriptor t = table("mem", false);
        try (TestSupport ts = new TestSupport(dir, 1, config(dir))) {
            Storage s = ts.open(t);
            write(s, t.id(), 0, n);
            long h1 = retainedHeap();
            write(s, t.id(), n, 4 * n);
            long h4 = retainedHeap();
            assertThat(s.stats(t.id()).sstableCount()).as("no flush happened").isZero();
            double perPartition = (double) (h4 - h1) / (3 * n);
            System.out.printf("heap per memtable partition: %.1f bytes (N=%d: %d, 4N: %d)%n", perPartition, n, h1, h4);
            assertThat(perPartition).isLessThan(16);
        }
    }

    @Test
    void shouldNotGrowHeapWithPartitionsInSSTables(@TempDir Path dir) throws Exception {
        int sstables = 6;
        int n = 15_000;
        TableDescriptor small = table("small", false);
        TableDescriptor large = table("large", false);
        try (TestSupport ts = new TestSupport(dir, 1, config(dir))) {
            Storage s = ts.open(small, large);
            long h0 = retainedHeap();
            for (int i = 0; i < sstables; i++) {
                write(s, small.id(), i * n, (i + 1) * n);
                s.flush(small.id()).orTimeout(60, TimeUnit.SECONDS).join();
            }
            long h1 = retainedHeap();
            for (int i = 0; i < sstables; i++) {
                write(s, large.id(), i * 4 * n, (i + 1) * 4 * n);
                s.flush(large.id()).orTimeout(60, TimeUnit.SECONDS).join();
            }
            long h4 = retainedHeap();
            assertThat(s.stats(small.id()).sstableCount()).isEqualTo(sstables);
            assertThat(s.stats(large.id()).sstableCount()).isEqualTo(sstables);
            long growthSmall = h1 - h0;
            long growthLarge = h4 - h1;
            double perPartition = (double) (growthLarge - growthSmall) / (3L * n * sstables);
            System.out.printf("heap per SSTable partition: %.2f bytes (%d SSTables of N=%d: +%d, of 4N: +%d)%n",
                    perPartition, sstables, n, growthSmall, growthLarge);
            assertThat(perPartition).isLessThan(0.5);
        }
    }

    void read(Storage s, TableId t, int from, int to) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (int i = from; i < to; i++) {
            pending.add(s.read(ReadCommand.partition(t, token(i), key(i)).nowInSeconds(NOW).build()));
            if (pending.size() == 1024) {
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
    }

    @Test
    void shouldNotGrowHeapWithPartitionsInTheRowCache(@TempDir Path dir) throws Exception {
        int n = 10_000;
        TableDescriptor t = table("cached", true);
        try (TestSupport ts = new TestSupport(dir, 1, config(dir))) {
            Storage s = ts.open(t);
            write(s, t.id(), 0, 4 * n);
            s.flush(t.id()).orTimeout(60, TimeUnit.SECONDS).join();
            read(s, t.id(), 0, n);
            long h1 = retainedHeap();
            assertThat(s.rowCacheStats().entries()).isEqualTo(n);
            read(s, t.id(), n, 4 * n);
            long h4 = retainedHeap();
            assertThat(s.rowCacheStats().entries()).isEqualTo(4 * n);
            double perEntry = (double) (h4 - h1) / (3 * n);
            System.out.printf("heap per row cache entry: %.1f bytes (N=%d: %d, 4N: %d)%n", perEntry, n, h1, h4);
            assertThat(perEntry).isLessThan(16);
        }
    }
}
