package io.charybdis.node.config;

import java.util.Locale;

/** {@code commitlog_sync}: when a write is acknowledged relative to the fsync of its commit log entry. */
public enum CommitLogSync {
    /** Acknowledge at once; fsync every {@code commitlog_sync_period} (Cassandra's default). */
    PERIODIC,
    /** Acknowledge only after the entry is fsynced; writes arriving during an fsync share the next one. */
    BATCH,
    /** Acknowledge only after fsync; fsync at most once per {@code commitlog_sync_group_window}. */
    GROUP;

    public static CommitLogSync parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "periodic" -> PERIODIC;
            case "batch" -> BATCH;
            case "group" -> GROUP;
            default -> throw new IllegalArgumentException("'" + text + "' is not a commit log sync mode; expected periodic, batch or group");
        };
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
