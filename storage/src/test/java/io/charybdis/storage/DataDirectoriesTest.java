package io.charybdis.storage;

import static io.charybdis.storage.CompactionEndToEndTest.join;
import static io.charybdis.storage.CompactionEndToEndTest.token;
import static io.charybdis.storage.CompactionEndToEndTest.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.compaction.CompactionLog;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several data directories: SSTables spread over them, found in all of them by reads, compaction and restarts. */
@Timeout(60)
class DataDirectoriesTest {
    final MutationBuilder b = new MutationBuilder();

    Mutation row(TableId t, int i, long ts, String value) {
        b.start(t, token(i), ("key-" + i).getBytes()).beginRow(new byte[] {1}).rowMarker(ts, 0, Integer.MAX_VALUE)
                .cell(0, ts, 0, Integer.MAX_VALUE, ByteBuffer.wrap(value.getBytes())).endRow();
        return b.build();
    }

    static StorageConfig config(Path base) {
        return TestSupport.config(base, CommitLogSync.PERIODIC)
                .withDataDirectories(List.of(base.resolve("d1"), base.resolve("d2"), base.resolve("d3")));
    }

    static long sstables(Path tableDir) throws IOException {
        if (!Files.isDirectory(tableDir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(tableDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith("-TOC.txt")).count();
        }
    }

    @Test
    void shouldSpreadFlushesAndCompactionsOverEveryDirectoryAndReadThemBack(@TempDir Path dir) throws IOException {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"),
                864000);
        StorageConfig config = config(dir);
        try (TestSupport ts = new TestSupport(dir, 2, config)) {
            Storage s = ts.open(t);
            List<Path> tableDirs = s.tableDirectories(t.id());
            assertThat(tableDirs).hasSize(3);
            assertThat(tableDirs.get(0)).startsWith(dir.resolve("d1"));
            for (int round = 1; round <= 6; round++) {
                for (int i = 0; i < 100; i++) {
                    join(s.apply(row(t.id(), i, round, "v" + round + "-" + i)));
                }
                join(s.flush(t.id()));
            }
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(12);
            for (Path d : tableDirs) {
                assertThat(sstables(d)).as("sstables in %s", d).isPositive();
            }
            for (int i = 0; i < 100; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo("v6-" + i);
            }

            List<Path> links = join(s.snapshot(t.id(), "snap"));
            assertThat(links).hasSize(12 * io.charybdis.storage.sstable.SSTableFormat.COMPONENTS.length);
            for (Path d : tableDirs) {
                // each SSTable's links stay beside it, in its own directory
                assertThat(sstables(d.resolve("snapshots").resolve("snap"))).isEqualTo(sstables(d));
            }

            join(s.forceMajorCompaction(t.id()));
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo(2);
            long compacted = 0;
            for (Path d : tableDirs) {
                compacted += sstables(d);
            }
            assertThat(compacted).isEqualTo(2); // the inputs are gone from every directory
            ts.closeStorage();

            // a restart loads the SSTables of every directory (the commit log replay may flush more)
            s = ts.open(t);
            long total = 0;
            for (Path d : tableDirs) {
                total += sstables(d);
            }
            assertThat(total).isGreaterThanOrEqualTo(2);
            assertThat(s.stats(t.id()).sstableCount()).isEqualTo((int) total);
            for (int i = 0; i < 100; i++) {
                assertThat(value(s, t.id(), i)).isEqualTo("v6-" + i);
            }
            ts.closeStorage();
        }
    }

    @Test
    void shouldRollBackAnInterruptedCompactionWhoseOutputIsInAnotherDirectory(@TempDir Path dir) throws IOException {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"),
                864000);
        StorageConfig config = config(dir);
        List<Path> tableDirs;
        try (TestSupport ts = new TestSupport(dir, 1, config)) {
            Storage s = ts.open(t);
            tableDirs = s.tableDirectories(t.id());
            for (int round = 1; round <= 2; round++) {
                join(s.apply(row(t.id(), 1, round, "v" + round)));
                join(s.flush(t.id()));
            }
            ts.closeStorage();
        }
        // a crash during a compaction whose log (in the first directory) names an output in the third directory
        Path output = tableDirs.get(2);
        Path source = null;
        for (Path d : tableDirs) {
            if (sstables(d) > 0) {
                source = d;
                break;
            }
        }
        long gen = 99;
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.filter(p -> p.getFileName().toString().contains("-1-")).toList()) {
                Files.copy(f, output.resolve(f.getFileName().toString().replace("-1-", "-" + gen + "-")));
            }
        }
        CompactionLog log = CompactionLog.begin(tableDirs.get(0), UUID.randomUUID(), List.of(1L, 2L));
        log.added(gen);
        try (TestSupport ts = new TestSupport(dir, 1, config)) {
            Storage s = ts.open(t);
            assertThat(value(s, t.id(), 1)).isEqualTo("v2"); // the uncommitted output (below) is gone
            try (Stream<Path> files = Files.list(output)) {
                assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.contains("-" + gen + "-")))
                        .isEmpty();
            }
            ts.closeStorage();
        }
    }
}
