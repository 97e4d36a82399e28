package io.charybdis.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.util.Crc;
import io.charybdis.storage.util.EstimatedHistogram;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SSTable format pinned by golden files ({@code src/test/resources/sstable/v<N>/}, the {@link SampleSSTable}
 * written by the writer of each version): today's writer produces the newest version byte for byte, and every
 * version is read back with its statistics. Version 1 Statistics have no histograms (read as empty); version 2 adds
 * the partition-size and cell-count histograms.
 *
 * <p>After a deliberate format change: add a {@code v<N+1>} directory written by
 * {@code ./mvnw -o -pl storage test -Dtest=SSTableFormatVersionsTest -Dcharybdis.golden.out=<dir>}, keep the older
 * ones, and extend the reading tests.
 */
@Timeout(60)
class SSTableFormatVersionsTest {
    private static final String[] FILES = {"Data.db", "Index.db", "Filter.db", "Statistics.db", "TOC.txt"};

    private static Path golden(int version) throws URISyntaxException {
        return Path.of(SSTableFormatVersionsTest.class.getResource("/sstable/v" + version + "/cb-1-TOC.txt").toURI())
                .getParent();
    }

    private static Path copyOf(int version, Path dir) throws Exception {
        for (String f : FILES) {
            Files.copy(golden(version).resolve("cb-1-" + f), dir.resolve("cb-1-" + f));
        }
        return dir;
    }

    @Test
    @EnabledIfSystemProperty(named = "charybdis.golden.out", matches = ".+")
    void writeGoldenFiles() throws Exception {
        Path out = Files.createDirectories(Path.of(System.getProperty("charybdis.golden.out")));
        SampleSSTable.write(out, 1);
    }

    @Test
    void theWriterProducesTheNewestGoldenFilesByteForByte(@TempDir Path dir) throws Exception {
        SampleSSTable.write(dir, 1);
        for (String f : FILES) {
            assertThat(Files.readAllBytes(dir.resolve("cb-1-" + f)))
                    .as(f).isEqualTo(Files.readAllBytes(golden(SSTableFormat.STATS_VERSION).resolve("cb-1-" + f)));
        }
    }

    @Test
    void headersCarryEachComponentsOwnVersion() throws Exception {
        assertThat(headerVersion(golden(2).resolve("cb-1-Statistics.db"))).isEqualTo(2);
        assertThat(headerVersion(golden(2).resolve("cb-1-Data.db"))).isEqualTo(1);
        assertThat(headerVersion(golden(2).resolve("cb-1-Index.db"))).isEqualTo(1);
        assertThat(headerVersion(golden(2).resolve("cb-1-Filter.db"))).isEqualTo(1);
        assertThat(headerVersion(golden(1).resolve("cb-1-Statistics.db"))).isEqualTo(1);
    }

    @Test
    void version2RecordsEachPartitionsSizeAndCellsInCassandrasBuckets(@TempDir Path dir) throws Exception {
        SSTableReader r = SSTableReader.open(copyOf(2, dir), 1, new ShardAllocator(0));
        try {
            assertSampleReadable(r);
            SSTableStats s = r.stats();
            // record lengths 111, 37, 419, 203, 3129 bytes: offsets 124, 42, 446, 215, 3311
            long[] sizes = new long[EstimatedHistogram.PARTITION_SIZE_OFFSETS + 1];
            sizes[22] = 1;
            sizes[16] = 1;
            sizes[29] = 1;
            sizes[25] = 1;
            sizes[40] = 1;
            assertThat(s.partitionSizes()).containsExactly(sizes);
            // 1, 0, 7, 3 and 1 cells: offsets 1 (three of them), 7 and 3
            long[] cells = new long[EstimatedHistogram.CELL_COUNT_OFFSETS + 1];
            cells[0] = 3;
            cells[6] = 1;
            cells[2] = 1;
            assertThat(s.cellCounts()).containsExactly(cells);
            assertThat(EstimatedHistogram.min(s.partitionSizes())).isEqualTo(36);
            assertThat(EstimatedHistogram.max(s.partitionSizes())).isEqualTo(3311);
            assertThat(EstimatedHistogram.mean(s.partitionSizes())).isEqualTo(828); // ceil(4138 / 5)
            assertThat(EstimatedHistogram.max(s.cellCounts())).isEqualTo(7);
        } finally {
            r.release();
        }
    }

    @Test
    void theRecordedSizesAreThePartitionRecordsLengthsAndCellsTheSamplesCells() {
        List<Mutation> sample = SampleSSTable.partitions();
        long[] lengths = sample.stream().mapToLong(m -> m.buffer().getInt(m.partitionOffset())).toArray();
        assertThat(lengths).containsExactly(111, 37, 419, 203, 3129);
        assertThat(SampleSSTable.CELLS).containsExactly(1, 0, 7, 3, 1);
    }

    @Test
    void version1IsReadWithEmptyHistograms(@TempDir Path dir) throws Exception {
        SSTableReader r = SSTableReader.open(copyOf(1, dir), 1, new ShardAllocator(0));
        try {
            assertSampleReadable(r);
            SSTableStats s = r.stats();
            assertThat(s.partitionSizes()).hasSize(EstimatedHistogram.PARTITION_SIZE_OFFSETS + 1).containsOnly(0L);
            assertThat(s.cellCounts()).hasSize(EstimatedHistogram.CELL_COUNT_OFFSETS + 1).containsOnly(0L);
        } finally {
            r.release();
        }
    }

    @Test
    void aNewerStatisticsVersionIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        copyOf(2, dir);
        rewriteStatistics(dir.resolve("cb-1-Statistics.db"), b -> b.putInt(4, 3));
        SSTableReader r = SSTableReader.open(dir, 1, new ShardAllocator(0));
        assertThat(r.isCorrupt()).isTrue();
        assertThatThrownBy(() -> r.readPartition(-100, SampleSSTable.bytes("a")))
                .isInstanceOf(CorruptSSTableException.class)
                .hasMessageContaining("unsupported format version=3");
        r.release();
    }

    @Test
    void aHistogramOfAnotherLengthIsCorrupt(@TempDir Path dir) throws Exception {
        copyOf(2, dir);
        // the partition-size histogram's length field follows the version 1 fields (114 bytes less the footer's 8)
        rewriteStatistics(dir.resolve("cb-1-Statistics.db"), b -> b.putInt(114 - 8, 155));
        SSTableReader r = SSTableReader.open(dir, 1, new ShardAllocator(0));
        assertThat(r.isCorrupt()).isTrue();
        assertThatThrownBy(() -> r.readPartition(-100, SampleSSTable.bytes("a")))
                .hasMessageContaining("bad histogram countLength=155 expected=156");
        r.release();
    }

    @Test
    void aCopyUnderAnotherGenerationKeepsTheHistograms(@TempDir Path dir) throws Exception {
        Path target = Files.createDirectory(dir.resolve("copy"));
        SSTableCopy.copy(copyOf(2, Files.createDirectory(dir.resolve("src"))), 1, target, 7);
        SSTableReader r = SSTableReader.open(target, 7, new ShardAllocator(0));
        try {
            assertThat(r.isCorrupt()).isFalse();
            assertThat(EstimatedHistogram.count(r.stats().partitionSizes())).isEqualTo(5);
            assertThat(EstimatedHistogram.count(r.stats().cellCounts())).isEqualTo(5);
        } finally {
            r.release();
        }
    }

    private static void assertSampleReadable(SSTableReader r) {
        assertThat(r.isCorrupt()).isFalse();
        SSTableStats s = r.stats();
        assertThat(s.partitionCount()).isEqualTo(5);
        assertThat(s.rowCount()).isEqualTo(7); // 1 + 0 + 4 + 1 + 1
        assertThat(s.minTimestamp()).isEqualTo(1000);
        assertThat(s.maxTimestamp()).isEqualTo(5000);
        assertThat(s.tombstoneCount()).isEqualTo(4); // partition, cell, complex and range tombstones
        assertThat(s.minToken()).isEqualTo(-100);
        assertThat(s.maxToken()).isEqualTo(20);
        assertThat(s.uncompressedLength()).isEqualTo(111 + 37 + 419 + 203 + 3129);
        assertThat(s.shardId()).isZero();
        assertThat(s.shardCount()).isEqualTo(1);
        for (Mutation m : SampleSSTable.partitions()) {
            byte[] expected = new byte[m.buffer().getInt(m.partitionOffset())];
            m.buffer().getBytes(m.partitionOffset(), expected);
            byte[] key = new byte[m.buffer().getInt(m.partitionOffset() + 12)];
            m.buffer().getBytes(m.partitionOffset() + 36, key);
            assertThat(r.readPartition(m.buffer().getLong(m.partitionOffset() + 4), key)).isEqualTo(expected);
        }
    }

    private static int headerVersion(Path p) throws Exception {
        return ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
    }

    /** Edits a Statistics file and recomputes its footer checksum, so only the edit is wrong. */
    private static void rewriteStatistics(Path p, java.util.function.Consumer<ByteBuffer> edit) throws Exception {
        byte[] all = Files.readAllBytes(p);
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        edit.accept(b);
        b.putInt(all.length - 8, Crc.crc32(all, 0, all.length - 8));
        Files.write(p, all);
    }
}
