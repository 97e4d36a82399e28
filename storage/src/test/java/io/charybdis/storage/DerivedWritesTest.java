package io.charybdis.storage;

import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;
import io.charybdis.storage.shard.ShardRouting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DerivedWrites}, what native secondary indexes stand on: writes a base write implies land in the same shard,
 * in the derived table's memtable, survive flush and compaction, are derived again by commit log replay, and a
 * derived write outside the shard is refused.
 */
@Timeout(60)
class DerivedWritesTest {
    private static final byte[] DERIVED_KEY = "all".getBytes(StandardCharsets.UTF_8);

    @Test
    void tokenInShardIsOwnedByThatShard() {
        SplittableRandom r = new SplittableRandom(42);
        for (int n = 1; n <= 64; n++) {
            for (int i = 0; i < 2000; i++) {
                long hash = i < 4 ? new long[]{0, -1, Long.MIN_VALUE, Long.MAX_VALUE}[i] : r.nextLong();
                int shard = r.nextInt(n);
                long token = DerivedWrites.tokenInShard(hash, shard, n);
                assertThat(ShardRouting.shardOf(token, n)).as("hash=%d shard=%d n=%d", hash, shard, n)
                        .isEqualTo(shard);
                assertThat(DerivedWrites.tokenInShard(hash, shard, n)).isEqualTo(token);
            }
        }
    }

    /** For every base write: a row keyed by the base key in partition "all" of the derived table, in the same shard. */
    private static DerivedWrites hook(TableId derived) {
        return (base, shard, shardCount, out) -> out.accept(new MutationBuilder()
                .start(derived, DerivedWrites.tokenInShard(7, shard, shardCount), DERIVED_KEY)
                .beginRow(base.partitionKey()).rowMarker(1, 0, 0).endRow().build());
    }

    private static Mutation base(TableId t, int k) {
        byte[] key = ByteBuffer.allocate(4).putInt(k).array();
        return new MutationBuilder().start(t, k * 0x9E3779B97F4A7C15L, key).beginRow(new byte[]{0x40})
                .rowMarker(1, 0, 0).endRow().build();
    }

    private static int derivedRows(Storage s, TableId derived) {
        int rows = 0;
        for (int shard = 0; shard < s.shardCount(); shard++) {
            ReadCommand c = ReadCommand.partition(derived, DerivedWrites.tokenInShard(7, shard, s.shardCount()),
                    DERIVED_KEY).nowInSeconds((int) (System.currentTimeMillis() / 1000)).build();
            ReadResult r = s.read(c).join();
            try {
                ReadResult.Cursor cursor = r.cursor();
                while (cursor.nextPartition()) {
                    while (cursor.nextRow()) {
                        byte[] baseKey = cursor.clusteringBytes();
                        int k = ByteBuffer.wrap(baseKey).getInt();
                        // the entry sits in the shard that owns the base partition
                        assertThat(s.shardOf(k * 0x9E3779B97F4A7C15L)).isEqualTo(shard);
                        rows++;
                    }
                }
            } finally {
                r.release();
            }
        }
        return rows;
    }

    private static Storage open(TestSupport ts, TableDescriptor base, TableDescriptor derived) {
        Storage s = Storage.open(ts.config, ts.executors);
        ts.storage = s;
        s.registerTable(base);
        s.registerTable(derived);
        s.derivedWrites(base.id(), hook(derived.id()));
        s.replayCommitLog().orTimeout(30, TimeUnit.SECONDS).join();
        return s;
    }

    @Test
    void derivedWritesFollowTheBaseThroughFlushCompactionAndReplay(@TempDir Path dir) {
        TableDescriptor base = TestSupport.table("base", Map.of(), Map.of());
        TableDescriptor derived = TestSupport.table("base.idx", Map.of(), Map.of());
        try (TestSupport ts = new TestSupport(dir, 4, TestSupport.config(dir, CommitLogSync.BATCH))) {
            Storage s = open(ts, base, derived);
            for (int k = 0; k < 100; k++) {
                s.apply(base(base.id(), k)).join();
            }
            assertThat(derivedRows(s, derived.id())).isEqualTo(100);
            // not flushed: the commit log has only the base writes, and replay derives the rest again
            ts.closeStorage();
            s = open(ts, base, derived);
            assertThat(derivedRows(s, derived.id())).isEqualTo(100);
            for (int k = 100; k < 150; k++) {
                s.apply(base(base.id(), k)).join();
            }
            s.flushAll().join();
            for (int k = 150; k < 160; k++) {
                s.apply(base(base.id(), k)).join();
            }
            s.flushAll().join();
            s.forceMajorCompaction(derived.id()).join();
            assertThat(derivedRows(s, derived.id())).isEqualTo(160);
            // building for data already there: derive without applying the base again
            s.derivedWrites(base.id(), null);
            s.apply(base(base.id(), 1000)).join();
            assertThat(derivedRows(s, derived.id())).isEqualTo(160);
            s.derivedWrites(base.id(), hook(derived.id()));
            s.derive(base(base.id(), 1000)).join();
            assertThat(derivedRows(s, derived.id())).isEqualTo(161);
            ts.closeStorage();
        }
    }

    @Test
    void derivedWriteOutsideTheShardIsRefused(@TempDir Path dir) {
        TableDescriptor base = TestSupport.table("base", Map.of(), Map.of());
        TableDescriptor derived = TestSupport.table("base.idx", Map.of(), Map.of());
        try (TestSupport ts = new TestSupport(dir, 4, TestSupport.config(dir, CommitLogSync.BATCH))) {
            Storage s = open(ts, base, derived);
            s.derivedWrites(base.id(), (m, shard, n, out) -> out.accept(new MutationBuilder()
                    .start(derived.id(), DerivedWrites.tokenInShard(7, (shard + 1) % n, n), DERIVED_KEY)
                    .beginRow(m.partitionKey()).rowMarker(1, 0, 0).endRow().build()));
            assertThatThrownBy(() -> s.derive(base(base.id(), 1)).join())
                    .isInstanceOf(CompletionException.class).hasRootCauseInstanceOf(StorageException.class)
                    .hasMessageContaining("is not owned by shard");
            ts.closeStorage();
        }
    }
}
