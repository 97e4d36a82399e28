package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.sstable.SSTableFormat;
import io.charybdis.storage.sstable.SSTableReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Compaction end to end through the public API: strategies, purging, crash recovery, management, back-pressure. */
@Timeout(60)
class CompactionEndToEndTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    final MutationBuilder b = new MutationBuilder();

    static long token(int i) {
        return (i + 1) * 0x9E3779B97F4A7C15L; // spread over the ring, so over the shards
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    Mutation row(TableId t, int i, long ts, String value) {
        b.start(t, token(i), key(i)).beginRow(new byte[] {1}).rowMarker(ts, 0, Integer.MAX_VALUE)
                .cell(0, ts, 0, Integer.MAX_VALUE, ByteBuffer.wrap(value.getBytes())).endRow();
        return b.build();
    }

    Mutation delete(TableId t, int i, long ts) {
        b.start(t, token(i), key(i)).partitionDeletion(ts, NOW - 100);
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

    static <T> T join(CompletableFuture<T> f) {
        return f.orTimeout(30, TimeUnit.SECONDS).join();
    }

    static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in 30 s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static boolean quiet(Storage s) {
        CompactionStatus st = join(s.compactionStatus());
        return st.running().isEmpty() && st.pendingTasks() == 0;
    }

    static TableDescriptor table(Map<String, String> compaction, int gcGrace) {
        return new TableDescriptor(TableId.random(), "ks", "t", Map.of(), compaction, gcGrace);
    }

    @Test
    void shouldCompactOverwritesAndDeletionsAway(@TempDir Path dir) {
        TableDescriptor t = table(Map.of("enabled", "false"), 0);
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int round = 1; round <= 5; round++) {
                for (int i = 0; i < 100; i++) {
                    join(s.apply(row(t.id(), i, round, "v" + round + "-" + i)));
                }
                join(s.flush(t.id()));
            }
            for (int i = 0; i < 100; i += 2) {
                join(s.apply(delete(t.id(), i, 10)));
            }
            join(s.flush(t.id()));
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(12);
            assertThat(s.stats(t.id()).sstablePartitionsEstimate()).isEqualTo(550);
            join(s.forceMajorCompaction(t.id()));
            TableStats st = s.stats(t.id());
            assertThat(st.sstableCount()).isEqualTo(2); // one per shard
            assertThat(st.sstablePartitionsEstimate()).isEqualTo(50); // overwrites merged, deleted partitions purged
            for (int i = 0; i < 100; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo(i % 2 == 0 ? null : "v5-" + i);
            }
            TableMetrics m = s.metrics(t.id());
            assertThat(m.compactionsCompleted()).isEqualTo(2);
            assertThat(m.bytesCompacted()).isGreaterThan(0);
            assertThat(m.sstablesPerRead().count()).isGreaterThanOrEqualTo(100);
            ts.closeStorage();
        }
    }

    @Test
    void shouldPurgeTombstonesOnlyWhenSafe(@TempDir Path dir) throws InterruptedException {
        Map<String, String> tombstoneCompactions = Map.of("tombstone_compaction_interval", "0",
                "unchecked_tombstone_compaction", "true", "tombstone_threshold", "0.1");
        TableDescriptor expired = table(tombstoneCompactions, 0);
        TableDescriptor young = new TableDescriptor(TableId.random(), "ks", "young", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(expired, young);
            for (TableDescriptor t : List.of(expired, young)) {
                join(s.apply(row(t.id(), 1, 10, "old")));
                join(s.flush(t.id()));
                join(s.apply(delete(t.id(), 1, 20)));
                join(s.flush(t.id()));
            }
            Thread.sleep(1100); // the tombstone SSTable must be older than gc_grace_seconds (0) by a second
            // the tombstone-heavy SSTable is compacted alone: older shadowed data remains elsewhere, so it stays
            await(() -> s.metrics(expired.id()).compactionsCompleted() >= 1 && quiet(s));
            assertThat(s.stats(expired.id()).sstableCount()).isEqualTo(2);
            assertThat(value(s, expired.id(), 1)).isNull();
            // with the shadowed data in the same compaction, both go
            join(s.forceMajorCompaction(expired.id()));
            assertThat(s.stats(expired.id()).sstableCount()).isZero();
            assertThat(value(s, expired.id(), 1)).isNull();
            // within gc_grace_seconds the tombstone stays even though it shadows everything
            join(s.forceMajorCompaction(young.id()));
            assertThat(s.stats(young.id()).sstableCount()).isEqualTo(1);
            assertThat(s.stats(young.id()).sstablePartitionsEstimate()).isEqualTo(1);
            assertThat(value(s, young.id(), 1)).isNull();
            ts.closeStorage();
        }
    }

    static Map<Integer, List<SSTableReader>> levels(Path tableDir) throws IOException {
        Map<Integer, List<SSTableReader>> levels = new HashMap<>();
        try (Stream<Path> files = Files.list(tableDir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (n.endsWith("-TOC.txt")) {
                    long g = Long.parseLong(n.substring(SSTableFormat.PREFIX.length(), n.indexOf('-', SSTableFormat.PREFIX.length())));
                    SSTableReader r = SSTableReader.open(tableDir, g, new io.charybdis.storage.memtable.ShardAllocator(-1));
                    levels.computeIfAbsent(r.stats().level(), x -> new ArrayList<>()).add(r);
                }
            }
        }
        return levels;
    }

    @Test
    void shouldLevelWithNonOverlappingSSTablesAndSwitchStrategyAtRunTime(@TempDir Path dir) throws IOException {
        Map<String, String> lcs = Map.of("class", "LeveledCompactionStrategy", "sstable_size_in_mb", "0.02");
        TableDescriptor t = table(lcs, 864000);
        char[] pad = new char[200];
        java.util.Arrays.fill(pad, 'p');
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int round = 0; round < 8; round++) {
                for (int i = 0; i < 150; i++) {
                    join(s.apply(row(t.id(), (i * 7 + round * 31) % 600, round + 1, "r" + round + new String(pad))));
                }
                join(s.flush(t.id()));
            }
            await(() -> quiet(s));
            CompactionStatus st = join(s.compactionStatus());
            CompactionStatus.TableStatus table = st.tables().get(0);
            assertThat(table.strategyClass()).endsWith("LeveledCompactionStrategy");
            assertThat(table.sstablesPerLevel().length).isGreaterThan(1);
            assertThat(table.backlogBytes()).isGreaterThanOrEqualTo(0);
            Map<Integer, List<SSTableReader>> levels = levels(s.tableDirectory(t));
            assertThat(levels.keySet()).anyMatch(l -> l >= 1);
            for (Map.Entry<Integer, List<SSTableReader>> e : levels.entrySet()) {
                List<SSTableReader> l = new ArrayList<>(e.getValue());
                if (e.getKey() >= 1) {
                    l.sort(Comparator.comparingLong(SSTableReader::minToken));
                    for (int i = 1; i < l.size(); i++) {
                        assertThat(l.get(i).overlaps(l.get(i - 1))).as("level %d overlaps", e.getKey()).isFalse();
                    }
                }
                l.forEach(SSTableReader::release);
            }
            int expectedLive = 0;
            for (int k = 0; k < 600; k++) {
                if (value(s, t.id(), k) != null) {
                    expectedLive++;
                }
            }
            boolean key1WasLive = value(s, t.id(), 1) != null;
            // switch to size-tiered at run time, then disable: a major still gathers everything
            s.alterTable(t.withCompaction(Map.of("class", "SizeTieredCompactionStrategy", "enabled", "false")));
            join(s.apply(row(t.id(), 1, 100, "after")));
            join(s.flush(t.id()));
            join(s.forceMajorCompaction(t.id()));
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(1);
            assertThat(join(s.compactionStatus()).tables().get(0).strategyClass()).endsWith("SizeTieredCompactionStrategy");
            assertThat(value(s, t.id(), 1)).isEqualTo("after");
            int live = 0;
            for (int k = 0; k < 600; k++) {
                if (value(s, t.id(), k) != null) {
                    live++;
                }
            }
            assertThat(live).isEqualTo(expectedLive + (key1WasLive ? 0 : 1));
            ts.closeStorage();
        }
    }

    @Test
    void shouldHonourEnabledFalse(@TempDir Path dir) throws InterruptedException {
        TableDescriptor t = table(Map.of("enabled", "false", "min_threshold", "2"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int round = 0; round < 6; round++) {
                join(s.apply(row(t.id(), round, 1, "x")));
                join(s.flush(t.id()));
            }
            Thread.sleep(600); // two controller periods
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(6);
            s.alterTable(t.withCompaction(Map.of("min_threshold", "2")));
            await(() -> s.stats(t.id()).sstableCount() == 1);
            ts.closeStorage();
        }
    }

    static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(p)) {
                    Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static List<Long> generations(Path d) throws IOException {
        List<Long> g = new ArrayList<>();
        for (String n : names(d)) {
            if (n.endsWith("-TOC.txt")) {
                g.add(Long.parseLong(n.substring(SSTableFormat.PREFIX.length(), n.indexOf('-', SSTableFormat.PREFIX.length()))));
            }
        }
        return g;
    }

    static List<String> names(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldNeitherLoseNorDuplicateDataWhenACompactionIsInterrupted(@TempDir Path dir) throws IOException {
        TableDescriptor t = table(Map.of("enabled", "false"), 864000);
        Path saved = dir.resolve("saved");
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            for (int i = 0; i < 100; i++) {
                join(s.apply(row(t.id(), i, 1, "a" + i)));
            }
            join(s.flush(t.id()));
            for (int i = 50; i < 150; i++) {
                join(s.apply(row(t.id(), i, 2, "b" + i)));
            }
            join(s.flush(t.id()));
            Path tableDir = s.tableDirectory(t);
            ts.closeStorage();
            ts.open(t);
            ts.closeStorage(); // commit log replayed and flushed: the directory is stable
            copyDir(tableDir, saved);
            List<Long> inputs = generations(saved);
            assertThat(inputs.size()).isGreaterThanOrEqualTo(2);
            s = ts.open(t);
            join(s.forceMajorCompaction(t.id()));
            ts.closeStorage();
            List<Long> outputs = generations(tableDir);
            assertThat(outputs).hasSize(1).doesNotContainAnyElementsOf(inputs);
            long out = outputs.get(0);

            // crash after the outputs were complete and the log committed, before the inputs were deleted
            copyDir(saved, tableDir);
            CompactionLog log = CompactionLog.begin(tableDir, UUID.randomUUID(), inputs);
            log.added(out);
            log.commit();
            s = ts.open(t);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(1);
            assertThat(s.stats(t.id()).sstablePartitionsEstimate()).isEqualTo(150);
            for (int i = 0; i < 150; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo(i < 50 ? "a" + i : "b" + i);
            }
            ts.closeStorage();
            assertThat(generations(tableDir)).containsExactly(out);
            assertThat(names(tableDir)).allMatch(n -> n.startsWith("cb-"));

            // crash before the commit: inputs and a complete output, a half-written one, no commit
            copyDir(saved, tableDir);
            CompactionLog uncommitted = CompactionLog.begin(tableDir, UUID.randomUUID(), inputs);
            uncommitted.added(out);
            uncommitted.added(out + 1);
            Files.writeString(tableDir.resolve(SSTableFormat.TMP_PREFIX + SSTableFormat.fileName(out + 1, "Data.db")), "partial");
            s = ts.open(t);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(inputs.size());
            for (int i = 0; i < 150; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo(i < 50 ? "a" + i : "b" + i);
            }
            ts.closeStorage();
            assertThat(generations(tableDir)).containsExactlyInAnyOrderElementsOf(inputs);
            assertThat(names(tableDir)).allMatch(n -> n.startsWith("cb-"));
        }
    }

    @Test
    void shouldReportStopAndCapRunningCompactions(@TempDir Path dir) {
        TableDescriptor t = table(Map.of("enabled", "false"), 864000);
        StorageConfig config = TestSupport.config(dir, CommitLogSync.PERIODIC).withCompactionThroughputBytesPerSecond(200_000);
        char[] pad = new char[1000];
        java.util.Arrays.fill(pad, 'q');
        try (TestSupport ts = new TestSupport(dir, 1, config)) {
            Storage s = ts.open(t);
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 400; i++) {
                    join(s.apply(row(t.id(), round * 400 + i, 1, new String(pad))));
                }
                join(s.flush(t.id()));
            }
            for (int i = 0; i < 50; i++) {
                assertThat(value(s, t.id(), i)).isNotNull();
            }
            CompletableFuture<Void> major = s.forceMajorCompaction(t.id());
            await(() -> !join(s.compactionStatus()).running().isEmpty()
                    && join(s.compactionStatus()).running().get(0).completedBytes() > 0);
            CompactionStatus st = join(s.compactionStatus());
            CompactionStatus.Running r = st.running().get(0);
            assertThat(r.taskType()).isEqualTo("Major compaction");
            assertThat(r.keyspace()).isEqualTo("ks");
            assertThat(r.totalBytes()).isGreaterThan(1_000_000);
            assertThat(r.completedBytes()).isLessThan(r.totalBytes()); // the cap holds it back
            assertThat(st.shards().get(0).compactionShares()).isGreaterThanOrEqualTo(50);
            assertThat(join(s.stopCompactions())).isEqualTo(1);
            assertThat(major).failsWithin(10, TimeUnit.SECONDS);
            await(() -> join(s.compactionStatus()).running().isEmpty());
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(4);
            try (Stream<Path> files = Files.list(s.tableDirectory(t))) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .noneMatch(n -> n.startsWith("tmp-") || n.startsWith(CompactionLog.PREFIX));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            for (int i = 0; i < 1600; i += 37) {
                assertThat(value(s, t.id(), i)).isNotNull();
            }
            TableMetrics m = s.metrics(t.id());
            assertThat(m.sstablesPerRead().percentile(0.99)).isGreaterThanOrEqualTo(1);
            ts.closeStorage();
        }
    }

    @Test
    void shouldMakeWritesWaitForFlushesInsteadOfExceedingTheMemtableLimit(@TempDir Path dir) {
        TableDescriptor t = table(Map.of(), 864000).withCaching(Map.of("enabled", "false"));
        long budget = 1 << 20;
        StorageConfig config = TestSupport.config(dir, CommitLogSync.PERIODIC).withMemoryBudgetBytes(budget);
        char[] pad = new char[1000];
        java.util.Arrays.fill(pad, 'w');
        try (TestSupport ts = new TestSupport(dir, 1, config)) {
            Storage s = ts.open(t);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            long max = 0;
            for (int i = 0; i < 4000; i++) {
                writes.add(s.apply(row(t.id(), i, 1, i + new String(pad))));
                if (i % 50 == 0) {
                    max = Math.max(max, s.allocatedOffHeapBytes());
                }
            }
            while (!writes.stream().allMatch(CompletableFuture::isDone)) {
                max = Math.max(max, s.allocatedOffHeapBytes());
                Thread.onSpinWait();
            }
            writes.forEach(CompactionEndToEndTest::join);
            assertThat(max).isLessThanOrEqualTo(budget / 2 + 2 * 64 * 1024);
            assertThat(join(s.compactionStatus()).shards().get(0).writesDelayed()).isGreaterThan(0);
            for (int i = 0; i < 4000; i += 97) {
                assertThat(value(s, t.id(), i)).startsWith(i + "w");
            }
            ts.closeStorage();
        }
    }
}
