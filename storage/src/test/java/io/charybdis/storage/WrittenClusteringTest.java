package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.mutation.MutationLayout;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The written clustering cell ({@link MutationLayout}): one row per clustering key, whose written form is the first
 * write's, through memtable merges, flushes, reads across sources, compaction and commit log replay; never data
 * (not live, not a tombstone, not shadowed, gone with its row) and returned whatever the column filter.
 */
@Timeout(60)
class WrittenClusteringTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    static final long TOKEN = 7;
    static final byte[] KEY = {7};
    static final byte[] CK = {0x40, 0x02, (byte) 0x80, 0, 0, 1, 2, 0}; // one key for every written form below
    final MutationBuilder b = new MutationBuilder();

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static TableDescriptor table() {
        return new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
    }

    /** An insert: row marker, cell 0 = {@code value}, written as {@code written}. */
    Mutation insert(TableId t, String written, long ts, String value) {
        return b.start(t, TOKEN, KEY).beginRow(CK).writtenClustering(ts, bytes(written)).rowMarker(ts, 0, 0)
                .cell(0, ts, 0, 0, bytes(value)).endRow().build();
    }

    Mutation deleteRow(TableId t, String written, long ts) {
        return b.start(t, TOKEN, KEY).beginRow(CK).writtenClustering(ts, bytes(written)).rowDeletion(ts, NOW)
                .endRow().build();
    }

    /** The row as read: "written/value", or null when there is no row. */
    static String read(Storage s, TableId t, ReadCommand.Builder cmd) {
        ReadResult r = s.read(cmd.nowInSeconds(NOW).build()).orTimeout(10, TimeUnit.SECONDS).join();
        try {
            ReadResult.Cursor c = r.cursor();
            List<String> rows = new ArrayList<>();
            while (c.nextPartition()) {
                while (c.nextRow()) {
                    String written = null;
                    String value = null;
                    while (c.nextCell()) {
                        if (c.columnId() == MutationLayout.WRITTEN_CLUSTERING_COLUMN) {
                            assertThat(written).isNull();
                            written = new String(c.valueBytes(), StandardCharsets.UTF_8);
                        } else if (c.columnId() == 0) {
                            value = new String(c.valueBytes(), StandardCharsets.UTF_8);
                        }
                    }
                    rows.add(written + "/" + value);
                }
            }
            assertThat(rows).hasSizeLessThanOrEqualTo(1);
            return rows.isEmpty() ? null : rows.get(0);
        } finally {
            r.release();
        }
    }

    static String row(Storage s, TableId t) {
        String single = read(s, t, ReadCommand.partition(t, TOKEN, KEY));
        String range = read(s, t, ReadCommand.range(t, null, null));
        assertThat(range).as("range read").isEqualTo(single);
        return single;
    }

    static void flush(Storage s, TableId t) {
        s.flush(t).orTimeout(30, TimeUnit.SECONDS).join();
    }

    static void compact(Storage s, TableId t) {
        s.forceMajorCompaction(t).orTimeout(30, TimeUnit.SECONDS).join();
    }

    @Test
    void shouldKeepFirstArrivalInMemtableWhateverTheTimestamps(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.0", 100, "a")).join();
            s.apply(insert(t.id(), "1.00", 50, "b")).join(); // older timestamp, later arrival
            s.apply(insert(t.id(), "1", 200, "c")).join();
            assertThat(row(s, t.id())).isEqualTo("1.0/c");
            flush(s, t.id());
            assertThat(row(s, t.id())).isEqualTo("1.0/c");
        }
    }

    @Test
    void shouldKeepEarlierWriteAcrossFlushesAndCompaction(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.0", 10, "a")).join();
            flush(s, t.id());
            s.apply(insert(t.id(), "1.00", 20, "b")).join();
            assertThat(row(s, t.id())).as("SSTable and memtable").isEqualTo("1.0/b");
            flush(s, t.id());
            assertThat(row(s, t.id())).as("two SSTables").isEqualTo("1.0/b");
            s.apply(insert(t.id(), "1.000", 30, "c")).join();
            compact(s, t.id());
            assertThat(row(s, t.id())).as("compacted, memtable").isEqualTo("1.0/c");
            flush(s, t.id());
            compact(s, t.id());
            assertThat(row(s, t.id())).as("all compacted").isEqualTo("1.0/c");
        }
    }

    @Test
    void shouldTakeLowerTimestampAcrossSources(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.00", 20, "b")).join();
            flush(s, t.id());
            s.apply(insert(t.id(), "1.0", 10, "a")).join(); // written with an earlier timestamp, after the flush
            assertThat(row(s, t.id())).isEqualTo("1.0/b");
            flush(s, t.id());
            assertThat(row(s, t.id())).isEqualTo("1.0/b");
            compact(s, t.id());
            assertThat(row(s, t.id())).isEqualTo("1.0/b");
        }
    }

    @Test
    void shouldKeepWrittenFormOfDeletedRowAsCassandraMemtableDoes(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.0", 10, "a")).join();
            s.apply(deleteRow(t.id(), "1.00", 20)).join();
            assertThat(row(s, t.id())).isNull();
            s.apply(insert(t.id(), "1.000", 30, "c")).join();
            assertThat(row(s, t.id())).isEqualTo("1.0/c");
            flush(s, t.id());
            assertThat(row(s, t.id())).isEqualTo("1.0/c");

            // a partition deletion: the memtable row keeps its written form, the shadowed data goes
            s.apply(b.start(t.id(), TOKEN, KEY).partitionDeletion(40, NOW).build()).join();
            assertThat(row(s, t.id())).isNull();
            s.apply(insert(t.id(), "1.0000", 50, "d")).join();
            assertThat(row(s, t.id())).isEqualTo("1.0/d");
        }
    }

    @Test
    void shouldNotKeepRowHoldingOnlyItsWrittenForm(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(b.start(t.id(), TOKEN, KEY).beginRow(CK).writtenClustering(10, bytes("1.00")).endRow().build())
                    .join();
            assertThat(row(s, t.id())).isNull();
            s.apply(insert(t.id(), "1.0", 20, "a")).join();
            assertThat(row(s, t.id())).isEqualTo("1.0/a");

            // deleted again: the row keeps its tombstone (and written form) but shows nothing
            s.apply(b.start(t.id(), TOKEN, KEY).beginRow(CK).writtenClustering(30, bytes("1.000"))
                    .rowDeletion(30, NOW).endRow().build()).join();
            flush(s, t.id());
            assertThat(row(s, t.id())).isNull();
        }
    }

    @Test
    void shouldReturnWrittenFormWhateverTheColumnFilter(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.0", 10, "a")).join();
            assertThat(read(s, t.id(), ReadCommand.partition(t.id(), TOKEN, KEY).columns(5))).isEqualTo("1.0/null");
            ReadResult r = s.read(ReadCommand.partition(t.id(), TOKEN, KEY).nowInSeconds(NOW).build()).join();
            assertThat(r.liveRowsScanned()).isEqualTo(1);
            assertThat(r.tombstonesScanned()).isZero();
            r.release();
        }
    }

    @Test
    void shouldReplayCommitLogInArrivalOrder(@TempDir Path dir) {
        TableDescriptor t = table();
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH))) {
            Storage s = ts.open(t);
            s.apply(insert(t.id(), "1.0", 100, "a")).join();
            flush(s, t.id());
            s.apply(insert(t.id(), "1.00", 200, "b")).join();
            s.apply(b.start(t.id(), TOKEN + 1, new byte[] {8}).beginRow(CK).writtenClustering(300, bytes("2.0"))
                    .rowMarker(300, 0, 0).endRow().build()).join();
            s.apply(b.start(t.id(), TOKEN + 1, new byte[] {8}).beginRow(CK).writtenClustering(250, bytes("2.00"))
                    .rowMarker(250, 0, 0).endRow().build()).join();
            ts.closeStorage();
            s = ts.open(t);
            assertThat(read(s, t.id(), ReadCommand.partition(t.id(), TOKEN, KEY))).isEqualTo("1.0/b");
            assertThat(read(s, t.id(), ReadCommand.partition(t.id(), TOKEN + 1, new byte[] {8}))).isEqualTo("2.0/null");
        }
    }
}
