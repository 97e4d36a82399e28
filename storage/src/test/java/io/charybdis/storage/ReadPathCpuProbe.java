package io.charybdis.storage;

import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not a test (asserts nothing; benchmarks are not tests): the shard thread's CPU time per in-memory single-partition
 * read issued on the owning shard's own thread, 50 reads per task, 1,000,000 reads a round, 8 rounds (the first
 * warms up). Isolates storage's part of the request path from the server's; BENCHMARKS.md quotes it. Runs only when
 * asked: {@code ./mvnw -pl storage test -Dtest=ReadPathCpuProbe -Dcharybdis.probe=true}.
 */
@EnabledIfSystemProperty(named = "charybdis.probe", matches = "true")
class ReadPathCpuProbe {
    @Test
    void probe(@TempDir Path dir) throws Exception {
        TableDescriptor t = new TableDescriptor(TableId.random(), "ks", "t", Map.of(), Map.of("enabled", "false"), 864000);
        try (TestSupport ts = new TestSupport(dir, 1, TestSupport.config(dir, CommitLogSync.PERIODIC))) {
            Storage s = ts.open(t);
            int keys = 10_000;
            for (int i = 0; i < keys; i++) {
                s.apply(new MutationBuilder().start(t.id(), i * 7919L, ("k" + i).getBytes()).beginRow(new byte[] {1})
                        .rowMarker(10, 0, 0).cell(0, 10, 0, 0, ByteBuffer.wrap(("v" + i).getBytes())).endRow().build()).join();
            }
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            for (int round = 0; round < 8; round++) {
                int tasks = 20_000, per = 50;
                CompletableFuture<?>[] all = new CompletableFuture<?>[tasks];
                long cpuStart = ts.executors.get(0).submit(() -> mx.getCurrentThreadCpuTime()).get();
                for (int k = 0; k < tasks; k++) {
                    int base = k;
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    all[k] = done;
                    ts.executors.get(0).execute(() -> {
                        CompletableFuture<?>[] fs = new CompletableFuture<?>[per];
                        for (int j = 0; j < per; j++) {
                            int i = (base * per + j) % keys;
                            fs[j] = s.read(ReadCommand.partition(t.id(), i * 7919L, ("k" + i).getBytes()).nowInSeconds(1).build())
                                    .thenApply(r -> r.isEmpty());
                        }
                        CompletableFuture.allOf(fs).whenComplete((v, e) -> done.complete(null));
                    });
                    if (k % 200 == 199) {
                        all[k].get(10, TimeUnit.SECONDS);
                    }
                }
                CompletableFuture.allOf(all).get(60, TimeUnit.SECONDS);
                long cpuEnd = ts.executors.get(0).submit(() -> mx.getCurrentThreadCpuTime()).get();
                System.out.printf("PROBE round=%d shard-thread CPU per read=%.3f us%n", round,
                        (cpuEnd - cpuStart) / 1000.0 / tasks / per);
            }
        }
    }
}
