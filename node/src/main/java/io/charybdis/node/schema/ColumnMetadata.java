package io.charybdis.node.schema;

import io.charybdis.protocol.types.DataType;

/**
 * One column of a table. Key columns have a {@code position} inside their key; regular and static columns have a
 * {@code cellId}, the small integer the storage engine knows them by (stable for the column's lifetime, never given
 * to another column of the table; a dropped column added again under its old name takes its old id back, see
 * {@link TableMetadata.DroppedColumn}).
 */
public record ColumnMetadata(String name, DataType type, Kind kind, int position, boolean reversed, int cellId) {

    public enum Kind {
        PARTITION_KEY("partition_key"), CLUSTERING("clustering"), STATIC("static"), REGULAR("regular");

        private final String schemaName;

        Kind(String schemaName) {
            this.schemaName = schemaName;
        }

        /** The value of {@code system_schema.columns.kind}. */
        public String schemaName() {
            return schemaName;
        }
    }

    public boolean isPrimaryKey() {
        return kind == Kind.PARTITION_KEY || kind == Kind.CLUSTERING;
    }

    public boolean isStatic() {
        return kind == Kind.STATIC;
    }

    /** Whether the column is stored as several cells (non-frozen collection or UDT). */
    public boolean isMultiCell() {
        return Types.isMultiCell(type);
    }

    /** {@code system_schema.columns.clustering_order}. */
    public String clusteringOrder() {
        return kind == Kind.CLUSTERING ? (reversed ? "desc" : "asc") : "none";
    }

    public ColumnMetadata withName(String newName) {
        return new ColumnMetadata(newName, type, kind, position, reversed, cellId);
    }
}
