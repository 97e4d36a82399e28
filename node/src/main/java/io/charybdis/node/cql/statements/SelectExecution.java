package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.Guardrails;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.Murmur3;
import io.charybdis.node.cql.keys.PartitionKeyCodec;
import io.charybdis.node.cql.syntax.SelectStatement;
import io.charybdis.node.cql.syntax.Selector;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.cql.values.BoundValue;
import io.charybdis.node.cql.values.Functions;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.node.system.VirtualTable;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.types.DataType;
import io.charybdis.cluster.Coordinator;
import io.charybdis.storage.TableId;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A SELECT analyzed against its table. Execution reads through the storage engine in chunks, decodes each row
 * into a reusable {@link RowData}, applies filters and limits, and encodes the selected values straight into the
 * RESULT body, stopping at the page size with a {@link PagingState}.
 */
public final class SelectExecution implements CqlStatement {
    private static final int FILTERING_CHUNK = 1000;

    private final TableMetadata table;
    private final VirtualTable virtual;
    private final Coordinator coordinator;
    private final Supplier<Schema> schema;
    private final Supplier<NodeInfo> node;
    private final Guardrails guardrails;
    private final Restrictions restrictions;
    private final Selection selection;
    private final List<BindVariable> variables;
    private final List<Integer> pkIndexes;
    /** ScyllaDB's USING TIMEOUT, null without one. */
    private final RequestTimeout requestTimeout;
    private final BoundValue limit;
    private final BoundValue perPartitionLimit;
    private final boolean reversed;
    private final boolean allowFiltering;
    private final boolean distinct;
    /** Whether WHERE restricts a partition key column (all of the key or not: an index on one counts). */
    private final boolean partitionKeyColumnRestricted;
    private final int groupByColumns;
    /** GROUP BY ending with {@code floor(c, ...)}: the function grouping the last column's values, else null. */
    private final GroupFunction groupFunction;

    /** A monotonic function of the last GROUP BY column (Cassandra's time floor), applied to its value. */
    private interface GroupFunction {
        ByteBuffer apply(ByteBuffer value, BindContext ctx);
    }
    private final boolean orderByAcrossPartitions;
    /** The clustering columns ORDER BY compares (those it names and those before them, restricted by =). */
    private final int orderByPrefix;
    private final boolean staticOnlyRows;
    /** The cell ids of the columns the statement reads (selection and filters); null = all (wildcard). */
    private final int[] cellFilter;
    /** The native index the query reads through (null: none), the restriction it answers, and whether it is built. */
    private final io.charybdis.node.index.IndexTarget indexTarget;
    private final Restrictions.Filter indexFilter;
    /** The restrictions an index of the table could answer (their values are checked against the 64K limit). */
    private final List<Restrictions.Filter> indexedFilters;
    private final io.charybdis.node.index.IndexStatus indexStatus;
    /** A RowData a finished execution left for the next one (saves building one per request). */
    private final java.util.concurrent.atomic.AtomicReference<RowData> spareRow =
            new java.util.concurrent.atomic.AtomicReference<>();

    public SelectExecution(SelectStatement s, TableMetadata table, VirtualTable virtual, Coordinator coordinator,
                           Supplier<Schema> schema, Supplier<NodeInfo> node, int markers, Functions functions,
                           Guardrails guardrails) {
        this(s, table, virtual, coordinator, schema, node, markers, functions, guardrails,
                io.charybdis.node.index.IndexStatus.ALL_BUILT);
    }

    public SelectExecution(SelectStatement s, TableMetadata table, VirtualTable virtual, Coordinator coordinator,
                           Supplier<Schema> schema, Supplier<NodeInfo> node, int markers, Functions functions,
                           Guardrails guardrails, io.charybdis.node.index.IndexStatus indexStatus) {
        this.guardrails = guardrails;
        this.indexStatus = indexStatus;
        this.table = table;
        this.virtual = virtual;
        this.allowFiltering = s.allowFiltering();
        this.coordinator = coordinator;
        this.schema = schema;
        this.node = node;
        TermBinder binder = new TermBinder(table.keyspace(), table.name(), markers, functions)
                .withPartitionKey(table.partitionKey().stream().map(c -> c.type()).toList())
                .withKeyspace(schema == null ? null : schema.get().keyspace(table.keyspace()));
        RowData template = new RowData(table);
        this.distinct = s.distinct();
        this.partitionKeyColumnRestricted = s.where().stream().flatMap(r -> restrictedColumns(r).stream())
                .map(table::column).anyMatch(c -> c != null && c.kind() == ColumnMetadata.Kind.PARTITION_KEY);
        if (distinct && s.perPartitionLimit() != null) {
            throw new InvalidRequestException("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
        }
        if (!s.isWildcard() && selectsOnlyStatic(s, table)) {
            for (io.charybdis.node.cql.syntax.Relation r : s.where()) {
                for (String name : restrictedColumns(r)) {
                    ColumnMetadata col = table.column(name);
                    if (col != null && col.kind() == ColumnMetadata.Kind.CLUSTERING) {
                        throw new InvalidRequestException("Cannot restrict clustering columns when selecting only "
                                + "static columns");
                    }
                }
            }
        }
        if (distinct) {
            for (io.charybdis.node.cql.syntax.Relation r : s.where()) {
                for (String name : restrictedColumns(r)) {
                    ColumnMetadata col = table.column(name);
                    if (col != null && !col.isStatic() && col.kind() != ColumnMetadata.Kind.PARTITION_KEY) {
                        throw new InvalidRequestException("SELECT DISTINCT with WHERE clause only supports restriction "
                                + "by partition key and/or static columns.");
                    }
                }
            }
            if (s.isWildcard()) {
                for (ColumnMetadata col : table.allColumns()) {
                    if (!col.isStatic() && col.kind() != ColumnMetadata.Kind.PARTITION_KEY) {
                        throw new InvalidRequestException("SELECT DISTINCT queries must only request partition key "
                                + "columns and/or static columns (not " + col.name() + ")");
                    }
                }
            }
            for (Selector.Item item : s.selectors()) {
                if (item.selector() instanceof Selector.Column c) {
                    ColumnMetadata col = table.column(c.name());
                    if (col != null && !col.isStatic() && col.kind() != ColumnMetadata.Kind.PARTITION_KEY) {
                        throw new InvalidRequestException("SELECT DISTINCT queries must only request partition key "
                                + "columns and/or static columns (not " + c.name() + ")");
                    }
                }
            }
        }
        this.restrictions = new Restrictions(table, s.where(), binder, true, s.allowFiltering() || virtual != null);
        // as Cassandra: a DISTINCT over a range of partitions must select every partition key column (one that names
        // its partitions by = or IN need not)
        if (distinct && (!restrictions.hasPartitionKeys() || restrictions.hasTokenRestriction())) {
            java.util.Set<String> selected = new java.util.HashSet<>();
            if (!s.isWildcard()) {
                for (Selector.Item item : s.selectors()) {
                    if (item.selector() instanceof Selector.Column c) {
                        selected.add(c.name());
                    }
                }
            }
            boolean anyColumn = !selected.isEmpty();
            for (ColumnMetadata pk : table.partitionKey()) {
                // (a DISTINCT of only aggregates, e.g. count(*), needs no key columns)
                if ((s.isWildcard() || anyColumn) && !selected.contains(pk.name())) {
                    throw new InvalidRequestException("SELECT DISTINCT queries must request all the partition key "
                            + "columns (missing " + pk.name() + ")");
                }
            }
        }
        Selection sel = s.isWildcard() ? Selection.wildcard(table, template)
                : Selection.of(table, template, s.selectors(), functions, binder);
        if (s.perPartitionLimit() != null && sel.isAggregate() && s.groupBy().isEmpty()) {
            throw new InvalidRequestException("PER PARTITION LIMIT is not allowed with aggregate queries.");
        }
        this.selection = s.json() ? sel.asJson(table) : sel;
        this.limit = s.limit() == null ? null : binder.bind(s.limit(), "[limit]", io.charybdis.protocol.types.NativeType.INT);
        this.perPartitionLimit = s.perPartitionLimit() == null ? null
                : binder.bind(s.perPartitionLimit(), "[per_partition_limit]", io.charybdis.protocol.types.NativeType.INT);
        boolean rev = false;
        int orderPrefix = 0;
        if (!s.orderBy().isEmpty()) {
            if (!restrictions.hasPartitionKeys()) {
                throw new InvalidRequestException("ORDER BY is only supported when the partition key is restricted by "
                        + "an EQ or an IN.");
            }
            // as Cassandra: one ordering per column (the last one given wins, at the place of the first)
            java.util.LinkedHashMap<String, SelectStatement.Ordering> orderings = new java.util.LinkedHashMap<>();
            for (SelectStatement.Ordering o : s.orderBy()) {
                orderings.put(o.column(), o);
            }
            int next = 0;
            Boolean direction = null;
            for (String ordered : orderings.keySet()) {
                SelectStatement.Ordering o = orderings.get(ordered);
                ColumnMetadata c = table.column(o.column());
                if (c == null) {
                    throw new InvalidRequestException("Undefined column name " + o.column() + " in table " + table);
                }
                if (o.annOf() != null) {
                    throw new InvalidRequestException("ANN ordering requires a vector index (SAI), which Charybdis "
                            + "does not support yet");
                }
                if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
                    throw new InvalidRequestException("Order by is currently only supported on the clustered columns "
                            + "of the PRIMARY KEY, got " + c.name());
                }
                // the columns before it must be ordered too, or restricted by =
                while (next < c.position()) {
                    if (!restrictions.isClusteringRestrictedByEq(next++)) {
                        throw new InvalidRequestException("Order by currently only supports the ordering of columns "
                                + "following their declared order in the PRIMARY KEY");
                    }
                }
                next = Math.max(next, c.position() + 1);
                boolean thisRev = o.descending() != c.reversed();
                if (direction == null) {
                    direction = thisRev;
                } else if (direction != thisRev) {
                    throw new InvalidRequestException("Unsupported order by relation");
                }
            }
            rev = direction != null && direction;
            orderPrefix = next;
        }
        this.reversed = rev;
        this.orderByPrefix = orderPrefix;
        this.orderByAcrossPartitions = !s.orderBy().isEmpty();
        int groupBy = 0;
        List<ColumnMetadata> primaryKey = new ArrayList<>(table.partitionKey());
        primaryKey.addAll(table.clustering());
        GroupFunction groupFn = null;
        for (int gi = 0; gi < s.groupBy().size(); gi++) {
            Selector g = s.groupBy().get(gi);
            Selector.Column gc;
            if (g instanceof Selector.Column c) {
                gc = c;
            } else if (g instanceof Selector.FunctionCall fc && fc.function().name().equals("floor")
                    && !fc.args().isEmpty() && fc.args().get(0) instanceof Selector.Column c) {
                gc = c;
                ColumnMetadata fcol = table.column(c.name());
                if (fcol != null && fcol.kind() != ColumnMetadata.Kind.CLUSTERING) {
                    throw new InvalidRequestException("Group by functions are only supported on clustering columns, "
                            + "got " + c.name());
                }
                if (gi != s.groupBy().size() - 1) {
                    // Cassandra requires the columns in primary key order first; a function ends the groups
                    throw new InvalidRequestException("Group by currently only support groups of columns following "
                            + "their declared order in the PRIMARY KEY");
                }
                groupFn = fcol == null ? null : groupFunction(fc, fcol, functions, binder);
            } else {
                throw new InvalidRequestException("Only column names and floor() of the last one are supported in "
                        + "GROUP BY yet");
            }
            ColumnMetadata col = table.column(gc.name());
            if (col == null) {
                throw new InvalidRequestException("Undefined column name " + gc.name() + " in table " + table);
            }
            if (!col.isPrimaryKey()) {
                throw new InvalidRequestException("Group by is currently only supported on the columns of the PRIMARY "
                        + "KEY, got " + gc.name());
            }
            // columns fixed by = (the partition key, a clustering prefix) may be left out of GROUP BY
            while (groupBy < primaryKey.size() && !primaryKey.get(groupBy).name().equals(gc.name())
                    && fixedByEquality(primaryKey.get(groupBy))) {
                groupBy++;
            }
            if (groupBy >= primaryKey.size() || !primaryKey.get(groupBy).name().equals(gc.name())) {
                throw new InvalidRequestException("Group by currently only support groups of columns following their "
                        + "declared order in the PRIMARY KEY");
            }
            groupBy++;
        }
        if (groupBy > 0 && groupBy < table.partitionKey().size()) {
            throw new InvalidRequestException("Group by is not supported on only a part of the partition key");
        }
        if (distinct && groupBy > table.partitionKey().size()) {
            throw new InvalidRequestException("Grouping on clustering columns is not allowed for SELECT DISTINCT "
                    + "queries");
        }
        this.groupByColumns = groupBy;
        this.groupFunction = groupFn;
        this.staticOnlyRows = !restrictions.hasClusteringRestrictions();
        // a table with dropped columns reads every cell: a row whose only cells are of dropped columns is dead, which
        // storage (that knows no columns) cannot tell
        this.cellFilter = s.isWildcard() || !table.droppedColumns().isEmpty() ? null
                : readCells(s, table, restrictions);
        this.requestTimeout = RequestTimeout.of(s.timeout(), binder);
        this.variables = binder.variables();
        this.pkIndexes = pkBindIndexes(table, binder.receivers());
        Restrictions.Filter chosen = null;
        io.charybdis.node.index.IndexTarget target = null;
        if (virtual == null && !restrictions.hasPartitionKeys()) {
            for (Restrictions.Filter f : restrictions.filters()) {
                io.charybdis.node.schema.IndexMetadata idx = Restrictions.indexFor(table, f);
                if (idx != null) {
                    chosen = f;
                    target = io.charybdis.node.index.IndexTarget.of(table, idx);
                    break;
                }
            }
        }
        this.indexFilter = chosen;
        this.indexTarget = target;
        List<Restrictions.Filter> indexed = new ArrayList<>();
        if (virtual == null) {
            for (Restrictions.Filter f : restrictions.filters()) {
                if (f.value() != null && Restrictions.indexFor(table, f) != null) {
                    indexed.add(f);
                }
            }
            if (!restrictions.hasPartitionKeys()) {
                indexed.addAll(restrictions.indexableClusteringEqs());
            }
        }
        this.indexedFilters = List.copyOf(indexed);
    }

    /** As Cassandra: a value an index would be searched by (whether or not this query reads the index) fits 64K. */
    private void checkIndexedValues(QueryContext ctx) {
        for (Restrictions.Filter f : indexedFilters) {
            ByteBuffer v = f.value().bind(ctx.bind());
            if (v != null && v != Values.UNSET && v.remaining() > 65535) {
                throw new InvalidRequestException("Index expression values may not be larger than 64K");
            }
        }
    }

    /** The columns a WHERE relation restricts. */
    private static List<String> restrictedColumns(io.charybdis.node.cql.syntax.Relation r) {
        return switch (r) {
            case io.charybdis.node.cql.syntax.Relation.SingleColumn sc -> List.of(sc.column());
            case io.charybdis.node.cql.syntax.Relation.In in -> List.of(in.column());
            case io.charybdis.node.cql.syntax.Relation.Between b -> List.of(b.column());
            case io.charybdis.node.cql.syntax.Relation.MapElement m -> List.of(m.column());
            case io.charybdis.node.cql.syntax.Relation.IsNotNull n -> List.of(n.column());
            case io.charybdis.node.cql.syntax.Relation.MultiColumn mc -> mc.columns();
            case io.charybdis.node.cql.syntax.Relation.MultiColumnIn mci -> mci.columns();
            case io.charybdis.node.cql.syntax.Relation.MultiColumnBetween mcb -> mcb.columns();
            default -> List.of();
        };
    }

    /**
     * Whether the selection names static columns and otherwise only partition key columns (Cassandra's
     * containsOnlyStaticColumns; only plain column selectors are looked at).
     */
    private static boolean selectsOnlyStatic(SelectStatement s, TableMetadata table) {
        boolean anyStatic = false;
        for (Selector.Item item : s.selectors()) {
            if (!(item.selector() instanceof Selector.Column c)) {
                return false;
            }
            ColumnMetadata col = table.column(c.name());
            if (col == null || !col.isStatic() && col.kind() != ColumnMetadata.Kind.PARTITION_KEY) {
                return false;
            }
            anyStatic |= col.isStatic();
        }
        return anyStatic;
    }

    /** {@code floor(c, duration[, start])} as a GROUP BY element: the overload for c's type, constants bound. */
    private static GroupFunction groupFunction(Selector.FunctionCall fc, ColumnMetadata column, Functions functions,
                                               TermBinder binder) {
        for (io.charybdis.node.cql.values.NativeFunction fn : functions.overloads("floor")) {
            if (fn.argTypes().size() != fc.args().size() || !fn.argTypes().get(0).equals(column.type())) {
                continue;
            }
            List<io.charybdis.node.cql.values.BoundValue> args = new ArrayList<>();
            for (int i = 1; i < fc.args().size(); i++) {
                if (!(fc.args().get(i) instanceof Selector.Value v)) {
                    throw new InvalidRequestException("Only constants are supported as floor() arguments in GROUP BY");
                }
                args.add(binder.bind(v.term(), "arg" + i + "(system.floor)", fn.argTypes().get(i)));
            }
            return (value, ctx) -> {
                List<ByteBuffer> values = new ArrayList<>(args.size() + 1);
                values.add(value);
                for (io.charybdis.node.cql.values.BoundValue b : args) {
                    values.add(b.bind(ctx));
                }
                return fn.execute(values, ctx);
            };
        }
        throw new InvalidRequestException("Invalid call to function floor in GROUP BY: no overload for "
                + column.name() + " of type " + column.type().cqlName());
    }

    /**
     * The cells a non-wildcard SELECT needs: its selectors' columns and its filters' columns, so that storage returns
     * only those (row liveness still considers every cell) and unselected columns, collections above all, cost
     * nothing per row. Over-inclusion is harmless; every selector kind is walked.
     */
    private static int[] readCells(SelectStatement s, TableMetadata table, Restrictions restrictions) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Selector.Item item : s.selectors()) {
            columnsOf(item.selector(), names);
        }
        for (Restrictions.Filter f : restrictions.filters()) {
            names.add(f.column().name());
        }
        java.util.TreeSet<Integer> ids = new java.util.TreeSet<>();
        for (String n : names) {
            ColumnMetadata c = table.column(n);
            if (c != null && !c.isPrimaryKey()) {
                ids.add(c.cellId());
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void columnsOf(Selector s, java.util.Set<String> out) {
        switch (s) {
            case Selector.Column c -> out.add(c.name());
            case Selector.Value v -> {
            }
            case Selector.CountRows c -> {
            }
            case Selector.WriteTime w -> columnsOf(w.column(), out);
            case Selector.FunctionCall f -> f.args().forEach(a -> columnsOf(a, out));
            case Selector.Cast c -> columnsOf(c.selector(), out);
            case Selector.TypeHint t -> columnsOf(t.selector(), out);
            case Selector.FieldAccess f -> columnsOf(f.receiver(), out);
            case Selector.ElementAccess e -> columnsOf(e.receiver(), out);
            case Selector.SliceAccess sl -> columnsOf(sl.receiver(), out);
            case Selector.Negation n -> columnsOf(n.selector(), out);
            case Selector.BinaryOp b -> {
                columnsOf(b.left(), out);
                columnsOf(b.right(), out);
            }
            case Selector.ListSelector l -> l.elements().forEach(e -> columnsOf(e, out));
            case Selector.SetSelector st -> st.elements().forEach(e -> columnsOf(e, out));
            case Selector.MapOrUdtSelector m -> m.entries().forEach(e -> {
                columnsOf(e.getKey(), out);
                columnsOf(e.getValue(), out);
            });
            case Selector.TupleSelector t -> t.elements().forEach(e -> columnsOf(e, out));
            case Selector.Parenthesized p -> columnsOf(p.selector(), out);
        }
    }

    private boolean fixedByEquality(ColumnMetadata c) {
        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY) {
            return restrictions.hasPartitionKeys();
        }
        if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
            return false;
        }
        if (c.position() < restrictions.clusteringEqPrefixLength()) {
            return true;
        }
        // = on a clustering column served by an index or by filtering fixes it as well (Cassandra keeps it among
        // the clustering restrictions)
        for (Restrictions.Filter f : restrictions.filters()) {
            if (f.column().equals(c) && f.op() == io.charybdis.node.cql.syntax.Operator.EQ && f.mapKey() == null) {
                return true;
            }
        }
        return false;
    }

    /**
     * The partition key indexes of a prepared statement, as Cassandra sets them: for each partition key column, the
     * last bind marker bound to it (so {@code k IN (?, ?)} routes by its second value), whatever the marker's name;
     * none unless every partition key column has one.
     */
    public static List<Integer> pkBindIndexes(TableMetadata table, List<String> receivers) {
        Integer[] positions = new Integer[table.partitionKey().size()];
        for (int i = 0; i < receivers.size(); i++) {
            String r = receivers.get(i);
            for (ColumnMetadata c : table.partitionKey()) {
                if (c.name().equals(r)) {
                    positions[c.position()] = i;
                }
            }
        }
        List<Integer> out = new ArrayList<>();
        for (Integer p : positions) {
            if (p == null) {
                return List.of();
            }
            out.add(p);
        }
        return out;
    }

    @Override
    public List<BindVariable> bindVariables() {
        return variables;
    }

    @Override
    public List<Integer> partitionKeyBindIndexes() {
        return pkIndexes;
    }

    @Override
    public java.time.Duration timeout(QueryContext ctx) {
        return requestTimeout == null ? null : requestTimeout.resolve(ctx);
    }

    @Override
    public java.util.function.Supplier<io.charybdis.node.cql.exceptions.RequestTimeoutException> timeoutError(
            QueryContext ctx) {
        return RequestTimeout.readError(ctx);
    }

    @Override
    public ResultMetadata resultMetadata() {
        return selection.metadata();
    }

    @Override
    public String keyspace() {
        return table.keyspace();
    }

    @Override
    public String table() {
        return table.name();
    }

    private int intValue(BoundValue b, BindContext ctx, String what, int dflt) {
        if (b == null) {
            return dflt;
        }
        ByteBuffer v = b.bind(ctx);
        if (v == null) {
            throw new InvalidRequestException("Invalid null value of " + what);
        }
        if (v == Values.UNSET) {
            return dflt;
        }
        if (v.remaining() != 4) {
            throw new InvalidRequestException("Invalid empty value of " + what);
        }
        int n = v.getInt(v.position());
        if (n <= 0) {
            throw new InvalidRequestException("LIMIT must be strictly positive");
        }
        return n;
    }

    /**
     * As on Cassandra, a query through an index this node is still building is refused. (In a cluster the other
     * nodes' build state is not asked: an index still building there answers with the entries it has so far.)
     */
    private void checkIndexUsable(QueryContext ctx) {
        if (!indexStatus.isBuilt(table, indexTarget.index())) {
            NodeInfo n = node.get();
            java.net.InetAddress address = n != null ? n.listenAddress() : java.net.InetAddress.getLoopbackAddress();
            io.charybdis.protocol.Consistency cl = ctx.options() != null && ctx.options().consistency() != null
                    ? ctx.options().consistency() : io.charybdis.protocol.Consistency.ONE;
            throw new io.charybdis.node.cql.exceptions.ReadFailureException("Operation failed - received 0 responses "
                    + "and 1 failures: INDEX_NOT_AVAILABLE from /" + address.getHostAddress() + " (the secondary index '"
                    + indexTarget.index().name() + "' is not yet available)", cl, 0, 1,
                    java.util.Map.of(address, INDEX_NOT_AVAILABLE));
        }
    }

    /**
     * An index entry read: its clustering (base position), timestamp, and the shard whose index partition has it;
     * {@code local}: read from this node's index (only those are purged when stale).
     */
    private record IndexEntry(byte[] clustering, long timestamp, int shard, int shards, boolean local) {
    }

    /** Cassandra's RequestFailureReason code for an index still building. */
    private static final int INDEX_NOT_AVAILABLE = 6;

    /**
     * A range read's token bounds as Cassandra's traces show them: the whole ring as
     * {@code (min(-9223372036854775808), min(-9223372036854775808)]}, a bound as its token.
     */
    private static String tokenRangeText(ReadCommand cmd) {
        ReadCommand.KeyBound lo = cmd.start();
        ReadCommand.KeyBound hi = cmd.end();
        String min = "min(" + Long.MIN_VALUE + ")";
        return (lo == null || !lo.inclusive() ? "(" : "[") + (lo == null ? min : Long.toString(lo.token())) + ", "
                + (hi == null ? min : Long.toString(hi.token())) + (hi == null || hi.inclusive() ? "]" : ")");
    }

    private RowData takeRow() {
        RowData r = spareRow.getAndSet(null);
        return r != null ? r : new RowData(table);
    }

    @Override
    public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
        BindContext bind = ctx.bind();
        int lim = intValue(limit, bind, "limit", Integer.MAX_VALUE);
        int ppl = intValue(perPartitionLimit, bind, "per partition limit", Integer.MAX_VALUE);
        int pageSize = ctx.options() != null && ctx.options().pageSize() > 0 ? ctx.options().pageSize()
                : Integer.MAX_VALUE;
        byte[] ps = ctx.options() == null ? null : ctx.options().pagingState();
        PagingState state = ps == null ? null : PagingState.decode(ps);
        boolean skipMetadata = ctx.options() != null && ctx.options().skipMetadata();
        if (virtual == null) {
            ConsistencyRules.forRead(ctx.consistency());
        }
        checkIndexedValues(ctx);
        if (virtual == null) {
            Filters.checkBound(restrictions.filters(), bind);
        }
        if (indexTarget != null) {
            checkIndexUsable(ctx);
        }
        RowsWriter writer = new RowsWriter(ctx.alloc(), ctx.version()); // after the checks: it holds a buffer
        writer.begin(selection.metadata(), skipMetadata, null, null);
        try {
            Run run = new Run(ctx, writer, lim, ppl, pageSize, state);
            CompletableFuture<Void> done;
            if (virtual != null) {
                run.virtualRows();
                done = CompletableFuture.completedFuture(null);
            } else {
                done = run.start();
            }
            return done.handle((v, failed) -> {
                if (failed != null) {
                    writer.abort();
                    Throwable err = TombstoneGuard.failure(failed, ctx, node.get(), table, run.lastCommand,
                            run.lastKey, run.commandLimit);
                    throw err instanceof RuntimeException re ? re
                            : new java.util.concurrent.CompletionException(err);
                }
                run.finishAggregates();
                run.releaseChunks();
                if (run.pagingState != null) {
                    writer.pagingState(run.pagingState);
                }
                return (ResultMessage) new ResultMessage.Rows(writer);
            });
        } catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /** The state of one execution. */
    private final class Run {
        final QueryContext ctx;
        final BindContext bind;
        final RowsWriter writer;
        final RowData row = takeRow();
        final List<Restrictions.Filter> filters = restrictions.filters();
        /** The filters' compared values, bound once per request. */
        final ByteBuffer[] filterValues = new ByteBuffer[filters.size()];
        final int perPartitionLimit;
        final int pageSize;
        final boolean aggregate = selection.isAggregate() || groupByColumns > 0;
        final ByteBuffer[] firstRow = new ByteBuffer[selection.accumulatorSize()];
        boolean groupStarted;
        ByteBuffer[] groupKey;
        int remaining;
        int emitted;
        byte[] pagingState;
        // partition tracking
        List<Restrictions.PartitionKey> keys;
        List<ReadCommand.Slice> slices;
        int partitionIndex;
        long resumeToken;
        byte[] resumeKey;
        byte[] resumeClustering;
        boolean resumeSet;
        /**
         * A resume point remembered as offsets into the chunk being processed, turned into resumeKey and
         * resumeClustering (copies) only when the chunk ends or the page is full: no copy per row.
         */
        boolean resumePending;
        int pendingKeyOffset;
        int pendingKeyLength;
        int pendingClusteringOffset;
        int pendingClusteringLength;
        /** The current partition's key: a copy in a reused array (valid across chunks). */
        boolean hasCurrentKey;
        byte[] currentKey = new byte[16];
        int currentKeyLength;
        long currentToken;
        /** The last storage chunk: its array backs the row views until the next chunk has been processed. */
        ReadResult previousChunk;
        /** Chunks kept past their turn for a static-only partition's row (see process); released at the end. */
        final List<ReadResult> heldChunks = new ArrayList<>(0);
        int partitionEmitted;
        int partitionRegularRows;
        boolean partitionHasStatic;
        List<Object[]> sortBuffer;
        /** With {@link #sortBuffer}: the LIMIT, applied once the rows of all partitions are in order. */
        int sortLimit;
        int groupLimit;
        final int groupsPerPartitionLimit;
        int groupsWritten;
        int groupsInPartition;
        ByteBuffer groupPartition;
        boolean skippingGroup;
        /** With {@link #sortBuffer} and GROUP BY: the clustering of the current group's first row. */
        byte[] groupClustering;
        /**
         * GROUP BY under paging: Cassandra's page size counts groups. A page ends once it holds {@code groupPageSize}
         * completed groups, before the first row of the next group, which the next page starts with: the resume
         * point is then the row before it, kept below (as the resume point fields, before each row moves them).
         */
        final int groupPageSize;
        boolean groupPageFull;
        boolean prevResumeSet;
        boolean prevResumePending;
        long prevResumeToken;
        int prevKeyOffset;
        int prevKeyLength;
        int prevClusteringOffset;
        int prevClusteringLength;
        byte[] prevResumeKey;
        byte[] prevResumeClustering;

        /** The last storage read issued and its partition (null for a range read), for tombstone messages. */
        ReadCommand lastCommand;
        Restrictions.PartitionKey lastKey;
        /** The limit Cassandra's read command for this query would carry: the page size, or LIMIT if smaller. */
        final int commandLimit;

        Run(QueryContext ctx, RowsWriter writer, int limit, int ppl, int pageSize, PagingState state) {
            this.commandLimit = Math.min(limit, pageSize);
            this.ctx = ctx;
            this.bind = ctx.bind();
            this.writer = writer;
            // with GROUP BY, LIMIT and PER PARTITION LIMIT count groups, not rows
            this.perPartitionLimit = distinct ? 1 : groupByColumns > 0 ? Integer.MAX_VALUE : ppl;
            this.groupLimit = groupByColumns > 0 ? limit : Integer.MAX_VALUE;
            this.groupsPerPartitionLimit = groupByColumns > 0 ? ppl : Integer.MAX_VALUE;
            this.pageSize = aggregate ? Integer.MAX_VALUE : pageSize;
            this.remaining = aggregate ? Integer.MAX_VALUE : limit;
            // DISTINCT groups (one per partition) come in one page, as an aggregate's result does in Cassandra
            this.groupPageSize = groupByColumns > 0 && virtual == null && !distinct ? pageSize
                    : Integer.MAX_VALUE;
            if (aggregate) {
                selection.resetAggregates();
            }
            if (state != null) {
                remaining = state.remaining();
                partitionIndex = Math.max(0, state.partitionIndex());
                resumeToken = state.token();
                resumeKey = state.key();
                resumeClustering = state.clustering();
                resumeSet = true;
                setCurrentKey(state.token(), state.key(), 0, state.key().length);
                partitionEmitted = perPartitionLimit == Integer.MAX_VALUE ? 0
                        : perPartitionLimit - state.remainingInPartition();
                partitionRegularRows = state.clustering() == null ? 0 : 1;
                if (groupByColumns > 0) {
                    // a GROUP BY page's state counts groups: those LIMIT still allows, and PER PARTITION LIMIT in
                    // the partition it stopped in
                    this.remaining = Integer.MAX_VALUE;
                    this.groupLimit = state.remaining();
                    this.groupsInPartition = ppl == Integer.MAX_VALUE ? 0 : ppl - state.remainingInPartition();
                    this.groupPartition = ByteBuffer.wrap(state.key());
                }
            }
        }

        CompletableFuture<Void> start() {
            // Cassandra warns on each page of a GROUP BY query (the other aggregates have one page)
            if (aggregate && (groupByColumns > 0 || partitionIndex == 0 && !resumeSet)) {
                if (!restrictions.hasPartitionKeys() && !partitionKeyColumnRestricted) {
                    ctx.warn("Aggregation query used without partition key");
                } else if (restrictions.partitionKeyIn()) {
                    ctx.warn("Aggregation query used on multiple partition keys (IN restriction)");
                }
            }
            slices = restrictions.slices(bind);
            if (restrictions.hasClusteringRestrictions() && slices.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (restrictions.hasPartitionKeys()) {
                keys = restrictions.partitionKeys(bind);
                if (orderByAcrossPartitions && keys.size() > 1) {
                    if (pageSize != Integer.MAX_VALUE && !aggregate || groupPageSize != Integer.MAX_VALUE) {
                        throw new InvalidRequestException("Cannot page queries with both ORDER BY and a IN restriction "
                                + "on the partition key; you must either remove the ORDER BY or the IN and sort client "
                                + "side, or disable paging for this query");
                    }
                    sortBuffer = new ArrayList<>();
                    sortLimit = remaining;
                    if (groupByColumns > 0) {
                        // Cassandra orders the groups once all are made, then takes LIMIT of them
                        sortLimit = groupLimit;
                        groupLimit = Integer.MAX_VALUE;
                    }
                }
            }
            if (indexTarget != null) {
                return CompletableFuture.completedFuture(null).thenCompose(v -> {
                    startIndexScan();
                    return indexLoop();
                });
            }
            return next();
        }

        // ---------------------------------------------------------------- reads through a native index

        /** The index partition (the indexed value) and the next index clustering to read from (inclusive). */
        byte[] indexKey;
        byte[] indexFrom;
        boolean indexExhausted;
        final java.util.ArrayDeque<IndexEntry> pendingEntries = new java.util.ArrayDeque<>();
        /** While a row-level entry's base row is processed: whether the indexed restriction held on it. */
        boolean checkingEntry;
        boolean entryLive;
        final List<Restrictions.Filter> indexFilterOnly = indexFilter == null ? List.of() : List.of(indexFilter);
        final ByteBuffer[] indexFilterValue = new ByteBuffer[1];
        /**
         * For an index on a clustering column kept as written (decimal): the slot of that column in a row and the
         * value looked up. Cassandra indexes the clustering's bytes as the row keeps them, so only a base row showing
         * exactly these bytes answers (1.0 is not found by 1.00); -1 for every other index.
         */
        int indexWrittenSlot = -1;
        ByteBuffer indexValue;
        ReadCommand.KeyBound tokenLow;
        ReadCommand.KeyBound tokenHigh;
        /** Inside a partition read for a partition-level entry (static column): where to go on, null if done. */
        byte[] partitionEntry;
        ReadCommand.ResumePoint partitionResume;

        void startIndexScan() {
            ByteBuffer value = indexFilter.value().bind(bind);
            if (value == null || value == Values.UNSET) {
                throw new InvalidRequestException("Unsupported " + (value == null ? "null" : "unset")
                        + " value for column " + indexFilter.column().name());
            }
            if (value.remaining() > Restrictions.MAX_KEY_LENGTH) {
                throw new InvalidRequestException("Index expression values may not be larger than 64K");
            }
            if (indexFilter.mapKey() != null) {
                ByteBuffer mk = indexFilter.mapKey().bind(bind);
                if (mk == null || mk == Values.UNSET) {
                    throw new InvalidRequestException("Unsupported null map key for column "
                            + indexFilter.column().name());
                }
                value = PartitionKeyCodec.compose(new ByteBuffer[]{mk, value});
            }
            indexKey = io.charybdis.node.index.IndexEntries.partitionKey(value);
            ColumnMetadata indexed = indexTarget.column();
            if (indexed.kind() == ColumnMetadata.Kind.CLUSTERING && indexFilter.mapKey() == null
                    && Arrays.stream(table.clusteringKeptAsWritten()).anyMatch(p -> p == indexed.position())) {
                indexWrittenSlot = table.partitionKey().size() + indexed.position();
                indexValue = value;
            }
            tokenLow = restrictions.tokenStart(bind);
            tokenHigh = restrictions.tokenEnd(bind);
            if (resumeSet) {
                byte[] partition = io.charybdis.node.index.IndexEntries.clustering(resumeToken, resumeKey, null);
                if (indexTarget.partitionLevel()) {
                    if (resumeClustering == null) {
                        indexFrom = ClusteringCodec.successor(partition);
                    } else {
                        indexFrom = partition; // the partition goes on after resumeClustering
                        partitionResume = new ReadCommand.ResumePoint(resumeToken, resumeKey, resumeClustering);
                    }
                } else {
                    indexFrom = resumeClustering == null ? ClusteringCodec.successor(partition)
                            : io.charybdis.node.index.IndexEntries.after(io.charybdis.node.index.IndexEntries
                                    .clustering(resumeToken, resumeKey, resumeClustering));
                }
                if (indexFrom == null) {
                    indexExhausted = true;
                }
            }
        }

        /** Reads entries and their base rows until the page is full or the index has no more entries. */
        CompletableFuture<Void> indexLoop() {
            while (true) {
                if (pageFull()) {
                    return CompletableFuture.completedFuture(null);
                }
                CompletableFuture<?> step;
                if (partitionEntry != null) {
                    step = readPartitionOfEntry();
                } else if (!pendingEntries.isEmpty()) {
                    step = readEntry(pendingEntries.poll());
                } else if (indexExhausted) {
                    closePartition();
                    return CompletableFuture.completedFuture(null);
                } else {
                    step = fetchEntries();
                }
                if (!step.isDone() || step.isCompletedExceptionally()) {
                    return step.thenCompose(v -> indexLoop());
                }
            }
        }

        /**
         * The next entries of every shard's index partition, merged in index order (base token order): this node's
         * shards alone, or in a cluster every shard of each node whose local index covers part of the ring at the
         * read's level ({@code Coordinator.localIndexNodes}). An entry several replicas hold is taken once. Each
         * partition read stops at {@code fetch} entries; entries are taken up to the earliest last entry of a read
         * that stopped there, and the next fetch starts after it.
         */
        CompletableFuture<Void> fetchEntries() {
            int fetch = Math.max(16, Math.min(FILTERING_CHUNK, pageSize == Integer.MAX_VALUE ? FILTERING_CHUNK
                    : pageSize - emitted + 1));
            TableId id = indexTarget.indexTable();
            io.charybdis.cluster.ConsistencyLevel cl = ctx.consistency();
            io.charybdis.cluster.locator.Endpoint self = coordinator.metadata().self();
            List<io.charybdis.cluster.locator.Endpoint> nodes = coordinator.metadata().isSingleNode()
                    ? List.of(self) : coordinator.localIndexNodes(new TableId(table.id()), cl);
            List<CompletableFuture<ReadResult>> parts = new ArrayList<>();
            List<int[]> partShards = new ArrayList<>(); // {shard, shards, local}
            for (io.charybdis.cluster.locator.Endpoint n : nodes) {
                boolean local = n.equals(self);
                int shards = local ? Math.max(1, node.get() == null ? 1 : node.get().shardCount()) : n.shards();
                for (int s = 0; s < shards; s++) {
                    long token = io.charybdis.node.index.IndexEntries.token(indexKey, s, shards);
                    ReadCommand.Builder b = ReadCommand.partition(id, token, indexKey).rowLimit(fetch)
                            .nowInSeconds(ctx.nowInSeconds()).tombstoneFailureThreshold(guardrails.tombstoneFailure());
                    if (indexFrom != null) {
                        b.slice(indexFrom, null);
                    }
                    parts.add(local ? coordinator.read(b.build(), cl, ctx.home())
                            : coordinator.readOn(n, b.build(), cl, ctx.home()));
                    partShards.add(new int[] {s, shards, local ? 1 : 0});
                }
            }
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).handle((v, failed) -> {
                if (failed != null) { // release what did arrive before failing the query
                    for (CompletableFuture<ReadResult> p : parts) {
                        if (p.isDone() && !p.isCompletedExceptionally()) {
                            p.join().release();
                        }
                    }
                    throw failed instanceof java.util.concurrent.CompletionException ce ? ce
                            : new java.util.concurrent.CompletionException(failed);
                }
                List<IndexEntry> all = new ArrayList<>();
                byte[] cutoff = null;
                for (int i = 0; i < parts.size(); i++) {
                    ReadResult r = parts.get(i).join();
                    int[] where = partShards.get(i);
                    try {
                        ReadResult.Cursor c = r.cursor();
                        byte[] last = null;
                        while (c.nextPartition()) {
                            while (c.nextRow()) {
                                last = c.clusteringBytes();
                                all.add(new IndexEntry(last, c.rowTimestamp(), where[0], where[1], where[2] == 1));
                            }
                        }
                        if (r.limitReached() && last != null
                                && (cutoff == null || Arrays.compareUnsigned(last, cutoff) < 0)) {
                            cutoff = last;
                        }
                    } finally {
                        r.release();
                    }
                }
                all.sort((a, b) -> Arrays.compareUnsigned(a.clustering(), b.clustering()));
                byte[] previous = null;
                for (IndexEntry e : all) {
                    if (cutoff != null && Arrays.compareUnsigned(e.clustering(), cutoff) > 0) {
                        break;
                    }
                    if (previous != null && Arrays.equals(previous, e.clustering())) {
                        continue; // the same base position from another replica's index
                    }
                    previous = e.clustering();
                    pendingEntries.add(e);
                }
                if (cutoff == null) {
                    indexExhausted = true;
                } else {
                    indexFrom = io.charybdis.node.index.IndexEntries.after(cutoff);
                }
                return null;
            });
        }

        /** Reads the base row an entry names and runs it through the filters (a stale entry matches nothing). */
        CompletableFuture<Void> readEntry(IndexEntry indexEntry) {
            byte[] entry = indexEntry.clustering();
            long token = io.charybdis.node.index.IndexEntries.baseToken(entry, 0);
            int keyLength = io.charybdis.node.index.IndexEntries.keyLength(entry, 0);
            if (!tokenInRange(token)) {
                return CompletableFuture.completedFuture(null);
            }
            int ckStart = 12 + keyLength;
            if (ckStart == entry.length) {
                partitionEntry = entry;
                return readPartitionOfEntry();
            }
            byte[] key = Arrays.copyOfRange(entry, 12, ckStart);
            byte[] ck = Arrays.copyOfRange(entry, ckStart, entry.length);
            if (!slices.isEmpty() && !table.clustering().isEmpty() && !inSlices(ck)) {
                return CompletableFuture.completedFuture(null);
            }
            byte[] end = io.charybdis.node.index.IndexEntries.after(ck); // exactly the row named
            ReadCommand.Builder b = ReadCommand.partition(new TableId(table.id()), token, key).slice(ck, end)
                    .rowLimit(2).nowInSeconds(ctx.nowInSeconds())
                    .tombstoneFailureThreshold(guardrails.tombstoneFailure());
            if (cellFilter != null) {
                b.columns(cellFilter);
            }
            checkingEntry = true;
            entryLive = false;
            return readBase(b.build()).whenComplete((v, e) -> {
                checkingEntry = false;
                if (e == null && !entryLive && indexEntry.local()) {
                    purge(indexEntry);
                }
            });
        }

        /**
         * Deletes an entry its base row no longer justifies (overwritten, deleted, expired), at the entry's own
         * timestamp, as Cassandra does when a read finds a stale entry: a newer entry of the same row survives. Not
         * waited for; a failure only leaves the entry for the next read to find.
         */
        void purge(IndexEntry e) {
            io.charybdis.storage.mutation.Mutation m = new io.charybdis.storage.mutation.MutationBuilder()
                    .start(indexTarget.indexTable(), io.charybdis.node.index.IndexEntries.token(indexKey, e.shard(),
                            e.shards()), indexKey)
                    .beginRow(e.clustering()).rowDeletion(e.timestamp(), ctx.nowInSeconds()).endRow().build();
            coordinator.write(m, io.charybdis.cluster.ConsistencyLevel.ONE, null).exceptionally(t -> null);
        }

        /** Reads (on from partitionResume) the rows of the partition a partition-level entry names. */
        CompletableFuture<Void> readPartitionOfEntry() {
            byte[] entry = partitionEntry;
            long token = io.charybdis.node.index.IndexEntries.baseToken(entry, 0);
            byte[] key = Arrays.copyOfRange(entry, 12, entry.length);
            ReadCommand.Builder b = ReadCommand.partition(new TableId(table.id()), token, key).slices(slices)
                    .rowLimit(FILTERING_CHUNK).nowInSeconds(ctx.nowInSeconds())
                    .tombstoneFailureThreshold(guardrails.tombstoneFailure());
            if (partitionResume != null && partitionResume.token() == token
                    && Arrays.equals(partitionResume.key(), key)) {
                b.startAfter(partitionResume);
            }
            if (cellFilter != null) {
                b.columns(cellFilter);
            }
            ReadCommand cmd = b.build();
            return readBase(cmd).thenRun(() -> {
                if (lastBaseMore && !pageFull()) {
                    partitionResume = lastBaseResume;
                } else {
                    partitionEntry = null;
                    partitionResume = null;
                }
            });
        }

        boolean lastBaseMore;
        ReadCommand.ResumePoint lastBaseResume;

        CompletableFuture<Void> readBase(ReadCommand cmd) {
            lastCommand = cmd;
            lastKey = null;
            return coordinator.read(cmd, ctx.consistency(), ctx.home()).thenAccept(result -> {
                TombstoneGuard.check(guardrails, ctx, table, cmd, null, commandLimit, result);
                lastBaseResume = result.resumePoint();
                lastBaseMore = process(result);
            });
        }

        boolean tokenInRange(long token) {
            if (tokenLow != null && (tokenLow.inclusive() ? token < tokenLow.token() : token <= tokenLow.token())) {
                return false;
            }
            return tokenHigh == null || (tokenHigh.inclusive() ? token <= tokenHigh.token() : token < tokenHigh.token());
        }

        boolean inSlices(byte[] ck) {
            for (ReadCommand.Slice sl : slices) {
                if ((sl.start() == null || Arrays.compareUnsigned(ck, sl.start()) >= 0)
                        && (sl.end() == null || Arrays.compareUnsigned(ck, sl.end()) < 0)) {
                    return true;
                }
            }
            return false;
        }

        boolean pageFull() {
            return emitted >= pageSize || remaining <= 0 || groupPageFull;
        }

        CompletableFuture<Void> next() {
            if (pageFull()) {
                return CompletableFuture.completedFuture(null);
            }
            ReadCommand cmd;
            int chunk = restrictions.filters().isEmpty() && perPartitionLimit == Integer.MAX_VALUE
                    ? Math.max(1, Math.min(pageSize - emitted, remaining)) : FILTERING_CHUNK;
            if (!aggregate && pageSize != Integer.MAX_VALUE) {
                chunk = Math.min(chunk, Math.max(pageSize - emitted, 1) + (restrictions.filters().isEmpty() ? 0
                        : FILTERING_CHUNK));
            }
            if (aggregate || chunk == Integer.MAX_VALUE) {
                chunk = FILTERING_CHUNK * 10;
            }
            TableId id = new TableId(table.id());
            if (keys != null) {
                if (partitionIndex >= keys.size()) {
                    closePartition();
                    return CompletableFuture.completedFuture(null);
                }
                Restrictions.PartitionKey k = keys.get(partitionIndex);
                byte[] key = Values.bytes(k.key());
                ReadCommand.Builder b = ReadCommand.partition(id, k.token(), key).slices(slices)
                        .reversed(reversed).rowLimit(chunk).nowInSeconds(ctx.nowInSeconds())
                        .tombstoneFailureThreshold(guardrails.tombstoneFailure());
                lastKey = k;
                if (resumeSet && resumeToken == k.token() && Arrays.equals(resumeKey, key)) {
                    if (resumeClustering == null) {
                        partitionIndex++;
                        resumeSet = false;
                        return next();
                    }
                    b.startAfter(resumeToken, resumeKey, resumeClustering);
                }
                if (distinct) {
                    b.perPartitionLimit(1);
                }
                if (cellFilter != null) {
                    b.columns(cellFilter);
                }
                cmd = b.build();
            } else {
                ReadCommand.Builder b = ReadCommand.range(id, restrictions.tokenStart(bind), restrictions.tokenEnd(bind))
                        .slices(slices).reversed(reversed).rowLimit(chunk).nowInSeconds(ctx.nowInSeconds())
                        .tombstoneFailureThreshold(guardrails.tombstoneFailure());
                lastKey = null;
                if (resumeSet) {
                    b.startAfter(resumeToken, resumeKey, resumeClustering);
                }
                if (distinct) {
                    b.perPartitionLimit(1);
                }
                if (cellFilter != null) {
                    b.columns(cellFilter);
                }
                cmd = b.build();
            }
            lastCommand = cmd;
            if (ctx.trace() != null) {
                if (keys != null) {
                    ctx.trace("Executing single-partition query on " + table.name());
                } else {
                    ctx.trace("Computing ranges to query");
                    ctx.trace("Executing seq scan for " + tokenRangeText(cmd));
                }
            }
            return coordinator.read(cmd, ctx.consistency(), ctx.home(), ctx.traceSink()).thenCompose(result -> {
                if (ctx.trace() != null) {
                    ctx.trace("Read " + result.liveRowsScanned() + " live rows and " + result.tombstonesScanned()
                            + " tombstone cells");
                }
                TombstoneGuard.check(guardrails, ctx, table, cmd, lastKey, commandLimit, result);
                boolean more = process(result);
                if (!more) {
                    if (keys != null && !pageFull()) {
                        closePartition();
                        partitionIndex++;
                        resumeSet = false;
                        return next();
                    }
                    if (!pageFull()) {
                        closePartition();
                    }
                    return CompletableFuture.completedFuture(null);
                }
                return next();
            });
        }

        /** Consumes one storage result; returns whether the source may have more rows. */
        boolean process(ReadResult result) {
            try {
                return processRows(result);
            } finally {
                resolveResume(result);
                // nothing refers to the previous chunk any more: the row views now point into this one, unless the
                // partition still open is static-only so far (its static row, emitted when the partition closes,
                // may live in the previous chunk: this one may be empty)
                if (previousChunk != null) {
                    if (hasCurrentKey && partitionHasStatic && (partitionRegularRows == 0 || distinct)) {
                        heldChunks.add(previousChunk);
                    } else {
                        previousChunk.release();
                    }
                }
                previousChunk = result;
            }
        }

        private boolean processRows(ReadResult result) {
            ReadResult.Cursor cursor = result.cursor();
            byte[] a = cursor.array();
            while (cursor.nextPartition()) {
                long token = cursor.token();
                int keyOffset = cursor.keyOffset();
                int keyLength = cursor.keyLength();
                if (!hasCurrentKey || currentToken != token || !Arrays.equals(currentKey, 0, currentKeyLength, a,
                        keyOffset, keyOffset + keyLength)) {
                    closePartition();
                    if (groupPageFull) {
                        resolveResume(result);
                        savePagingState();
                        return false;
                    }
                    if (pageFull()) {
                        return false; // the previous partition's static-only row filled the page (state saved)
                    }
                    setCurrentKey(token, a, keyOffset, keyLength);
                    partitionEmitted = 0;
                    partitionRegularRows = 0;
                    partitionHasStatic = false;
                }
                row.startPartition(cursor);
                while (cursor.nextRow()) {
                    row.loadRow(cursor);
                    if (row.isStaticRow) {
                        // (a static row of dropped columns' cells only is not there)
                        partitionHasStatic |= cellFilter != null || row.live;
                        continue;
                    }
                    keepPrevious();
                    // DISTINCT shows one row per partition: once a row is seen the partition is done, and a page or
                    // a chunk goes on with the next partition, not after this row
                    rememberInChunk(token, keyOffset, keyLength, distinct ? -1 : row.clusteringOffset(),
                            row.clusteringLength());
                    if (cellFilter == null && !row.live) {
                        continue; // only cells of dropped columns (a compact table's rows have no marker)
                    }
                    partitionRegularRows++;
                    if (checkingEntry && indexWrittenSlot >= 0 && !indexValue.equals(row.values[indexWrittenSlot])) {
                        continue; // the entry of another written form of the value: stale for this lookup
                    }
                    if (checkingEntry && !entryLive) {
                        entryLive = Filters.matches(indexFilterOnly, row, bind, indexFilterValue);
                    }
                    if (partitionEmitted >= perPartitionLimit) {
                        continue;
                    }
                    if (!filters.isEmpty() && !Filters.matches(filters, row, bind, filterValues)) {
                        continue;
                    }
                    emit();
                    partitionEmitted++;
                    if (pageFull()) {
                        resolveResume(result);
                        savePagingState();
                        return false;
                    }
                }
                if (partitionRegularRows == 0 && partitionHasStatic) {
                    keepPrevious();
                    rememberInChunk(token, keyOffset, keyLength, -1, 0);
                }
            }
            return result.limitReached();
        }

        private void setCurrentKey(long token, byte[] src, int offset, int length) {
            if (currentKey.length < length) {
                currentKey = new byte[Math.max(length, currentKey.length * 2)];
            }
            System.arraycopy(src, offset, currentKey, 0, length);
            currentKeyLength = length;
            currentToken = token;
            hasCurrentKey = true;
        }

        /** Remembers a resume point within the chunk being processed (offsets; copied by resolveResume). */
        void rememberInChunk(long token, int keyOffset, int keyLength, int clusteringOffset, int clusteringLength) {
            resumeSet = true;
            resumePending = true;
            resumeToken = token;
            pendingKeyOffset = keyOffset;
            pendingKeyLength = keyLength;
            pendingClusteringOffset = clusteringOffset;
            pendingClusteringLength = clusteringLength;
        }

        /** Keeps the resume point as it is before the current row moves it (GROUP BY pages end before a row). */
        void keepPrevious() {
            prevResumeSet = resumeSet;
            prevResumePending = resumePending;
            prevResumeToken = resumeToken;
            prevKeyOffset = pendingKeyOffset;
            prevKeyLength = pendingKeyLength;
            prevClusteringOffset = pendingClusteringOffset;
            prevClusteringLength = pendingClusteringLength;
            prevResumeKey = resumeKey;
            prevResumeClustering = resumeClustering;
        }

        /** Moves the resume point back to before the current row: the next page starts with it. */
        void restorePrevious() {
            resumeSet = prevResumeSet;
            resumePending = prevResumePending;
            resumeToken = prevResumeToken;
            pendingKeyOffset = prevKeyOffset;
            pendingKeyLength = prevKeyLength;
            pendingClusteringOffset = prevClusteringOffset;
            pendingClusteringLength = prevClusteringLength;
            resumeKey = prevResumeKey;
            resumeClustering = prevResumeClustering;
        }

        /** Turns a resume point remembered in the chunk into copies (once per chunk, not per row). */
        void resolveResume(ReadResult chunk) {
            if (prevResumePending) {
                byte[] a = chunk.cursor().array();
                prevResumePending = false;
                prevResumeKey = Arrays.copyOfRange(a, prevKeyOffset, prevKeyOffset + prevKeyLength);
                prevResumeClustering = prevClusteringOffset < 0 ? null
                        : Arrays.copyOfRange(a, prevClusteringOffset, prevClusteringOffset + prevClusteringLength);
            }
            if (!resumePending) {
                return;
            }
            resumePending = false;
            byte[] a = chunk.cursor().array();
            resumeKey = Arrays.copyOfRange(a, pendingKeyOffset, pendingKeyOffset + pendingKeyLength);
            resumeClustering = pendingClusteringOffset < 0 ? null
                    : Arrays.copyOfRange(a, pendingClusteringOffset, pendingClusteringOffset + pendingClusteringLength);
        }

        void remember(long token, byte[] key, byte[] clustering) {
            resumeSet = true;
            resumePending = false;
            resumeToken = token;
            resumeKey = key;
            resumeClustering = clustering;
        }

        /**
         * Gives the last chunk's memory back to the storage engine, and the RowData to the statement; called once the
         * execution is over and nothing reads either any more.
         */
        void releaseChunks() {
            if (previousChunk != null) {
                previousChunk.release();
                previousChunk = null;
            }
            for (ReadResult r : heldChunks) {
                r.release();
            }
            heldChunks.clear();
            row.detach();
            spareRow.set(row);
        }

        /** At the end of a partition: a partition with only static data shows as one row. */
        void closePartition() {
            if (hasCurrentKey && partitionRegularRows == 0 && partitionHasStatic && staticOnlyRows
                    && partitionEmitted < perPartitionLimit && !pageFull()) {
                row.asStaticOnlyRow();
                if (Filters.matches(filters, row, bind, filterValues)) {
                    emit();
                    if (groupPageFull) {
                        // this static-only row starts the next page; a resume point still in the chunk is saved by
                        // the caller, which has the chunk
                        if (!resumePending) {
                            savePagingState();
                        }
                        partitionHasStatic = false;
                        partitionRegularRows = 0;
                        return;
                    }
                    partitionEmitted++;
                    remember(currentToken, Arrays.copyOf(currentKey, currentKeyLength), null);
                    // the last partition of an IN list ends the result: no further (empty) page, as in Cassandra
                    if (pageFull() && !closingLastNamed()) {
                        savePagingState();
                    }
                }
            } else if (distinct && hasCurrentKey && partitionEmitted == 0 && partitionHasStatic && !pageFull()
                    && (filters.isEmpty() || Filters.matches(filters, row, bind, filterValues))) {
                emit();
                partitionEmitted++;
                remember(currentToken, Arrays.copyOf(currentKey, currentKeyLength), null);
                if (pageFull()) {
                    savePagingState();
                }
            }
            partitionHasStatic = false;
            partitionRegularRows = 0;
        }

        void emit() {
            if (aggregate) {
                if (groupByColumns > 0) {
                    boolean newGroup = groupKey == null;
                    ByteBuffer floored = groupFunction == null ? null
                            : groupFunction.apply(row.values[groupByColumns - 1], bind);
                    for (int i = 0; i < groupByColumns && !newGroup; i++) {
                        newGroup = groupFunction != null && i == groupByColumns - 1
                                ? !java.util.Objects.equals(floored, groupKey[i])
                                : !row.valueEquals(i, groupKey[i]);
                    }
                    if (newGroup) {
                        if (groupStarted) {
                            writeGroup();
                            selection.resetAggregates();
                            groupStarted = false;
                            groupsWritten++;
                            groupsInPartition++;
                            if (groupsWritten >= groupPageSize && groupsWritten < groupLimit) {
                                // the page is full: this row, the first of the next group, starts the next page
                                groupPageFull = true;
                                restorePrevious();
                                return;
                            }
                        }
                        if (!java.util.Objects.equals(row.partitionKey, groupPartition)) {
                            groupPartition = RowData.copy(row.partitionKey); // row values are views of their row
                            groupsInPartition = 0;
                        }
                        ByteBuffer[] gk = new ByteBuffer[groupByColumns];
                        for (int i = 0; i < groupByColumns; i++) {
                            gk[i] = groupFunction != null && i == groupByColumns - 1 ? floored : row.copyValue(i);
                        }
                        groupKey = gk;
                        skippingGroup = groupsInPartition >= groupsPerPartitionLimit;
                        if (groupsWritten >= groupLimit) {
                            skippingGroup = true;
                            remaining = 0; // stops the read
                        }
                    }
                    if (skippingGroup) {
                        return;
                    }
                    if (sortBuffer != null && !groupStarted) {
                        groupClustering = orderKey(); // the group's place in ORDER BY: its first row's
                    }
                }
                selection.accumulate(row, bind, firstRow, !groupStarted);
                groupStarted = true;
                return;
            }
            if (sortBuffer != null) {
                List<ByteBuffer> values = new ArrayList<>();
                captureOutputs(values);
                sortBuffer.add(new Object[]{orderKey(), values});
                emitted++;
                return;
            }
            selection.write(row, bind, writer);
            emitted++;
            remaining--;
        }

        /**
         * The current row's place in ORDER BY across partitions: its values of the ordered clustering columns only, so
         * that rows equal in them keep the order they were read in (the sort is stable), as Cassandra orders them.
         */
        private byte[] orderKey() {
            if (row.clusteringOffset() < 0) {
                return ClusteringCodec.STATIC_ROW;
            }
            int pk = table.partitionKey().size();
            return ClusteringCodec.encodePrefix(table, Arrays.copyOfRange(row.values, pk, pk + orderByPrefix),
                    orderByPrefix);
        }

        /** Writes the group just completed, or keeps it for ORDER BY across partitions (see finishAggregates). */
        private void writeGroup() {
            if (sortBuffer == null) {
                selection.writeAggregate(bind, firstRow, writer);
                return;
            }
            sortBuffer.add(new Object[]{groupClustering, selection.aggregateValues(bind, firstRow)});
        }

        private void captureOutputs(List<ByteBuffer> sink) {
            ByteBuffer[] vals = new ByteBuffer[selection.size()];
            selection.accumulate(row, bind, vals, true);
            sink.addAll(Arrays.asList(vals));
        }

        void savePagingState() {
            if (groupPageFull) {
                int rip = groupsPerPartitionLimit == Integer.MAX_VALUE ? Integer.MAX_VALUE
                        : groupsPerPartitionLimit - groupsInPartition;
                pagingState = new PagingState(groupLimit - groupsWritten, keys == null ? -1 : partitionIndex,
                        resumeToken, resumeKey == null ? new byte[0] : resumeKey, resumeClustering, rip).encode();
                return;
            }
            if (aggregate || pageSize == Integer.MAX_VALUE) {
                return;
            }
            int rip = perPartitionLimit == Integer.MAX_VALUE ? Integer.MAX_VALUE : perPartitionLimit - partitionEmitted;
            if (remaining <= 0 || lastNamedPartitionDone()) {
                return;
            }
            pagingState = new PagingState(remaining, keys == null ? -1 : partitionIndex, resumeToken, resumeKey,
                    resumeClustering, rip).encode();
        }

        /**
         * Whether the page ends in the last partition named by the query (a key or the last of an IN list) and that
         * partition has nothing more to give: its PER PARTITION LIMIT (DISTINCT's one row) is reached, or the table
         * has no clustering columns (one row per partition). Cassandra's single-partition pager then knows it is
         * exhausted and hands no paging state back, so no final empty page follows.
         */
        private boolean lastNamedPartitionDone() {
            if (!closingLastNamed()) {
                return false;
            }
            return partitionEmitted >= perPartitionLimit || table.clustering().isEmpty();
        }

        /**
         * Whether the current partition is the last one the query names (its key or the last of its IN list). Not
         * partitionIndex alone: a static-only partition's row is emitted when the next partition's read has begun.
         */
        private boolean closingLastNamed() {
            if (keys == null || keys.isEmpty() || !hasCurrentKey) {
                return false;
            }
            Restrictions.PartitionKey last = keys.get(keys.size() - 1);
            ByteBuffer k = last.key();
            return last.token() == currentToken && k.remaining() == currentKeyLength
                    && Arrays.equals(currentKey, 0, currentKeyLength, Values.bytes(k), 0, currentKeyLength);
        }

        void finishAggregates() {
            if (aggregate) {
                if (groupByColumns > 0) {
                    if (groupStarted && groupsWritten < groupLimit) {
                        writeGroup();
                        groupsWritten++;
                        groupsInPartition++;
                        if (groupsWritten >= groupPageSize && groupsWritten < groupLimit) {
                            // a full page: Cassandra hands a paging state back, and the next page is empty
                            groupPageFull = true;
                            savePagingState();
                        }
                    }
                } else {
                    selection.writeAggregate(bind, firstRow, writer);
                }
            }
            if (sortBuffer != null) {
                sortBuffer.sort((a, b) -> {
                    int c = Arrays.compareUnsigned((byte[]) a[0], (byte[]) b[0]);
                    return reversed ? -c : c;
                });
                if (sortBuffer.size() > sortLimit) {
                    sortBuffer.subList(sortLimit, sortBuffer.size()).clear();
                }
                for (Object[] r : sortBuffer) {
                    @SuppressWarnings("unchecked")
                    List<ByteBuffer> values = (List<ByteBuffer>) r[1];
                    for (ByteBuffer v : values) {
                        if (v == null) {
                            writer.nullValue();
                        } else {
                            writer.value(v);
                        }
                    }
                }
            }
        }

        /** Virtual tables: every row is materialized; restrictions apply as filters. */
        void virtualRows() {
            List<ByteBuffer[]> rows = virtual.rows(schema.get(), node.get());
            List<Restrictions.PartitionKey> wantedKeys = restrictions.hasPartitionKeys()
                    ? restrictions.partitionKeys(bind) : null;
            List<ReadCommand.Slice> wantedSlices = restrictions.slices(bind);
            ReadCommand.KeyBound ts = restrictions.tokenStart(bind);
            ReadCommand.KeyBound te = restrictions.tokenEnd(bind);
            int pkCount = table.partitionKey().size();
            int skip = resumeSet ? Math.max(0, partitionIndex) : 0;
            int index = 0;
            ByteBuffer lastKey = null;
            for (ByteBuffer[] r : rows) {
                index++;
                if (index <= skip) {
                    continue;
                }
                ByteBuffer[] pk = Arrays.copyOfRange(r, 0, pkCount);
                ByteBuffer key = PartitionKeyCodec.compose(pk);
                long token = Murmur3.token(key);
                if (wantedKeys != null && wantedKeys.stream().noneMatch(k -> k.key().equals(key))) {
                    continue;
                }
                if (ts != null && (ts.inclusive() ? token < ts.token() : token <= ts.token())) {
                    continue;
                }
                if (te != null && (te.inclusive() ? token > te.token() : token >= te.token())) {
                    continue;
                }
                if (!wantedSlices.isEmpty() && !table.clustering().isEmpty()) {
                    byte[] ck = ClusteringCodec.encode(table, Arrays.copyOfRange(r, pkCount,
                            pkCount + table.clustering().size()));
                    boolean in = false;
                    for (ReadCommand.Slice sl : wantedSlices) {
                        in |= (sl.start() == null || Arrays.compareUnsigned(ck, sl.start()) >= 0)
                                && (sl.end() == null || Arrays.compareUnsigned(ck, sl.end()) < 0);
                    }
                    if (!in) {
                        continue;
                    }
                }
                row.token = token;
                row.loadValues(r);
                if (!key.equals(lastKey)) {
                    partitionEmitted = 0;
                    lastKey = key;
                }
                if (partitionEmitted >= perPartitionLimit || !Filters.matches(filters, row, bind, filterValues)) {
                    continue;
                }
                emit();
                partitionEmitted++;
                if (pageFull()) {
                    if (!aggregate && pageSize != Integer.MAX_VALUE && remaining > 0 && index < rows.size()) {
                        pagingState = new PagingState(remaining, index, 0, new byte[0], null, Integer.MAX_VALUE)
                                .encode();
                    }
                    return;
                }
            }
        }
    }

    /** For the metrics: a read of named partitions (not a scan), whether ALLOW FILTERING, whether reversed. */
    public boolean singlePartitionRead() {
        return virtual == null && restrictions.hasPartitionKeys();
    }

    public boolean allowFiltering() {
        return allowFiltering;
    }

    public boolean reversedOrder() {
        return reversed;
    }
}
