package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages of one partition spread over a memtable and several SSTables (rows, row and cell tombstones, range
 * tombstones, partition deletions): a read with a row limit merges only about the rows it wants (see
 * {@code PartitionMerger} with a row count), and the pages read one after the other, forward and reversed, with or
 * without slices, are exactly the rows of one full read.
 */
class PagedPartitionReadTest {
    static final int NOW = MutationMergeTest.NOW;

    static ReadResult read(Storage s, ReadCommand c) {
        return s.read(c).orTimeout(10, TimeUnit.SECONDS).join();
    }

    static List<String> rows(ReadResult r) {
        List<String> all = StorageModelTest.render(r);
        r.release();
        List<String> rows = new ArrayList<>();
        for (String line : all) {
            if (line.startsWith("  R")) {
                rows.add(line);
            }
        }
        return rows;
    }

    /** Random updates of one partition over 64 clusterings (more than a page plus the merge's slack). */
    static List<Mutation> parts(SplittableRandom r, TableId t, int count) {
        List<Mutation> parts = new ArrayList<>();
        MutationBuilder b = new MutationBuilder();
        for (int i = 0; i < count; i++) {
            b.start(t, MutationMergeTest.TOKEN, MutationMergeTest.KEY);
            if (r.nextInt(40) == 0) {
                b.partitionDeletion(r.nextInt(10), NOW);
            }
            if (r.nextInt(6) == 0) {
                int a = r.nextInt(64);
                b.rangeTombstone(MutationMergeTest.ck(a), MutationMergeTest.ck(a + 1 + r.nextInt(6)), r.nextInt(40), NOW);
            }
            for (int j = 0, rows = 1 + r.nextInt(6); j < rows; j++) {
                b.beginRow(r.nextInt(30) == 0 ? new byte[0] : MutationMergeTest.ck(r.nextInt(64)));
                if (r.nextBoolean()) {
                    b.rowMarker(r.nextInt(40), 0, NOW);
                }
                if (r.nextInt(10) == 0) {
                    b.rowDeletion(r.nextInt(40), NOW);
                }
                for (int c = 0, cells = 1 + r.nextInt(2); c < cells; c++) {
                    if (r.nextInt(4) == 0) {
                        b.cellTombstone(r.nextInt(3), r.nextInt(40), NOW);
                    } else {
                        b.cell(r.nextInt(3), r.nextInt(40), 0, NOW, MutationMergeTest.text("v" + r.nextInt(4)));
                    }
                }
                b.endRow();
            }
            parts.add(b.build());
        }
        return parts;
    }

    static ReadCommand.Builder command(TableId t, boolean reversed, boolean sliced) {
        ReadCommand.Builder b = ReadCommand.partition(t, MutationMergeTest.TOKEN, MutationMergeTest.KEY)
                .reversed(reversed).nowInSeconds(NOW);
        if (sliced) {
            b.slices(List.of(new ReadCommand.Slice(MutationMergeTest.ck(1), MutationMergeTest.ck(3)),
                    new ReadCommand.Slice(MutationMergeTest.ck(9), MutationMergeTest.ck(50))));
        }
        return b;
    }

    @Test
    void pagesOfAPartitionInSeveralSourcesAreItsFullRead(@TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(11);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH))) {
            List<TableDescriptor> tables = new ArrayList<>();
            for (int round = 0; round < 12; round++) {
                tables.add(TestSupport.table("p" + round, java.util.Map.of(), java.util.Map.of()));
            }
            Storage storage = ts.open(tables.toArray(TableDescriptor[]::new));
            int paged = 0;
            for (int round = 0; round < 12; round++) {
                TableId t = tables.get(round).id();
                int batches = 1 + r.nextInt(4);
                for (int b = 0; b < batches; b++) {
                    for (Mutation m : parts(r, t, 10 + r.nextInt(20))) {
                        storage.apply(m).orTimeout(10, TimeUnit.SECONDS).join();
                    }
                    if (b < batches - 1 || r.nextBoolean()) {
                        storage.flush(t).orTimeout(10, TimeUnit.SECONDS).join();
                    }
                }
                for (int mode = 0; mode < 4; mode++) {
                    boolean reversed = (mode & 1) == 1;
                    boolean sliced = (mode & 2) == 2;
                    List<String> full = rows(read(storage, command(t, reversed, sliced).build()));
                    for (int pageSize = 1; pageSize <= 3; pageSize++) {
                        List<String> pages = new ArrayList<>();
                        ReadCommand.ResumePoint resume = null;
                        for (int page = 0; page < 200; page++) {
                            ReadCommand.Builder b = command(t, reversed, sliced).rowLimit(pageSize);
                            if (resume != null) {
                                b.startAfter(resume);
                            }
                            ReadResult res = read(storage, b.build());
                            boolean more = res.limitReached();
                            ReadCommand.ResumePoint next = res.resumePoint();
                            List<String> got = rows(res);
                            pages.addAll(got);
                            if (!more || got.isEmpty()) {
                                break;
                            }
                            resume = next;
                            paged++;
                        }
                        assertThat(pages).as("round %d reversed %s sliced %s page size %d", round, reversed, sliced,
                                pageSize).isEqualTo(full);
                    }
                }
            }
            assertThat(paged).isGreaterThan(50);
            ts.closeStorage();
        }
    }

    /**
     * A partition larger than what the shard re-reads on every page (1 MiB): the next page reuses the SSTable parts
     * read for the previous one, yet sees what was written to the memtable since, and a flush (another SSTable set)
     * makes it read the SSTables again.
     */
    @Test
    void pagesOfALargePartitionSeeWritesBetweenPages(@TempDir Path dir) {
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.BATCH))) {
            TableDescriptor td = TestSupport.table("large", java.util.Map.of(), java.util.Map.of());
            Storage storage = ts.open(td);
            TableId t = td.id();
            byte[] big = new byte[24 * 1024];
            java.util.Arrays.fill(big, (byte) 'x');
            MutationBuilder b = new MutationBuilder();
            for (int half = 0; half < 2; half++) {
                for (int i = half; i < 120; i += 2) {
                    b.start(t, MutationMergeTest.TOKEN, MutationMergeTest.KEY).beginRow(MutationMergeTest.ck(i))
                            .rowMarker(1, 0, NOW).cell(0, 1, 0, NOW, java.nio.ByteBuffer.wrap(big)).endRow();
                    storage.apply(b.build()).orTimeout(10, TimeUnit.SECONDS).join();
                }
                storage.flush(t).orTimeout(10, TimeUnit.SECONDS).join();
            }
            for (boolean reversed : new boolean[] {false, true}) {
                List<String> pages = new ArrayList<>();
                ReadCommand.ResumePoint resume = null;
                for (int page = 0; page < 100; page++) {
                    ReadCommand.Builder rb = command(t, reversed, false).rowLimit(7);
                    if (resume != null) {
                        rb.startAfter(resume);
                    }
                    List<String> trace = new ArrayList<>();
                    ReadResult res = storage.read(rb.build(), trace::add).orTimeout(10, TimeUnit.SECONDS).join();
                    if (page >= 1 && page <= 11 && !reversed) {
                        // the same SSTables as page 0's: their parts, kept off-heap, are read again from the slot
                        assertThat(trace).as("page %d", page)
                                .contains("Reusing the SSTable parts of the partition's previous page");
                    }
                    if (page == 13 && !reversed) {
                        assertThat(trace).as("after the flush").doesNotContain(
                                "Reusing the SSTable parts of the partition's previous page");
                    }
                    boolean more = res.limitReached();
                    resume = res.resumePoint();
                    List<String> got = rows(res);
                    pages.addAll(got);
                    if (page == 3 && !reversed) {
                        // between pages: rows 40..49 deleted, row 35 overwritten, in the memtable (read by pages 4 to
                        // 7, before the flush)
                        b.start(t, MutationMergeTest.TOKEN, MutationMergeTest.KEY)
                                .rangeTombstone(MutationMergeTest.ck(40), MutationMergeTest.ck(50), 2, NOW);
                        storage.apply(b.build()).orTimeout(10, TimeUnit.SECONDS).join();
                        b.start(t, MutationMergeTest.TOKEN, MutationMergeTest.KEY).beginRow(MutationMergeTest.ck(35))
                                .cell(0, 3, 0, NOW, MutationMergeTest.text("new")).endRow();
                        storage.apply(b.build()).orTimeout(10, TimeUnit.SECONDS).join();
                    }
                    if (page == 12 && !reversed) {
                        storage.flush(t).orTimeout(10, TimeUnit.SECONDS).join();
                    }
                    if (!more) {
                        break;
                    }
                }
                // forward: the first pages (rows 0..27) were read before the writes, which touch later rows only;
                // pages 4 to 11 reuse the SSTable parts read by page 0 (the same SSTables) with the memtable's writes
                List<String> full = rows(read(storage, command(t, reversed, false).build()));
                assertThat(pages).as("reversed %s", reversed).isEqualTo(full);
                assertThat(full).hasSize(110);
                assertThat(full).filteredOn(r -> r.contains("=6e6577@")).hasSize(1);
            }
            ts.closeStorage();
        }
    }
}
