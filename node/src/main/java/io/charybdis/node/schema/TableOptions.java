package io.charybdis.node.schema;

import io.charybdis.node.cql.exceptions.ConfigurationException;
import io.charybdis.node.cql.exceptions.SyntaxException;
import io.charybdis.node.cql.syntax.Properties;
import io.charybdis.node.cql.syntax.Term;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** {@code CREATE/ALTER TABLE ... WITH} options: validation with Cassandra's messages, and normalisation. */
public final class TableOptions {
    private static final String COMPACTION_PACKAGE = "org.apache.cassandra.db.compaction.";
    private static final String COMPRESSION_PACKAGE = "org.apache.cassandra.io.compress.";

    private TableOptions() {
    }

    public static TableParams apply(TableParams base, Properties props) {
        String additionalWritePolicy = base.additionalWritePolicy();
        boolean allowAutoSnapshot = base.allowAutoSnapshot();
        double bloom = base.bloomFilterFpChance();
        Map<String, String> caching = base.caching();
        boolean cdc = base.cdc();
        String comment = base.comment();
        Map<String, String> compaction = base.compaction();
        Map<String, String> compression = base.compression();
        String memtable = base.memtable();
        double crc = base.crcCheckChance();
        int ttl = base.defaultTimeToLive();
        Map<String, String> extensions = base.extensions();
        int gcGrace = base.gcGraceSeconds();
        boolean incrementalBackups = base.incrementalBackups();
        int maxIndex = base.maxIndexInterval();
        int flushPeriod = base.memtableFlushPeriodInMs();
        int minIndex = base.minIndexInterval();
        String readRepair = base.readRepair();
        String speculative = base.speculativeRetry();
        for (Properties.Property p : props.entries()) {
            String name = p.name();
            Term v = p.value();
            switch (name) {
                case "additional_write_policy" -> additionalWritePolicy = speculative(string(name, v));
                case "allow_auto_snapshot" -> allowAutoSnapshot = bool(name, v);
                case "bloom_filter_fp_chance" -> {
                    bloom = dbl(name, v);
                    if (bloom <= 6.71E-5 || bloom > 1) {
                        throw new ConfigurationException("bloom_filter_fp_chance must be larger than 6.71E-5 and less than "
                                + "or equal to 1.0 (got " + bloom + ")");
                    }
                }
                case "caching" -> caching = caching(map(name, v));
                case "cdc" -> cdc = bool(name, v);
                case "comment" -> comment = string(name, v);
                case "compaction" -> compaction = compaction(map(name, v));
                case "compression" -> compression = compression(map(name, v));
                case "memtable" -> {
                    memtable = string(name, v);
                    // Cassandra knows "default" and the configurations of its cassandra.yaml (none by default)
                    if (!memtable.equals("default")) {
                        throw new ConfigurationException("Memtable configuration \"" + memtable + "\" not found.");
                    }
                }
                case "crc_check_chance" -> crc = dbl(name, v);
                case "default_time_to_live" -> {
                    ttl = integer(name, v);
                    if (ttl < 0) {
                        throw new ConfigurationException("default_time_to_live must be greater than or equal to 0 "
                                + "(got " + ttl + ")");
                    }
                    if (ttl > 630720000) {
                        throw new ConfigurationException("default_time_to_live must be less than or equal to "
                                + "630720000 (got " + ttl + ")");
                    }
                }
                case "extensions" -> extensions = TableParams.sorted(map(name, v));
                case "gc_grace_seconds" -> {
                    gcGrace = integer(name, v);
                    if (gcGrace < 0) {
                        throw new ConfigurationException("gc_grace_seconds must be greater than or equal to 0 (got "
                                + gcGrace + ")");
                    }
                }
                case "incremental_backups" -> incrementalBackups = bool(name, v);
                case "max_index_interval" -> maxIndex = integer(name, v);
                case "memtable_flush_period_in_ms" -> flushPeriod = integer(name, v);
                case "min_index_interval" -> minIndex = integer(name, v);
                case "read_repair" -> readRepair = string(name, v).toUpperCase(Locale.ROOT);
                case "speculative_retry" -> speculative = speculative(string(name, v));
                case "id" -> throw new ConfigurationException("Cannot alter table id.");
                default -> throw new SyntaxException("Unknown property '" + name + "'");
            }
        }
        // Cassandra's TableParams.validate, in its order
        if (minIndex < 1) {
            throw new ConfigurationException("min_index_interval must be greater than or equal to 1 (got " + minIndex
                    + ")");
        }
        if (maxIndex < minIndex) {
            throw new ConfigurationException("max_index_interval must be greater than or equal to min_index_interval ("
                    + minIndex + ") (got " + maxIndex + ")");
        }
        if (crc < 0 || crc > 1.0) {
            throw new ConfigurationException("crc_check_chance must be larger than or equal to 0 and smaller than or "
                    + "equal to 1.0 (got " + crc + ")");
        }
        if (flushPeriod < 0) {
            throw new ConfigurationException("memtable_flush_period_in_ms must be greater than or equal to 0 (got "
                    + flushPeriod + ")");
        }
        return new TableParams(additionalWritePolicy, allowAutoSnapshot, bloom, caching, cdc, comment, compaction,
                compression, memtable, crc, ttl, extensions, gcGrace, incrementalBackups, maxIndex, flushPeriod,
                minIndex, readRepair, speculative);
    }

    static Map<String, String> compaction(Map<String, String> given) {
        String cls = given.get("class");
        if (cls == null) {
            throw new ConfigurationException("Missing sub-option 'class' for the 'compaction' option");
        }
        String full = cls.contains(".") ? cls : COMPACTION_PACKAGE + cls;
        String simple = full.substring(full.lastIndexOf('.') + 1);
        if (!simple.equals("SizeTieredCompactionStrategy") && !simple.equals("LeveledCompactionStrategy")
                && !simple.equals("TimeWindowCompactionStrategy") && !simple.equals("UnifiedCompactionStrategy")) {
            throw new ConfigurationException("Unable to find compaction strategy class '" + full + "'");
        }
        Map<String, String> out = new TreeMap<>(given);
        out.put("class", full);
        out.putIfAbsent("max_threshold", "32");
        out.putIfAbsent("min_threshold", "4");
        checkInt(out, "max_threshold");
        checkInt(out, "min_threshold");
        if (Integer.parseInt(out.get("min_threshold")) < 2) {
            throw new ConfigurationException("Min compaction threshold cannot be less than 2 (got "
                    + out.get("min_threshold") + ")");
        }
        if (simple.equals("TimeWindowCompactionStrategy") && out.containsKey("compaction_window_unit")) {
            String unit = out.get("compaction_window_unit");
            if (!unit.equals("MINUTES") && !unit.equals("HOURS") && !unit.equals("DAYS")) {
                throw new ConfigurationException(unit + " is not valid for compaction_window_unit");
            }
        }
        if (!simple.equals("UnifiedCompactionStrategy")) {
            // the sub-options the strategy knows, as Cassandra's validateOptions of each strategy removes them
            java.util.Set<String> known = new java.util.HashSet<>(java.util.Set.of("class", "enabled", "min_threshold",
                    "max_threshold", "tombstone_threshold", "tombstone_compaction_interval",
                    "unchecked_tombstone_compaction", "log_all", "only_purge_repaired_tombstones",
                    "provide_overlapping_tombstones", "min_sstable_size", "bucket_low", "bucket_high"));
            if (simple.equals("LeveledCompactionStrategy")) {
                known.addAll(java.util.Set.of("sstable_size_in_mb", "fanout_size", "single_sstable_uplevel"));
            }
            if (simple.equals("TimeWindowCompactionStrategy")) {
                known.addAll(java.util.Set.of("compaction_window_unit", "compaction_window_size",
                        "timestamp_resolution", "expired_sstable_check_frequency_seconds",
                        "unsafe_aggressive_sstable_expiration"));
            }
            List<String> unknown = new ArrayList<>();
            for (String k : given.keySet()) {
                if (!known.contains(k)) {
                    unknown.add(k);
                }
            }
            if (!unknown.isEmpty()) {
                throw new ConfigurationException("Properties specified " + unknown + " are not understood by "
                        + simple);
            }
        }
        if (simple.equals("LeveledCompactionStrategy") && out.containsKey("sstable_size_in_mb")) {
            checkInt(out, "sstable_size_in_mb");
            int size = Integer.parseInt(out.get("sstable_size_in_mb"));
            if (size <= 0) {
                throw new ConfigurationException("sstable_size_in_mb must be larger than 0, but was " + size);
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static void checkInt(Map<String, String> m, String key) {
        try {
            Integer.parseInt(m.get(key));
        } catch (NumberFormatException e) {
            throw new ConfigurationException("Invalid value " + m.get(key) + " for '" + key + "'");
        }
    }

    static Map<String, String> compression(Map<String, String> given) {
        Map<String, String> out = new TreeMap<>(given);
        // (the pre-3.0 'sstable_compression' is not a synonym of 'class' in Cassandra 5.0: without 'class' it fails)
        if ("false".equalsIgnoreCase(out.get("enabled"))) {
            if (out.size() > 1) {
                throw new ConfigurationException("If the 'enabled' option is set to false no other options must be "
                        + "specified");
            }
            return TableParams.sorted(Map.of("enabled", "false"));
        }
        out.remove("enabled");
        String cls = out.get("class");
        if (cls == null || cls.isEmpty()) {
            if (cls != null || given.isEmpty()) {
                return TableParams.sorted(Map.of("enabled", "false"));
            }
            throw new ConfigurationException("Missing sub-option 'class' for the 'compression' option.");
        }
        String full = cls.contains(".") ? cls : COMPRESSION_PACKAGE + cls;
        String simple = full.substring(full.lastIndexOf('.') + 1);
        if (!simple.equals("LZ4Compressor") && !simple.equals("ZstdCompressor") && !simple.equals("NoopCompressor")
                && !simple.equals("SnappyCompressor") && !simple.equals("DeflateCompressor")) {
            throw new ConfigurationException("Could not create Compression for type " + full);
        }
        out.put("class", full);
        // (the pre-3.0 'chunk_length_kb' is no synonym in Cassandra 5.0 either: an unknown option)
        out.putIfAbsent("chunk_length_in_kb", "16");
        java.util.Set<String> unknown = new java.util.TreeSet<>(out.keySet());
        unknown.removeAll(java.util.Set.of("class", "chunk_length_in_kb", "crc_check_chance", "min_compress_ratio",
                "max_compressed_length", "compression_level", "lz4_compressor_type", "lz4_high_compressor_level"));
        if (!unknown.isEmpty()) {
            throw new ConfigurationException("Unknown compression options " + String.join(", ", unknown));
        }
        int kb;
        try {
            kb = Integer.parseInt(out.get("chunk_length_in_kb"));
        } catch (NumberFormatException e) {
            throw new ConfigurationException("Invalid value for chunk_length_in_kb");
        }
        if (kb <= 0) {
            throw new ConfigurationException("Invalid negative or null chunk_length_in_kb");
        }
        if (Integer.bitCount(kb) != 1) {
            throw new ConfigurationException("chunk_length_in_kb must be a power of 2");
        }
        String ratio = out.get("min_compress_ratio");
        if (ratio != null) {
            // a double, shown as Java prints it ('2' is '2.0'); 0 is the default and not shown
            double r;
            try {
                r = Double.parseDouble(ratio);
            } catch (NumberFormatException e) {
                throw new ConfigurationException("Invalid value " + ratio + " for min_compress_ratio");
            }
            if (r < 0) {
                throw new ConfigurationException("Invalid negative min_compress_ratio");
            }
            if (r == 0) {
                out.remove("min_compress_ratio");
            } else {
                out.put("min_compress_ratio", Double.toString(r));
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    static Map<String, String> caching(Map<String, String> given) {
        Map<String, String> out = new TreeMap<>(Map.of("keys", "ALL", "rows_per_partition", "NONE"));
        for (Map.Entry<String, String> e : given.entrySet()) {
            switch (e.getKey()) {
                case "keys" -> {
                    String v = e.getValue().toUpperCase(Locale.ROOT);
                    if (!v.equals("ALL") && !v.equals("NONE")) {
                        throw new ConfigurationException("Invalid value '" + e.getValue() + "' for caching sub-option"
                                + " 'keys': only 'ALL' and 'NONE' are allowed");
                    }
                    out.put("keys", v);
                }
                case "rows_per_partition" -> {
                    String v = e.getValue().toUpperCase(Locale.ROOT);
                    if (!v.equals("ALL") && !v.equals("NONE") && !v.matches("[0-9]+")) {
                        throw new ConfigurationException("Invalid value '" + e.getValue() + "' for caching sub-option"
                                + " 'rows_per_partition': only 'ALL', 'NONE', and integer values are allowed");
                    }
                    out.put("rows_per_partition", v);
                }
                default -> throw new ConfigurationException("Invalid caching sub-options " + given.keySet()
                        + ": only 'keys' and 'rows_per_partition' are allowed");
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static final java.util.regex.Pattern HYBRID_RETRY =
            java.util.regex.Pattern.compile("^(MIN|MAX)\\(([0-9.]+[A-Z]+)\\s*,\\s*([0-9.]+[A-Z]+)\\)$");

    /**
     * A speculative_retry (or additional_write_policy) value as Cassandra stores it: {@code ALWAYS}, {@code NEVER}
     * (given as NONE or NEVER), {@code <p>p} (given as {@code Xp} or {@code XPERCENTILE}, 0 &lt; X &lt; 100, at most
     * four decimals shown), {@code <n>ms} (whole milliseconds, the fraction dropped), or {@code MIN(<p>p,<n>ms)} /
     * {@code MAX(...)} of one percentile and one time, in either order; any case.
     */
    static String speculative(String v) {
        String u = v.trim().toUpperCase(Locale.ROOT);
        if (u.equals("ALWAYS")) {
            return u;
        }
        if (u.equals("NONE") || u.equals("NEVER")) {
            return "NEVER";
        }
        java.util.regex.Matcher m = HYBRID_RETRY.matcher(u);
        if (m.matches()) {
            String a;
            String b;
            try {
                a = singleRetry(m.group(2), v);
                b = singleRetry(m.group(3), v);
            } catch (ConfigurationException e) {
                throw invalidRetry(v);
            }
            boolean aPercentile = a.endsWith("p");
            if (aPercentile == b.endsWith("p")) {
                throw new ConfigurationException("Invalid value " + v + " for option 'speculative_retry': MIN()/MAX() "
                        + "arguments should be of different types, but both are of type "
                        + (aPercentile ? "PERCENTILE" : "FIXED"));
            }
            return m.group(1) + "(" + (aPercentile ? a + "," + b : b + "," + a) + ")";
        }
        return singleRetry(u, v);
    }

    private static String singleRetry(String u, String given) {
        String number;
        boolean percentile;
        if (u.endsWith("PERCENTILE")) {
            number = u.substring(0, u.length() - "PERCENTILE".length());
            percentile = true;
        } else if (u.endsWith("P")) {
            number = u.substring(0, u.length() - 1);
            percentile = true;
        } else if (u.endsWith("MS")) {
            number = u.substring(0, u.length() - 2);
            percentile = false;
        } else {
            throw invalidRetry(given);
        }
        double d;
        try {
            d = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw invalidRetry(given);
        }
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw invalidRetry(given);
        }
        if (!percentile) {
            if (d < 0) {
                throw invalidRetry(given);
            }
            return (long) d + "ms";
        }
        if (d <= 0 || d >= 100) {
            throw new ConfigurationException("Invalid value " + given + " for PERCENTILE option 'speculative_retry': "
                    + "must be between (0.0 and 100.0)");
        }
        return new java.text.DecimalFormat("#.####", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT)).format(d)
                + "p";
    }

    private static ConfigurationException invalidRetry(String given) {
        return new ConfigurationException("Invalid value " + given + " for option 'speculative_retry'");
    }

    private static String string(String name, Term v) {
        if (v instanceof Term.Literal l) {
            return l.text();
        }
        throw new SyntaxException("Invalid value for property '" + name + "'. It should be a string");
    }

    private static Map<String, String> map(String name, Term v) {
        Properties holder = new Properties(java.util.List.of(new Properties.Property(name, v)));
        Map<String, String> m = holder.getMap(name);
        if (m == null) {
            throw new SyntaxException("Invalid value for property '" + name + "'. It should be a map.");
        }
        return m;
    }

    private static boolean bool(String name, Term v) {
        String s = string(name, v).toLowerCase(Locale.ROOT);
        if (!s.equals("true") && !s.equals("false")) {
            throw new SyntaxException("Invalid boolean value " + s + " for '" + name + "'. It should be 'true' or "
                    + "'false'");
        }
        return Boolean.parseBoolean(s);
    }

    private static int integer(String name, Term v) {
        String s = string(name, v);
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new SyntaxException("Invalid integer value " + s + " for '" + name + "'");
        }
    }

    private static double dbl(String name, Term v) {
        String s = string(name, v);
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new SyntaxException("Invalid double value " + s + " for '" + name + "'");
        }
    }

    @SuppressWarnings("unchecked")
    static TableParams fromStoredMap(Map<String, Object> p) {
        TableParams d = TableParams.defaults();
        return new TableParams(
                (String) p.getOrDefault("additional_write_policy", d.additionalWritePolicy()),
                (Boolean) p.getOrDefault("allow_auto_snapshot", d.allowAutoSnapshot()),
                ((Number) p.getOrDefault("bloom_filter_fp_chance", d.bloomFilterFpChance())).doubleValue(),
                TableParams.sorted((Map<String, String>) p.getOrDefault("caching", d.caching())),
                (Boolean) p.getOrDefault("cdc", d.cdc()),
                (String) p.getOrDefault("comment", d.comment()),
                TableParams.sorted((Map<String, String>) p.getOrDefault("compaction", d.compaction())),
                TableParams.sorted((Map<String, String>) p.getOrDefault("compression", d.compression())),
                (String) p.getOrDefault("memtable", d.memtable()),
                ((Number) p.getOrDefault("crc_check_chance", d.crcCheckChance())).doubleValue(),
                ((Number) p.getOrDefault("default_time_to_live", d.defaultTimeToLive())).intValue(),
                TableParams.sorted((Map<String, String>) p.getOrDefault("extensions", d.extensions())),
                ((Number) p.getOrDefault("gc_grace_seconds", d.gcGraceSeconds())).intValue(),
                (Boolean) p.getOrDefault("incremental_backups", d.incrementalBackups()),
                ((Number) p.getOrDefault("max_index_interval", d.maxIndexInterval())).intValue(),
                ((Number) p.getOrDefault("memtable_flush_period_in_ms", d.memtableFlushPeriodInMs())).intValue(),
                ((Number) p.getOrDefault("min_index_interval", d.minIndexInterval())).intValue(),
                (String) p.getOrDefault("read_repair", d.readRepair()),
                (String) p.getOrDefault("speculative_retry", d.speculativeRetry()));
    }
}
