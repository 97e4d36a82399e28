package io.charybdis.node.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The shapes of a table declared {@code WITH COMPACT STORAGE}, as Apache Cassandra 5.0 still creates them.
 *
 * <p>Implementation notes. Charybdis keeps a compact table in its ordinary table model: the columns a user declared
 * are the table's columns, and the columns Cassandra adds to describe the pre-CQL layout are hidden (no statement
 * can name them) and shown only where Cassandra shows them, in {@code system_schema.columns} and DESCRIBE:
 * <ul>
 *   <li>{@link #STATIC}: no clustering column. Cassandra stores the declared columns as static columns of a table
 *       with a hidden {@code column1 text} clustering column and a hidden {@code value blob} (or {@code counter})
 *       regular column. Here they are plain regular columns of a table without clustering.</li>
 *   <li>{@link #DENSE}: clustering columns and at most one other column, the compact value. Without a declared one,
 *       Cassandra adds a hidden {@code value} column of type {@code empty}; here the row marker stands for it.</li>
 * </ul>
 * Either shape has no row marker where a declared value exists: a row lives only while one of its cells does
 * (an INSERT writes no marker), which is what a user sees of Cassandra's compact rows. A hidden column's name is
 * {@code column1}/{@code value} unless a declared column already has it; then Cassandra numbers it
 * ({@code column2}, {@code value1}, ...) and so does this class.
 */
public enum CompactStorage {
    /** A CQL table. */
    NONE,
    /** Compact storage without clustering columns ("static compact", flags without {@code dense}). */
    STATIC,
    /** Compact storage with clustering columns ("dense"; {@code compound} with more than one). */
    DENSE;

    /** Whether writes to this table leave a row marker (CQL tables, and dense tables without a value column). */
    public boolean writesRowMarker(TableMetadata table) {
        return this == NONE || (this == DENSE && table.regularAndStatic().isEmpty());
    }

    /** The flags {@code system_schema.tables} shows for the table. */
    public List<String> flags(TableMetadata table) {
        List<String> flags = new ArrayList<>();
        if (this == NONE || (this == DENSE && table.clustering().size() > 1)) {
            flags.add("compound");
        }
        if (table.isCounterTable()) {
            flags.add("counter");
        }
        if (this == DENSE) {
            flags.add("dense");
        }
        return flags;
    }

    /** A column as {@code system_schema.columns} lists it: name, kind, position, clustering order, type. */
    public record SchemaColumn(String name, String kind, int position, String clusteringOrder, String type) {
    }

    /**
     * The columns {@code system_schema.columns} shows for a compact table: the declared ones (regular columns of a
     * static compact table shown as static) and the hidden ones Cassandra adds. Sorted as the caller sorts.
     */
    public List<SchemaColumn> schemaColumns(TableMetadata table) {
        List<SchemaColumn> out = new ArrayList<>();
        for (ColumnMetadata c : table.allColumns()) {
            String kind = this == STATIC && !c.isPrimaryKey() ? "static" : c.kind().schemaName();
            out.add(new SchemaColumn(c.name(), kind, c.isPrimaryKey() ? c.position() : -1, c.clusteringOrder(),
                    c.type().cqlName()));
        }
        if (this == STATIC) {
            out.add(new SchemaColumn(hiddenClusteringName(table), "clustering", 0, "asc", "text"));
            out.add(new SchemaColumn(hiddenValueName(table), "regular", -1, "none",
                    table.isCounterTable() ? "counter" : "blob"));
        } else if (this == DENSE && table.regularAndStatic().isEmpty()) {
            out.add(new SchemaColumn(hiddenValueName(table), "regular", -1, "none", "empty"));
        }
        return out;
    }

    /** The hidden clustering column of a static compact table: {@code column1}, or the next free number. */
    public static String hiddenClusteringName(TableMetadata table) {
        return freeName(table, "column", 1);
    }

    /** The hidden value column: {@code value}, or {@code value1}, {@code value2}, ... while the name is taken. */
    public static String hiddenValueName(TableMetadata table) {
        if (table.column("value") == null) {
            return "value";
        }
        return freeName(table, "value", 1);
    }

    private static String freeName(TableMetadata table, String prefix, int first) {
        int i = first;
        while (table.column(prefix + i) != null) {
            i++;
        }
        return prefix + i;
    }
}
