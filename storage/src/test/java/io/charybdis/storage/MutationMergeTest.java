package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Mutation#merge}: updates of one partition combined into one mutation read back exactly as the same updates
 * applied one after the other, before and after a commit log replay, and are written as one operation.
 */
class MutationMergeTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    static final long TOKEN = 42;
    static final byte[] KEY = {1, 2, 3};

    static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] ck(int i) {
        return new byte[] {0x40, (byte) i};
    }

    /** Random updates of one partition: rows (repeated clusterings, timestamp ties), tombstones of every kind. */
    static List<Mutation> randomParts(SplittableRandom r, TableId table, int count) {
        List<Mutation> parts = new ArrayList<>();
        MutationBuilder b = new MutationBuilder();
        for (int i = 0; i < count; i++) {
            b.start(table, TOKEN, KEY);
            if (r.nextInt(6) == 0) {
                b.partitionDeletion(r.nextInt(20), NOW);
            }
            if (r.nextInt(4) == 0) {
                int a = r.nextInt(8);
                b.rangeTombstone(ck(a), ck(a + 1 + r.nextInt(3)), r.nextInt(30), NOW);
            }
            int rows = r.nextInt(4);
            for (int j = 0; j < rows; j++) {
                b.beginRow(r.nextInt(5) == 0 ? new byte[0] : ck(r.nextInt(8)));
                if (r.nextBoolean()) {
                    b.rowMarker(r.nextInt(30), 0, NOW);
                }
                if (r.nextInt(8) == 0) {
                    b.rowDeletion(r.nextInt(30), NOW);
                }
                int cells = 1 + r.nextInt(3);
                for (int c = 0; c < cells; c++) {
                    int col = r.nextInt(3);
                    long ts = r.nextInt(30);
                    if (r.nextInt(5) == 0) {
                        b.cellTombstone(col, ts, NOW);
                    } else {
                        b.cell(col, ts, 0, NOW, text("v" + r.nextInt(4)));
                    }
                }
                if (r.nextInt(3) == 0) {
                    b.complexCell(3, new byte[] {(byte) r.nextInt(4)}, r.nextInt(30), 0, NOW, text("e" + r.nextInt(3)));
                }
                if (r.nextInt(8) == 0) {
                    b.complexDeletion(3, r.nextInt(30), NOW);
                }
                b.endRow();
            }
            parts.add(b.build());
        }
        return parts;
    }

    static List<String> read(Storage storage, TableId table) {
        ReadResult res = storage.read(ReadCommand.partition(table, TOKEN, KEY).nowInSeconds(NOW).build())
                .orTimeout(10, TimeUnit.SECONDS).join();
        return StorageModelTest.render(res);
    }

    @Test
    void mergedMutationReadsLikeItsPartsAppliedInOrder(@TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(7);
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.BATCH))) {
            List<TableDescriptor> tables = new ArrayList<>();
            for (int round = 0; round < 40; round++) {
                tables.add(TestSupport.table("m" + round, java.util.Map.of(), java.util.Map.of()));
                tables.add(TestSupport.table("s" + round, java.util.Map.of(), java.util.Map.of()));
            }
            Storage storage = ts.open(tables.toArray(TableDescriptor[]::new));
            int nonEmpty = 0;
            for (int round = 0; round < 40; round++) {
                TableId merged = tables.get(2 * round).id();
                TableId separate = tables.get(2 * round + 1).id();
                int n = 1 + r.nextInt(5);
                long seed = r.nextLong();
                List<Mutation> parts = randomParts(new SplittableRandom(seed), merged, n);
                List<Mutation> same = randomParts(new SplittableRandom(seed), separate, n);
                Mutation m = Mutation.merge(parts);
                int rows = 0;
                for (Mutation p : parts) {
                    rows += p.rowCount();
                }
                assertThat(m.rowCount()).isEqualTo(rows);
                assertThat(m.table()).isEqualTo(merged);
                assertThat(m.partitionKey()).isEqualTo(KEY);
                storage.apply(m).orTimeout(10, TimeUnit.SECONDS).join();
                for (Mutation p : same) {
                    storage.apply(p).orTimeout(10, TimeUnit.SECONDS).join();
                }
                List<String> expected = read(storage, separate);
                assertThat(read(storage, merged)).as("round %d", round).isEqualTo(expected);
                nonEmpty += expected.size() > 1 ? 1 : 0;
                assertThat(storage.latencies(merged).writes().count()).isEqualTo(1);
                assertThat(storage.latencies(separate).writes().count()).isEqualTo(n);
            }
            assertThat(nonEmpty).isGreaterThan(20);
            // the merged record replays from the commit log like any other
            ts.closeStorage();
            storage = ts.open(tables.toArray(TableDescriptor[]::new));
            for (int round = 0; round < 40; round++) {
                assertThat(read(storage, tables.get(2 * round).id())).as("replayed round %d", round)
                        .isEqualTo(read(storage, tables.get(2 * round + 1).id()));
            }
            ts.closeStorage();
        }
    }

    @Test
    void mergeOfOneIsItselfAndOfOtherPartitionsIsRefused() {
        TableId t = TableId.random();
        MutationBuilder b = new MutationBuilder();
        Mutation a = b.start(t, TOKEN, KEY).beginRow(ck(1)).cell(0, 1, 0, NOW, text("a")).endRow().build();
        assertThat(Mutation.merge(List.of(a))).isSameAs(a);
        Mutation otherKey = b.start(t, TOKEN, new byte[] {1, 2, 4}).build();
        Mutation otherTable = b.start(TableId.random(), TOKEN, KEY).build();
        assertThatThrownBy(() -> Mutation.merge(List.of(a, otherKey))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Mutation.merge(List.of(a, otherTable))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Mutation.merge(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mergedMutationKeepsTheNewestPartitionDeletion() {
        TableId t = TableId.random();
        MutationBuilder b = new MutationBuilder();
        Mutation a = b.start(t, TOKEN, KEY).partitionDeletion(10, NOW).build();
        Mutation c = b.start(t, TOKEN, KEY).beginRow(ck(2)).cell(1, 3, 0, NOW, text("x")).endRow().build();
        Mutation d = b.start(t, TOKEN, KEY).partitionDeletion(7, NOW).rangeTombstone(ck(0), ck(5), 9, NOW).build();
        Mutation m = Mutation.merge(List.of(a, c, d));
        assertThat(m.partition().deletionTimestamp()).isEqualTo(10);
        assertThat(m.partition().rangeTombstoneCount()).isEqualTo(1);
        assertThat(m.rowCount()).isEqualTo(1);
        // the copy is well formed: a validating wrap accepts it and Mutation.copyOf its framing
        new io.charybdis.storage.mutation.SerializedPartition().wrap(m.buffer(), m.partitionOffset(), true);
        assertThat(Mutation.copyOf(m.buffer(), 0, m.serializedSize()).serializedSize()).isEqualTo(m.serializedSize());
    }
}
