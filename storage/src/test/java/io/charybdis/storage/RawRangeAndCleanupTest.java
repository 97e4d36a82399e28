package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw range pages (what streaming and repair read) list every partition of a token range once, memtables and
 * SSTables merged, tombstones included; cleanup drops exactly the partitions outside the kept ranges.
 */
@Timeout(60)
class RawRangeAndCleanupTest {
    static List<Mutation> all(Storage s, TableId table, long start, long end, int page) throws Exception {
        List<Mutation> out = new ArrayList<>();
        for (int shard = 0; shard < s.shardCount(); shard++) {
            DecoratedKey after = null;
            while (true) {
                List<Mutation> p = s.readRawRange(table, shard, start, after, end, page).get(10, TimeUnit.SECONDS);
                out.addAll(p);
                if (p.size() < page) {
                    break;
                }
                after = new DecoratedKey(p.get(p.size() - 1).token(), p.get(p.size() - 1).partitionKey());
            }
        }
        return out;
    }

    static TreeSet<Long> tokens(List<Mutation> ms) {
        TreeSet<Long> out = new TreeSet<>();
        for (Mutation m : ms) {
            assertThat(out.add(m.token())).as("partition listed twice: token=%d", m.token()).isTrue();
        }
        return out;
    }

    @Test
    void rangePagesListEachPartitionOnceAndCleanupKeepsOnlyTheKeptRanges(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 2, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors);
            Storage s = ts.storage;
            s.registerTable(t);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            Random random = new Random(3);
            TreeSet<Long> written = new TreeSet<>();
            for (int i = 0; i < 500; i++) {
                long token = random.nextLong();
                written.add(token);
                MutationBuilder b = new MutationBuilder().start(t.id(), token, ("k" + i).getBytes());
                if (i % 7 == 0) {
                    b.partitionDeletion(100 + i, (int) (System.currentTimeMillis() / 1000)); // only a tombstone
                } else {
                    b.beginRow(new byte[] {1}).rowMarker(100 + i, 0, 0).cell(0, 100 + i, 0, 0,
                            ByteBuffer.wrap(("v" + i).getBytes())).endRow();
                }
                s.apply(b.build()).get(10, TimeUnit.SECONDS);
                if (i == 250) {
                    s.flushAll().get(10, TimeUnit.SECONDS);
                }
                if (i % 50 == 0) { // the same partition again later: in a memtable and an SSTable at once
                    s.apply(new MutationBuilder().start(t.id(), token, ("k" + i).getBytes()).beginRow(new byte[] {2})
                            .rowMarker(5000, 0, 0).endRow().build()).get(10, TimeUnit.SECONDS);
                }
            }
            assertThat(tokens(all(s, t.id(), Long.MIN_VALUE, Long.MAX_VALUE, 17))).isEqualTo(written);
            assertThat(tokens(all(s, t.id(), 0, Long.MAX_VALUE, 64))).isEqualTo(written.tailSet(0L, true));

            s.cleanup(t.id(), token -> token < 0).get(30, TimeUnit.SECONDS);
            assertThat(tokens(all(s, t.id(), Long.MIN_VALUE, Long.MAX_VALUE, 64))).isEqualTo(written.headSet(0L));
        }
    }
}
