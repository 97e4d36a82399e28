package io.charybdis.storage;

import java.util.Map;
import java.util.Objects;

/**
 * What the engine needs to know of a table.
 *
 * @param compression the CQL {@code compression} option: {@code class} (or legacy {@code sstable_compression}) =
 *                    LZ4Compressor (default) | ZstdCompressor | none/empty, {@code chunk_length_in_kb} (default 16),
 *                    {@code enabled} (default true)
 * @param compaction  the CQL {@code compaction} option: {@code class} = SizeTieredCompactionStrategy (default) or
 *                    LeveledCompactionStrategy (full or short name), {@code enabled}, and each strategy's options
 *                    (see {@code io.charybdis.storage.compaction.CompactionOptions})
 * @param caching     the CQL {@code caching} option. As in ScyllaDB, the row cache is on unless
 *                    {@code 'enabled': 'false'}; {@code rows_per_partition} is accepted and, like ScyllaDB, not
 *                    honoured, except that {@code '0'} also turns the cache off for the table
 */
public record TableDescriptor(TableId id, String keyspace, String name, Map<String, String> compression,
                              Map<String, String> compaction, int gcGraceSeconds, Map<String, String> caching) {
    public TableDescriptor {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(name, "name");
        compression = compression == null ? Map.of() : Map.copyOf(compression);
        compaction = compaction == null ? Map.of() : Map.copyOf(compaction);
        caching = caching == null ? Map.of() : Map.copyOf(caching);
        if (gcGraceSeconds < 0) {
            throw new IllegalArgumentException("gcGraceSeconds=" + gcGraceSeconds + " must be >= 0");
        }
    }

    /** A descriptor with the default {@code caching} option (row cache on). */
    public TableDescriptor(TableId id, String keyspace, String name, Map<String, String> compression,
                           Map<String, String> compaction, int gcGraceSeconds) {
        this(id, keyspace, name, compression, compaction, gcGraceSeconds, Map.of());
    }

    public static TableDescriptor of(TableId id, String keyspace, String name) {
        return new TableDescriptor(id, keyspace, name, Map.of(), Map.of(), 864000);
    }

    public TableDescriptor withCaching(Map<String, String> newCaching) {
        return new TableDescriptor(id, keyspace, name, compression, compaction, gcGraceSeconds, newCaching);
    }

    public TableDescriptor withCompaction(Map<String, String> newCompaction) {
        return new TableDescriptor(id, keyspace, name, compression, newCompaction, gcGraceSeconds, caching);
    }

    /** Whether reads of this table use the row cache (see {@link #caching()}). */
    public boolean rowCacheEnabled() {
        return !"false".equalsIgnoreCase(caching.getOrDefault("enabled", "true").trim())
                && !"0".equals(caching.getOrDefault("rows_per_partition", "ALL").trim());
    }
}
