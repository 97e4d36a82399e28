package io.charybdis.node.index;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.storage.TableId;


/**
 * One native (legacy, local) secondary index resolved against its table: the indexed column, what of it is indexed,
 * and the id of the hidden table of this node that holds the index.
 *
 * @param kind VALUES of a regular, static, key column or of a collection's elements (list, set) or values (map),
 *             KEYS of a map, ENTRIES of a map (key and value), FULL of a frozen collection
 */
public record IndexTarget(TableMetadata table, IndexMetadata index, ColumnMetadata column, Kind kind, TableId indexTable) {
    public enum Kind { VALUES, KEYS, ENTRIES, FULL }

    public static IndexTarget of(TableMetadata table, IndexMetadata index) {
        ColumnMetadata c = table.column(index.targetColumn());
        if (c == null) {
            throw new IllegalStateException("index=" + index.name() + " names unknown column=" + index.targetColumn()
                    + " of table=" + table);
        }
        Kind kind = switch (index.targetKind()) {
            case "keys" -> Kind.KEYS;
            case "entries" -> Kind.ENTRIES;
            case "full" -> Kind.FULL;
            default -> Kind.VALUES;
        };
        return new IndexTarget(table, index, c, kind, tableIdOf(table, index));
    }

    /** The hidden table's id: name-based on the base table's id and the index name (stable across restarts). */
    public static TableId tableIdOf(TableMetadata table, IndexMetadata index) {
        return new TableId(index.tableId(table.id()));
    }

    /** The hidden table's name: {@code <table>.<index>}, as Cassandra names an index's table. */
    public String indexTableName() {
        return table.name() + "." + index.name();
    }

    /** Whether entries are per collection element (cells with a path) rather than per column value. */
    public boolean perElement() {
        return column.isMultiCell() && kind != Kind.FULL;
    }

    /**
     * Whether an entry names a partition only (a static column or a partition key component: every row of the
     * partition matches, and a partition with only static content matches as its one row).
     */
    public boolean partitionLevel() {
        return column.isStatic() || column.kind() == ColumnMetadata.Kind.PARTITION_KEY;
    }

    /** Whether this is a collection whose elements sit in the cell path (set elements, map keys). */
    boolean setLike() {
        return Types.kind(column.type()) == TypeKind.SET;
    }

    String key() {
        return table.keyspace() + "." + index.name();
    }
}
