package io.charybdis.storage;

import java.util.Map;
import java.util.Objects;

/**
 * What the engine needs to know of a table.
 *
 * @param compression the CQL {@code compression} option: {@code class} (or legacy {@code sstable_compression}) =
 *                    LZ4Compressor (default) | ZstdCompressor | none/empty, {@code chunk_length_in_kb} (default 16),
 *                    {@code enabled} (default true)
 * @param compaction  the CQL {@code compaction} option; {@code min_threshold} (default 4) and
 *                    {@code max_threshold} (default 32) are honoured by size-tiered compaction
 */
public record TableDescriptor(TableId id, String keyspace, String name, Map<String, String> compression,
                              Map<String, String> compaction, int gcGraceSeconds) {
    public TableDescriptor {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(name, "name");
        compression = compression == null ? Map.of() : Map.copyOf(compression);
        compaction = compaction == null ? Map.of() : Map.copyOf(compaction);
        if (gcGraceSeconds < 0) {
            throw new IllegalArgumentException("gcGraceSeconds=" + gcGraceSeconds + " must be >= 0");
        }
    }

    public static TableDescriptor of(TableId id, String keyspace, String name) {
        return new TableDescriptor(id, keyspace, name, Map.of(), Map.of(), 864000);
    }
}
