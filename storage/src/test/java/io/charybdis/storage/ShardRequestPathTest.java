package io.charybdis.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Storage's request path through a shard's bounded queue: overload is a typed failure, nothing lost or leaked. */
@Timeout(60)
class ShardRequestPathTest {
    static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @Test
    void shouldRefuseWritesBeyondTheQueueAsOverloadedAndApplyTheOthersInOrder(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            ts.storage = Storage.open(ts.config, ts.executors, 8);
            Storage s = ts.storage;
            s.registerTable(t);
            s.replayCommitLog().get(10, TimeUnit.SECONDS);
            CountDownLatch release = new CountDownLatch(1);
            ts.executors.get(0).execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });

            // 20 writes of one partition's cell, each a higher timestamp: 8 fit in the queue
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                writes.add(s.apply(new MutationBuilder().start(t.id(), 7, new byte[] {7}).beginRow(new byte[] {1})
                        .rowMarker(100 + i, 0, 0).cell(0, 100 + i, 0, 0, ByteBuffer.wrap(("v" + i).getBytes()))
                        .endRow().build()));
            }
            assertThat(s.queuedRequests()).containsExactly(8);
            for (int i = 8; i < 20; i++) {
                assertThat(writes.get(i).handle((v, e) -> e).join()).isInstanceOf(ShardOverloadedException.class);
            }
            assertThat(s.rejectedRequests()).isEqualTo(12);

            release.countDown();
            for (int i = 0; i < 8; i++) {
                writes.get(i).get(10, TimeUnit.SECONDS);
            }
            ReadCommand read = ReadCommand.partition(t.id(), 7, new byte[] {7}).nowInSeconds(NOW).build();
            var cursor = s.read(read).get(10, TimeUnit.SECONDS).cursor();
            assertThat(cursor.nextPartition() && cursor.nextRow() && cursor.nextCell()).isTrue();
            assertThat(new String(cursor.valueBytes())).isEqualTo("v7"); // the last accepted write, not a refused one
            assertThat(s.queuedRequests()).containsExactly(0);
        } // closing checks that every off-heap byte came back
    }

    @Test
    void shouldServeRequestsInlineOnTheOwningShardThread(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            ReadCommand read = ReadCommand.partition(t.id(), 7, new byte[] {7}).nowInSeconds(NOW).build();
            // on the shard's own thread the read of a partition in memory completes before read() returns
            boolean done = ts.executors.get(0).submit(() -> s.read(read).isDone()).get(10, TimeUnit.SECONDS);
            assertThat(done).isTrue();
        }
    }
}
