package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.storage.commitlog.CommitLogCorruptionException;
import io.charybdis.storage.commitlog.CommitLogLayout;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.sstable.CorruptSSTableException;
import io.charybdis.storage.sstable.SSTableFormat;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class DurabilityAndCorruptionTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    final MutationBuilder b = new MutationBuilder();

    static long token(int i) {
        return i * 7919L - 100_000L;
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    Mutation row(TableId t, int i, String value) {
        b.start(t, token(i), key(i)).beginRow(new byte[] {1}).rowMarker(10, 0, 0)
                .cell(0, 10, 0, 0, ByteBuffer.wrap(value.getBytes())).endRow();
        return b.build();
    }

    static String value(Storage s, TableId t, int i) {
        ReadResult r = s.read(ReadCommand.partition(t, token(i), key(i)).nowInSeconds(NOW).build()).orTimeout(10, TimeUnit.SECONDS).join();
        ReadResult.Cursor c = r.cursor();
        if (!c.nextPartition() || !c.nextRow() || !c.nextCell()) {
            return null;
        }
        return new String(c.valueBytes());
    }

    static TableDescriptor table(Map<String, String> compression) {
        return new TableDescriptor(TableId.random(), "ks", "t", compression, Map.of("enabled", "false"), 864000);
    }

    static List<Path> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    static void flipByte(Path p, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.seek(offset);
            int v = f.read();
            f.seek(offset);
            f.write(v ^ 0x5A);
        }
    }

    @Test
    void shouldReplayCommitLogAndIgnoreTornTail(@TempDir Path dir) throws IOException {
        TableDescriptor t = table(Map.of());
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH))) {
            Storage s = ts.open(t);
            for (int i = 0; i < 20; i++) {
                s.apply(row(t.id(), i, "v" + i)).join();
            }
            ts.closeStorage();
            List<Path> segments = files(dir.resolve("commitlog"), CommitLogLayout.SUFFIX);
            assertThat(segments).hasSize(1);
            // a torn write: a length field promising more than was written, then a few bytes
            Files.write(segments.get(0), new byte[] {100, 0, 0, 0, 1, 2, 3, 4, 5}, java.nio.file.StandardOpenOption.APPEND);
            s = ts.open(t);
            for (int i = 0; i < 20; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo("v" + i);
            }
            assertThat(files(dir.resolve("commitlog"), CommitLogLayout.SUFFIX)).isEmpty();
            ts.closeStorage();
            // replay flushed everything: data survives another restart from SSTables alone
            s = ts.open(t);
            assertThat(value(s, t.id(), 7)).isEqualTo("v7");
        }
    }

    @Test
    void shouldFailStartupOnCorruptionInTheMiddleUnlessIgnored(@TempDir Path dir) throws IOException {
        TableDescriptor t = table(Map.of());
        Path segment;
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH))) {
            Storage s = ts.open(t);
            for (int i = 0; i < 20; i++) {
                s.apply(row(t.id(), i, "v" + i)).join();
            }
            ts.closeStorage();
            segment = files(dir.resolve("commitlog"), CommitLogLayout.SUFFIX).get(0);
            flipByte(segment, CommitLogLayout.HEADER_SIZE + CommitLogLayout.ENTRY_HEADER + 30);
            s = Storage.open(ts.config, ts.executors);
            ts.storage = s;
            s.registerTable(t);
            CompletableFuture<Void> replay = s.replayCommitLog();
            assertThatThrownBy(() -> replay.orTimeout(10, TimeUnit.SECONDS).join())
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(CommitLogCorruptionException.class)
                    .hasMessageContaining(segment.getFileName().toString());
            ts.closeStorage();
        }
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH).withIgnoreCommitLogCorruption(true))) {
            Storage s = ts.open(t);
            assertThat(value(s, t.id(), 0)).isNull(); // the corrupt first entry and the rest of its segment are skipped
        }
    }

    @Test
    void shouldReportCorruptDataChunkAndIndexBlockNamingTheFile(@TempDir Path dir) throws IOException {
        // row cache off: every read goes to the SSTable
        TableDescriptor t = table(Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "1")).withCaching(Map.of("enabled", "false"));
        int n = 300;
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int i = 0; i < n; i++) {
                s.apply(row(t.id(), i, "value-" + i + "-" + "x".repeat(40 + i % 13))).join();
            }
            s.flush(t.id()).join();
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(1);
            Path data = files(dir, "-Data.db").get(0);
            Path index = files(dir, "-Index.db").get(0);
            byte[] original = Files.readAllBytes(data);
            flipByte(data, Files.size(data) / 2);
            int failed = 0;
            for (int i = 0; i < n; i++) {
                try {
                    assertThat(value(s, t.id(), i)).startsWith("value-" + i + "-");
                } catch (CompletionException e) {
                    assertThat(e.getCause()).isInstanceOf(CorruptSSTableException.class).hasMessageContaining(data.toString());
                    assertThat(((CorruptSSTableException) e.getCause()).path()).isEqualTo(data);
                    failed++;
                }
            }
            assertThat(failed).isBetween(1, n / 4);
            // writes keep working, and a corrupt range read fails cleanly
            s.apply(row(t.id(), n + 1, "fresh")).join();
            assertThat(value(s, t.id(), n + 1)).isEqualTo("fresh");
            assertThatThrownBy(() -> s.read(ReadCommand.range(t.id(), null, null).build()).join())
                    .hasCauseInstanceOf(CorruptSSTableException.class);

            Files.write(data, original);
            flipByte(index, SSTableFormat.HEADER_SIZE + 20);
            failed = 0;
            for (int i = 0; i < n; i++) {
                try {
                    assertThat(value(s, t.id(), i)).startsWith("value-" + i + "-");
                } catch (CompletionException e) {
                    assertThat(e.getCause()).isInstanceOf(CorruptSSTableException.class).hasMessageContaining(index.toString());
                    failed++;
                }
            }
            assertThat(failed).isBetween(1, n / 2);
        }
    }

    @Test
    void shouldApplyAtMostOneConditionalInsert(@TempDir Path dir) {
        TableDescriptor t = table(Map.of());
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.GROUP))) {
            Storage s = ts.open(t);
            List<CompletableFuture<CasResult>> fs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int n = i;
                ReadCommand current = ReadCommand.partition(t.id(), token(1), key(1)).nowInSeconds(NOW).build();
                fs.add(s.atomically(t.id(), token(1), key(1), current,
                        r -> r.isEmpty() ? new MutationBuilder().start(t.id(), token(1), key(1)).beginRow(new byte[] {1})
                                .rowMarker(10 + n, 0, 0).cell(0, 10 + n, 0, 0, ByteBuffer.wrap(("w" + n).getBytes())).endRow().build() : null));
            }
            long applied = fs.stream().map(CompletableFuture::join).filter(CasResult::applied).count();
            assertThat(applied).isEqualTo(1);
            assertThat(value(s, t.id(), 1)).startsWith("w");
        }
    }

    @Test
    void shouldSnapshotTruncateAndDrop(@TempDir Path dir) throws IOException {
        TableDescriptor t = table(Map.of("class", "ZstdCompressor"));
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int i = 0; i < 50; i++) {
                s.apply(row(t.id(), i, "v" + i)).join();
            }
            List<Path> links = s.snapshot(t.id(), "snap1").join();
            assertThat(links).isNotEmpty().allSatisfy(p -> assertThat(p).exists());
            assertThat(links.get(0).getParent()).isEqualTo(s.tableDirectory(t).resolve("snapshots").resolve("snap1"));
            assertThat(s.stats(t.id()).memtableBytes()).isZero();
            s.truncate(t.id()).join();
            assertThat(value(s, t.id(), 3)).isNull();
            assertThat(links).allSatisfy(p -> assertThat(p).exists());
            s.apply(row(t.id(), 3, "again")).join();
            assertThat(value(s, t.id(), 3)).isEqualTo("again");
            s.dropTable(t.id()).join();
            assertThat(s.tableDirectory(t)).doesNotExist();
            s.drain().join();
            assertThatThrownBy(() -> s.apply(row(t.id(), 1, "x")).join()).hasCauseInstanceOf(StorageException.class);
        }
    }
}
