package io.charybdis.storage.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Cassandra's estimated-histogram layout: offsets, the bucket a value lands in, and nodetool's figures. */
class EstimatedHistogramTest {

    @Test
    void offsetsGrowByOnePointTwoRoundedAndNeverRepeat() {
        assertThat(EstimatedHistogram.offsets(24)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 20, 24, 29,
                35, 42, 50, 60, 72, 86, 103, 124, 149);
    }

    @Test
    void cassandrasSSTableHistogramsEndWhereItsCommentsSay() {
        // MetadataCollector: 155 offsets track up to 3520571548412 bytes, 118 up to 4139110981 cells
        long[] sizes = EstimatedHistogram.offsets(EstimatedHistogram.PARTITION_SIZE_OFFSETS);
        long[] cells = EstimatedHistogram.offsets(EstimatedHistogram.CELL_COUNT_OFFSETS);
        assertThat(sizes[sizes.length - 1]).isEqualTo(3_520_571_548_412L);
        assertThat(cells[cells.length - 1]).isEqualTo(4_139_110_981L);
        assertThat(EstimatedHistogram.partitionSizes().counts()).hasSize(156);
        assertThat(EstimatedHistogram.cellCounts().counts()).hasSize(119);
    }

    @Test
    void aValueLandsInTheFirstBucketWhoseOffsetIsAtOrAboveIt() {
        EstimatedHistogram h = new EstimatedHistogram(24);
        for (long v : new long[] {-5, 0, 1, 2, 9, 10, 11, 37, 149, 150, 1_000_000}) {
            h.add(v);
        }
        long[] expected = new long[25];
        expected[0] = 3;   // -5, 0 and 1: up to offset 1
        expected[1] = 1;   // 2
        expected[8] = 2;   // 9 and 10: (8, 10]
        expected[9] = 1;   // 11: (10, 12]
        expected[16] = 1;  // 37: (35, 42]
        expected[23] = 1;  // 149: the last offset
        expected[24] = 2;  // 150 and 1,000,000 overflow
        assertThat(h.counts()).containsExactly(expected);
        h.clear();
        assertThat(EstimatedHistogram.count(h.counts())).isZero();
    }

    @Test
    void figuresAreBucketBoundsAsNodetoolPrintsThem() {
        long[] counts = new long[25];
        counts[1] = 2;   // (1, 2]
        counts[16] = 1;  // (35, 42]
        counts[22] = 1;  // (103, 124]
        assertThat(EstimatedHistogram.count(counts)).isEqualTo(4);
        assertThat(EstimatedHistogram.min(counts)).isEqualTo(2);
        assertThat(EstimatedHistogram.max(counts)).isEqualTo(124);
        assertThat(EstimatedHistogram.mean(counts)).isEqualTo(43); // ceil((2 + 2 + 42 + 124) / 4)
        assertThat(EstimatedHistogram.overflowed(counts)).isFalse();
        long[] zero = new long[25];
        zero[0] = 1;
        assertThat(EstimatedHistogram.min(zero)).isZero();
        assertThat(EstimatedHistogram.max(zero)).isEqualTo(1);
        long[] none = new long[25];
        assertThat(EstimatedHistogram.min(none)).isZero();
        assertThat(EstimatedHistogram.max(none)).isZero();
        assertThat(EstimatedHistogram.mean(none)).isZero();
        counts[24] = 1;
        assertThat(EstimatedHistogram.overflowed(counts)).isTrue();
        assertThat(EstimatedHistogram.max(counts)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void addingHistogramsAddsBucketByBucketExtendingTheShorter() {
        assertThat(EstimatedHistogram.add(new long[] {1, 2}, new long[] {10, 20, 30})).containsExactly(11, 22, 30);
        assertThat(EstimatedHistogram.add(new long[0], new long[] {4, 5})).containsExactly(4, 5);
    }
}
