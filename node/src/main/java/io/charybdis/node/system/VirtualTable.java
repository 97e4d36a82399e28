package io.charybdis.node.system;

import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A read-only table whose rows are computed on read (system_schema.*, system.local, system.peers, ...).
 * The SELECT executor applies the statement's restrictions, ordering, limits and paging over {@link #rows}.
 */
public interface VirtualTable {
    /** The table definition (keyspace, name, columns with kinds and types); {@code isVirtual()} is true. */
    TableMetadata metadata();

    /**
     * Every row, each an array with one serialized value (or null) per column in {@code metadata().allColumns()}
     * order, sorted by partition key token order is not required: sorted by (partition key bytes, clustering) in
     * the CQL order of the key columns.
     */
    List<ByteBuffer[]> rows(Schema schema, NodeInfo node);
}
