package io.charybdis.cluster.hints;

import java.nio.file.Path;
import java.util.Set;

/**
 * Hinted handoff settings, named as cassandra.yaml 5.0 names them.
 *
 * @param enabled                  {@code hinted_handoff_enabled}
 * @param directory                {@code hints_directory}
 * @param maxHintWindowMillis      {@code max_hint_window}: no new hints for a node down (or holding hints) longer
 * @param disabledDatacenters      {@code hinted_handoff_disabled_datacenters}: nodes there get no hints
 * @param maxFileSizeBytes         {@code max_hints_file_size}: a host's file is closed and a new one begun past it
 * @param maxSizePerHostBytes      {@code max_hints_size_per_host}: hints past it are not written (0: no limit)
 * @param flushPeriodMillis        {@code hints_flush_period}: how often written hints are forced to disk
 * @param throttleBytesPerSecond   {@code hinted_handoff_throttle}: delivery rate of one delivery thread, divided by
 *                                 the number of other nodes (0: unthrottled)
 * @param deliveryThreads          {@code max_hints_delivery_threads}
 * @param windowPersistent         {@code hint_window_persistent_enabled}: the window also counts from the oldest
 *                                 hint stored for the node, across restarts
 * @param autoCleanup              {@code auto_hints_cleanup_enabled}: hints of nodes no longer in the ring are deleted
 */
public record HintsConfig(boolean enabled, Path directory, long maxHintWindowMillis, Set<String> disabledDatacenters,
                          long maxFileSizeBytes, long maxSizePerHostBytes, long flushPeriodMillis,
                          long throttleBytesPerSecond, int deliveryThreads, boolean windowPersistent,
                          boolean autoCleanup) {

    /** Cassandra 5.0's defaults, hints under {@code directory}. */
    public static HintsConfig defaults(Path directory) {
        return new HintsConfig(true, directory, 3 * 3600_000L, Set.of(), 128L << 20, 0, 10_000, 1024L << 10, 2, true,
                false);
    }

    public HintsConfig {
        disabledDatacenters = Set.copyOf(disabledDatacenters);
        if (maxHintWindowMillis < 0 || maxFileSizeBytes <= 0 || maxSizePerHostBytes < 0 || flushPeriodMillis <= 0
                || throttleBytesPerSecond < 0 || deliveryThreads < 1) {
            throw new IllegalArgumentException("invalid hints settings " + this);
        }
    }

    public HintsConfig withEnabled(boolean on) {
        return new HintsConfig(on, directory, maxHintWindowMillis, disabledDatacenters, maxFileSizeBytes,
                maxSizePerHostBytes, flushPeriodMillis, throttleBytesPerSecond, deliveryThreads, windowPersistent,
                autoCleanup);
    }

    public HintsConfig withMaxHintWindowMillis(long millis) {
        return new HintsConfig(enabled, directory, millis, disabledDatacenters, maxFileSizeBytes, maxSizePerHostBytes,
                flushPeriodMillis, throttleBytesPerSecond, deliveryThreads, windowPersistent, autoCleanup);
    }

    public HintsConfig withMaxSizePerHostBytes(long bytes) {
        return new HintsConfig(enabled, directory, maxHintWindowMillis, disabledDatacenters, maxFileSizeBytes, bytes,
                flushPeriodMillis, throttleBytesPerSecond, deliveryThreads, windowPersistent, autoCleanup);
    }

    public HintsConfig withMaxFileSizeBytes(long bytes) {
        return new HintsConfig(enabled, directory, maxHintWindowMillis, disabledDatacenters, bytes, maxSizePerHostBytes,
                flushPeriodMillis, throttleBytesPerSecond, deliveryThreads, windowPersistent, autoCleanup);
    }
}
