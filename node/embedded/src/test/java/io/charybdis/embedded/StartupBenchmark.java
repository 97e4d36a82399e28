package io.charybdis.embedded;

import com.datastax.oss.driver.api.core.CqlSession;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Time from "start" to the first successful query, and memory of an idle node (BENCHMARKS.md). Not a test: run
 * {@code java -cp ... io.charybdis.embedded.StartupBenchmark [runs]} (see BENCHMARKS.md for the command line).
 *
 * <p>"First query" is measured twice: with a raw CQL exchange (what the node costs) and with a new driver session
 * (what a test pays, the driver's own start included).
 */
public final class StartupBenchmark {

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.printf("JVM up to main: %d ms%n", System.currentTimeMillis() - jvmStart);
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            try (EmbeddedCharybdis node = EmbeddedCharybdis.startNew()) {
                long started = System.nanoTime();
                try (CqlSession session = node.newSession()) {
                    session.execute("SELECT release_version FROM system.local").one();
                    long firstQuery = System.nanoTime();
                    System.out.printf("run %d: start() %d ms, +session and first query %d ms, total %d ms%n", i,
                            (started - t0) / 1_000_000, (firstQuery - started) / 1_000_000,
                            (firstQuery - t0) / 1_000_000);
                    if (i == runs - 1) {
                        idleMemory();
                    }
                }
            }
        }
    }

    private static void idleMemory() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long direct = ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).mapToLong(java.lang.management.BufferPoolMXBean::getMemoryUsed)
                .sum();
        System.out.printf("idle (node + driver session, after GC): heap used %d MiB, non-heap %d MiB, direct buffers %d MiB, threads %d%n",
                mem.getHeapMemoryUsage().getUsed() >> 20, mem.getNonHeapMemoryUsage().getUsed() >> 20, direct >> 20,
                Thread.activeCount());
    }

    private StartupBenchmark() {
    }
}
