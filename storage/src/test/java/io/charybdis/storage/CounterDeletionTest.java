package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassandra's reconciliation of a deleted counter, as the node writes it (cluster.counters.CounterShards): a counter
 * column's shards are cells with a path (the counter id) whose timestamp is the shard's clock; {@code DELETE c} is a
 * complex deletion at {@link Long#MAX_VALUE}, which must shadow every shard, later ones included, in the memtable,
 * in SSTables, through compaction and when replicas' mutations are merged; a row deletion shadows by timestamp only.
 */
@Timeout(60)
class CounterDeletionTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);
    static final long DELETED = Long.MAX_VALUE;
    static final int COUNTER = 0;
    static final byte[] ROW = {1};
    static final byte[] ID_A = id(0xA);
    static final byte[] ID_B = id(0xB);
    final MutationBuilder b = new MutationBuilder();

    static byte[] id(int n) {
        byte[] id = new byte[16];
        id[15] = (byte) n;
        return id;
    }

    static long token(int i) {
        return (i + 1) * 0x9E3779B97F4A7C15L;
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    Mutation shard(TableId t, int k, byte[] counterId, long clock, long count) {
        b.start(t, token(k), key(k)).beginRow(ROW)
                .complexCell(COUNTER, counterId, clock, 0, 0, ByteBuffer.allocate(8).putLong(0, count)).endRow();
        return b.build();
    }

    Mutation deleteCounter(TableId t, int k) {
        b.start(t, token(k), key(k)).beginRow(ROW).complexDeletion(COUNTER, DELETED, NOW - 100).endRow();
        return b.build();
    }

    Mutation deleteRow(TableId t, int k, long ts) {
        b.start(t, token(k), key(k)).beginRow(ROW).rowDeletion(ts, NOW - 100).endRow();
        return b.build();
    }

    static <T> T join(CompletableFuture<T> f) {
        return f.orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** The live shards of the counter of partition k, as "counterIdLastByte=count", or empty when none. */
    static List<String> shards(Storage s, TableId t, int k) {
        ReadResult r = join(s.read(ReadCommand.partition(t, token(k), key(k)).nowInSeconds(NOW).build()));
        List<String> out = new ArrayList<>();
        ReadResult.Cursor c = r.cursor();
        while (c.nextPartition()) {
            while (c.nextRow()) {
                while (c.nextCell()) {
                    out.add(c.pathBytes()[15] + "=" + ByteBuffer.wrap(c.valueBytes()).getLong());
                }
            }
        }
        return out;
    }

    @Test
    void deletedCounterStaysDeletedInMemtableSSTablesAndCompaction(@TempDir Path dir) {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "cnt", Map.of(), Map.of("enabled", "false"),
                864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            TableId id = t.id();
            // partition 1: shards, the deletion, then later shards (higher clocks) in the memtable
            join(s.apply(shard(id, 1, ID_A, 10, 1)));
            join(s.apply(shard(id, 1, ID_B, 11, 5)));
            join(s.apply(deleteCounter(id, 1)));
            join(s.apply(shard(id, 1, ID_A, 1_000_000, 3)));
            assertThat(shards(s, id, 1)).isEmpty();
            // partition 2: a row deletion shadows older shards only; a later shard counts again from its own value
            join(s.apply(shard(id, 2, ID_A, 10, 1)));
            join(s.apply(deleteRow(id, 2, 20)));
            join(s.apply(shard(id, 2, ID_A, 30, 7)));
            assertThat(shards(s, id, 2)).containsExactly("10=7");
            join(s.flush(id));
            assertThat(shards(s, id, 1)).isEmpty();
            assertThat(shards(s, id, 2)).containsExactly("10=7");
            // a shard newer than the deletion in another SSTable, then one in the memtable
            join(s.apply(shard(id, 1, ID_B, 2_000_000, 9)));
            join(s.flush(id));
            join(s.apply(shard(id, 1, ID_A, 3_000_000, 4)));
            assertThat(shards(s, id, 1)).isEmpty();
            join(s.forceMajorCompaction(id));
            assertThat(shards(s, id, 1)).isEmpty();
            assertThat(shards(s, id, 2)).containsExactly("10=7");
            join(s.apply(shard(id, 1, ID_B, Long.MAX_VALUE - 1, 2)));
            join(s.flush(id));
            join(s.forceMajorCompaction(id));
            assertThat(shards(s, id, 1)).isEmpty();
            ts.closeStorage();
        }
    }

    @Test
    void deletedCounterIsPurgedOnceGcGraceHasPassed(@TempDir Path dir) throws InterruptedException {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "cnt", Map.of(), Map.of("enabled", "false"), 0);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            TableId id = t.id();
            join(s.apply(shard(id, 1, ID_A, 10, 1)));
            join(s.apply(deleteCounter(id, 1)));
            join(s.apply(shard(id, 1, ID_A, 1_000_000, 3)));
            join(s.flush(id));
            assertThat(s.stats(id).sstablePartitionsEstimate()).isEqualTo(1);
            join(s.forceMajorCompaction(id));
            // nothing outside the compaction: the deletion (at Long.MAX_VALUE) and what it shadowed are gone
            assertThat(s.stats(id).sstablePartitionsEstimate()).isZero();
            assertThat(shards(s, id, 1)).isEmpty();
            ts.closeStorage();
        }
    }

    @Test
    void deletionWinsWhenReplicasMutationsAreMerged(@TempDir Path dir) {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "cnt", Map.of(), Map.of("enabled", "false"),
                864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            TableId id = t.id();
            // read repair and hints merge what replicas hold: the deletion from one, later shards from others
            join(s.apply(Mutation.merge(List.of(shard(id, 1, ID_A, 1_000_000, 3), deleteCounter(id, 1),
                    shard(id, 1, ID_B, 2_000_000, 9)))));
            join(s.apply(Mutation.merge(List.of(shard(id, 2, ID_B, 2_000_000, 9), shard(id, 2, ID_A, 1_000_000, 3),
                    deleteCounter(id, 2)))));
            join(s.apply(Mutation.merge(List.of(shard(id, 3, ID_B, 2_000_000, 9), deleteRow(id, 3, 1_500_000),
                    shard(id, 3, ID_A, 1_000_000, 3)))));
            assertThat(shards(s, id, 1)).isEmpty();
            assertThat(shards(s, id, 2)).isEmpty();
            assertThat(shards(s, id, 3)).containsExactly("11=9");
            ts.closeStorage();
        }
    }
}
