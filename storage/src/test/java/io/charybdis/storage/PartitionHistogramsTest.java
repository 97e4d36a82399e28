package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.sstable.SSTableStats;
import io.charybdis.storage.util.EstimatedHistogram;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's partition-size and cell-count histograms: written by flushes and compactions into every SSTable, added
 * over the live SSTables of every shard, and the min/max/mean partition sizes taken as Cassandra's table metrics
 * take them.
 */
@Timeout(60)
class PartitionHistogramsTest {
    private static final int SIZES = EstimatedHistogram.PARTITION_SIZE_OFFSETS + 1;
    private static final int CELLS = EstimatedHistogram.CELL_COUNT_OFFSETS + 1;

    private static SSTableStats stats(long[] sizes, long[] cells) {
        return new SSTableStats(1, 1, 0, 0, 0, 0, new byte[0], 0, new byte[0], 0, 1, 0, 0, sizes, cells);
    }

    private static long[] counts(int length, int... bucketAndCount) {
        long[] c = new long[length];
        for (int i = 0; i < bucketAndCount.length; i += 2) {
            c[bucketAndCount[i]] = bucketAndCount[i + 1];
        }
        return c;
    }

    @Test
    void noSSTablesGiveEmptyArraysAsCassandraDoes() {
        PartitionHistograms h = PartitionHistograms.of(List.of());
        assertThat(h.partitionSizes()).isEmpty();
        assertThat(h.cellCounts()).isEmpty();
        assertThat(h.minPartitionSize()).isZero();
        assertThat(h.maxPartitionSize()).isZero();
        assertThat(h.meanPartitionSize()).isZero();
    }

    @Test
    void sstablesAddUpBucketByBucketAndTheSizeFiguresAreTakenPerSSTable() {
        // SSTable A: 3 partitions of up to 42 bytes (bucket 16, from 36) and 1 of up to 124 (bucket 22); mean
        // ceil((3 * 42 + 124) / 4) = 63. SSTable B: 2 partitions of up to 446 bytes (bucket 29), mean 446.
        SSTableStats a = stats(counts(SIZES, 16, 3, 22, 1), counts(CELLS, 0, 4));
        SSTableStats b = stats(counts(SIZES, 29, 2), counts(CELLS, 2, 1, 6, 1));
        PartitionHistograms h = PartitionHistograms.of(List.of(a, b));
        assertThat(h.partitionSizes()).containsExactly(counts(SIZES, 16, 3, 22, 1, 29, 2));
        assertThat(h.cellCounts()).containsExactly(counts(CELLS, 0, 4, 2, 1, 6, 1));
        assertThat(h.minPartitionSize()).isEqualTo(36);
        assertThat(h.maxPartitionSize()).isEqualTo(446);
        assertThat(h.meanPartitionSize()).isEqualTo((63 * 4 + 446 * 2) / 6); // 190, not the merged mean's 191
        // an SSTable without partition (an old one, Statistics version 1) counts 0 as its minimum when it comes last
        PartitionHistograms withOld = PartitionHistograms.of(List.of(a, stats(new long[SIZES], new long[CELLS])));
        assertThat(withOld.minPartitionSize()).isZero();
        assertThat(withOld.meanPartitionSize()).isEqualTo(63);
        assertThat(PartitionHistograms.of(List.of(stats(new long[SIZES], new long[CELLS]), a)).minPartitionSize())
                .isEqualTo(36);
    }

    private static Mutation partition(TableId table, int i) {
        // keys of one length, two cells of one length: every partition record has the same length
        return new MutationBuilder().start(table, i * 0x9E3779B97F4A7C15L, String.format("k%04d", i).getBytes())
                .beginRow(new byte[] {1}).rowMarker(100 + i, 0, 0)
                .cell(0, 100 + i, 0, 0, ByteBuffer.wrap(new byte[20]))
                .cell(1, 100 + i, 0, 0, ByteBuffer.wrap(new byte[80])).endRow().build();
    }

    @Test
    void flushesAndCompactionsRecordEveryPartitionOnEveryShard(@TempDir Path dir) throws Exception {
        TableDescriptor t = TestSupport.table("t", Map.of(), Map.of("class", "SizeTieredCompactionStrategy"));
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            int length = partition(t.id(), 0).buffer().getInt(partition(t.id(), 0).partitionOffset());
            int sizeBucket = EstimatedHistogram.bucket(EstimatedHistogram.offsets(SIZES - 1), length);
            for (int i = 0; i < 300; i++) {
                s.apply(partition(t.id(), i)).get(10, TimeUnit.SECONDS);
            }
            assertThat(s.partitionHistograms(t.id()).partitionSizes()).isEmpty(); // only in memtables yet
            s.flush(t.id()).get(10, TimeUnit.SECONDS);
            for (int i = 300; i < 500; i++) {
                s.apply(partition(t.id(), i)).get(10, TimeUnit.SECONDS);
            }
            s.flush(t.id()).get(10, TimeUnit.SECONDS);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(4); // two flushes of two shards

            PartitionHistograms h = s.partitionHistograms(t.id());
            assertThat(h.partitionSizes()).containsExactly(counts(SIZES, sizeBucket, 500));
            assertThat(h.cellCounts()).containsExactly(counts(CELLS, 1, 500)); // 2 cells: offset 2
            long upper = EstimatedHistogram.offsets(SIZES - 1)[sizeBucket];
            assertThat(h.maxPartitionSize()).isEqualTo(upper);
            assertThat(h.meanPartitionSize()).isEqualTo(upper);
            assertThat(h.minPartitionSize()).isEqualTo(EstimatedHistogram.offsets(SIZES - 1)[sizeBucket - 1] + 1)
                    .isLessThanOrEqualTo(length);

            s.forceMajorCompaction(t.id()).get(30, TimeUnit.SECONDS);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(2);
            PartitionHistograms compacted = s.partitionHistograms(t.id());
            assertThat(compacted.partitionSizes()).containsExactly(h.partitionSizes());
            assertThat(compacted.cellCounts()).containsExactly(h.cellCounts());
        }
    }
}
