package io.charybdis.storage.compaction;

import java.util.Map;

/**
 * The CQL {@code compaction} option of a table, parsed. {@code class}: SizeTieredCompactionStrategy (default) or
 * LeveledCompactionStrategy, short or full ({@code org.apache.cassandra.db.compaction.}) name; other classes fall
 * back to size-tiered. Common: {@code enabled} (true), {@code tombstone_threshold} (0.2),
 * {@code tombstone_compaction_interval} (86400 s), {@code unchecked_tombstone_compaction} (false).
 * Size-tiered: {@code min_threshold} (4), {@code max_threshold} (32), {@code bucket_low} (0.5),
 * {@code bucket_high} (1.5), {@code min_sstable_size} (50 MiB, bytes). Leveled: {@code sstable_size_in_mb} (160;
 * fractions accepted), {@code fanout_size} (10).
 */
public record CompactionOptions(Kind kind, boolean enabled, int minThreshold, int maxThreshold, double bucketLow,
                                double bucketHigh, long minSSTableSize, double tombstoneThreshold,
                                long tombstoneCompactionIntervalSeconds, boolean uncheckedTombstoneCompaction,
                                long maxSSTableBytes, int fanout) {
    public enum Kind { SIZE_TIERED, LEVELED }

    public static final CompactionOptions DEFAULT = parse(Map.of());

    public static CompactionOptions parse(Map<String, String> o) {
        String cls = o.getOrDefault("class", "SizeTieredCompactionStrategy").trim();
        int dot = cls.lastIndexOf('.');
        String shortName = dot >= 0 ? cls.substring(dot + 1) : cls;
        Kind kind = shortName.equalsIgnoreCase("LeveledCompactionStrategy") || shortName.equalsIgnoreCase("LCS")
                ? Kind.LEVELED : Kind.SIZE_TIERED;
        int min = Math.max(2, intOf(o, "min_threshold", 4));
        int max = Math.max(min, intOf(o, "max_threshold", 32));
        double mb = doubleOf(o, "sstable_size_in_mb", 160);
        return new CompactionOptions(kind,
                !"false".equalsIgnoreCase(o.getOrDefault("enabled", "true").trim()),
                min, max,
                doubleOf(o, "bucket_low", 0.5), doubleOf(o, "bucket_high", 1.5),
                (long) doubleOf(o, "min_sstable_size", 50L << 20),
                doubleOf(o, "tombstone_threshold", 0.2),
                (long) doubleOf(o, "tombstone_compaction_interval", 86400),
                "true".equalsIgnoreCase(o.getOrDefault("unchecked_tombstone_compaction", "false").trim()),
                Math.max(1024, (long) (mb * (1 << 20))),
                Math.max(2, intOf(o, "fanout_size", 10)));
    }

    public String className() {
        return kind == Kind.LEVELED ? "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"
                : "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy";
    }

    private static int intOf(Map<String, String> o, String k, int d) {
        String v = o.get(k);
        if (v == null) {
            return d;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("compaction option " + k + "=" + v + " is not an integer");
        }
    }

    private static double doubleOf(Map<String, String> o, String k, double d) {
        String v = o.get(k);
        if (v == null) {
            return d;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("compaction option " + k + "=" + v + " is not a number");
        }
    }
}
