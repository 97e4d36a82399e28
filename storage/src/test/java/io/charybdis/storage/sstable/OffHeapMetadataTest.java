package io.charybdis.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bloom filter, index summary and chunk offsets of an open SSTable live in accounted off-heap memory. */
@Timeout(60)
class OffHeapMetadataTest {
    static final int N = 5000;

    static long token(int i) {
        return i * 0x9E3779B97F4A7C15L;
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    static void write(Path dir, long generation) throws Exception {
        java.util.TreeMap<Long, Integer> order = new java.util.TreeMap<>();
        for (int i = 0; i < N; i++) {
            order.put(token(i), i);
        }
        MutationBuilder b = new MutationBuilder();
        ShardAllocator writerMemory = new ShardAllocator(0);
        SSTableWriter w = new SSTableWriter(dir, generation, Compression.fromOptions(Map.of()), 0, 1, N, writerMemory);
        assertThat(writerMemory.allocatedBytes()).isEqualTo(BloomFilter.wordCount(N) * 8L);
        for (int i : order.values()) {
            Mutation m = b.start(TableId.random(), token(i), key(i)).beginRow(new byte[] {1})
                    .cell(0, 1, 0, Integer.MAX_VALUE, ByteBuffer.wrap(new byte[40])).endRow().build();
            w.append(m.buffer(), m.partitionOffset());
        }
        w.finish();
        assertThat(writerMemory.allocatedBytes()).isZero();
    }

    @Test
    void shouldServeLookupsFromOffHeapMetadataAndGiveItBackOnRelease(@TempDir Path dir) throws Exception {
        write(dir, 1);
        ShardAllocator allocator = new ShardAllocator(0);
        SSTableReader r = SSTableReader.open(dir, 1, allocator);
        assertThat(r.isCorrupt()).isFalse();
        long filterBytes = Files.size(r.path("Filter.db"));
        assertThat(allocator.allocatedBytes()).isGreaterThan(filterBytes);
        assertThat(allocator.liveAllocations()).isEqualTo(3);
        int falsePositives = 0;
        for (int i = 0; i < N; i++) {
            assertThat(r.mayContain(token(i), key(i))).isTrue();
            assertThat(r.readPartition(token(i), key(i))).isNotNull();
            falsePositives += r.mayContain(token(i) + 1, key(i)) ? 1 : 0;
        }
        assertThat(falsePositives).isLessThan(N / 20);
        assertThat(r.readPartition(token(7) + 1, key(7))).isNull();
        int scanned = 0;
        SSTableReader.Scanner s = r.scanner();
        while (s.advance()) {
            scanned++;
        }
        assertThat(scanned).isEqualTo(N);
        r.release();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThat(allocator.liveAllocations()).isZero();
    }

    @Test
    void shouldFreeMetadataOfACorruptSSTable(@TempDir Path dir) throws Exception {
        write(dir, 2);
        Path filter = dir.resolve(SSTableFormat.fileName(2, "Filter.db"));
        byte[] f = Files.readAllBytes(filter);
        f[SSTableFormat.HEADER_SIZE + 12] ^= 0x10;
        Files.write(filter, f);
        ShardAllocator allocator = new ShardAllocator(0);
        SSTableReader r = SSTableReader.open(dir, 2, allocator);
        assertThat(r.isCorrupt()).isTrue();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThatThrownBy(() -> r.readPartition(token(1), key(1))).isInstanceOf(CorruptSSTableException.class)
                .hasMessageContaining("Filter.db");
        r.release();
        assertThat(allocator.allocatedBytes()).isZero();
    }
}
