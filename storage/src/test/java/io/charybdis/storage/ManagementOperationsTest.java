package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What nodetool's management commands do to the engine: auto-compaction off and on again, the compaction history,
 * import of a snapshot's SSTables under new generations, refresh of SSTables placed in the table's directory, and
 * the scheduling groups' figures.
 */
@Timeout(60)
class ManagementOperationsTest {
    private static Mutation row(TableId table, int i) {
        return new MutationBuilder().start(table, i * 7919L * 104729L, ("k" + i).getBytes()).beginRow(new byte[] {1})
                .rowMarker(100 + i, 0, 0).cell(0, 100 + i, 0, 0, ByteBuffer.wrap(("v" + i).getBytes())).endRow()
                .build();
    }

    private static void write(Storage s, TableId t, int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            s.apply(row(t, i)).get(10, TimeUnit.SECONDS);
        }
    }

    private static int partitions(Storage s, TableId t) throws Exception {
        return RawRangeAndCleanupTest.all(s, t, Long.MIN_VALUE, Long.MAX_VALUE, 100).size();
    }

    private static long dataFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-Data.db")).count();
        }
    }

    @Test
    void theEnabledOptionSetsTheSwitchWhichNodetoolOverridesUntilTheCompactionOptionsChange(@TempDir Path dir)
            throws Exception {
        Map<String, String> off = Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "4",
                "enabled", "false");
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), off, 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            Storage s = ts.storage;
            s.registerTable(t);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            assertThat(s.autoCompactionDisabled(t.id())).isTrue(); // 'enabled': 'false'
            for (int f = 0; f < 5; f++) {
                write(s, t.id(), f * 20, (f + 1) * 20);
                s.flush(t.id()).get(10, TimeUnit.SECONDS);
            }
            Thread.sleep(300);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(5);
            // enableautocompaction overrides the option at run time, as Cassandra's does, and compacts at once
            s.setAutoCompaction(t.id(), true).get(10, TimeUnit.SECONDS);
            assertThat(s.autoCompactionDisabled(t.id())).isFalse();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (s.stats(t.id()).sstableCount() >= 5 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(s.stats(t.id()).sstableCount()).isLessThan(5);
            // new compaction options keep nodetool's switch (as Cassandra 5.0.6 does: recorded on the reference
            // node with ALTER TABLE after enable/disableautocompaction), and decide where nodetool did not switch
            s.alterTable(t.withCaching(Map.of("keys", "NONE")));
            assertThat(s.autoCompactionDisabled(t.id())).isFalse();
            Map<String, String> offSix = Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "6",
                    "enabled", "false");
            Map<String, String> onSix = Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "6");
            s.alterTable(t.withCompaction(offSix));
            assertThat(s.autoCompactionDisabled(t.id())).isFalse(); // enabled by nodetool: kept
            s.alterTable(t.withCompaction(onSix));
            assertThat(s.autoCompactionDisabled(t.id())).isFalse();
            s.alterTable(t.withCompaction(offSix));
            assertThat(s.autoCompactionDisabled(t.id())).isTrue(); // on by the option: the option turns it off
            s.alterTable(t.withCompaction(onSix));
            assertThat(s.autoCompactionDisabled(t.id())).isFalse();
            s.setAutoCompaction(t.id(), false).get(10, TimeUnit.SECONDS);
            s.alterTable(t.withCompaction(Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "5")));
            assertThat(s.autoCompactionDisabled(t.id())).isTrue(); // disabled by nodetool: kept
        }
        // after a restart the option decides: disableautocompaction was not kept, nor was enableautocompaction
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            ts.storage.registerTable(t.withCompaction(Map.of("class", "SizeTieredCompactionStrategy")));
            assertThat(ts.storage.autoCompactionDisabled(t.id())).isFalse();
        }
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            ts.storage.registerTable(t);
            assertThat(ts.storage.autoCompactionDisabled(t.id())).isTrue();
        }
    }

    @Test
    void autoCompactionStopsAndRestartsAndIsRecordedInTheHistory(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(),
                Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "4"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            Storage s = ts.storage;
            s.registerTable(t);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            List<CompactionHistory.Entry> history = new java.util.concurrent.CopyOnWriteArrayList<>();
            s.onCompactionFinished(history::add);
            s.setAutoCompaction(t.id(), false).get(10, TimeUnit.SECONDS);
            assertThat(s.autoCompactionDisabled(t.id())).isTrue();
            for (int f = 0; f < 6; f++) {
                write(s, t.id(), f * 20, (f + 1) * 20);
                s.flush(t.id()).get(10, TimeUnit.SECONDS);
            }
            Thread.sleep(300);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(6);
            assertThat(history).isEmpty();

            s.setAutoCompaction(t.id(), true).get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (s.stats(t.id()).sstableCount() >= 6 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(s.stats(t.id()).sstableCount()).isLessThan(6);
            while (history.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            CompactionHistory.Entry e = history.get(0);
            assertThat(e.id().version()).isEqualTo(1); // a timeuuid, as Cassandra's compaction ids
            assertThat(e.keyspace()).isEqualTo("ks");
            assertThat(e.table()).isEqualTo("t");
            assertThat(e.bytesIn()).isPositive();
            assertThat(e.bytesOut()).isPositive();
            // each partition was in exactly one input
            assertThat(e.rowsMerged()).containsOnlyKeys(1);
            assertThat(e.properties()).containsEntry("compaction_type", "Compaction");
            assertThat(partitions(s, t.id())).isEqualTo(120);

            List<SchedulingGroupStats> groups = s.schedulingGroups();
            assertThat(groups).extracting(SchedulingGroupStats::group).containsExactly("statement", "memtable",
                    "compaction");
            assertThat(groups.get(0).completed()).isGreaterThanOrEqualTo(120);
            assertThat(groups.get(1).completed()).isGreaterThanOrEqualTo(6);
            assertThat(groups.get(2).completed()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void importRenumbersASnapshotsSSTablesAndRefreshLoadsOnlyUnusedGenerations(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        TableDescriptor other = new TableDescriptor(TableId.random(), "ks", "other", Map.of(), Map.of("enabled", "false"),
                864000);
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            Storage s = ts.storage;
            s.registerTable(t);
            s.registerTable(other);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            write(s, t.id(), 0, 100);
            List<Path> links = s.snapshot(t.id(), "saved").get(10, TimeUnit.SECONDS);
            Path snapshot = links.get(0).getParent();
            s.truncate(t.id()).get(10, TimeUnit.SECONDS);
            assertThat(partitions(s, t.id())).isZero();

            // import copies (keeping the snapshot) under new generations: the snapshot's hard links stay intact
            List<String> failed = s.importSSTables(t.id(), List.of(snapshot, dir.resolve("missing")), true)
                    .get(10, TimeUnit.SECONDS);
            assertThat(failed).containsExactly(dir.resolve("missing").toString());
            assertThat(partitions(s, t.id())).isEqualTo(100);
            assertThat(dataFiles(snapshot)).isPositive();

            // refresh: files of generations this table never used are loaded; the table's own are not touched
            for (int f = 0; f < 10; f++) {
                write(s, other.id(), 1000 + f, 1001 + f);
                s.flush(other.id()).get(10, TimeUnit.SECONDS);
            }
            Path tableDir = s.tableDirectory(t.id());
            long used;
            try (Stream<Path> files = Files.list(tableDir)) {
                used = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("-TOC.txt"))
                        .mapToLong(n -> Long.parseLong(n.split("-")[1])).max().orElse(0);
            }
            int copied = 0;
            try (Stream<Path> files = Files.list(s.tableDirectory(other.id()))) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String n = p.getFileName().toString();
                    if (n.startsWith("cb-") && Long.parseLong(n.split("-")[1]) > used) {
                        Files.copy(p, tableDir.resolve(n));
                        copied += n.endsWith("-Data.db") ? 1 : 0;
                    }
                }
            }
            assertThat(copied).isPositive();
            assertThat(s.refresh(t.id()).get(10, TimeUnit.SECONDS)).isEqualTo(copied);
            assertThat(partitions(s, t.id())).isEqualTo(100 + copied);
            assertThat(s.refresh(t.id()).get(10, TimeUnit.SECONDS)).isZero();
            // a later flush takes a generation above the refreshed ones
            write(s, t.id(), 5000, 5010);
            s.flush(t.id()).get(10, TimeUnit.SECONDS);
            assertThat(partitions(s, t.id())).isEqualTo(110 + copied);
        }
    }

    /**
     * A range read over one SSTable with more partitions than a read batch and small SSTables whose partitions lie
     * beyond that batch's bound returns them all (the small ones were once marked read while their partitions past the
     * bound were dropped).
     */
    @Test
    void rangeReadsReturnPartitionsOfSmallSSTablesBeyondABigOnesBatch(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            Storage s = ts.storage;
            s.registerTable(t);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            write(s, t.id(), 0, 300);
            s.flush(t.id()).get(10, TimeUnit.SECONDS);
            for (int i = 300; i < 320; i++) { // one partition per SSTable, spread over the ring
                write(s, t.id(), i, i + 1);
                s.flush(t.id()).get(10, TimeUnit.SECONDS);
            }
            io.charybdis.storage.read.ReadResult r = s.read(io.charybdis.storage.read.ReadCommand.range(t.id(), null,
                    null).build()).get(10, TimeUnit.SECONDS);
            try {
                assertThat(r.partitionCount()).isEqualTo(320);
            } finally {
                r.release();
            }
        }
    }
}
