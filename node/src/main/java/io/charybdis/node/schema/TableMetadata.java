package io.charybdis.node.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An immutable table definition. Columns are kept in three groups, as Cassandra orders them: partition key (by
 * position), clustering (by position), then static and regular columns (by name, as Cassandra stores them).
 */
public final class TableMetadata {
    private final String keyspace;
    private final String name;
    private final UUID id;
    private final List<ColumnMetadata> partitionKey;
    private final List<ColumnMetadata> clustering;
    private final List<ColumnMetadata> regularAndStatic;
    private final Map<String, ColumnMetadata> byName;
    private final ColumnMetadata[] byCellId;
    private final TableParams params;
    private final int nextCellId;
    private final Map<String, DroppedColumn> droppedColumns;
    private final Map<String, IndexMetadata> indexes;
    private final boolean virtual;
    private final boolean hasStatic;
    private final CompactStorage compact;
    private final int[] clusteringKeptAsWritten;
    /** Per cell id: the drop time of the column added again under it (older cells are dropped data), else MIN. */
    private final long[] droppedTimeByCellId;

    /**
     * A column dropped from the table ({@code system_schema.dropped_columns}): its name, CQL type, kind and drop time.
     * {@code cellId} is the storage id its cells were written under (-1 if unknown): a column of the same name added
     * again takes that id back, as Cassandra identifies columns by name, and its cells written at or before the drop
     * time stay invisible ({@link #droppedTimeOf}).
     */
    public record DroppedColumn(String name, String type, String kind, long droppedTimeMicros, int cellId) {
        public DroppedColumn(String name, String type, String kind, long droppedTimeMicros) {
            this(name, type, kind, droppedTimeMicros, -1);
        }
    }

    public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns, TableParams params,
                         int nextCellId, Map<String, DroppedColumn> droppedColumns,
                         Map<String, IndexMetadata> indexes, boolean virtual) {
        this(keyspace, name, id, columns, params, nextCellId, droppedColumns, indexes, virtual, CompactStorage.NONE);
    }

    public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns, TableParams params,
                         int nextCellId, Map<String, DroppedColumn> droppedColumns,
                         Map<String, IndexMetadata> indexes, boolean virtual, CompactStorage compact) {
        this.keyspace = keyspace;
        this.compact = compact;
        this.name = name;
        this.id = id;
        this.params = params;
        this.nextCellId = nextCellId;
        this.droppedColumns = Collections.unmodifiableMap(new LinkedHashMap<>(droppedColumns));
        this.indexes = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
        this.virtual = virtual;
        List<ColumnMetadata> pk = new ArrayList<>();
        List<ColumnMetadata> ck = new ArrayList<>();
        List<ColumnMetadata> rest = new ArrayList<>();
        int maxCell = -1;
        for (ColumnMetadata c : columns) {
            switch (c.kind()) {
                case PARTITION_KEY -> pk.add(c);
                case CLUSTERING -> ck.add(c);
                default -> {
                    rest.add(c);
                    maxCell = Math.max(maxCell, c.cellId());
                }
            }
        }
        pk.sort((a, b) -> Integer.compare(a.position(), b.position()));
        ck.sort((a, b) -> Integer.compare(a.position(), b.position()));
        // as Cassandra's RegularAndStaticColumns: static columns first, each group by name
        rest.sort((a, b) -> a.isStatic() != b.isStatic() ? (a.isStatic() ? -1 : 1) : a.name().compareTo(b.name()));
        this.partitionKey = List.copyOf(pk);
        this.clustering = List.copyOf(ck);
        this.regularAndStatic = List.copyOf(rest);
        Map<String, ColumnMetadata> names = new LinkedHashMap<>();
        for (ColumnMetadata c : allColumns()) {
            names.put(c.name(), c);
        }
        this.byName = Collections.unmodifiableMap(names);
        this.byCellId = new ColumnMetadata[maxCell + 1];
        boolean stat = false;
        for (ColumnMetadata c : rest) {
            byCellId[c.cellId()] = c;
            stat |= c.isStatic();
        }
        this.hasStatic = stat;
        this.droppedTimeByCellId = new long[byCellId.length];
        java.util.Arrays.fill(droppedTimeByCellId, Long.MIN_VALUE);
        for (DroppedColumn d : this.droppedColumns.values()) {
            ColumnMetadata c = names.get(d.name());
            if (c != null && !c.isPrimaryKey() && d.cellId() >= 0 && c.cellId() == d.cellId()) {
                droppedTimeByCellId[c.cellId()] = d.droppedTimeMicros();
            }
        }
        this.clusteringKeptAsWritten = java.util.stream.IntStream.range(0, clustering.size())
                .filter(i -> Types.containsDecimal(clustering.get(i).type())).toArray();
    }

    public String keyspace() {
        return keyspace;
    }

    public String name() {
        return name;
    }

    public UUID id() {
        return id;
    }

    public List<ColumnMetadata> partitionKey() {
        return partitionKey;
    }

    public List<ColumnMetadata> clustering() {
        return clustering;
    }

    /** Static columns then regular columns, each sorted by name. */
    public List<ColumnMetadata> regularAndStatic() {
        return regularAndStatic;
    }

    /** Every column in Cassandra's order: partition key, clustering, static columns, then regular ones by name. */
    public List<ColumnMetadata> allColumns() {
        List<ColumnMetadata> all = new ArrayList<>(partitionKey.size() + clustering.size() + regularAndStatic.size());
        all.addAll(partitionKey);
        all.addAll(clustering);
        all.addAll(regularAndStatic);
        return all;
    }

    public ColumnMetadata column(String columnName) {
        return byName.get(columnName);
    }

    public ColumnMetadata columnByCellId(int cellId) {
        return cellId >= 0 && cellId < byCellId.length ? byCellId[cellId] : null;
    }

    /**
     * For a column dropped once and added again under its old cell id: the drop time, in microseconds; its cells
     * with a timestamp at or before it belong to the dropped column and are not read (as Cassandra filters them).
     * {@link Long#MIN_VALUE} for any other column.
     */
    public long droppedTimeOf(int cellId) {
        return cellId >= 0 && cellId < droppedTimeByCellId.length ? droppedTimeByCellId[cellId] : Long.MIN_VALUE;
    }

    public int maxCellId() {
        return byCellId.length - 1;
    }

    public TableParams params() {
        return params;
    }

    public int nextCellId() {
        return nextCellId;
    }

    public Map<String, DroppedColumn> droppedColumns() {
        return droppedColumns;
    }

    public Map<String, IndexMetadata> indexes() {
        return indexes;
    }

    public boolean isVirtual() {
        return virtual;
    }

    /**
     * The positions of the clustering columns whose row key keeps only the values' order and identity, not the form
     * they were written in (decimals: 1.0 and 1.00 are one row), so that each row keeps its written values beside
     * its key ({@code cql.keys.WrittenClustering}); empty for most tables. Not to be modified.
     */
    public int[] clusteringKeptAsWritten() {
        return clusteringKeptAsWritten;
    }

    public boolean hasStaticColumns() {
        return hasStatic;
    }

    public boolean isCounterTable() {
        for (ColumnMetadata c : regularAndStatic) {
            if (Types.isCounter(c.type())) {
                return true;
            }
        }
        return false;
    }

    public TableMetadata with(List<ColumnMetadata> columns, TableParams newParams, int newNextCellId,
                              Map<String, DroppedColumn> newDropped, Map<String, IndexMetadata> newIndexes) {
        return new TableMetadata(keyspace, name, id, columns, newParams, newNextCellId, newDropped, newIndexes, virtual,
                compact);
    }

    /** This table with another compact storage shape (ALTER TABLE ... DROP COMPACT STORAGE: {@link CompactStorage#NONE}). */
    public TableMetadata withCompactStorage(CompactStorage newCompact) {
        return new TableMetadata(keyspace, name, id, allColumns(), params, nextCellId, droppedColumns, indexes, virtual,
                newCompact);
    }

    /** How the table was declared {@code WITH COMPACT STORAGE}: {@link CompactStorage#NONE} for a CQL table. */
    public CompactStorage compactStorage() {
        return compact;
    }

    public boolean isCompactStorage() {
        return compact != CompactStorage.NONE;
    }

    @Override
    public String toString() {
        return io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded(keyspace) + "."
                + io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded(name);
    }
}
