package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.storage.CasResult;
import io.charybdis.cluster.Coordinator;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A lightweight transaction on one partition: a conditional INSERT, UPDATE or DELETE, or a BATCH with conditions.
 *
 * <p>As in Cassandra, each statement's conditions are attached to a row: IF NOT EXISTS, IF EXISTS and conditions
 * on regular columns to the row the statement writes, conditions on static columns to the static row. Two
 * statements may put the same kind of existence condition on a row, but not mix existence and column conditions.
 * On the partition's shard, with other writes to the partition held back, the rows are read, every condition is
 * checked, and if all hold the updates of all statements are applied as one mutation; otherwise nothing is.
 *
 * <p>The answer is {@code [applied]}; when not applied, followed by the current values of the rows the conditions
 * are on (one result row per existing CQL row, in clustering order): all columns if a statement has IF [NOT]
 * EXISTS, else the condition columns (regular ones first, then static ones), after the primary key columns in a
 * batch. With conditions on the static row only, the row shown is the partition's first. As in Cassandra, the
 * values shown are those it reads: the condition columns, all regular columns if a statement writes regular rows,
 * all static columns if a conditional statement writes static ones; the others show as null.
 */
final class ConditionalWrite {
    /** A statement of the transaction with the context its values are bound in. */
    record Entry(ModificationExecution statement, QueryContext ctx) {
    }

    private enum Existence { EXISTS, NOT_EXISTS }

    /** The conditions on one row. */
    private static final class RowConditions {
        Existence existence;
        final List<Entry> columnChecks = new ArrayList<>();
    }

    private final Coordinator coordinator;
    private final TableMetadata table;
    private final Restrictions.PartitionKey key;
    private final boolean batch;

    ConditionalWrite(Coordinator coordinator, TableMetadata table, Restrictions.PartitionKey key, boolean batch) {
        this.coordinator = coordinator;
        this.table = table;
        this.key = key;
        this.batch = batch;
    }

    CompletableFuture<ResultMessage> execute(QueryContext ctx, List<Entry> entries) {
        ConsistencyRules.forConditional(ctx.serialConsistency(), ctx.consistency(),
                coordinator.strategyClass(new TableId(table.id())));
        TreeMap<byte[], RowConditions> conditions = new TreeMap<>(Arrays::compareUnsigned);
        Set<ColumnMetadata> conditionColumns = new LinkedHashSet<>();
        boolean hasExistence = false;
        boolean updatesStatic = false;
        boolean updatesRegular = false;
        boolean wholePartition = false;
        boolean readsBeforeWrite = false;
        List<ReadCommand.Slice> slices = new ArrayList<>();
        for (Entry e : entries) {
            ModificationExecution st = e.statement();
            st.checkNoClusteringIn();
            // as Cassandra: all statements tell whether regular rows are written, conditional ones the static row
            updatesRegular |= st.updatesRegularRows();
            updatesStatic |= st.conditional() && st.updatesStaticRow();
            if (st.needsRead()) {
                readsBeforeWrite = true;
                List<ReadCommand.Slice> s = st.readSlices(e.ctx().bind());
                if (s == null) {
                    wholePartition = true;
                } else {
                    slices.addAll(s);
                }
            }
            if (!st.conditional()) {
                continue;
            }
            st.checkConditionalRestrictions();
            byte[] row = st.conditionRow(e.ctx().bind());
            if (st.ifNotExists() || st.ifExists()) {
                hasExistence = true;
                addExistence(conditions, row, st.ifNotExists() ? Existence.NOT_EXISTS : Existence.EXISTS);
            } else {
                if (st.hasConditions(false)) {
                    addColumnChecks(conditions, row, e);
                }
                if (st.hasConditions(true)) {
                    addColumnChecks(conditions, ClusteringCodec.STATIC_ROW, e);
                }
                conditionColumns.addAll(st.conditionColumns());
            }
        }
        boolean onRegularRows = false;
        for (byte[] row : conditions.keySet()) {
            if (row.length > 0) {
                onRegularRows = true;
                if (!table.clustering().isEmpty()) {
                    slices.add(new ReadCommand.Slice(row, ClusteringCodec.successor(row)));
                }
            }
        }
        ReadCommand.Builder read = ReadCommand.partition(new TableId(table.id()), key.token(), Values.bytes(key.key()))
                .nowInSeconds(ctx.nowInSeconds());
        if (!table.clustering().isEmpty() && !wholePartition) {
            if (onRegularRows) {
                read.slices(Restrictions.union(slices));
            } else if (!readsBeforeWrite) {
                read.rowLimit(1); // static conditions only: the first row is all that is shown
            }
        }
        Columns shown = new Columns(hasExistence, updatesStatic, updatesRegular, conditionColumns);
        boolean regularRows = onRegularRows;
        return coordinator.cas(new TableId(table.id()), key.token(), Values.bytes(key.key()), read.build(), (current, timestamp) -> {
            Current cur = new Current(table, current);
            for (Map.Entry<byte[], RowConditions> c : conditions.entrySet()) {
                if (!holds(c.getKey(), c.getValue(), cur)) {
                    return null;
                }
            }
            List<Mutation> mutations = new ArrayList<>();
            for (Entry e : entries) {
                mutations.addAll(e.statement().mutations(e.ctx().atTimestamp(timestamp), current, false));
            }
            return Mutation.merge(mutations);
        }, ctx.serialConsistency(), ctx.consistency(), ctx.home()).thenApply(cas -> result(ctx, cas, conditions, regularRows, shown));
    }

    private static void addExistence(TreeMap<byte[], RowConditions> conditions, byte[] row, Existence e) {
        RowConditions rc = conditions.computeIfAbsent(row, k -> new RowConditions());
        if (!rc.columnChecks.isEmpty()) {
            throw new InvalidRequestException("Cannot mix IF conditions and IF " + (e == Existence.NOT_EXISTS ? "NOT " : "")
                    + "EXISTS for the same row");
        }
        if (rc.existence != null && rc.existence != e) {
            throw new InvalidRequestException("Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
        }
        rc.existence = e;
    }

    private static void addColumnChecks(TreeMap<byte[], RowConditions> conditions, byte[] row, Entry e) {
        RowConditions rc = conditions.computeIfAbsent(row, k -> new RowConditions());
        if (rc.existence != null) {
            throw new InvalidRequestException("Cannot mix IF conditions and IF NOT EXISTS for the same row");
        }
        rc.columnChecks.add(e);
    }

    private boolean holds(byte[] rowKey, RowConditions rc, Current cur) {
        boolean onStatic = rowKey.length == 0;
        ByteBuffer[] row = onStatic ? cur.staticRow : cur.rows.get(ByteBuffer.wrap(rowKey));
        if (rc.existence != null) {
            return (row != null) == (rc.existence == Existence.EXISTS);
        }
        for (Entry e : rc.columnChecks) {
            if (!e.statement().conditionsHold(onStatic, row, cur.columns, e.ctx().bind())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Which columns the answer of a transaction that did not apply shows, and which of them were read: as Cassandra,
     * the condition columns, and all static (regular) columns if a statement writes static columns (regular rows).
     */
    private static final class Columns {
        final boolean wildcard;
        final boolean readsStatic;
        final boolean updatesStatic;
        final boolean updatesRegular;
        final Set<ColumnMetadata> conditionColumns;

        Columns(boolean hasExistence, boolean updatesStatic, boolean updatesRegular, Set<ColumnMetadata> conditions) {
            this.wildcard = hasExistence;
            this.updatesStatic = updatesStatic;
            this.updatesRegular = updatesRegular;
            this.conditionColumns = conditions;
            boolean staticCondition = false;
            for (ColumnMetadata c : conditions) {
                staticCondition |= c.isStatic();
            }
            this.readsStatic = updatesStatic || staticCondition;
        }

        boolean read(ColumnMetadata c) {
            if (c.isPrimaryKey() || conditionColumns.contains(c)) {
                return true;
            }
            return c.isStatic() ? updatesStatic : updatesRegular;
        }
    }

    private ResultMessage result(QueryContext ctx, CasResult cas, TreeMap<byte[], RowConditions> conditions,
                                 boolean onRegularRows, Columns columns) {
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(new ColumnSpec(table.keyspace(), table.name(), "[applied]", NativeType.BOOLEAN));
        List<ByteBuffer[]> rows = new ArrayList<>();
        List<ColumnMetadata> all = table.allColumns();
        List<ColumnMetadata> shown = new ArrayList<>();
        if (!cas.applied()) {
            Current cur = new Current(table, cas.current());
            for (Map.Entry<ByteBuffer, ByteBuffer[]> r : cur.rows.entrySet()) {
                if (!onRegularRows || conditions.containsKey(Values.bytes(r.getKey()))) {
                    rows.add(r.getValue());
                    if (!onRegularRows) {
                        break;
                    }
                }
            }
            if (rows.isEmpty() && cur.staticRow != null && columns.readsStatic) {
                rows.add(cur.staticRow);
            }
            if (columns.wildcard) {
                shown.addAll(all);
            } else {
                Set<ColumnMetadata> s = new LinkedHashSet<>();
                if (batch) {
                    s.addAll(table.partitionKey());
                    s.addAll(table.clustering());
                }
                s.addAll(columns.conditionColumns);
                shown.addAll(s);
            }
            if (rows.isEmpty()) {
                shown.clear();
            }
        }
        for (ColumnMetadata c : shown) {
            specs.add(new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()));
        }
        RowsWriter w = new RowsWriter(ctx.alloc(), ctx.version());
        w.begin(ResultMetadata.of(specs), false, null, null);
        if (rows.isEmpty()) {
            w.value(Values.bool(cas.applied()));
        }
        for (ByteBuffer[] row : rows) {
            w.value(Values.bool(false));
            for (ColumnMetadata c : shown) {
                ByteBuffer v = columns.read(c) ? row[all.indexOf(c)] : null;
                if (v == null) {
                    w.nullValue();
                } else {
                    w.value(v.duplicate());
                }
            }
        }
        return new ResultMessage.Rows(w);
    }

    /** The rows a transaction read: the static row, and the other rows by clustering (in clustering order). */
    private static final class Current {
        final List<ColumnMetadata> columns;
        ByteBuffer[] staticRow;
        final Map<ByteBuffer, ByteBuffer[]> rows = new LinkedHashMap<>();

        Current(TableMetadata table, ReadResult result) {
            this.columns = table.allColumns();
            RowData row = new RowData(table);
            ReadResult.Cursor cursor = result.cursor();
            while (cursor.nextPartition()) {
                row.startPartition(cursor);
                while (cursor.nextRow()) {
                    row.loadRow(cursor);
                    ByteBuffer[] values = new ByteBuffer[columns.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = row.copyValue(i); // row values are views valid for their row only
                    }
                    if (row.isStaticRow) {
                        staticRow = values;
                    } else {
                        rows.put(ByteBuffer.wrap(row.clusteringKeyCopy()), values);
                    }
                }
            }
        }
    }
}
