package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.OrderedCodec;
import io.charybdis.node.cql.keys.WrittenClustering;
import io.charybdis.node.cql.syntax.Assignment;
import io.charybdis.node.cql.syntax.Attributes;
import io.charybdis.node.cql.syntax.Condition;
import io.charybdis.node.cql.syntax.DeleteStatement;
import io.charybdis.node.cql.syntax.InsertStatement;
import io.charybdis.node.cql.syntax.ModificationStatement;
import io.charybdis.node.cql.syntax.Operator;
import io.charybdis.node.cql.syntax.Relation;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.cql.syntax.UpdateStatement;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.cql.values.BoundValue;
import io.charybdis.node.cql.values.Functions;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.values.TimeUuids;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.CompactStorage;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.types.DataType;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.counters.CounterShards;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.read.ReadCommand;
import io.charybdis.storage.read.ReadResult;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * INSERT, UPDATE and DELETE analyzed against a table. Execution turns the bound values into one storage
 * {@link Mutation} per partition (cells with timestamps, TTLs and tombstones by Cassandra's rules), or, for
 * lightweight transactions, a read-then-conditional-write on the partition's shard.
 */
public final class ModificationExecution implements CqlStatement {
    /** Maximum TTL Cassandra accepts (20 years). */
    static final int MAX_TTL = 630_720_000;
    private static final AtomicLong PREPEND_SEQ = new AtomicLong();
    /** Builders are reusable and {@link MutationBuilder#build()} copies out, so one per thread serves every write. */
    private static final ThreadLocal<MutationBuilder> BUILDER = ThreadLocal.withInitial(MutationBuilder::new);
    private static final long PREPEND_EPOCH_MILLIS = 946_684_800_000L; // 2000-01-01

    enum Kind { INSERT, UPDATE, DELETE }

    /** One change to a column of a row. */
    private record Op(ColumnMetadata column, OpKind kind, BoundValue value, BoundValue key, int field) {
    }

    private enum OpKind { COUNTER_ADD, SET, APPEND, PREPEND, REMOVE, SET_KEY, SET_INDEX, SET_FIELD, DELETE, DELETE_KEY,
        DELETE_INDEX, DELETE_FIELD }

    private final Kind kind;
    private final TableMetadata table;
    private final Coordinator coordinator;
    private final Restrictions restrictions;
    private final List<Op> ops = new ArrayList<>();
    private final BoundValue timestamp;
    private final BoundValue ttl;
    private final boolean ifNotExists;
    private final boolean ifExists;
    private final List<BoundCondition> conditions = new ArrayList<>();
    private final List<BindVariable> variables;
    private final List<Integer> pkIndexes;
    /** ScyllaDB's USING TIMEOUT, null without one. */
    private final RequestTimeout requestTimeout;
    /**
     * An INSERT into a compound dense COMPACT STORAGE table without its last clustering columns: as Cassandra, the
     * row is stored under the clustering prefix given (its key the prefix's encoding; the rest reads as null).
     */
    private boolean prefixRow;
    /** A DELETE of specific columns over a clustering range: refused at execution, as Cassandra does. */
    private final boolean columnRangeDeletion;
    private final boolean needsRead;
    /** Whether list operations read the list: then each row keeps a view of its lists (see ListViews). */
    private final boolean readsLists;
    private final boolean staticOnly;
    private final ResultMetadata casMetadata;

    /**
     * The JSON document of an INSERT JSON, parsed once per execution, and the value it gives each column: absent
     * columns are null, or unset with DEFAULT UNSET.
     */
    private static final class JsonDocument {
        private final BoundValue doc;
        private final TableMetadata table;
        private final ThreadLocal<Object[]> cache = new ThreadLocal<>();

        JsonDocument(BoundValue doc, TableMetadata table) {
            this.doc = doc;
            this.table = table;
        }

        @SuppressWarnings("unchecked")
        private java.util.Map<String, Object> parsed(BindContext ctx) {
            Object[] c = cache.get();
            if (c != null && c[0] == ctx) {
                return (java.util.Map<String, Object>) c[1];
            }
            ByteBuffer text = doc.bind(ctx);
            if (text == null || text == Values.UNSET) {
                throw new InvalidRequestException("Got null for INSERT JSON values");
            }
            Object json;
            try {
                json = io.charybdis.node.cql.values.Json.parse(Values.toText(text));
            } catch (io.charybdis.node.cql.values.Json.ParseException e) {
                throw new InvalidRequestException("Could not decode JSON string as a map: " + e.detail());
            }
            if (json == null) {
                throw new InvalidRequestException("Got null for INSERT JSON values");
            }
            if (!(json instanceof java.util.Map<?, ?> m)) {
                throw new InvalidRequestException("Could not decode JSON string as a map: not a JSON object: "
                        + Values.toText(text));
            }
            java.util.Map<String, Object> byColumn = new java.util.HashMap<>();
            for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
                String key = (String) e.getKey();
                String name = key.startsWith("\"") && key.endsWith("\"") && key.length() > 1
                        ? key.substring(1, key.length() - 1).replace("\"\"", "\"") : key.toLowerCase(java.util.Locale.ROOT);
                if (table.column(name) == null) {
                    throw new InvalidRequestException("JSON values map contains unrecognized column: " + name);
                }
                byColumn.put(name, e.getValue());
            }
            cache.set(new Object[]{ctx, byColumn});
            return byColumn;
        }

        BoundValue column(ColumnMetadata c, boolean defaultUnset) {
            return ctx -> {
                java.util.Map<String, Object> m = parsed(ctx);
                if (!m.containsKey(c.name())) {
                    return defaultUnset ? Values.UNSET : null;
                }
                return io.charybdis.node.cql.values.Json.toValue(m.get(c.name()), c.type(), c.name());
            };
        }
    }

    public boolean isCounterUpdate() {
        for (Op op : ops) {
            if (op.kind() == OpKind.COUNTER_ADD) {
                return true;
            }
        }
        return false;
    }

    /**
     * Counter updates: per partition, a delta mutation (one path-less cell per counter column holding the 8-byte
     * delta) that the coordinator sends to the replica leading the update, which adds it to its own shard of each
     * counter ({@code cluster.counters.CounterShards}).
     */
    CompletableFuture<Void> executeCounter(QueryContext ctx) {
        BindContext bind = ctx.bind();
        java.util.TreeMap<Integer, Long> deltas = new java.util.TreeMap<>(); // per column: the statement's ops summed
        // static counters updated along with a row's: their deltas go to the partition's static row
        java.util.TreeMap<Integer, Long> staticDeltas = new java.util.TreeMap<>();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.kind() != OpKind.COUNTER_ADD) {
                throw new InvalidRequestException("Cannot mix counter and non counter updates");
            }
            ByteBuffer v = op.value().bind(bind);
            if (v == null) {
                throw new InvalidRequestException("Invalid null value for counter increment/decrement");
            }
            if (v != Values.UNSET && v.remaining() != 8) {
                throw new InvalidRequestException("Invalid empty value for counter increment");
            }
            long delta = v == Values.UNSET ? 0 : v.getLong(v.position()) * op.field();
            (op.column().isStatic() && !staticOnly ? staticDeltas : deltas).merge(op.column().cellId(), delta,
                    Long::sum);
        }
        List<byte[]> clusterings = new ArrayList<>();
        java.util.IdentityHashMap<byte[], ByteBuffer> written = null;
        if (staticOnly || table.clustering().isEmpty()) {
            clusterings.add(table.clustering().isEmpty() ? ClusteringCodec.NO_CLUSTERING_ROW : ClusteringCodec.STATIC_ROW);
        } else {
            for (ByteBuffer[] ck : restrictions.clusterings(bind)) {
                Restrictions.checkKeyLength(ck);
                byte[] key = ClusteringCodec.encode(table, ck);
                clusterings.add(key);
                written = keepWritten(written, key, ck);
            }
            clusterings.sort(Arrays::compareUnsigned);
        }
        List<CompletableFuture<?>> writes = new ArrayList<>();
        TableId id = new TableId(table.id());
        MutationBuilder b = new MutationBuilder();
        for (Restrictions.PartitionKey pk : restrictions.partitionKeys(bind)) {
            b.start(id, pk.token(), pk.key());
            if (!staticDeltas.isEmpty()) {
                b.beginRow(ClusteringCodec.STATIC_ROW);
                for (var d : staticDeltas.entrySet()) {
                    b.cell(d.getKey(), ctx.timestamp(), 0, 0, Values.bigint(d.getValue()));
                }
                b.endRow();
            }
            byte[] previous = null;
            for (byte[] ck : clusterings) {
                if (previous != null && Arrays.equals(previous, ck)) {
                    continue;
                }
                previous = ck;
                b.beginRow(ck);
                if (written != null) {
                    b.writtenClustering(ctx.timestamp(), written.get(ck));
                }
                for (var d : deltas.entrySet()) {
                    b.cell(d.getKey(), ctx.timestamp(), 0, 0, Values.bigint(d.getValue()));
                }
                b.endRow();
            }
            writes.add(coordinator.counterWrite(b.build(), ctx.consistency(), ctx.home()));
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0]));
    }

    private record BoundCondition(ColumnMetadata column, Operator op, BoundValue value, List<BoundValue> in,
                                  BoundValue element, int field) {
    }

    public ModificationExecution(ModificationStatement stmt, TableMetadata table, Coordinator coordinator, int markers,
                                 Functions functions) {
        this.table = table;
        this.coordinator = coordinator;
        if (table.isVirtual()) {
            throw new InvalidRequestException("Modification to table " + table + " is not allowed: it is a system "
                    + "table");
        }
        if (table.isCounterTable()) {
            if (stmt instanceof InsertStatement || stmt instanceof io.charybdis.node.cql.syntax.InsertJsonStatement) {
                throw new InvalidRequestException("INSERT statements are not allowed on counter tables, use UPDATE "
                        + "instead");
            }
            Attributes a = stmt.attributes() == null ? Attributes.NONE : stmt.attributes();
            if (a.ttl() != null) {
                throw new InvalidRequestException("Cannot provide custom TTL for counter updates");
            }
            if (a.timestamp() != null && stmt instanceof UpdateStatement) {
                throw new InvalidRequestException("Cannot provide custom timestamp for counter updates");
            }
        }
        TermBinder binder = new TermBinder(table.keyspace(), table.name(), markers, functions)
                .withPartitionKey(table.partitionKey().stream().map(c -> c.type()).toList());
        Attributes attrs = stmt.attributes() == null ? Attributes.NONE : stmt.attributes();
        this.timestamp = attrs.timestamp() == null ? null : binder.bind(attrs.timestamp(), "[timestamp]",
                io.charybdis.protocol.types.NativeType.BIGINT);
        this.ttl = attrs.ttl() == null ? null : binder.bind(attrs.ttl(), "[ttl]", io.charybdis.protocol.types.NativeType.INT);
        this.requestTimeout = RequestTimeout.of(attrs.timeout(), binder);
        boolean insertsStaticRow = false;
        switch (stmt) {
            case InsertStatement ins -> {
                kind = Kind.INSERT;
                if (ins.columns().size() != ins.values().size()) {
                    throw new InvalidRequestException("Unmatched column names/values");
                }
                List<Relation> where = new ArrayList<>();
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (int i = 0; i < ins.columns().size(); i++) {
                    String name = ins.columns().get(i);
                    ColumnMetadata c = column(name);
                    if (!seen.add(name)) {
                        throw new InvalidRequestException("The column names contains duplicates");
                    }
                    Term value = ins.values().get(i);
                    if (c.isPrimaryKey()) {
                        where.add(new Relation.SingleColumn(name, Operator.EQ, value));
                    } else {
                        ops.add(new Op(c, OpKind.SET, binder.bind(value, c.name(), c.type()), null, -1));
                    }
                }
                for (ColumnMetadata c : table.partitionKey()) {
                    if (!seen.contains(c.name())) {
                        throw new InvalidRequestException("Some partition key parts are missing: " + c.name());
                    }
                }
                boolean onlyStaticValues = !ops.isEmpty();
                for (Op op : ops) {
                    onlyStaticValues &= op.column().isStatic();
                }
                String firstMissing = null;
                for (ColumnMetadata c : table.clustering()) {
                    if (prefixRow && seen.contains(c.name())) {
                        throw new InvalidRequestException("PRIMARY KEY column \"" + c.name() + "\" cannot be "
                                + "restricted as preceding column \"" + firstMissing + "\" is not restricted");
                    }
                    if (!seen.contains(c.name()) && !prefixRow && table.compactStorage() == CompactStorage.DENSE
                            && !onlyStaticValues) {
                        // as Cassandra: a dense compact table's clustering columns may be given as a prefix only
                        for (ColumnMetadata later : table.clustering().subList(c.position() + 1,
                                table.clustering().size())) {
                            if (seen.contains(later.name())) {
                                throw new InvalidRequestException("PRIMARY KEY column \"" + later.name() + "\" cannot "
                                        + "be restricted as preceding column \"" + c.name() + "\" is not restricted");
                            }
                        }
                    }
                    if (!seen.contains(c.name())) {
                        if (prefixRow || c.position() > 0
                                && seen.contains(table.clustering().get(c.position() - 1).name())
                                && table.compactStorage() == CompactStorage.DENSE && !onlyStaticValues) {
                            // as Cassandra: the row is stored under the clustering prefix given, its other
                            // clustering values are null
                            if (!prefixRow) {
                                firstMissing = c.name();
                            }
                            prefixRow = true;
                            continue;
                        }
                        // a row of static columns alone needs no clustering
                        if (!onlyStaticValues) {
                            // as Cassandra: every clustering column left out, in order
                            throw new InvalidRequestException("Some clustering keys are missing: "
                                    + String.join(", ", table.clustering().stream().map(ColumnMetadata::name)
                                    .filter(n -> !seen.contains(n)).toList()));
                        }
                        insertsStaticRow = true;
                    }
                }
                if (ops.isEmpty() && table.compactStorage() == CompactStorage.STATIC) {
                    // the hidden clustering column a static compact table's rows are keyed by in Cassandra
                    throw new InvalidRequestException("Some clustering keys are missing: "
                            + CompactStorage.hiddenClusteringName(table));
                }
                if (ops.isEmpty() && table.compactStorage() == CompactStorage.DENSE
                        && !table.regularAndStatic().isEmpty()) {
                    throw new InvalidRequestException("Column " + table.regularAndStatic().get(0).name()
                            + " is mandatory for this COMPACT STORAGE table");
                }
                restrictions = new Restrictions(table, where, binder, false, false);
                ifNotExists = ins.ifNotExists();
                ifExists = false;
            }
            case UpdateStatement up -> {
                kind = Kind.UPDATE;
                List<Assignment> seen = new ArrayList<>();
                for (Assignment a : up.assignments()) {
                    for (Assignment prev : seen) {
                        // as Cassandra's parser: setting a whole column goes with no other operation on it
                        if (prev.column().equals(a.column())
                                && (prev instanceof Assignment.SetValue || a instanceof Assignment.SetValue)) {
                            throw new io.charybdis.node.cql.exceptions.SyntaxException("Multiple incompatible "
                                    + "setting of column " + a.column());
                        }
                    }
                    seen.add(a);
                    ops.add(assignment(a, binder));
                }
                restrictions = new Restrictions(table, up.where(), binder, false, false, "UPDATE");
                ifNotExists = false;
                ifExists = up.ifExists();
                bindConditions(up.conditions(), binder);
            }
            case DeleteStatement del -> {
                kind = Kind.DELETE;
                for (DeleteStatement.Target t : del.targets()) {
                    ops.add(deletion(t, binder));
                }
                if (attrs.ttl() != null) {
                    throw new InvalidRequestException("TTL attribute is not allowed for deletes");
                }
                restrictions = new Restrictions(table, del.where(), binder, false, false, "DELETE");
                ifNotExists = false;
                ifExists = del.ifExists();
                bindConditions(del.conditions(), binder);
                if ((ifExists || !conditions.isEmpty()) && restrictions.hasPartitionKeys()
                        && !table.clustering().isEmpty() && !restrictions.selectsFullClusterings()) {
                    // as Cassandra: a conditional deletion of part of a partition touches its static row only
                    boolean regularTargets = ops.isEmpty();
                    for (Op op : ops) {
                        regularTargets |= !op.column().isStatic();
                    }
                    if (regularTargets) {
                        throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY columns "
                                + "with equality relations in order to delete non static columns");
                    }
                    for (BoundCondition cond : conditions) {
                        if (!cond.column().isStatic()) {
                            throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY "
                                    + "columns with equality relations in order to use IF condition on non static "
                                    + "columns");
                        }
                    }
                }
            }
            case io.charybdis.node.cql.syntax.InsertJsonStatement ij -> {
                kind = Kind.INSERT;
                if (table.compactStorage() == CompactStorage.STATIC) {
                    // Cassandra 5.0.6 looks the hidden clustering column up among the declared ones
                    throw new InvalidRequestException("Undefined column name "
                            + CompactStorage.hiddenClusteringName(table) + " in table " + table);
                }
                BoundValue doc = binder.bind(ij.json(), "[json]", io.charybdis.protocol.types.NativeType.TEXT);
                JsonDocument json = new JsonDocument(doc, table);
                for (ColumnMetadata c : table.regularAndStatic()) {
                    ops.add(new Op(c, OpKind.SET, json.column(c, ij.defaultUnset()), null, -1));
                }
                restrictions = new Restrictions(table, c -> json.column(c, false));
                ifNotExists = ij.ifNotExists();
                ifExists = false;
            }
        }
        if (!restrictions.hasPartitionKeys()) {
            String missing = table.partitionKey().get(0).name();
            throw new InvalidRequestException("Some partition key parts are missing: " + missing);
        }
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (Restrictions.Filter f : restrictions.filters()) {
            // (a clustering column after a gap, left by an UPDATE's restrictions to the checks below)
            boolean keyRelation = f.op() == Operator.EQ || f.op() == Operator.IN || f.op() == Operator.LT
                    || f.op() == Operator.LTE || f.op() == Operator.GT || f.op() == Operator.GTE;
            if (f.column().kind() != ColumnMetadata.Kind.CLUSTERING || !keyRelation) {
                names.add(f.column().name());
            }
        }
        if (!names.isEmpty()) {
            throw new InvalidRequestException("Non PRIMARY KEY columns found in where clause: "
                    + String.join(", ", names) + " ");
        }
        boolean onlyStatic = !ops.isEmpty();
        for (Op op : ops) {
            onlyStatic &= op.column().isStatic();
        }
        for (BoundCondition cond : conditions) {
            // as Cassandra: a condition on a regular column makes the statement about a row, not the static row
            onlyStatic &= cond.column().isStatic();
        }
        this.staticOnly = onlyStatic && (kind != Kind.INSERT || insertsStaticRow);
        if (kind != Kind.INSERT && !table.clustering().isEmpty() && !restrictions.hasClusteringRestrictions()) {
            for (BoundCondition cond : conditions) {
                if (!cond.column().isStatic()) {
                    // a condition on a row's column needs the row: the full clustering
                    throw new InvalidRequestException("Some clustering keys are missing: "
                            + unrestrictedClustering());
                }
            }
        }
        if (staticOnly && kind != Kind.INSERT && restrictions.hasClusteringRestrictions()) {
            throw new InvalidRequestException("Invalid restrictions on clustering columns since the " + kind
                    + " statement modifies only static columns");
        }
        if (kind == Kind.UPDATE && !staticOnly && restrictions.hasSlice()) {
            throw new InvalidRequestException("Slice restrictions are not supported on the clustering columns in "
                    + "UPDATE statements");
        }
        if (kind == Kind.UPDATE && !staticOnly && table.compactStorage() == CompactStorage.DENSE
                && !table.clustering().isEmpty() && !restrictions.selectsFullClusterings()
                && restrictions.clusteringEqPrefixLength() > 0) {
            // as Cassandra: a compound dense COMPACT STORAGE table's row under the clustering prefix given
            prefixRow = true;
        }
        if (kind != Kind.DELETE && !staticOnly && !prefixRow && !table.clustering().isEmpty()
                && !restrictions.selectsFullClusterings()) {
            // as Cassandra: every clustering column after the prefix restricted by =
            throw new InvalidRequestException("Some clustering keys are missing: " + unrestrictedClustering());
        }
        // Cassandra prepares such a statement and refuses it when executed
        this.columnRangeDeletion = kind == Kind.DELETE && !ops.isEmpty() && !staticOnly
                && !table.clustering().isEmpty() && !restrictions.selectsFullClusterings();
        boolean read = false;
        for (Op op : ops) {
            read |= op.kind() == OpKind.SET_INDEX || op.kind() == OpKind.DELETE_INDEX
                    || (op.kind() == OpKind.REMOVE && Types.kind(op.column().type()) == TypeKind.LIST);
        }
        this.needsRead = read;
        this.readsLists = read;
        this.variables = binder.variables();
        this.pkIndexes = SelectExecution.pkBindIndexes(table, binder.receivers());
        if (conditions.stream().anyMatch(c -> Types.isCounter(c.column().type()))) {
            throw new InvalidRequestException("Conditions on counters are not supported");
        }
        if (isConditional() && table.isCounterTable()) {
            throw new InvalidRequestException("Conditional updates are not supported on counter tables");
        }
        if (isConditional() && timestamp != null) {
            throw new InvalidRequestException("Cannot provide custom timestamp for conditional updates");
        }
        // a conditional statement's columns depend on its outcome: Cassandra prepares it with none, and each
        // result carries its own
        this.casMetadata = ResultMetadata.EMPTY;
    }

    private boolean isConditional() {
        return ifNotExists || ifExists || !conditions.isEmpty();
    }

    private ColumnMetadata column(String name) {
        ColumnMetadata c = table.column(name);
        if (c == null) {
            throw new InvalidRequestException("Undefined column name " + name + " in table " + table);
        }
        return c;
    }

    private ColumnMetadata nonKey(String name) {
        ColumnMetadata c = column(name);
        if (c.isPrimaryKey()) {
            throw new InvalidRequestException("PRIMARY KEY part " + name + " found in SET part");
        }
        return c;
    }

    private Op assignment(Assignment a, TermBinder binder) {
        ColumnMetadata c = nonKey(a.column());
        TypeKind k = Types.kind(c.type());
        switch (a) {
            case Assignment.SetValue sv -> {
                if (Types.isCounter(c.type())) {
                    binder.bind(sv.value(), c.name(), c.type()); // as Cassandra, the value is prepared first
                    throw new InvalidRequestException("Cannot set the value of counter column " + c.name()
                            + " (counters can only be incremented/decremented, not set)");
                }
                return new Op(c, OpKind.SET, binder.bind(sv.value(), c.name(), c.type()), null, -1);
            }
            case Assignment.Add add -> {
                if (Types.isCounter(c.type())) {
                    return new Op(c, OpKind.COUNTER_ADD, binder.bind(add.value(), c.name(), c.type()), null, 1);
                }
                if (!c.isMultiCell()) {
                    throw new InvalidRequestException("Invalid operation (" + c.name() + " = " + c.name() + " + "
                            + add.value().toCql() + ") for " + (k.isCollection() ? "frozen collection column "
                            : k == TypeKind.TUPLE ? "tuple column " : "non counter column ") + c.name());
                }
                if (k == TypeKind.UDT) {
                    throw new InvalidRequestException("Invalid operation for user type column " + c.name());
                }
                if (k == TypeKind.MAP) {
                    try {
                        return new Op(c, OpKind.APPEND, binder.bind(add.value(), c.name(), c.type()), null, -1);
                    } catch (InvalidRequestException e) {
                        // Cassandra words any map that does not fit the column so
                        throw new InvalidRequestException("Value for a map addition has to be a map, but was: '"
                                + add.value().toCql() + "'");
                    }
                }
                return new Op(c, OpKind.APPEND, binder.bind(add.value(), c.name(), c.type()), null, -1);
            }
            case Assignment.Subtract sub -> {
                if (Types.isCounter(c.type())) {
                    return new Op(c, OpKind.COUNTER_ADD, binder.bind(sub.value(), c.name(), c.type()), null, -1);
                }
                if (!c.isMultiCell()) {
                    throw new InvalidRequestException("Invalid operation (" + c.name() + " = " + c.name() + " - "
                            + sub.value().toCql() + ") for " + (k.isCollection() ? "frozen collection column "
                            : k == TypeKind.TUPLE ? "tuple column " : "non counter column ") + c.name());
                }
                if (k == TypeKind.MAP) {
                    try {
                        return new Op(c, OpKind.REMOVE, binder.bind(sub.value(), c.name(),
                                Types.setOf(Types.keyType(c.type()), false)), null, -1);
                    } catch (InvalidRequestException e) {
                        // as Cassandra, whatever does not fit a set of the map's keys
                        throw new InvalidRequestException("Value for a map substraction has to be a set, but was: '"
                                + sub.value().toCql() + "'");
                    }
                }
                return new Op(c, OpKind.REMOVE, binder.bind(sub.value(), c.name(), c.type()), null, -1);
            }
            case Assignment.Prepend pre -> {
                if (k != TypeKind.LIST || !c.isMultiCell()) {
                    throw new InvalidRequestException("Invalid operation (" + c.name() + " = "
                            + pre.value().toCql() + " + " + c.name() + ") for non list column " + c.name());
                }
                return new Op(c, OpKind.PREPEND, binder.bind(pre.value(), c.name(), c.type()), null, -1);
            }
            case Assignment.SetElement se -> {
                if (k == TypeKind.MAP && c.isMultiCell()) {
                    return new Op(c, OpKind.SET_KEY, binder.bind(se.value(), "value(" + c.name() + ")",
                            Types.valueType(c.type())), binder.bind(se.key(), "key(" + c.name() + ")",
                            Types.keyType(c.type())), -1);
                }
                if (k == TypeKind.LIST && c.isMultiCell()) {
                    return new Op(c, OpKind.SET_INDEX, binder.bind(se.value(), "value(" + c.name() + ")",
                            Types.elementType(c.type())), binder.bind(se.key(), "idx(" + c.name() + ")", io.charybdis.protocol.types.NativeType.INT),
                            -1);
                }
                String what = !k.isCollection() ? "non collection column "
                        : !c.isMultiCell() ? "frozen collection column " : "set column ";
                throw new InvalidRequestException("Invalid operation (" + c.name() + "[" + se.key().toCql() + "] = "
                        + se.value().toCql() + ") for " + what + c.name());
            }
            case Assignment.SetField sf -> {
                if (k != TypeKind.UDT) {
                    throw new InvalidRequestException("Invalid operation (" + c.name() + "." + sf.field() + " = "
                            + sf.value().toCql() + ") for non-UDT column " + c.name());
                }
                if (!c.isMultiCell()) {
                    throw new InvalidRequestException("Invalid operation (" + c.name() + "." + sf.field() + " = "
                            + sf.value().toCql() + ") for frozen UDT column " + c.name());
                }
                int f = Types.fieldNames(c.type()).indexOf(sf.field());
                if (f < 0) {
                    throw new InvalidRequestException("UDT column " + c.name() + " does not have a field named "
                            + sf.field());
                }
                return new Op(c, OpKind.SET_FIELD, binder.bind(sf.value(), c.name() + "." + sf.field(),
                        Types.fieldTypes(c.type()).get(f)), null, f);
            }
        }
    }

    private Op deletion(DeleteStatement.Target t, TermBinder binder) {
        ColumnMetadata c = column(t.column());
        if (c.isPrimaryKey()) {
            throw new InvalidRequestException("Invalid identifier " + c.name() + " for deletion (should not be a "
                    + "PRIMARY KEY part)");
        }
        TypeKind k = Types.kind(c.type());
        switch (t) {
            case DeleteStatement.Target.Column col -> {
                return new Op(c, OpKind.DELETE, null, null, -1);
            }
            case DeleteStatement.Target.Element el -> {
                if (!Types.kind(c.type()).isCollection()) {
                    throw new InvalidRequestException("Invalid deletion operation for non collection column "
                            + c.name());
                }
                if (!c.isMultiCell()) {
                    throw new InvalidRequestException("Invalid deletion operation for frozen collection column "
                            + c.name());
                }
                if (k == TypeKind.MAP) {
                    return new Op(c, OpKind.DELETE_KEY, null, binder.bind(el.element(), "key(" + c.name() + ")",
                            Types.keyType(c.type())), -1);
                }
                if (k == TypeKind.LIST) {
                    return new Op(c, OpKind.DELETE_INDEX, null, binder.bind(el.element(), "idx(" + c.name() + ")",
                            io.charybdis.protocol.types.NativeType.INT), -1);
                }
                if (k == TypeKind.SET) {
                    return new Op(c, OpKind.DELETE_KEY, null, binder.bind(el.element(), c.name(),
                            Types.elementType(c.type())), -1);
                }
                throw new InvalidRequestException("Invalid deletion operation for non collection column " + c.name());
            }
            case DeleteStatement.Target.Field f -> {
                if (k == TypeKind.UDT && !c.isMultiCell()) {
                    throw new InvalidRequestException("Frozen UDT column " + c.name() + " does not support field "
                            + "deletions");
                }
                if (k != TypeKind.UDT) {
                    throw new InvalidRequestException("Invalid deletion operation for non-UDT column " + c.name());
                }
                int idx = Types.fieldNames(c.type()).indexOf(f.field());
                if (idx < 0) {
                    throw new InvalidRequestException("UDT column " + c.name() + " does not have a field named "
                            + f.field());
                }
                return new Op(c, OpKind.DELETE_FIELD, null, null, idx);
            }
        }
    }

    /** The key of {@code c[key]} in a condition: a map's key or a list's index, named as Cassandra names them. */
    private BoundValue elementKey(ColumnMetadata c, Term element, TermBinder binder) {
        TypeKind k = Types.kind(c.type());
        if (k == TypeKind.SET) {
            throw new InvalidRequestException("Invalid element access syntax for set column " + c.name());
        }
        if (k != TypeKind.MAP && k != TypeKind.LIST) {
            throw new InvalidRequestException("Invalid element access syntax for non-collection column "
                    + c.name());
        }
        return k == TypeKind.MAP ? binder.bind(element, "key(" + c.name() + ")", Types.keyType(c.type()))
                : binder.bind(element, "idx(" + c.name() + ")", io.charybdis.protocol.types.NativeType.INT);
    }

    private static DataType elementValueType(ColumnMetadata c) {
        return Types.kind(c.type()) == TypeKind.MAP ? Types.valueType(c.type()) : Types.elementType(c.type());
    }

    /** Cassandra's refusal of a slice condition over values that hold durations (they have no order). */
    private static void checkSliceConditionOnDurations(Operator op, DataType type) {
        boolean slice = op == Operator.LT || op == Operator.LTE || op == Operator.GT || op == Operator.GTE;
        if (!slice || !io.charybdis.node.schema.TypeResolver.referencesDuration(type)) {
            return;
        }
        TypeKind k = Types.kind(type);
        if (k.isCollection()) {
            throw new InvalidRequestException("Slice conditions are not supported on collections containing durations");
        }
        if (k == TypeKind.TUPLE) {
            throw new InvalidRequestException("Slice conditions are not supported on tuples containing durations");
        }
        if (k == TypeKind.UDT) {
            throw new InvalidRequestException("Slice conditions are not supported on UDTs containing durations");
        }
        throw new InvalidRequestException("Slice conditions ( " + op.cql() + " ) are not supported on durations");
    }

    private void bindConditions(List<Condition> conds, TermBinder binder) {
        for (Condition cond : conds) {
            ColumnMetadata c = column(cond.column());
            if (c.isPrimaryKey()) {
                throw new InvalidRequestException("PRIMARY KEY column '" + c.name() + "' cannot have IF conditions");
            }
            switch (cond) {
                case Condition.Simple s when s.op() == Operator.CONTAINS || s.op() == Operator.CONTAINS_KEY -> {
                    TypeKind k = Types.kind(c.type());
                    if (s.op() == Operator.CONTAINS && !k.isCollection()) {
                        throw new InvalidRequestException("Cannot use CONTAINS on non-collection column " + c.name());
                    }
                    if (s.op() == Operator.CONTAINS_KEY && k != TypeKind.MAP) {
                        throw new InvalidRequestException("Cannot use CONTAINS KEY on non-map column " + c.name());
                    }
                    DataType vt = s.op() == Operator.CONTAINS_KEY ? Types.keyType(c.type())
                            : k == TypeKind.MAP ? Types.valueType(c.type()) : Types.elementType(c.type());
                    String receiver = s.op() == Operator.CONTAINS_KEY ? "key(" + c.name() + ")"
                            : "value(" + c.name() + ")";
                    conditions.add(new BoundCondition(c, s.op(), binder.bind(s.value(), receiver, vt), null, null,
                            -1));
                }
                case Condition.Simple s -> {
                    checkSliceConditionOnDurations(s.op(), c.type());
                    conditions.add(new BoundCondition(c, s.op(), binder.bind(s.value(), c.name(), c.type()), null,
                            null, -1));
                }
                case Condition.In in -> {
                    if (in.values() instanceof io.charybdis.node.cql.syntax.InValues.Terms terms) {
                        List<BoundValue> values = new ArrayList<>();
                        for (Term t : terms.terms()) {
                            values.add(binder.bind(t, c.name(), c.type()));
                        }
                        conditions.add(new BoundCondition(c, Operator.IN, null, values, null, -1));
                    } else {
                        // IN ?: one marker for the whole list, its value the condition's "value"
                        BoundValue list = binder.marker(((io.charybdis.node.cql.syntax.InValues.Marker) in.values())
                                .marker(), "in(" + c.name() + ")",
                                new io.charybdis.protocol.types.ListType(c.type(), false));
                        conditions.add(new BoundCondition(c, Operator.IN, list, null, null, -1));
                    }
                }
                case Condition.Element e -> {
                    BoundValue key = elementKey(c, e.element(), binder);
                    DataType vt = elementValueType(c);
                    checkSliceConditionOnDurations(e.op(), vt);
                    conditions.add(new BoundCondition(c, e.op(), binder.bind(e.value(), "value(" + c.name() + ")", vt),
                            null, key, -1));
                }
                case Condition.ElementIn e -> {
                    BoundValue key = elementKey(c, e.element(), binder);
                    DataType vt = elementValueType(c);
                    if (e.values() instanceof io.charybdis.node.cql.syntax.InValues.Terms terms) {
                        List<BoundValue> values = new ArrayList<>();
                        for (Term t : terms.terms()) {
                            values.add(binder.bind(t, "value(" + c.name() + ")", vt));
                        }
                        conditions.add(new BoundCondition(c, Operator.IN, null, values, key, -1));
                    } else {
                        BoundValue list = binder.marker(((io.charybdis.node.cql.syntax.InValues.Marker) e.values())
                                .marker(), "in(value(" + c.name() + "))",
                                new io.charybdis.protocol.types.ListType(vt, false));
                        conditions.add(new BoundCondition(c, Operator.IN, list, null, key, -1));
                    }
                }
                case Condition.Field f -> {
                    int idx = Types.kind(c.type()) == TypeKind.UDT ? Types.fieldNames(c.type()).indexOf(f.field()) : -1;
                    if (idx < 0) {
                        throw new InvalidRequestException("Unknown field " + f.field() + " for column " + c.name());
                    }
                    conditions.add(new BoundCondition(c, f.op(), binder.bind(f.value(), c.name(),
                            Types.fieldTypes(c.type()).get(idx)), null, null, idx));
                }
                case Condition.FieldIn f -> {
                    int idx = Types.kind(c.type()) == TypeKind.UDT ? Types.fieldNames(c.type()).indexOf(f.field()) : -1;
                    if (idx < 0) {
                        throw new InvalidRequestException("Unknown field " + f.field() + " for column " + c.name());
                    }
                    DataType ft = Types.fieldTypes(c.type()).get(idx);
                    if (f.values() instanceof io.charybdis.node.cql.syntax.InValues.Terms terms) {
                        List<BoundValue> values = new ArrayList<>();
                        for (Term t : terms.terms()) {
                            values.add(binder.bind(t, c.name() + "." + f.field(), ft));
                        }
                        conditions.add(new BoundCondition(c, Operator.IN, null, values, null, idx));
                    } else {
                        BoundValue list = binder.marker(((io.charybdis.node.cql.syntax.InValues.Marker) f.values())
                                .marker(), "in(" + c.name() + "." + f.field() + ")",
                                new io.charybdis.protocol.types.ListType(ft, false));
                        conditions.add(new BoundCondition(c, Operator.IN, list, null, null, idx));
                    }
                }
                default -> throw new InvalidRequestException("Unsupported IF condition on " + c.name());
            }
        }
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
    public ResultMetadata resultMetadata() {
        return casMetadata;
    }

    @Override
    public String keyspace() {
        return table.keyspace();
    }

    @Override
    public String table() {
        return table.name();
    }

    public TableMetadata tableMetadata() {
        return table;
    }

    public boolean conditional() {
        return isConditional();
    }

    /** For the metrics: 0 for INSERT, 1 for UPDATE, 2 for DELETE. */
    public int kindOrdinal() {
        return kind.ordinal();
    }

    @Override
    public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
        checkExecutable();
        if (isCounterUpdate()) {
            ConsistencyRules.forCounterWrite(ctx.consistency(), table);
            return executeCounter(ctx).thenApply(v -> ResultMessage.VOID);
        }
        if (isConditional()) {
            return executeConditional(ctx);
        }
        ConsistencyRules.forWrite(ctx.consistency());
        return mutationsWithRead(ctx).thenCompose(m -> {
            ctx.trace("Determining replicas for mutation");
            return coordinator.write(m, ctx.consistency(), ctx.home(), ctx.traceSink());
        }).thenApply(v -> ResultMessage.VOID);
    }

    long writeTimestamp(QueryContext ctx) {
        if (timestamp == null) {
            return ctx.timestamp();
        }
        ByteBuffer v = timestamp.bind(ctx.bind());
        if (v == null) {
            throw new InvalidRequestException("Invalid null value of timestamp");
        }
        if (v == Values.UNSET) {
            return ctx.timestamp();
        }
        if (v.remaining() != 8) {
            throw new InvalidRequestException("Invalid empty value of timestamp");
        }
        long ts = v.getLong(v.position());
        if (ts == Long.MIN_VALUE) {
            throw new InvalidRequestException("Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1) + ", "
                    + Long.MAX_VALUE + "]");
        }
        return ts;
    }

    int ttl(QueryContext ctx) {
        int requested = requestedTtl(ctx);
        rejectExpirationOverflow(requested, ttl == null);
        return requested;
    }

    /** The last second a cell can expire at (2038-01-19T03:14:06Z): expiry is kept in a signed 32-bit int. */
    private static final long MAX_DELETION_TIME = Integer.MAX_VALUE - 1;

    /**
     * Cassandra's default expiration date overflow policy (REJECT): a TTL that would expire after
     * {@link #MAX_DELETION_TIME} is refused.
     */
    private void rejectExpirationOverflow(int ttlSeconds, boolean isDefault) {
        if (ttlSeconds > 0 && System.currentTimeMillis() / 1000 + ttlSeconds > MAX_DELETION_TIME) {
            String max = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").format(
                    java.time.Instant.ofEpochSecond(MAX_DELETION_TIME).atOffset(java.time.ZoneOffset.UTC));
            throw new InvalidRequestException("Request on table " + table.keyspace() + "." + table.name() + " with "
                    + (isDefault ? "default " : "") + "ttl of " + ttlSeconds + " seconds exceeds maximum supported "
                    + "expiration date of " + max + ". In order to avoid this use a lower TTL, change the expiration "
                    + "date overflow policy or upgrade to a version where this limitation is fixed. See "
                    + "CASSANDRA-14092 and CASSANDRA-14227 for more details.");
        }
    }

    private int requestedTtl(QueryContext ctx) {
        if (ttl == null) {
            return table.params().defaultTimeToLive();
        }
        ByteBuffer v = ttl.bind(ctx.bind());
        if (v == null) {
            return 0; // a null TTL is no TTL, as in Cassandra 5.0
        }
        if (v == Values.UNSET || v.remaining() == 0) {
            return table.params().defaultTimeToLive(); // an empty TTL is no TTL, as in Cassandra
        }
        int t = v.getInt(v.position());
        if (t < 0) {
            throw new InvalidRequestException("A TTL must be greater or equal to 0, but was " + t);
        }
        if (t > MAX_TTL) {
            throw new InvalidRequestException("ttl is too large. requested (" + t + ") maximum (" + MAX_TTL + ")");
        }
        if ((long) ctx.nowInSeconds() + t > Integer.MAX_VALUE - 1) {
            // Cassandra 5.0 in its default storage compatibility mode (CASSANDRA_4) ends expiration in 2038 and
            // refuses what would expire later (expiration date overflow policy REJECT)
            throw new InvalidRequestException("Request on table " + table.keyspace() + "." + table.name()
                    + " with ttl of " + t + " seconds exceeds maximum supported expiration date of "
                    + "2038-01-19T03:14:06+00:00. In order to avoid this use a lower TTL, change the expiration date "
                    + "overflow policy or upgrade to a version where this limitation is fixed. See CASSANDRA-14092 and "
                    + "CASSANDRA-14227 for more details.");
        }
        return t;
    }

    /**
     * Builds the statement's mutations. {@code current} (for read-before-write operations on lists) is the
     * partition's current content, or null when the statement needs none.
     */
    @Override
    public java.time.Duration timeout(QueryContext ctx) {
        return requestTimeout == null ? null : requestTimeout.resolve(ctx);
    }

    @Override
    public java.util.function.Supplier<io.charybdis.node.cql.exceptions.RequestTimeoutException> timeoutError(
            QueryContext ctx) {
        return RequestTimeout.writeError(ctx, isCounterUpdate() ? io.charybdis.protocol.response.WriteType.COUNTER
                : isConditional() ? io.charybdis.protocol.response.WriteType.CAS
                : io.charybdis.protocol.response.WriteType.SIMPLE);
    }

    private void checkExecutable() {
        if (columnRangeDeletion) {
            throw new InvalidRequestException("Range deletions are not supported for specific columns");
        }
    }

    List<Mutation> mutations(QueryContext ctx, ReadResult current, boolean forBatch) {
        checkExecutable();
        if (needsRead && current == null && !forBatch) {
            throw new IllegalStateException("read required");
        }
        BindContext bind = ctx.bind();
        long ts = writeTimestamp(ctx);
        int ttlSeconds = kind == Kind.DELETE ? 0 : ttl(ctx);
        int now = ctx.nowInSeconds();
        List<Restrictions.PartitionKey> keys = restrictions.partitionKeys(bind);
        List<Mutation> out = new ArrayList<>(keys.size());
        TableId id = new TableId(table.id());
        for (Restrictions.PartitionKey pk : keys) {
            MutationBuilder b = BUILDER.get();
            b.start(id, pk.token(), pk.key());
            if (kind == Kind.DELETE && ops.isEmpty()) {
                deleteRows(b, bind, ts, now);
            } else {
                List<byte[]> clusterings = new ArrayList<>();
                java.util.IdentityHashMap<byte[], ByteBuffer> written = null;
                if (staticOnly || table.clustering().isEmpty()) {
                    clusterings.add(table.clustering().isEmpty() ? ClusteringCodec.NO_CLUSTERING_ROW : null);
                } else if (kind != Kind.INSERT && !writesRegularColumns()) {
                    // static columns alone, under a condition on a row: nothing is written to the row
                    clusterings.add(null);
                } else {
                    for (ByteBuffer[] ck : restrictions.clusterings(bind)) {
                        Restrictions.checkKeyLength(ck);
                        checkCompactClustering(ck);
                        byte[] key = prefixRow ? ClusteringCodec.encodePrefix(table, ck, ck.length)
                                : ClusteringCodec.encode(table, ck);
                        clusterings.add(key);
                        written = keepWritten(written, key, ck);
                    }
                    clusterings.sort(Arrays::compareUnsigned);
                }
                boolean hasStaticOps = false;
                for (Op op : ops) {
                    hasStaticOps |= op.column().isStatic();
                }
                if (hasStaticOps) {
                    ListViews staticLists = readsLists ? new ListViews() : null;
                    b.beginRow(ClusteringCodec.STATIC_ROW);
                    for (Op op : ops) {
                        if (op.column().isStatic()) {
                            apply(b, op, bind, ts, ttlSeconds, now, current, ClusteringCodec.STATIC_ROW, staticLists);
                        }
                    }
                    b.endRow();
                }
                for (byte[] ck : clusterings) {
                    if (ck == null) {
                        continue;
                    }
                    ListViews rowLists = readsLists ? new ListViews() : null;
                    b.beginRow(ck);
                    if (written != null) {
                        b.writtenClustering(ts, written.get(ck));
                    }
                    if (kind == Kind.INSERT && table.compactStorage().writesRowMarker(table)) {
                        b.rowMarker(ts, ttlSeconds, now + ttlSeconds);
                    }
                    for (Op op : ops) {
                        if (!op.column().isStatic()) {
                            apply(b, op, bind, ts, ttlSeconds, now, current, ck, rowLists);
                        }
                    }
                    b.endRow();
                }
            }
            out.add(b.build());
        }
        return out;
    }

    /**
     * Notes the written form of a row's clustering values ({@link WrittenClustering}) by its key object, for tables
     * whose keys do not keep it; returns the map (null, and nothing allocated, for every other table).
     */
    private java.util.IdentityHashMap<byte[], ByteBuffer> keepWritten(java.util.IdentityHashMap<byte[], ByteBuffer> m,
                                                                      byte[] key, ByteBuffer[] values) {
        ByteBuffer w = WrittenClustering.encode(table, values, values.length);
        if (w == null) {
            return m;
        }
        if (m == null) {
            m = new java.util.IdentityHashMap<>();
        }
        m.put(key, w);
        return m;
    }

    private void deleteRows(MutationBuilder b, BindContext bind, long ts, int now) {
        if (!restrictions.hasClusteringRestrictions() || table.clustering().isEmpty()) {
            if (table.clustering().isEmpty() && restrictions.hasClusteringRestrictions()) {
                throw new InvalidRequestException("Invalid restriction on clustering column for a table without one");
            }
            b.partitionDeletion(ts, now);
            return;
        }
        if (restrictions.selectsFullClusterings()) {
            List<byte[]> cks = new ArrayList<>();
            java.util.IdentityHashMap<byte[], ByteBuffer> written = null;
            for (ByteBuffer[] ck : restrictions.clusterings(bind)) {
                Restrictions.checkKeyLength(ck);
                checkCompactClustering(ck);
                byte[] key = ClusteringCodec.encode(table, ck);
                cks.add(key);
                written = keepWritten(written, key, ck);
            }
            cks.sort(Arrays::compareUnsigned);
            for (byte[] ck : cks) {
                b.beginRow(ck);
                if (written != null) {
                    b.writtenClustering(ts, written.get(ck));
                }
                b.rowDeletion(ts, now);
                b.endRow();
            }
            return;
        }
        for (ReadCommand.Slice s : restrictions.slices(bind)) {
            b.rangeTombstone(s.start(), s.end(), ts, now);
        }
    }

    private void apply(MutationBuilder b, Op op, BindContext bind, long ts, int ttl, int now, ReadResult current,
                       byte[] clustering, ListViews lists) {
        ColumnMetadata c = op.column();
        boolean list = Types.kind(c.type()) == TypeKind.LIST && c.isMultiCell();
        int id = c.cellId();
        int expiry = now + ttl;
        switch (op.kind()) {
            case SET -> {
                ByteBuffer v = op.value().bind(bind);
                if (v == Values.UNSET) {
                    return;
                }
                if (c.isMultiCell()) {
                    b.complexDeletion(id, ts - 1, now);
                    List<ByteBuffer[]> added = v != null ? addElements(b, c, v, ts, ttl, expiry, false) : List.of();
                    if (list && lists != null) {
                        lists.replace(c, added);
                    }
                } else if (v == null) {
                    b.cellTombstone(id, ts, now);
                } else {
                    checkSize(c, v);
                    b.cell(id, ts, ttl, expiry, v);
                }
            }
            case APPEND, PREPEND -> {
                // as Cassandra: adding null or unset adds nothing
                ByteBuffer v = op.value().bind(bind);
                if (v == null || v == Values.UNSET) {
                    return;
                }
                boolean prepend = op.kind() == OpKind.PREPEND;
                List<ByteBuffer[]> added = addElements(b, c, v, ts, ttl, expiry, prepend);
                if (list && lists != null) {
                    List<ByteBuffer[]> view = lists.view(c, () -> currentCells(current, clustering, c));
                    view.addAll(prepend ? 0 : view.size(), added);
                }
            }
            case REMOVE -> {
                ByteBuffer v = op.value().bind(bind);
                if (v == null || v == Values.UNSET) {
                    return;
                }
                TypeKind k = Types.kind(c.type());
                List<ByteBuffer> elements = Values.elements(v, false);
                if (k == TypeKind.LIST) {
                    List<ByteBuffer[]> cells = lists != null ? lists.view(c, () -> currentCells(current, clustering, c))
                            : currentCells(current, clustering, c);
                    for (java.util.Iterator<ByteBuffer[]> it = cells.iterator(); it.hasNext(); ) {
                        ByteBuffer[] cell = it.next();
                        for (ByteBuffer e : elements) {
                            if (Types.elementType(c.type()).compare(cell[1], e) == 0) {
                                b.complexCellTombstone(id, Values.bytes(cell[0]), ts, now);
                                it.remove();
                                break;
                            }
                        }
                    }
                } else {
                    DataType et = k == TypeKind.MAP ? Types.keyType(c.type()) : Types.elementType(c.type());
                    for (ByteBuffer e : elements) {
                        b.complexCellTombstone(id, ClusteringCodec.encodeSingle(et, e), ts, now);
                    }
                }
            }
            case SET_KEY -> {
                ByteBuffer k = op.key().bind(bind);
                ByteBuffer v = op.value().bind(bind);
                if (k == null) {
                    throw new InvalidRequestException("Invalid null map key");
                }
                if (k == Values.UNSET) {
                    throw new InvalidRequestException("Invalid unset map key");
                }
                if (v == Values.UNSET) {
                    return;
                }
                byte[] path = ClusteringCodec.encodeSingle(Types.keyType(c.type()), k);
                if (v == null) {
                    b.complexCellTombstone(id, path, ts, now);
                } else {
                    b.complexCell(id, path, ts, ttl, expiry, v);
                }
            }
            case SET_INDEX, DELETE_INDEX -> {
                boolean set = op.kind() == OpKind.SET_INDEX;
                ByteBuffer idx = op.key().bind(bind);
                if (idx == null || idx.remaining() != 4 && idx != Values.UNSET) {
                    throw new InvalidRequestException("Invalid null value for list index");
                }
                if (idx == Values.UNSET) {
                    // as Cassandra: an unset index is refused when setting, and deletes nothing
                    if (set) {
                        throw new InvalidRequestException("Invalid unset value for list index");
                    }
                    return;
                }
                int i = idx.getInt(idx.position());
                List<ByteBuffer[]> cells = lists != null ? lists.view(c, () -> currentCells(current, clustering, c))
                        : currentCells(current, clustering, c);
                if (cells.isEmpty()) {
                    throw new InvalidRequestException(set ? "Attempted to set an element on a list which is null"
                            : "Attempted to delete an element from a list which is null");
                }
                if (i < 0 || i >= cells.size()) {
                    throw new InvalidRequestException("List index " + i + " out of bound, list has size "
                            + cells.size());
                }
                byte[] path = Values.bytes(cells.get(i)[0]);
                ByteBuffer v = set ? op.value().bind(bind) : null;
                if (v == Values.UNSET) {
                    return;
                }
                if (v == null) {
                    b.complexCellTombstone(id, path, ts, now);
                    cells.remove(i);
                } else {
                    b.complexCell(id, path, ts, ttl, expiry, v);
                    cells.set(i, new ByteBuffer[]{cells.get(i)[0], v});
                }
            }
            case SET_FIELD -> {
                ByteBuffer v = op.value().bind(bind);
                if (v == Values.UNSET) {
                    return;
                }
                byte[] path = fieldPath(op.field());
                if (v == null) {
                    b.complexCellTombstone(id, path, ts, now);
                } else {
                    b.complexCell(id, path, ts, ttl, expiry, v);
                }
            }
            case DELETE -> {
                if (Types.isCounter(c.type())) {
                    // a deleted counter stays deleted: its deletion wins over every shard (see cluster.counters)
                    b.complexDeletion(id, CounterShards.DELETION_TIMESTAMP, now);
                } else if (c.isMultiCell()) {
                    b.complexDeletion(id, ts, now);
                    if (list && lists != null) {
                        lists.replace(c, List.of());
                    }
                } else {
                    b.cellTombstone(id, ts, now);
                }
            }
            case DELETE_KEY -> {
                ByteBuffer k = op.key().bind(bind);
                boolean map = Types.kind(c.type()) == TypeKind.MAP;
                if (k == null) {
                    throw new InvalidRequestException(map ? "Invalid null map key"
                            : Types.kind(c.type()) == TypeKind.LIST ? "Invalid null value for list index"
                            : "Invalid null set element");
                }
                if (k == Values.UNSET) {
                    // as Cassandra: an unset map key is refused, an unset set element deletes nothing
                    if (map) {
                        throw new InvalidRequestException("Invalid unset map key");
                    }
                    return;
                }
                DataType kt = Types.kind(c.type()) == TypeKind.MAP ? Types.keyType(c.type())
                        : Types.elementType(c.type());
                b.complexCellTombstone(id, ClusteringCodec.encodeSingle(kt, k), ts, now);
            }
            case DELETE_FIELD -> b.complexCellTombstone(id, fieldPath(op.field()), ts, now);
        }
    }

    private void checkSize(ColumnMetadata c, ByteBuffer v) {
        // Cassandra refuses cells above 2 GB; the frame limit already bounds us far below that. A value an index
        // keys its entries by (the whole value, or a frozen collection for full()) must fit a partition key.
        checkIndexedSize(c, v, "values", "full");
    }

    /** The clustering columns with no restriction at all, as Cassandra lists them when some are missing. */
    private String unrestrictedClustering() {
        List<String> missing = new ArrayList<>();
        for (ColumnMetadata c : table.clustering()) {
            boolean restricted = c.position() < restrictions.clusteringEqPrefixLength();
            for (Restrictions.Filter f : restrictions.filters()) {
                restricted |= f.column().equals(c);
            }
            if (!restricted) {
                missing.add(c.name());
            }
        }
        return String.join(", ", missing);
    }

    /**
     * As Cassandra: in a dense COMPACT STORAGE table with one clustering column (not compound), that column's value
     * is the whole cell name of the legacy layout and may not be empty.
     */
    private void checkCompactClustering(ByteBuffer[] ck) {
        if (table.compactStorage() == CompactStorage.DENSE && table.clustering().size() == 1 && ck.length == 1
                && ck[0] != null && !ck[0].hasRemaining()) {
            throw new InvalidRequestException("Invalid empty or null value for column "
                    + table.clustering().get(0).name());
        }
    }

    /** The largest value a native index can key an entry by (an index entry's partition key: an unsigned short). */
    private static final int MAX_INDEXED_VALUE = 65535;

    /**
     * As Cassandra: a value above 64 KiB that an index of the table would key an entry by is refused (the index
     * of a primary key column keys by that column's part of the key, which has its own limits).
     */
    private void checkIndexedSize(ColumnMetadata c, ByteBuffer v, String kind, String otherKind) {
        if (v.remaining() <= MAX_INDEXED_VALUE || table.indexes().isEmpty() || c.isPrimaryKey()) {
            return;
        }
        for (IndexMetadata i : table.indexes().values()) {
            if (i.targetColumn().equals(c.name())
                    && (i.targetKind().equals(kind) || i.targetKind().equals(otherKind))) {
                throw new InvalidRequestException("Cannot index value of size " + v.remaining() + " for index "
                        + i.name() + " on " + table + "(" + c.name() + ") (maximum allowed size="
                        + MAX_INDEXED_VALUE + ")");
            }
        }
    }

    private static byte[] fieldPath(int field) {
        return new byte[]{(byte) (field >>> 8), (byte) field};
    }

    /** Writes the elements of a collection or UDT value; returns the (path, value) cells added to a list. */
    private List<ByteBuffer[]> addElements(MutationBuilder b, ColumnMetadata c, ByteBuffer v, long ts, int ttl,
                                           int expiry, boolean prepend) {
        int id = c.cellId();
        TypeKind k = Types.kind(c.type());
        switch (k) {
            case SET -> {
                for (ByteBuffer e : Values.elements(v, false)) {
                    checkIndexedSize(c, e, "values", "values");
                    b.complexCell(id, ClusteringCodec.encodeSingle(Types.elementType(c.type()), e), ts, ttl, expiry,
                            Values.EMPTY);
                }
            }
            case MAP -> {
                List<ByteBuffer> parts = Values.elements(v, true);
                for (int i = 0; i < parts.size(); i += 2) {
                    checkIndexedSize(c, parts.get(i), "keys", "keys");
                    checkIndexedSize(c, parts.get(i + 1), "values", "values");
                    b.complexCell(id, ClusteringCodec.encodeSingle(Types.keyType(c.type()), parts.get(i)), ts, ttl,
                            expiry, parts.get(i + 1));
                }
            }
            case LIST -> {
                List<ByteBuffer> elements = Values.elements(v, false);
                for (ByteBuffer e : elements) {
                    checkIndexedSize(c, e, "values", "values");
                }
                List<ByteBuffer[]> added = new ArrayList<>(elements.size());
                if (prepend) {
                    // Decreasing times before a fixed epoch, so prepended elements sort before appended ones and
                    // each prepend batch keeps its own order.
                    long base = PREPEND_EPOCH_MILLIS - PREPEND_SEQ.addAndGet(elements.size());
                    for (int i = 0; i < elements.size(); i++) {
                        byte[] path = listPath(TimeUuids.min(base + i));
                        b.complexCell(id, path, ts, ttl, expiry, elements.get(i));
                        added.add(new ByteBuffer[]{ByteBuffer.wrap(path), elements.get(i)});
                    }
                } else {
                    for (ByteBuffer e : elements) {
                        byte[] path = listPath(TimeUuids.now());
                        b.complexCell(id, path, ts, ttl, expiry, e);
                        added.add(new ByteBuffer[]{ByteBuffer.wrap(path), e});
                    }
                }
                return added;
            }
            case UDT -> {
                List<ByteBuffer> fields = Values.fields(v, Types.fieldTypes(c.type()).size());
                for (int i = 0; i < fields.size(); i++) {
                    if (fields.get(i) != null) {
                        b.complexCell(id, fieldPath(i), ts, ttl, expiry, fields.get(i));
                    } else {
                        b.complexCellTombstone(id, fieldPath(i), ts, expiry - ttl);
                    }
                }
            }
            default -> throw new IllegalStateException("not multi-cell: " + c);
        }
        return List.of();
    }

    /**
     * The cells of the lists one row's operations have seen so far: a statement's list operations apply in order,
     * each seeing the elements the ones before it added, set or removed ({@code SET l = l + [3], l[2] = 7}, two
     * {@code DELETE l[2], l[2]} deleting two elements), as Cassandra applies them.
     */
    private static final class ListViews {
        private final java.util.Map<Integer, List<ByteBuffer[]>> byColumn = new java.util.HashMap<>(4);

        List<ByteBuffer[]> view(ColumnMetadata c, java.util.function.Supplier<List<ByteBuffer[]>> current) {
            return byColumn.computeIfAbsent(c.cellId(), id -> new ArrayList<>(current.get()));
        }

        void replace(ColumnMetadata c, List<ByteBuffer[]> cells) {
            byColumn.put(c.cellId(), new ArrayList<>(cells));
        }
    }

    private static byte[] listPath(UUID u) {
        io.charybdis.node.cql.keys.ByteSink sink = new io.charybdis.node.cql.keys.ByteSink(16);
        OrderedCodec.encode(OrderedCodec.Kind.TIMEUUID, Values.uuid(u), sink);
        return sink.toArray();
    }

    /** The (path, value) cells of a multi-cell column in the given row of a read result. */
    private List<ByteBuffer[]> currentCells(ReadResult current, byte[] clustering, ColumnMetadata c) {
        List<ByteBuffer[]> out = new ArrayList<>();
        if (current == null) {
            return out;
        }
        ReadResult.Cursor cursor = current.cursor();
        while (cursor.nextPartition()) {
            while (cursor.nextRow()) {
                byte[] ck = cursor.isStatic() ? ClusteringCodec.STATIC_ROW : cursor.clusteringBytes();
                if (!Arrays.equals(ck, clustering)) {
                    continue;
                }
                while (cursor.nextCell()) {
                    if (cursor.columnId() == c.cellId() && cursor.hasPath()
                            && cursor.timestamp() > table.droppedTimeOf(c.cellId())) {
                        out.add(new ByteBuffer[]{ByteBuffer.wrap(cursor.pathBytes()), cursor.value()});
                    }
                }
            }
        }
        return out;
    }

    /** A read of the rows this statement touches (for read-before-write and conditions). */
    private ReadCommand currentRead(Restrictions.PartitionKey pk, QueryContext ctx) {
        ReadCommand.Builder b = ReadCommand.partition(new TableId(table.id()), pk.token(), Values.bytes(pk.key()))
                .nowInSeconds(ctx.nowInSeconds());
        if (!staticOnly && !table.clustering().isEmpty() && restrictions.hasClusteringRestrictions()) {
            b.slices(restrictions.slices(ctx.bind()));
        }
        return b.build();
    }

    /** For batches and reads before writes: the statement's partitions. */
    List<Restrictions.PartitionKey> partitionKeys(QueryContext ctx) {
        return restrictions.partitionKeys(ctx.bind());
    }

    boolean needsRead() {
        return needsRead;
    }

    CompletableFuture<List<Mutation>> mutationsWithRead(QueryContext ctx) {
        if (!needsRead) {
            return CompletableFuture.completedFuture(mutations(ctx, null, false));
        }
        List<Restrictions.PartitionKey> keys = partitionKeys(ctx);
        if (keys.size() != 1) {
            throw new InvalidRequestException("Operations on lists by index or value require a single partition");
        }
        return coordinator.read(currentRead(keys.get(0), ctx), ctx.consistency(), ctx.home()).thenApply(r -> mutations(ctx, r, false));
    }

    @Override
    public String toString() {
        return kind + " " + table;
    }

    // ---- lightweight transactions ------------------------------------------------------------------------------

    private CompletableFuture<ResultMessage> executeConditional(QueryContext ctx) {
        List<Restrictions.PartitionKey> keys = partitionKeys(ctx);
        if (keys.size() != 1) {
            throw new InvalidRequestException("IN on the partition key is not supported with conditional "
                    + conditionalKind());
        }
        return new ConditionalWrite(coordinator, table, keys.get(0), false)
                .execute(ctx, List.of(new ConditionalWrite.Entry(this, ctx)));
    }

    private String conditionalKind() {
        return kind == Kind.DELETE ? "deletions" : "updates";
    }

    /** Checks the restrictions a conditional statement needs: whole rows unless it writes static columns only. */
    void checkConditionalRestrictions() {
        if (kind != Kind.INSERT && !staticOnly && !restrictions.selectsFullClusterings()) {
            throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY columns with equality "
                    + "relations in order to delete non static columns");
        }
    }

    /**
     * The row this statement writes, which its IF NOT EXISTS / IF EXISTS and its conditions on regular columns are
     * about: the static row for a statement on static columns alone.
     */
    byte[] conditionRow(BindContext bind) {
        if (table.clustering().isEmpty()) {
            return ClusteringCodec.NO_CLUSTERING_ROW;
        }
        if (staticOnly) {
            return ClusteringCodec.STATIC_ROW;
        }
        List<ByteBuffer[]> cks = restrictions.clusterings(bind);
        for (ByteBuffer[] ck : cks) {
            Restrictions.checkKeyLength(ck);
        }
        if (cks.size() != 1) {
            throw new InvalidRequestException("IN on the clustering key columns is not supported with conditional "
                    + conditionalKind());
        }
        return ClusteringCodec.encode(table, cks.get(0));
    }

    /** Cassandra refuses IN on clustering columns in every statement of a lightweight transaction. */
    void checkNoClusteringIn() {
        if (restrictions.hasClusteringIn()) {
            throw new InvalidRequestException("IN on the clustering key columns is not supported with conditional "
                    + conditionalKind());
        }
    }

    /** Clustering slices of the rows this statement reads before writing (lists by index); null = all of them. */
    List<ReadCommand.Slice> readSlices(BindContext bind) {
        if (!staticOnly && !table.clustering().isEmpty() && restrictions.hasClusteringRestrictions()) {
            return restrictions.slices(bind);
        }
        return null;
    }

    boolean ifNotExists() {
        return ifNotExists;
    }

    boolean ifExists() {
        return ifExists;
    }

    private boolean writesRegularColumns() {
        for (Op op : ops) {
            if (!op.column().isStatic()) {
                return true;
            }
        }
        return false;
    }

    /** As Cassandra: the statement writes static columns. */
    boolean updatesStaticRow() {
        for (Op op : ops) {
            if (op.column().isStatic()) {
                return true;
            }
        }
        return false;
    }

    /** As Cassandra: the statement writes regular rows (the table has no clustering, or the statement names one). */
    boolean updatesRegularRows() {
        return table.clustering().isEmpty() || restrictions.hasClusteringRestrictions();
    }

    boolean hasConditions(boolean onStatic) {
        for (BoundCondition c : conditions) {
            if (c.column().isStatic() == onStatic) {
                return true;
            }
        }
        return false;
    }

    /** The columns of the IF conditions, as Cassandra lists them: regular columns first, then static ones. */
    List<ColumnMetadata> conditionColumns() {
        List<ColumnMetadata> out = new ArrayList<>();
        for (boolean onStatic : new boolean[]{false, true}) {
            for (BoundCondition c : conditions) {
                if (c.column().isStatic() == onStatic && !out.contains(c.column())) {
                    out.add(c.column());
                }
            }
        }
        return out;
    }

    /**
     * Whether this statement's conditions on regular columns ({@code onStatic} false) or on static columns hold
     * for a row; {@code row} holds the current values by {@link TableMetadata#allColumns()} index, null when the row
     * does not exist.
     */
    boolean conditionsHold(boolean onStatic, ByteBuffer[] row, List<ColumnMetadata> columns, BindContext bind) {
        for (BoundCondition cond : conditions) {
            if (cond.column().isStatic() != onStatic) {
                continue;
            }
            ByteBuffer actual = row == null ? null : row[columns.indexOf(cond.column())];
            if (!conditionHolds(cond, actual == null ? null : actual.duplicate(), bind)) {
                return false;
            }
        }
        return true;
    }

    private static boolean conditionHolds(BoundCondition cond, ByteBuffer actual, BindContext bind) {
        DataType type = cond.column().type();
        if (cond.element() != null) {
            ByteBuffer key = cond.element().bind(bind);
            if (key == null || key == Values.UNSET) {
                throw new InvalidRequestException("Invalid " + (key == null ? "null" : "unset") + " value for "
                        + (Types.kind(type) == TypeKind.MAP ? "map" : "list") + " element access");
            }
        }
        if (cond.element() != null && actual != null) {
            ByteBuffer key = cond.element().bind(bind);
            TypeKind k = Types.kind(type);
            List<ByteBuffer> parts = Values.elements(actual, k == TypeKind.MAP);
            actual = null;
            if (k == TypeKind.MAP) {
                for (int i = 0; i < parts.size(); i += 2) {
                    if (Types.keyType(type).compare(parts.get(i), key) == 0) {
                        actual = parts.get(i + 1);
                    }
                }
                type = Types.valueType(type);
            } else {
                int idx = key.remaining() == 4 ? key.getInt(key.position()) : -1;
                actual = idx >= 0 && idx < parts.size() ? parts.get(idx) : null;
                type = Types.elementType(type);
            }
        } else if (cond.element() != null) {
            type = Types.kind(type) == TypeKind.MAP ? Types.valueType(type) : Types.elementType(type);
        }
        if (cond.field() >= 0) {
            if (actual != null) {
                actual = Values.fields(actual, Types.fieldTypes(type).size()).get(cond.field());
            }
            type = Types.fieldTypes(type).get(cond.field());
        }
        return holds(cond, actual, type, bind);
    }

    /**
     * A value compared with a whole non-frozen collection: an empty one is null there, as in Cassandra (such a
     * collection has no empty value).
     */
    private static ByteBuffer emptyCollectionAsNull(BoundCondition cond, ByteBuffer v, DataType type) {
        if (v != null && v != Values.UNSET && cond.element() == null && cond.field() < 0
                && cond.column().isMultiCell() && Types.kind(type).isCollection()
                && Values.elements(v.duplicate(), Types.kind(type) == TypeKind.MAP).isEmpty()) {
            return null;
        }
        return v;
    }

    private static boolean holds(BoundCondition cond, ByteBuffer actual, DataType type, BindContext bind) {
        if (cond.op() == Operator.IN && cond.in() == null) {
            ByteBuffer list = cond.value().bind(bind);
            if (list == null) {
                throw new InvalidRequestException("Invalid null list in IN condition");
            }
            if (list == Values.UNSET) {
                throw new InvalidRequestException("Invalid 'unset' value in condition");
            }
            for (ByteBuffer element : Values.elements(list, false)) {
                ByteBuffer v = emptyCollectionAsNull(cond, element, type);
                if (v == null ? actual == null : actual != null && type.compare(actual, v) == 0) {
                    return true;
                }
            }
            return false;
        }
        if (cond.op() == Operator.IN) {
            for (BoundValue b : cond.in()) {
                ByteBuffer v = emptyCollectionAsNull(cond, b.bind(bind), type);
                if (v == null ? actual == null : actual != null && type.compare(actual, v) == 0) {
                    return true;
                }
            }
            return false;
        }
        ByteBuffer expected = cond.value().bind(bind);
        if (expected == Values.UNSET) {
            throw new InvalidRequestException("Invalid 'unset' value in condition");
        }
        if (cond.op() == Operator.CONTAINS || cond.op() == Operator.CONTAINS_KEY) {
            if (expected == null) {
                throw new InvalidRequestException("Invalid comparison with null for operator \"" + cond.op().cql()
                        + "\"");
            }
            if (actual == null) {
                return false;
            }
            TypeKind k = Types.kind(type);
            List<ByteBuffer> parts = Values.elements(actual, k == TypeKind.MAP);
            DataType et = cond.op() == Operator.CONTAINS_KEY ? Types.keyType(type)
                    : k == TypeKind.MAP ? Types.valueType(type) : Types.elementType(type);
            for (int i = 0; i < parts.size(); i++) {
                boolean isKey = k == TypeKind.MAP && i % 2 == 0;
                if (k == TypeKind.MAP && isKey != (cond.op() == Operator.CONTAINS_KEY)) {
                    continue;
                }
                if (parts.get(i) != null && et.compare(parts.get(i), expected) == 0) {
                    return true;
                }
            }
            return false;
        }
        if (emptyCollectionAsNull(cond, expected, type) == null && expected != null) {
            if (cond.op() != Operator.EQ && cond.op() != Operator.NEQ) {
                throw new InvalidRequestException("Invalid comparison with an empty "
                        + Types.kind(type).name().toLowerCase(java.util.Locale.ROOT) + " for operator \""
                        + cond.op().cql() + "\"");
            }
            expected = null;
        }
        if (cond.op() == Operator.EQ) {
            return expected == null ? actual == null : actual != null && type.compare(actual, expected) == 0;
        }
        if (cond.op() == Operator.NEQ) {
            return expected == null ? actual != null : actual == null || type.compare(actual, expected) != 0;
        }
        if (expected == null) {
            throw new InvalidRequestException("Invalid comparison with null for operator \"" + cond.op().cql() + "\"");
        }
        if (actual == null) {
            return false;
        }
        int c = type.compare(actual, expected);
        return switch (cond.op()) {
            case LT -> c < 0;
            case LTE -> c <= 0;
            case GT -> c > 0;
            case GTE -> c >= 0;
            default -> throw new InvalidRequestException("Unsupported operator " + cond.op().cql() + " in condition");
        };
    }
}
