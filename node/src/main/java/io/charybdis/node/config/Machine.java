package io.charybdis.node.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * What the defaults depend on: processors and memory of this machine (container limits included) and of this
 * JVM. A value so tests can build configs as if on another machine.
 */
record Machine(int processors, long physicalMemory, long maxDirectMemory, long maxHeap) {

    static Machine current() {
        long heap = Runtime.getRuntime().maxMemory();
        return new Machine(Runtime.getRuntime().availableProcessors(), physicalMemory(heap), maxDirectMemory(heap), heap);
    }

    private static long physicalMemory(long fallback) {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
                long total = os.getTotalMemorySize();
                return total > 0 ? total : fallback * 4;
            }
        } catch (RuntimeException | LinkageError e) {
            // no com.sun.management: fall through
        }
        return fallback * 4;
    }

    /** -XX:MaxDirectMemorySize, or the heap maximum when it is not set (the JDK's own default). */
    private static long maxDirectMemory(long heap) {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotspot != null) {
                long configured = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
                return configured > 0 ? configured : heap;
            }
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot: fall through
        }
        return heap;
    }
}
