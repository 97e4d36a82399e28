package io.charybdis.embedded;

import com.datastax.oss.driver.api.core.CqlSession;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Time from "start" to the first successful query, and memory of an idle node (BENCHMARKS.md). Not a test: run
 * {@code java -cp ... io.charybdis.embedded.StartupBenchmark [runs] [jmx] [logging-first]} ({@code jmx}: with
 * the JMX server; {@code logging-first}: the JVM's logging is set up before the clock starts) (see BENCHMARKS.md for the command line).
 *
 * <p>"First query" is measured twice: with a raw CQL exchange (what the node costs) and with a new driver session
 * (what a test pays, the driver's own start included).
 */
public final class StartupBenchmark {

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        java.util.List<String> options = java.util.Arrays.asList(args).subList(Math.min(1, args.length), args.length);
        boolean jmx = options.contains("jmx");
        if (options.contains("logging-first")) {
            // the test JVM's logging set-up (Logback reading its XML here), which whoever logs first pays: outside
            // the node's figure with this option
            org.slf4j.LoggerFactory.getLogger(StartupBenchmark.class).debug("logging initialised");
        }
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.printf("JVM up to main: %d ms%n", System.currentTimeMillis() - jvmStart);
        for (int i = 0; i < runs; i++) {
            long classes0 = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            long t0 = System.nanoTime();
            long cpu0 = cpu();
            EmbeddedCharybdis.Builder builder = EmbeddedCharybdis.builder();
            if (jmx) {
                builder.config("jmx_port", "0");
            }
            try (EmbeddedCharybdis node = builder.build().start()) {
                long started = System.nanoTime();
                long cpuStarted = cpu();
                long classesStarted = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
                try (CqlSession session = node.newSession()) {
                    session.execute("SELECT release_version FROM system.local").one();
                    long firstQuery = System.nanoTime();
                    long cpuFirstQuery = cpu();
                    System.out.printf("run %d: start() %d ms (cpu %d ms, %d classes loaded), +session and first query "
                                    + "%d ms (cpu %d ms), total %d ms (cpu %d ms)%n", i,
                            (started - t0) / 1_000_000, (cpuStarted - cpu0) / 1_000_000, classesStarted - classes0,
                            (firstQuery - started) / 1_000_000, (cpuFirstQuery - cpuStarted) / 1_000_000,
                            (firstQuery - t0) / 1_000_000, (cpuFirstQuery - cpu0) / 1_000_000);
                    if (i == runs - 1) {
                        idleMemory();
                    }
                }
            }
        }
    }

    /** CPU time of the whole process (all threads, JIT and GC included), in ns. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
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
        String rss = "?";
        try {
            rss = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).findFirst().orElse("VmRSS: ?").substring(6).strip();
        } catch (java.io.IOException e) {
            // not Linux
        }
        System.out.printf("idle (node + driver session, after GC): heap used %d MiB, non-heap %d MiB, direct buffers "
                        + "%d MiB, threads %d, process RSS %s%n", mem.getHeapMemoryUsage().getUsed() >> 20,
                mem.getNonHeapMemoryUsage().getUsed() >> 20, direct >> 20, Thread.activeCount(), rss);
    }

    private StartupBenchmark() {
    }
}
