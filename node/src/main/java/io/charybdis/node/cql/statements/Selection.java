package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.Selector;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.Functions;
import io.charybdis.node.cql.values.NativeFunction;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The SELECT clause: output columns computed from a {@link RowData}, including writetime/ttl, native functions,
 * casts, UDT field and collection element access, and the aggregates count/min/max/sum/avg.
 */
public final class Selection {

    /** One output column. */
    interface Output {
        DataType type();

        String name();

        /**
         * Per-row value; for aggregates, called once per input row (accumulate) and {@link #result} at the end. It
         * may be a view valid for the current row only (see {@link RowData}): a caller keeping it copies it.
         */
        ByteBuffer value(RowData row, BindContext ctx);

        /**
         * The per-row value for reading at once: the caller neither moves its position nor keeps it. Outputs that
         * can give it without allocating (a column's view) do.
         */
        default ByteBuffer peek(RowData row, BindContext ctx) {
            return value(row, ctx);
        }

        /** Writes the per-row value into a RESULT row; outputs that can, do so without allocating. */
        default void write(RowData row, BindContext ctx, RowsWriter writer) {
            ByteBuffer v = value(row, ctx);
            if (v == null) {
                writer.nullValue();
            } else {
                writer.value(v);
            }
        }

        default boolean isAggregate() {
            return false;
        }

        default void reset() {
        }

        default ByteBuffer result(BindContext ctx) {
            throw new IllegalStateException();
        }
    }

    private final List<Output> outputs;
    /** The outputs, as an array for the per-row loop. */
    private final Output[] outputArray;
    private final ResultMetadata metadata;
    private final boolean aggregate;
    private final boolean json;

    private Selection(List<Output> outputs, TableMetadata table) {
        this(outputs, table, false);
    }

    private Selection(List<Output> outputs, TableMetadata table, boolean json) {
        this.outputs = outputs;
        this.outputArray = outputs.toArray(new Output[0]);
        this.json = json;
        List<ColumnSpec> specs = new ArrayList<>();
        boolean agg = false;
        for (Output o : outputs) {
            specs.add(new ColumnSpec(table.keyspace(), table.name(), o.name(), o.type()));
            agg |= o.isAggregate();
        }
        this.aggregate = agg;
        this.metadata = json ? ResultMetadata.of(List.of(new ColumnSpec(table.keyspace(), table.name(), "[json]",
                NativeType.TEXT))) : ResultMetadata.of(specs);
    }

    /** The same selection as SELECT JSON: one {@code [json]} text column holding an object of the outputs. */
    public Selection asJson(TableMetadata table) {
        return new Selection(outputs, table, true);
    }

    private ByteBuffer jsonObject(ByteBuffer[] values) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < outputs.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            // Cassandra quotes a selected name only where it has upper-case letters (max(v) -> "system.max(v)")
            String name = outputs.get(i).name();
            io.charybdis.node.cql.values.Json.quote(sb, name.equals(name.toLowerCase(java.util.Locale.ROOT)) ? name
                    : "\"" + name + "\"");
            TypeKind kind = Types.kind(outputs.get(i).type());
            if (values[i] != null && !values[i].hasRemaining() && kind != TypeKind.TEXT && kind != TypeKind.ASCII
                    && kind != TypeKind.BLOB && !kind.isCollection()) {
                // an empty value (no bytes, not null) of a type that has none: Cassandra writes an empty string
                sb.append(": \"\"");
                continue;
            }
            sb.append(": ").append(io.charybdis.node.cql.values.Json.format(outputs.get(i).type(), values[i]));
        }
        return Values.text(sb.append('}').toString());
    }

    public ResultMetadata metadata() {
        return metadata;
    }

    public boolean isAggregate() {
        return aggregate;
    }

    public int size() {
        return json ? 1 : outputs.size();
    }

    public static Selection wildcard(TableMetadata table, RowData row) {
        List<Output> outputs = new ArrayList<>();
        for (ColumnMetadata c : table.allColumns()) {
            outputs.add(columnOutput(c, row.indexOf(c), c.name()));
        }
        return new Selection(outputs, table);
    }

    public static Selection of(TableMetadata table, RowData row, List<Selector.Item> items, Functions functions,
                               TermBinder binder) {
        List<Output> outputs = new ArrayList<>();
        for (Selector.Item item : items) {
            Output o = build(item.selector(), table, row, functions, binder);
            if (item.alias() != null) {
                Output inner = o;
                String alias = item.alias();
                o = new Output() {
                    public DataType type() {
                        return inner.type();
                    }

                    public String name() {
                        return alias;
                    }

                    public ByteBuffer value(RowData r, BindContext ctx) {
                        return inner.value(r, ctx);
                    }

                    public ByteBuffer peek(RowData r, BindContext ctx) {
                        return inner.peek(r, ctx);
                    }

                    public void write(RowData r, BindContext ctx, RowsWriter writer) {
                        inner.write(r, ctx, writer);
                    }

                    public boolean isAggregate() {
                        return inner.isAggregate();
                    }

                    public void reset() {
                        inner.reset();
                    }

                    public ByteBuffer result(BindContext ctx) {
                        return inner.result(ctx);
                    }
                };
            }
            outputs.add(o);
        }
        return new Selection(outputs, table);
    }

    /** Writes one row's outputs (non-aggregate selection). */
    public void write(RowData row, BindContext ctx, RowsWriter writer) {
        if (json) {
            ByteBuffer[] values = new ByteBuffer[outputs.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = outputs.get(i).value(row, ctx);
            }
            writer.value(jsonObject(values));
            return;
        }
        for (Output o : outputArray) {
            o.write(row, ctx, writer);
        }
    }

    /**
     * Feeds a row to the aggregates; non-aggregate outputs keep the first row's value (a copy: row values are valid
     * for their row only).
     */
    public void accumulate(RowData row, BindContext ctx, ByteBuffer[] firstRow, boolean first) {
        ByteBuffer[] target = json && !aggregate ? new ByteBuffer[outputs.size()] : firstRow;
        for (int i = 0; i < outputArray.length; i++) {
            Output o = outputArray[i];
            if (o.isAggregate()) {
                o.value(row, ctx);
            } else if (first) {
                target[i] = RowData.copy(o.value(row, ctx));
            }
        }
        if (json && !aggregate && first) {
            firstRow[0] = jsonObject(target);
        }
    }

    /** Values kept for non-aggregate outputs across {@link #accumulate} calls. */
    public int accumulatorSize() {
        return outputs.size();
    }

    public void writeAggregate(BindContext ctx, ByteBuffer[] firstRow, RowsWriter w) {
        if (json && !aggregate) {
            // groups of a selection without aggregates (GROUP BY): accumulate kept the first row's JSON object
            w.value(firstRow[0]);
            return;
        }
        if (json) {
            ByteBuffer[] values = new ByteBuffer[outputs.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = outputs.get(i).isAggregate() ? outputs.get(i).result(ctx) : firstRow[i];
            }
            w.value(jsonObject(values));
            return;
        }
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            ByteBuffer v = o.isAggregate() ? o.result(ctx) : firstRow[i];
            if (v == null) {
                w.nullValue();
            } else {
                w.value(v);
            }
        }
    }

    /**
     * The values {@link #writeAggregate} would write, as copies (kept past the next {@link #resetAggregates}): a group
     * that ORDER BY places once every group is made.
     */
    public List<ByteBuffer> aggregateValues(BindContext ctx, ByteBuffer[] firstRow) {
        if (json && !aggregate) {
            return java.util.Collections.singletonList(firstRow[0]);
        }
        ByteBuffer[] values = new ByteBuffer[outputs.size()];
        for (int i = 0; i < values.length; i++) {
            Output o = outputs.get(i);
            values[i] = o.isAggregate() ? RowData.copy(o.result(ctx)) : firstRow[i];
        }
        if (json) {
            return java.util.Collections.singletonList(jsonObject(values));
        }
        return Arrays.asList(values);
    }

    public void resetAggregates() {
        for (Output o : outputs) {
            o.reset();
        }
    }

    private static Output columnOutput(ColumnMetadata c, int index, String name) {
        return new Output() {
            public DataType type() {
                return c.type();
            }

            public String name() {
                return name;
            }

            public ByteBuffer value(RowData row, BindContext ctx) {
                return row.value(index);
            }

            public ByteBuffer peek(RowData row, BindContext ctx) {
                return row.values[index];
            }

            public void write(RowData row, BindContext ctx, RowsWriter writer) {
                row.writeValue(index, writer);
            }
        };
    }

    private static ColumnMetadata column(TableMetadata table, String name) {
        ColumnMetadata c = table.column(name);
        if (c == null) {
            throw new InvalidRequestException("Undefined column name " + name + " in table " + table);
        }
        return c;
    }

    private static Output build(Selector s, TableMetadata table, RowData row, Functions functions, TermBinder binder) {
        switch (s) {
            case Selector.Column col -> {
                ColumnMetadata c = column(table, col.name());
                return columnOutput(c, row.indexOf(c), c.name());
            }
            case Selector.WriteTime wt -> {
                if (wt.column() instanceof Selector.Column col) {
                    ColumnMetadata c = column(table, col.name());
                    return WriteTimeSelection.build(wt, table, row, columnOutput(c, row.indexOf(c), c.name()), null);
                }
                if (!(wt.column() instanceof Selector.ElementAccess) && !(wt.column() instanceof Selector.SliceAccess)
                        && !(wt.column() instanceof Selector.FieldAccess)) {
                    throw new InvalidRequestException("Only column selections are supported in " + wt.kind().name()
                            .toLowerCase(java.util.Locale.ROOT) + "()");
                }
                Output inner = build(wt.column(), table, row, functions, binder);
                Output lookup = switch (wt.column()) {
                    case Selector.ElementAccess ea -> build(new Selector.SliceAccess(ea.receiver(), ea.element(),
                            ea.element()), table, row, functions, binder);
                    case Selector.SliceAccess sa -> inner;
                    default -> null;
                };
                return WriteTimeSelection.build(wt, table, row, inner, lookup);
            }
            case Selector.CountRows cr -> {
                return new CountOutput("count", null, -1);
            }
            case Selector.FunctionCall fc -> {
                return function(fc, table, row, functions, binder);
            }
            case Selector.Cast cast -> {
                Output inner = build(cast.selector(), table, row, functions, binder);
                NativeType target = NativeType.fromCqlName(cast.type().type().cqlName());
                return overAggregates(List.of(inner), in -> Casts.cast(in.get(0), target));
            }
            case Selector.FieldAccess fa -> {
                Output inner = build(fa.receiver(), table, row, functions, binder);
                if (Types.kind(inner.type()) != TypeKind.UDT) {
                    throw new InvalidRequestException("Invalid field selection: " + inner.name() + " of type "
                            + inner.type().cqlName() + " is not a user type");
                }
                int f = Types.fieldNames(inner.type()).indexOf(fa.field());
                if (f < 0) {
                    throw new InvalidRequestException(inner.name() + " of type " + inner.type().cqlName() + " has no field "
                            + fa.field());
                }
                DataType ft = Types.fieldTypes(inner.type()).get(f);
                int arity = Types.fieldTypes(inner.type()).size();
                String name = inner.name() + "." + fa.field();
                // a field of an aggregate's result (max(u).x) is taken from the result, once
                return overAggregates(List.of(inner), in -> simple(ft, name, (r, ctx) -> {
                    ByteBuffer v = in.get(0).value(r, ctx);
                    return v == null ? null : Values.fields(v, arity).get(f);
                }));
            }
            case Selector.ElementAccess ea -> {
                Output inner = build(ea.receiver(), table, row, functions, binder);
                TypeKind k = collectionOf(inner, "Element");
                DataType keyType = k == TypeKind.MAP ? Types.keyType(inner.type()) : Types.elementType(inner.type());
                DataType outType = k == TypeKind.MAP ? Types.valueType(inner.type()) : keyType;
                var key = binder.bind(ea.element(), receiverOf(k, inner), keyType);
                String name = inner.name() + "[" + termName(ea.element()) + "]";
                // an element of an aggregate's result (max(m)['k']) is taken from the result, once
                return overAggregates(List.of(inner), in -> simple(outType, name, (r, ctx) -> {
                    ByteBuffer v = in.get(0).value(r, ctx);
                    ByteBuffer kv = key.bind(ctx);
                    if (v == null || kv == null) {
                        return null;
                    }
                    List<ByteBuffer> parts = Values.elements(v, k == TypeKind.MAP);
                    int step = k == TypeKind.MAP ? 2 : 1;
                    for (int i = 0; i < parts.size(); i += step) {
                        if (keyType.compare(parts.get(i), kv) == 0) {
                            return parts.get(i + step - 1);
                        }
                    }
                    return null;
                }));
            }
            case Selector.SliceAccess sa -> {
                Output inner = build(sa.receiver(), table, row, functions, binder);
                TypeKind k = collectionOf(inner, "Slice");
                DataType keyType = k == TypeKind.MAP ? Types.keyType(inner.type()) : Types.elementType(inner.type());
                String receiver = receiverOf(k, inner);
                var from = sa.from() == null ? null : binder.bind(sa.from(), receiver, keyType);
                var to = sa.to() == null ? null : binder.bind(sa.to(), receiver, keyType);
                String name = inner.name() + "[" + (sa.from() == null ? "" : termName(sa.from())) + ".."
                        + (sa.to() == null ? "" : termName(sa.to())) + "]";
                boolean map = k == TypeKind.MAP;
                boolean multiCell = inner.type().isMultiCell();
                return simple(inner.type(), name, (r, ctx) -> {
                    ByteBuffer lo = from == null ? null : from.bind(ctx);
                    ByteBuffer hi = to == null ? null : to.bind(ctx);
                    if ((from != null && lo == null) || (to != null && hi == null)) {
                        throw new InvalidRequestException("Invalid null value for slice selection on " + inner.name());
                    }
                    lo = lo == Values.UNSET ? null : lo;
                    hi = hi == Values.UNSET ? null : hi;
                    ByteBuffer v = inner.value(r, ctx);
                    if (v == null) {
                        return null;
                    }
                    List<ByteBuffer> parts = Values.elements(v, map);
                    int step = map ? 2 : 1;
                    List<ByteBuffer> kept = new ArrayList<>();
                    for (int i = 0; i < parts.size(); i += step) {
                        ByteBuffer e = parts.get(i);
                        if ((lo == null || keyType.compare(e, lo) >= 0) && (hi == null || keyType.compare(e, hi) <= 0)) {
                            kept.add(e);
                            if (map) {
                                kept.add(parts.get(i + 1));
                            }
                        }
                    }
                    // as Cassandra: a slice of a frozen collection is a collection, empty rather than null when
                    // nothing is in it; a slice of a non-frozen one selects its cells, none of them being null
                    if (kept.isEmpty() && multiCell) {
                        return null;
                    }
                    ByteBuffer out = Values.collection(kept);
                    if (map) {
                        out.putInt(0, kept.size() / 2);
                    }
                    return out;
                });
            }
            case Selector.BinaryOp bo -> {
                Output left = bo.left() instanceof Selector.Value ? null : build(bo.left(), table, row, functions, binder);
                Output right = bo.right() instanceof Selector.Value ? null : build(bo.right(), table, row, functions,
                        binder);
                if (isMarker(bo.left()) || isMarker(bo.right())) {
                    return markerOperation(bo, left, right, binder);
                }
                if (left == null && right == null) {
                    left = literalOperand((Selector.Value) bo.left(), NativeType.EMPTY, binder);
                }
                if (left == null) {
                    ambiguousNull(bo, (Selector.Value) bo.left(), termText(((Selector.Value) bo.left()).term()),
                            right.name());
                    left = literalOperand((Selector.Value) bo.left(), right.type(), binder);
                }
                if (right == null) {
                    ambiguousNull(bo, (Selector.Value) bo.right(), left.name(),
                            termText(((Selector.Value) bo.right()).term()));
                    right = literalOperand((Selector.Value) bo.right(), left.type(), binder);
                }
                ambiguousOperands(bo, left, right);
                return overAggregates(List.of(left, right), lr -> {
                    Output l = lr.get(0);
                    Output r = lr.get(1);
                    DataType result = Arithmetic.resultType(bo.op(), l.type(), r.type(), l.name(), r.name());
                    // as Cassandra: an operand written in parentheses keeps them in the column's name
                    String name = parenthesized(bo.left(), l.name()) + " " + bo.op().symbol() + " "
                            + parenthesized(bo.right(), r.name());
                    return simple(result, name, (row2, ctx) -> Arithmetic.apply(bo.op(), l.type(), l.value(row2, ctx),
                            r.type(), r.value(row2, ctx), result));
                });
            }
            case Selector.TypeHint th -> {
                DataType hinted = io.charybdis.node.schema.TypeResolver.resolve(th.type(),
                        binder.keyspaceMetadata());
                Term term = asTerm(th.selector());
                if (term instanceof Term.BindMarker m) {
                    // (int) ?: the variable's type is the hint
                    var bound = binder.marker(m, "[selection]", hinted);
                    return simple(hinted, "(" + hinted.cqlName() + ")?", (r, ctx) -> {
                        ByteBuffer v = bound.bind(ctx);
                        return v == Values.UNSET ? null : v;
                    });
                }
                if (term != null) {
                    String text = literalText(term);
                    String name = "(" + hintText(th.type(), hinted, table.keyspace()) + ")"
                            + (th.parenthesized() && !(th.selector() instanceof Selector.TupleSelector)
                            ? "(" + text + ")" : text);
                    if (term instanceof Term.Literal lit && !io.charybdis.node.cql.values.Literals.assignable(lit,
                            hinted)) {
                        throw new InvalidRequestException("Cannot assign value " + name + " to " + name + " of type "
                                + hinted.cqlName());
                    }
                    Output withNulls = listWithNulls(term, hinted, name, binder);
                    if (withNulls != null) {
                        return withNulls;
                    }
                    var bound = binder.bindHinted(term, name, hinted);
                    return simple(hinted, name, (r, ctx) -> bound.bind(ctx));
                }
                boolean oneElementTuple = th.parenthesized() && !isComposite(th.selector())
                        && hinted instanceof io.charybdis.protocol.types.TupleType tt && tt.components().size() == 1;
                if (isComposite(th.selector()) || th.selector() instanceof Selector.Parenthesized p
                        && asTerm(p) == null || oneElementTuple) {
                    // (map<text, int>){'min': min(ck)}: the literal's elements built for the hinted type; written
                    // in parentheses, a one-element tuple where one is hinted ((tuple<int>)(ck) too)
                    Selector operand = th.parenthesized() && (isComposite(th.selector()) || oneElementTuple)
                            && !(th.selector() instanceof Selector.TupleSelector)
                            ? new Selector.Parenthesized(th.selector()) : th.selector();
                    Output inner;
                    try {
                        inner = expecting(operand, hinted, table, row, functions, binder);
                    } catch (NotAssignable e) {
                        String written = writtenName(operand, table, row, functions, binder);
                        String name = "(" + hintText(th.type(), hinted, table.keyspace()) + ")"
                                + (th.parenthesized() && operand == th.selector()
                                && th.selector() instanceof Selector.Parenthesized ? "(" + written + ")" : written);
                        throw new InvalidRequestException("Cannot assign value " + name + " to " + name
                                + " of type " + Types.freeze(hinted).cqlName());
                    }
                    // (int)((ck)): the outer pair of parentheses is the hint's
                    String innerName = th.parenthesized() && operand == th.selector()
                            && th.selector() instanceof Selector.Parenthesized ? "(" + inner.name() + ")" : inner.name();
                    String name = "(" + hintText(th.type(), hinted, table.keyspace()) + ")" + innerName;
                    DataType frozen = Types.freeze(hinted); // a literal's collection is frozen
                    return overAggregates(List.of(inner), in -> simple(frozen, name,
                            (r, ctx) -> in.get(0).value(r, ctx)));
                }
                // (type) selector: as Cassandra's WithTypeHint, the selector's values must fit the type (its own or
                // one accepting its values' bytes), which then names the output's type
                Output inner = build(th.selector(), table, row, functions, binder);
                String name = "(" + hintText(th.type(), hinted, table.keyspace()) + ")" + (th.parenthesized()
                        && !(th.selector() instanceof Selector.BinaryOp) ? "(" + inner.name() + ")"
                        : parenthesized(th.selector(), inner.name()));
                if (!io.charybdis.node.cql.values.FunctionResolver.acceptsValuesOf(hinted, inner.type())) {
                    throw new InvalidRequestException("Cannot assign value " + name + " to " + name + " of type "
                            + hinted.cqlName());
                }
                return overAggregates(List.of(inner), in -> simple(hinted, name,
                        (r, ctx) -> in.get(0).value(r, ctx)));
            }
            case Selector.Negation neg -> {
                if (neg.selector() instanceof Selector.Value v && v.term() instanceof Term.BindMarker) {
                    throw new InvalidRequestException("Ambiguous negation: use type casts to disambiguate");
                }
                Selector operand = neg.selector();
                if (operand instanceof Selector.Value && !neg.parenthesized() || operand instanceof Selector.ListSelector
                        || operand instanceof Selector.SetSelector || operand instanceof Selector.TupleSelector
                        || operand instanceof Selector.MapOrUdtSelector) {
                    // -'a', -(c, 1): as Cassandra, no _negate overload takes a constant or a literal of selectors
                    // (a number's sign is part of the constant)
                    throw Arithmetic.negateUnsupported();
                }
                Output inner = build(neg.selector(), table, row, functions, binder);
                DataType t = inner.type();
                if (!Arithmetic.negatable(t)) {
                    throw Arithmetic.negateUnsupported();
                }
                String name = "-" + (neg.parenthesized() || neg.selector() instanceof Selector.BinaryOp
                        ? "(" + inner.name() + ")"
                        : inner.name());
                return overAggregates(List.of(inner), in -> simple(t, name,
                        (r, ctx) -> Arithmetic.negate(t, in.get(0).value(r, ctx))));
            }
            case Selector.Value v -> throw cannotInfer(v.term());
            case Selector.ListSelector l when asTerm(l) == null -> {
                return composite(l, null, table, row, functions, binder);
            }
            case Selector.SetSelector set when asTerm(set) == null -> {
                return composite(set, null, table, row, functions, binder);
            }
            case Selector.TupleSelector tuple when asTerm(tuple) == null -> {
                return composite(tuple, null, table, row, functions, binder);
            }
            case Selector.MapOrUdtSelector m when asTerm(m) == null -> {
                return composite(m, null, table, row, functions, binder);
            }
            case Selector.Parenthesized p when asTerm(p) == null -> {
                // as Cassandra: a selector in parentheses has no type by itself
                throw new Uninferrable("(" + parenthesized(p.selector(), uninferrableName(p.selector(), table, row,
                        functions, binder)) + ")");
            }
            default -> {
                // a collection or tuple of constants: Cassandra cannot type it without a hint
                Term term = asTerm(s);
                if (term != null) {
                    throw cannotInfer(term);
                }
                throw new InvalidRequestException("Unsupported selector: " + s);
            }
        }
    }

    private static String parenthesized(Selector s, String name) {
        int n = s instanceof Selector.BinaryOp bo ? bo.parentheses() : 0;
        return "(".repeat(n) + name + ")".repeat(n);
    }

    /** The collection kind an element or slice selection applies to (sets and maps), or Cassandra's error. */
    private static TypeKind collectionOf(Output inner, String what) {
        TypeKind k = Types.kind(inner.type());
        if (!k.isCollection()) {
            throw new InvalidRequestException("Invalid " + what.toLowerCase(java.util.Locale.ROOT) + " selection: "
                    + inner.name() + " is of type " + inner.type().cqlName() + " is not a collection");
        }
        if (k != TypeKind.MAP && k != TypeKind.SET) {
            throw new InvalidRequestException(what + " selection is only allowed on sets and maps, but "
                    + inner.name() + " is a " + k.name().toLowerCase(java.util.Locale.ROOT));
        }
        return k;
    }

    /** The receiver name Cassandra gives a selection's key: key(m) for maps, value(s) for sets. */
    private static String receiverOf(TypeKind k, Output inner) {
        return (k == TypeKind.MAP ? "key(" : "value(") + inner.name() + ")";
    }

    /** A term as a selection's name shows it: bind markers, named or not, as ?. */
    private static String termName(Term t) {
        return t instanceof Term.BindMarker ? "?" : t.toCql();
    }

    /**
     * A constant function argument no overload took by its type: typed after its kind (count(1) counts ints), a
     * string or null refused.
     */
    private static Output constantArgument(Selector.Value v, TermBinder binder) {
        if (!(v.term() instanceof Term.Literal lit)) {
            // a bind marker or literal no overload could type: a client error, never a server one
            throw cannotInfer(v.term());
        }
        DataType t = switch (lit.kind()) {
            case STRING, NULL -> throw cannotInfer(lit);
            case INTEGER -> NativeType.INT;
            case FLOAT -> NativeType.DOUBLE;
            case BOOLEAN -> NativeType.BOOLEAN;
            case UUID -> NativeType.UUID;
            case HEX -> NativeType.BLOB;
            case DURATION -> NativeType.DURATION;
        };
        var bound = binder.bind(lit, lit.toCql(), t);
        return simple(t, lit.toCql(), (r, ctx) -> bound.bind(ctx));
    }

    /**
     * A list or set literal in a selection with at least one element that is not a constant ({@code [i, 2]}): as
     * Cassandra, each constant takes its own preferred type and all elements must have the same type; a frozen
     * collection. {@code functionName}: the collection function it is the argument of, null in the selection itself.
     */
    private static Output collectionOf(List<Selector> elements, boolean set, TableMetadata table, RowData row,
                                       Functions functions, TermBinder binder, String functionName) {
        // in a plain selection the constants take the type of the first other element and the collection is not
        // frozen; as a function's argument each constant keeps its own type
        boolean plain = functionName == null;
        DataType adopted = null;
        if (plain) {
            for (Selector e : elements) {
                if (!(e instanceof Selector.Value)) {
                    adopted = build(e, table, row, functions, binder).type();
                    break;
                }
            }
        }
        List<Output> outs = new ArrayList<>();
        for (Selector e : elements) {
            if (e instanceof Selector.Value v && v.term() instanceof Term.Literal lit) {
                DataType t = plain ? adopted : literalType(lit);
                if (t == null) {
                    throw cannotInfer(lit);
                }
                var bound = binder.bind(lit, termName(lit), t);
                outs.add(simple(t, termName(lit), (r, ctx) -> bound.bind(ctx)));
            } else {
                outs.add(build(e, table, row, functions, binder));
            }
        }
        StringBuilder name = new StringBuilder(set ? "{" : "[");
        for (int i = 0; i < outs.size(); i++) {
            name.append(i > 0 ? ", " : "").append(outs.get(i).name());
        }
        name.append(set ? '}' : ']');
        DataType et = plain ? adopted : outs.get(0).type();
        for (Output o : outs) {
            if (!plain && !o.type().equals(et)) {
                throw cannotInferArgument(functionName, name.toString());
            }
        }
        DataType type = set ? new io.charybdis.protocol.types.SetType(et, !plain)
                : new io.charybdis.protocol.types.ListType(et, !plain);
        return simple(type, name.toString(), (r, ctx) -> {
            List<ByteBuffer> values = new ArrayList<>();
            for (Output o : outs) {
                ByteBuffer v = o.value(r, ctx);
                if (v == null || v == Values.UNSET) {
                    throw new InvalidRequestException("null is not supported inside collections");
                }
                values.add(v);
            }
            if (set) {
                java.util.TreeSet<ByteBuffer> sorted = new java.util.TreeSet<>(et::compare);
                sorted.addAll(values);
                values = new ArrayList<>(sorted);
            }
            return Values.collection(values);
        });
    }

    /** A list, set, map, user type or tuple literal holding something other than constants and markers. */
    private static boolean isComposite(Selector s) {
        return (s instanceof Selector.ListSelector || s instanceof Selector.SetSelector
                || s instanceof Selector.TupleSelector || s instanceof Selector.MapOrUdtSelector) && asTerm(s) == null;
    }

    /**
     * A type hint as Cassandra prints it in a column's name: as written, lower-cased, a tuple without its implied
     * frozen, a user type by its keyspace-qualified name.
     */
    private static String hintText(io.charybdis.node.cql.syntax.CqlTypeSyntax syntax, DataType hinted,
                                   String keyspace) {
        return hintText(syntax, keyspace, hinted);
    }

    private static String hintText(io.charybdis.node.cql.syntax.CqlTypeSyntax syntax, String keyspace,
                                   DataType resolved) {
        return switch (syntax) {
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.Native n -> resolved != null ? resolved.cqlName()
                    : n.toCql();
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.ListType l -> "list<" + hintText(l.element(), keyspace,
                    null) + ">";
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.SetType set -> "set<" + hintText(set.element(), keyspace,
                    null) + ">";
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.MapType m -> "map<" + hintText(m.key(), keyspace, null)
                    + ", " + hintText(m.value(), keyspace, null) + ">";
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.Frozen f
                    when f.inner() instanceof io.charybdis.node.cql.syntax.CqlTypeSyntax.TupleType ->
                    hintText(f.inner(), keyspace, null);
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.Frozen f
                    when f.inner() instanceof io.charybdis.node.cql.syntax.CqlTypeSyntax.UserType u -> {
                String ks = u.name().keyspace() != null ? u.name().keyspace() : keyspace;
                yield "frozen<" + (ks == null ? u.toCql() : ks + "." + u.name().name()) + ">";
            }
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.Frozen f -> "frozen<" + hintText(f.inner(), keyspace,
                    null) + ">";
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.TupleType t -> {
                List<String> parts = new ArrayList<>();
                for (var e : t.elements()) {
                    parts.add(hintText(e, keyspace, null));
                }
                yield "tuple<" + String.join(", ", parts) + ">";
            }
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.VectorType v -> "vector<" + hintText(v.element(),
                    keyspace, null) + ", " + v.dimension() + ">";
            case io.charybdis.node.cql.syntax.CqlTypeSyntax.UserType u -> {
                String ks = u.name().keyspace() != null ? u.name().keyspace() : keyspace;
                String qualified = ks == null ? u.toCql() : ks + "." + u.name().name();
                // a user type inside another type is frozen
                yield resolved != null ? qualified : "frozen<" + qualified + ">";
            }
            default -> resolved != null ? resolved.cqlName() : syntax.toCql();
        };
    }

    /** The name of a selector inside an untyped one: its output's, or the name of what cannot be typed in it. */
    private static String uninferrableName(Selector s, TableMetadata table, RowData row, Functions functions,
                                           TermBinder binder) {
        try {
            return build(s, table, row, functions, binder).name();
        } catch (Uninferrable u) {
            return u.name;
        }
    }

    /**
     * The name of a literal of selectors as written, for a message: its elements named one by one (each built by
     * itself), so that elements whose values do not fit each other do not stop it.
     */
    private static String writtenName(Selector s, TableMetadata table, RowData row, Functions functions,
                                      TermBinder binder) {
        switch (s) {
            case Selector.ListSelector l -> {
                return "[" + writtenNames(l.elements(), table, row, functions, binder) + "]";
            }
            case Selector.SetSelector set -> {
                return "{" + writtenNames(set.elements(), table, row, functions, binder) + "}";
            }
            case Selector.TupleSelector tuple -> {
                return "(" + writtenNames(tuple.elements(), table, row, functions, binder) + ")";
            }
            case Selector.Parenthesized p -> {
                return "(" + writtenName(p.selector(), table, row, functions, binder) + ")";
            }
            case Selector.MapOrUdtSelector m -> {
                StringBuilder sb = new StringBuilder("{");
                for (var e : m.entries()) {
                    sb.append(sb.length() > 1 ? ", " : "")
                            .append(e.getKey() instanceof Selector.Column c ? c.name()
                                    : writtenName(e.getKey(), table, row, functions, binder))
                            .append(": ").append(writtenName(e.getValue(), table, row, functions, binder));
                }
                return sb.append('}').toString();
            }
            default -> {
                Term term = asTerm(s);
                return term != null ? termName(term) : uninferrableName(s, table, row, functions, binder);
            }
        }
    }

    private static String writtenNames(List<Selector> elements, TableMetadata table, RowData row, Functions functions,
                                       TermBinder binder) {
        StringBuilder sb = new StringBuilder();
        for (Selector e : elements) {
            sb.append(sb.length() > 0 ? ", " : "").append(writtenName(e, table, row, functions, binder));
        }
        return sb.toString();
    }

    /** A literal of selectors whose type cannot be inferred; its message names the outermost literal. */
    private static final class Uninferrable extends InvalidRequestException {
        private static final long serialVersionUID = 1L;
        private final String name;

        Uninferrable(String name) {
            super("Cannot infer type for term " + name + " in selection clause (try using a cast to force a type)");
            this.name = name;
        }
    }

    /** An element of a literal of selectors, or a stand-in naming one that cannot be typed (see Uninferrable). */
    private static Output elementOrStandIn(Selector e, DataType expected, boolean[] uninferrable, TableMetadata table,
                                           RowData row, Functions functions, TermBinder binder) {
        if (expected == null && asTerm(e) != null) {
            uninferrable[0] = true;
            return constantName(e);
        }
        try {
            return expecting(e, expected, table, row, functions, binder);
        } catch (Uninferrable u) {
            uninferrable[0] = true;
            String name = u.name;
            return simple(NativeType.TEXT, name, (r, ctx) -> null);
        }
    }

    /**
     * A selector for a value of type {@code expected} (null: none known): a constant, a marker or a literal of them
     * takes that type, a list, set, map, user type or tuple literal is built element by element for it, anything
     * else is built as it is.
     */
    private static Output expecting(Selector s, DataType expected, TableMetadata table, RowData row,
                                    Functions functions, TermBinder binder) {
        if (s instanceof Selector.Parenthesized p && asTerm(p) == null) {
            if (expected instanceof io.charybdis.protocol.types.TupleType tt && tt.components().size() == 1) {
                // (max(ck)) where a one-component tuple is expected: the parentheses make it one
                return composite(new Selector.TupleSelector(List.of(p.selector())), expected, table, row, functions,
                        binder);
            }
            if (expected == null) {
                throw new Uninferrable("(" + parenthesized(p.selector(), uninferrableName(p.selector(), table, row,
                        functions, binder)) + ")");
            }
            Output inner = expecting(p.selector(), expected, table, row, functions, binder);
            String name = "(" + inner.name() + ")";
            return overAggregates(List.of(inner), in -> simple(inner.type(), name, (r, ctx) -> in.get(0).value(r,
                    ctx)));
        }
        if (isComposite(s)) {
            return composite(s, expected, table, row, functions, binder);
        }
        Term term = asTerm(s);
        if (term != null) {
            if (expected == null) {
                throw cannotInfer(term);
            }
            var bound = binder.bindHinted(term, termName(term), expected);
            return simple(expected, termName(term), (r, ctx) -> {
                ByteBuffer v = bound.bind(ctx);
                return v == Values.UNSET ? null : v;
            });
        }
        Output out = build(s, table, row, functions, binder);
        if (expected != null && !io.charybdis.node.cql.values.FunctionResolver.acceptsValuesOf(expected, out.type())
                && !Types.freeze(expected).equals(Types.freeze(out.type()))) {
            throw new NotAssignable();
        }
        return out;
    }

    /**
     * An element of a literal of selectors whose values do not fit the element type the literal's type hint gives
     * it ({@code (list<text>)[ck]} of an int column): Cassandra refuses the whole hinted literal, which the type
     * hint names in its message (see TypeHint).
     */
    private static final class NotAssignable extends InvalidRequestException {
        private static final long serialVersionUID = 1L;

        NotAssignable() {
            super("An element of a literal of selectors does not fit the literal's element type");
        }
    }

    /**
     * A list, set, map, user type or tuple literal of selectors ({@code [min(ck), max(ck)]},
     * {@code (map<text, int>){'pk': pk}}), as Cassandra's collection selectors: each element built for the element
     * type (from {@code expected}, or else taken from the first element typed by itself), a value per row or per
     * group when an element is an aggregate; null elements refused in lists, sets and maps; map keys and set
     * elements in their type's order. A map or user type literal needs a type hint.
     */
    private static Output composite(Selector s, DataType expected, TableMetadata table, RowData row,
                                    Functions functions, TermBinder binder) {
        switch (s) {
            case Selector.ListSelector l -> {
                return listOrSet(l.elements(), false, expected, table, row, functions, binder);
            }
            case Selector.SetSelector set -> {
                return listOrSet(set.elements(), true, expected, table, row, functions, binder);
            }
            case Selector.TupleSelector tuple -> {
                List<DataType> types = expected instanceof io.charybdis.protocol.types.TupleType tt
                        ? tt.components() : null;
                if (types != null && types.size() == 1 && tuple.elements().size() > 1
                        && types.get(0) instanceof io.charybdis.protocol.types.TupleType) {
                    // ((pk, ck)) for tuple<tuple<int, int>>: the outer parentheses make the one component
                    Output inner = composite(tuple, types.get(0), table, row, functions, binder);
                    String name = "(" + inner.name() + ")";
                    return overAggregates(List.of(inner), in -> simple(expected, name,
                            (r, ctx) -> Values.tuple(java.util.Collections.singletonList(in.get(0).value(r, ctx)))));
                }
                if (types != null && tuple.elements().size() > types.size()) {
                    throw new NotAssignable(); // as Cassandra: the hinted literal is refused whole
                }
                List<Output> outs = new ArrayList<>();
                boolean[] uninferrable = {false};
                for (int i = 0; i < tuple.elements().size(); i++) {
                    outs.add(elementOrStandIn(tuple.elements().get(i), types == null ? null : types.get(i),
                            uninferrable, table, row, functions, binder));
                }
                if (uninferrable[0]) {
                    throw new Uninferrable("(" + joinNames(outs) + ")");
                }
                List<DataType> componentTypes = new ArrayList<>();
                for (Output o : outs) {
                    componentTypes.add(o.type());
                }
                DataType type = expected != null ? expected : new io.charybdis.protocol.types.TupleType(componentTypes);
                int arity = types != null ? types.size() : outs.size();
                String name = "(" + joinNames(outs) + ")";
                return overAggregates(outs, in -> simple(type, name, (r, ctx) -> {
                    List<ByteBuffer> values = new ArrayList<>(arity);
                    for (Output o : in) {
                        values.add(o.value(r, ctx));
                    }
                    while (values.size() < arity) {
                        values.add(null);
                    }
                    return Values.tuple(values);
                }));
            }
            case Selector.MapOrUdtSelector m -> {
                TypeKind kind = expected == null ? null : Types.kind(expected);
                if (kind == TypeKind.UDT) {
                    return udtOf(m, expected, table, row, functions, binder);
                }
                DataType kt = kind == TypeKind.MAP ? Types.keyType(expected) : null;
                DataType vt = kind == TypeKind.MAP ? Types.valueType(expected) : null;
                List<Output> outs = new ArrayList<>();
                StringBuilder name = new StringBuilder("{");
                for (var e : m.entries()) {
                    if (kt == null && asTerm(e.getKey()) == null && e.getKey() instanceof Selector.Column c) {
                        // a user type literal's field name, with no type to read it by
                        outs.add(simple(NativeType.TEXT, c.name(), (r, ctx) -> null));
                    } else {
                        outs.add(kt == null ? elementOrStandIn(e.getKey(), null, new boolean[1], table, row,
                                functions, binder) : expecting(e.getKey(), kt, table, row, functions, binder));
                    }
                    outs.add(vt == null ? elementOrStandIn(e.getValue(), null, new boolean[1], table, row, functions,
                            binder) : expecting(e.getValue(), vt, table, row, functions, binder));
                    name.append(name.length() > 1 ? ", " : "").append(outs.get(outs.size() - 2).name()).append(": ")
                            .append(outs.get(outs.size() - 1).name());
                }
                name.append('}');
                if (kind != TypeKind.MAP) {
                    // as Cassandra: without a hint a map cannot be told from a user type
                    throw new Uninferrable(name.toString());
                }
                if (Types.kind(kt) == TypeKind.DURATION) {
                    throw new InvalidRequestException("Durations are not allowed as map keys: " + expected.cqlName());
                }
                String mapName = name.toString();
                return overAggregates(outs, in -> simple(expected, mapName, (r, ctx) -> {
                    java.util.TreeMap<ByteBuffer, ByteBuffer> sorted = new java.util.TreeMap<>(kt::compare);
                    for (int i = 0; i < in.size(); i += 2) {
                        ByteBuffer k = in.get(i).value(r, ctx);
                        ByteBuffer v = in.get(i + 1).value(r, ctx);
                        if (k == null || v == null) {
                            throw new InvalidRequestException("null is not supported inside collections");
                        }
                        sorted.put(copy(k), copy(v));
                    }
                    List<ByteBuffer> flat = new ArrayList<>(sorted.size() * 2);
                    sorted.forEach((k, v) -> {
                        flat.add(k);
                        flat.add(v);
                    });
                    ByteBuffer out = Values.collection(flat);
                    out.putInt(0, sorted.size());
                    return out;
                }));
            }
            default -> throw new IllegalStateException("not a composite selector: " + s);
        }
    }

    /** A constant's name, for a message only (it is not bound). */
    private static Output constantName(Selector s) {
        String name = termName(asTerm(s));
        return simple(NativeType.TEXT, name, (r, ctx) -> null);
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.remaining());
        c.put(b.duplicate()).flip();
        return c;
    }

    private static String joinNames(List<Output> outs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < outs.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(outs.get(i).name());
        }
        return sb.toString();
    }

    /** {@code (udt){a: min(ck), b: 'x'}}: each named field built for its type, the others null. */
    private static Output udtOf(Selector.MapOrUdtSelector m, DataType udt, TableMetadata table, RowData row,
                                Functions functions, TermBinder binder) {
        List<String> fieldNames = Types.fieldNames(udt);
        List<DataType> fieldTypes = Types.fieldTypes(udt);
        List<Output> outs = new ArrayList<>();
        int[] positions = new int[m.entries().size()];
        StringBuilder name = new StringBuilder("{");
        for (int i = 0; i < m.entries().size(); i++) {
            var e = m.entries().get(i);
            String field = e.getKey() instanceof Selector.Column c ? c.name()
                    : asTerm(e.getKey()) instanceof Term.Literal lit ? lit.text() : null;
            int pos = field == null ? -1 : fieldNames.indexOf(field);
            if (pos < 0) {
                throw new InvalidRequestException("Unknown field '" + field + "' in value of user defined type "
                        + udt.cqlName());
            }
            positions[i] = pos;
            Output o = expecting(e.getValue(), fieldTypes.get(pos), table, row, functions, binder);
            outs.add(o);
            name.append(i > 0 ? ", " : "").append(field).append(": ").append(o.name());
        }
        name.append('}');
        int arity = fieldNames.size();
        String udtName = name.toString();
        return overAggregates(outs, in -> simple(udt, udtName, (r, ctx) -> {
            List<ByteBuffer> values = new ArrayList<>(java.util.Collections.nCopies(arity, (ByteBuffer) null));
            for (int i = 0; i < in.size(); i++) {
                values.set(positions[i], in.get(i).value(r, ctx));
            }
            return Values.tuple(values);
        }));
    }

    /** A list or set literal of selectors; see {@link #composite}. */
    private static Output listOrSet(List<Selector> elements, boolean set, DataType expected, TableMetadata table,
                                    RowData row, Functions functions, TermBinder binder) {
        DataType elementType = expected != null ? Types.elementType(expected) : null;
        Output[] outs = new Output[elements.size()];
        boolean[] uninferrable = {false};
        if (elementType == null) {
            // the first element typed by itself gives the others their type
            for (int i = 0; i < elements.size() && elementType == null; i++) {
                Selector e = elements.get(i);
                if (asTerm(e) == null && !(e instanceof Selector.Parenthesized)) {
                    outs[i] = elementOrStandIn(e, null, uninferrable, table, row, functions, binder);
                    elementType = uninferrable[0] ? null : outs[i].type();
                }
            }
        }
        for (int i = 0; i < outs.length; i++) {
            if (outs[i] == null) {
                outs[i] = elementOrStandIn(elements.get(i), elementType, uninferrable, table, row, functions,
                        binder);
            }
        }
        if (uninferrable[0]) {
            throw new Uninferrable((set ? "{" : "[") + joinNames(List.of(outs)) + (set ? "}" : "]"));
        }
        if (set && Types.kind(elementType) == TypeKind.DURATION) {
            throw new InvalidRequestException("Durations are not allowed inside sets: frozen<set<duration>>");
        }
        DataType et = elementType;
        DataType type = expected != null ? expected : set ? new io.charybdis.protocol.types.SetType(et, false)
                : new io.charybdis.protocol.types.ListType(et, false);
        List<Output> list = List.of(outs);
        String name = (set ? "{" : "[") + joinNames(list) + (set ? "}" : "]");
        return overAggregates(list, in -> simple(type, name, (r, ctx) -> {
            List<ByteBuffer> values = new ArrayList<>(in.size());
            for (Output o : in) {
                ByteBuffer v = o.value(r, ctx);
                if (v == null || v == Values.UNSET) {
                    throw new InvalidRequestException("null is not supported inside collections");
                }
                values.add(set ? copy(v) : v);
            }
            if (set) {
                java.util.TreeSet<ByteBuffer> sorted = new java.util.TreeSet<>(et::compare);
                sorted.addAll(values);
                values = new ArrayList<>(sorted);
            }
            return Values.collection(values);
        }));
    }

    private static final java.util.Set<String> COLLECTION_FUNCTIONS = java.util.Set.of("map_keys", "map_values",
            "collection_count", "collection_min", "collection_max", "collection_sum", "collection_avg");

    /**
     * A collection literal of constants given to a collection function ({@code collection_count([1, 2, 3])}): as
     * Cassandra, a list or set literal is typed by its elements' constants (an integer an int, a bigint or a varint
     * by its size, a decimal constant a double, a string ascii; nulls fit any), as a frozen collection. Maps, empty
     * literals and elements of different types cannot be typed: Cassandra asks for a cast. Null where the argument is
     * not a literal of constants.
     */
    private static Output literalCollection(String fname, Selector a, TermBinder binder) {
        Term term = switch (a) {
            case Selector.ListSelector l -> asTerm(l);
            case Selector.SetSelector set -> asTerm(set);
            case Selector.MapOrUdtSelector m -> asTerm(m);
            case Selector.Value v when v.term() instanceof Term.EmptyBraces -> v.term();
            default -> null;
        };
        if (term == null || !constantsOnly(term)) {
            return null;
        }
        DataType type = literalType(term);
        if (type == null) {
            throw cannotInferArgument(fname, literalText(term));
        }
        String name = literalText(term);
        Output withNulls = listWithNulls(term, type, name, binder);
        if (withNulls != null) {
            return withNulls;
        }
        var bound = binder.bind(term, name, type);
        return simple(type, name, (r, ctx) -> bound.bind(ctx));
    }

    /**
     * A list literal of constants with null elements, as Cassandra keeps it in a selection: the nulls stay elements
     * of the value (the collection functions skip them). Null when {@code term} is not such a literal.
     */
    private static Output listWithNulls(Term term, DataType type, String name, TermBinder binder) {
        if (!(term instanceof Term.ListLiteral l) || Types.kind(type) != TypeKind.LIST
                || l.elements().stream().noneMatch(Selection::isNullLiteral) || !constantsOnly(term)) {
            return null;
        }
        DataType et = Types.elementType(type);
        List<io.charybdis.node.cql.values.BoundValue> parts = new ArrayList<>();
        for (Term e : l.elements()) {
            parts.add(isNullLiteral(e) ? null : binder.bind(e, name, et));
        }
        return simple(type, name, (r, ctx) -> {
            List<ByteBuffer> values = new ArrayList<>(parts.size());
            int size = 4;
            for (io.charybdis.node.cql.values.BoundValue part : parts) {
                ByteBuffer v = part == null ? null : part.bind(ctx);
                values.add(v);
                size += 4 + (v == null ? 0 : v.remaining());
            }
            ByteBuffer out = ByteBuffer.allocate(size).putInt(values.size());
            for (ByteBuffer v : values) {
                if (v == null) {
                    out.putInt(-1);
                } else {
                    out.putInt(v.remaining()).put(v.duplicate());
                }
            }
            return out.flip();
        });
    }

    private static boolean isNullLiteral(Term t) {
        return t instanceof Term.Literal lit && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL;
    }

    /** A literal of constants as Cassandra names it in a selection: null elements as NULL. */
    private static String literalText(Term t) {
        return switch (t) {
            case Term.ListLiteral l -> "[" + String.join(", ", l.elements().stream().map(Selection::literalText)
                    .toList()) + "]";
            case Term.SetLiteral set -> "{" + String.join(", ", set.elements().stream().map(Selection::literalText)
                    .toList()) + "}";
            default -> termText(t);
        };
    }

    private static InvalidRequestException cannotInferArgument(String fname, String argument) {
        String signature = switch (fname) {
            case "collection_count" -> "collection";
            case "map_keys", "map_values" -> "map";
            default -> "numeric_set_or_list";
        };
        return new InvalidRequestException("Cannot infer type of argument " + argument + " in call to function "
                + "system." + fname + "(" + signature + "): use type casts to disambiguate");
    }


    private static boolean constantsOnly(Term t) {
        return switch (t) {
            case Term.Literal lit -> true;
            case Term.ListLiteral l -> l.elements().stream().allMatch(Selection::constantsOnly);
            case Term.SetLiteral set -> set.elements().stream().allMatch(Selection::constantsOnly);
            case Term.MapLiteral m -> m.entries().stream().allMatch(e -> constantsOnly(e.getKey())
                    && constantsOnly(e.getValue()));
            case Term.EmptyBraces e -> true;
            default -> false;
        };
    }

    /** The type Cassandra infers for a literal of constants; null where it infers none. */
    private static DataType literalType(Term t) {
        return switch (t) {
            case Term.Literal lit -> switch (lit.kind()) {
                case INTEGER -> integerType(lit.text());
                case FLOAT -> NativeType.DOUBLE;
                case STRING -> NativeType.ASCII;
                case BOOLEAN -> NativeType.BOOLEAN;
                case UUID -> NativeType.UUID;
                case HEX -> NativeType.BLOB;
                case DURATION -> NativeType.DURATION;
                case NULL -> null;
            };
            case Term.ListLiteral l -> {
                DataType e = commonElementType(l.elements());
                yield e == null ? null : new io.charybdis.protocol.types.ListType(e, true);
            }
            case Term.SetLiteral set -> {
                DataType e = commonElementType(set.elements());
                yield e == null ? null : new io.charybdis.protocol.types.SetType(e, true);
            }
            default -> null;
        };
    }

    private static DataType commonElementType(List<Term> terms) {
        DataType common = null;
        for (Term t : terms) {
            if (t instanceof Term.Literal lit && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL) {
                continue;
            }
            DataType d = literalType(t);
            if (d == null || common != null && !common.equals(d)) {
                return null;
            }
            common = d;
        }
        return common;
    }

    /** Cassandra's refusal of a constant (or bind marker) it cannot type in a selection. */
    private static InvalidRequestException cannotInfer(Term t) {
        return new InvalidRequestException("Cannot infer type for term " + literalText(t) + " in selection clause (try "
                + "using a cast to force a type)");
    }

    /** A term as Cassandra renders it in messages: null as NULL. */
    private static String termText(Term t) {
        return t instanceof Term.Literal lit && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL ? "NULL"
                : t.toCql();
    }

    /** A selector made only of constants and bind markers, as the term it writes; null for anything else. */
    private static Term asTerm(Selector s) {
        switch (s) {
            case Selector.Value v -> {
                return v.term();
            }
            case Selector.ListSelector l -> {
                List<Term> elements = asTerms(l.elements());
                return elements == null ? null : new Term.ListLiteral(elements);
            }
            case Selector.SetSelector set -> {
                List<Term> elements = asTerms(set.elements());
                return elements == null ? null : new Term.SetLiteral(elements);
            }
            case Selector.TupleSelector t -> {
                List<Term> elements = asTerms(t.elements());
                return elements == null ? null : new Term.TupleLiteral(elements);
            }
            case Selector.Parenthesized p -> {
                // (1): a constant in parentheses, a one-element tuple or the constant itself by its receiver
                Term inner = asTerm(p.selector());
                return inner == null ? null : new Term.TupleLiteral(List.of(inner));
            }
            case Selector.MapOrUdtSelector m -> {
                List<java.util.Map.Entry<Term, Term>> entries = new ArrayList<>();
                for (var e : m.entries()) {
                    Term k = asTerm(e.getKey());
                    Term v = asTerm(e.getValue());
                    if (k == null || v == null) {
                        return null;
                    }
                    entries.add(java.util.Map.entry(k, v));
                }
                return new Term.MapLiteral(entries);
            }
            default -> {
                return null;
            }
        }
    }

    private static List<Term> asTerms(List<Selector> selectors) {
        List<Term> out = new ArrayList<>(selectors.size());
        for (Selector e : selectors) {
            Term t = asTerm(e);
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        return out;
    }

    /**
     * Operands that fit several of Cassandra's operator overloads: two timestamps (a timestamp also fits the bigint
     * ones), or a string constant with a duration (the string could be a timestamp or a date).
     */
    private static void ambiguousOperands(Selector.BinaryOp bo, Output l, Output r) {
        TypeKind lk = Types.kind(l.type());
        TypeKind rk = Types.kind(r.type());
        boolean ambiguous = lk == TypeKind.TIMESTAMP && rk == TypeKind.TIMESTAMP
                || isStringConstant(bo.left()) && rk == TypeKind.DURATION;
        if (ambiguous) {
            throw new InvalidRequestException("Ambiguous '" + bo.op().symbol() + "' operation with args " + l.name()
                    + " and " + r.name() + ": use type hint to disambiguate, example '(int) ?'");
        }
    }

    private static boolean isMarker(Selector s) {
        return s instanceof Selector.Value v && v.term() instanceof Term.BindMarker;
    }

    /**
     * An operation with a bind marker operand ({@code d + ?}), resolved among the operator's overloads as Cassandra
     * resolves it with no receiver: a selected value fits a parameter of its own type exactly and one accepting its
     * values weakly, a marker fits any weakly, a constant by its preferred type. One fitting overload types the marker
     * (named {@code [selection]}); none or several are Cassandra's errors.
     */
    private static Output markerOperation(Selector.BinaryOp bo, Output left, Output right, TermBinder binder) {
        Selector[] operands = {bo.left(), bo.right()};
        Output[] outputs = {left, right};
        String[] names = new String[2];
        for (int i = 0; i < 2; i++) {
            names[i] = outputs[i] != null ? outputs[i].name()
                    : io.charybdis.node.cql.values.FunctionResolver.text(((Selector.Value) operands[i]).term());
        }
        io.charybdis.node.cql.values.NativeFunction chosen = null;
        List<io.charybdis.node.cql.values.NativeFunction> compatibles = new ArrayList<>();
        for (var fn : io.charybdis.node.cql.values.Operations.overloads(bo.op())) {
            boolean exact = true;
            boolean fits = true;
            for (int i = 0; i < 2 && fits; i++) {
                var m = outputs[i] != null
                        ? io.charybdis.node.cql.values.FunctionResolver.returnMatch(outputs[i].type(),
                                fn.argTypes().get(i))
                        : ((Selector.Value) operands[i]).term() instanceof Term.Literal lit
                                ? io.charybdis.node.cql.values.FunctionResolver.literal(lit, fn.argTypes().get(i))
                                : io.charybdis.node.cql.values.FunctionResolver.Match.WEAK;
                fits = m != io.charybdis.node.cql.values.FunctionResolver.Match.NOT;
                exact &= m == io.charybdis.node.cql.values.FunctionResolver.Match.EXACT;
            }
            if (fits && exact) {
                chosen = fn;
                break;
            }
            if (fits) {
                compatibles.add(fn);
            }
        }
        if (chosen == null) {
            if (compatibles.isEmpty()) {
                throw new InvalidRequestException("the '" + bo.op().symbol() + "' operation is not supported between "
                        + names[0] + " and " + names[1]);
            }
            if (compatibles.size() > 1) {
                throw new InvalidRequestException("Ambiguous '" + bo.op().symbol() + "' operation with args "
                        + names[0] + " and " + names[1] + ": use type hint to disambiguate, example '(int) ?'");
            }
            chosen = compatibles.get(0);
        }
        var fn = chosen;
        Output[] typed = new Output[2];
        for (int i = 0; i < 2; i++) {
            DataType t = fn.argTypes().get(i);
            if (outputs[i] != null) {
                typed[i] = outputs[i];
            } else if (((Selector.Value) operands[i]).term() instanceof Term.BindMarker m) {
                var bound = binder.marker(m, "[selection]", t);
                typed[i] = simple(t, "?", (r, ctx) -> {
                    ByteBuffer b = bound.bind(ctx);
                    return b == Values.UNSET ? null : b;
                });
            } else {
                Term term = ((Selector.Value) operands[i]).term();
                var bound = binder.bind(term, term.toCql(), t);
                typed[i] = simple(t, names[i], (r, ctx) -> bound.bind(ctx));
            }
        }
        return overAggregates(List.of(typed[0], typed[1]), lr -> {
            Output l = lr.get(0);
            Output r = lr.get(1);
            DataType result = fn.returnType();
            return simple(result, l.name() + " " + bo.op().symbol() + " " + r.name(), (row2, ctx) ->
                    Arithmetic.apply(bo.op(), fn.argTypes().get(0), l.value(row2, ctx), fn.argTypes().get(1),
                            r.value(row2, ctx), result));
        });
    }

    private static boolean isStringConstant(Selector s) {
        return s instanceof Selector.Value v && v.term() instanceof Term.Literal lit
                && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.STRING;
    }

    /** {@code v + null}: Cassandra cannot pick the operation's overload. */
    private static void ambiguousNull(Selector.BinaryOp bo, Selector.Value operand, String leftName,
                                      String rightName) {
        if (operand.term() instanceof Term.Literal lit && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL) {
            throw new InvalidRequestException("Ambiguous '" + bo.op().symbol() + "' operation with args " + leftName
                    + " and " + rightName + ": use type hint to disambiguate, example '(int) ?'");
        }
    }

    /**
     * A constant operand of an arithmetic selection: an integer is an int, a bigint or a varint by its size, a
     * decimal constant a double, as Cassandra types them; the result takes the wider of the two types.
     */
    private static Output literalOperand(Selector.Value v, DataType other, TermBinder binder) {
        if (!(v.term() instanceof Term.Literal lit)) {
            throw cannotInfer(v.term());
        }
        DataType t = switch (lit.kind()) {
            case INTEGER -> integerType(lit.text());
            case FLOAT -> NativeType.DOUBLE;
            case DURATION -> NativeType.DURATION;
            case STRING -> NativeType.TEXT;
            default -> throw new InvalidRequestException("Cannot infer type for term " + lit.toCql()
                    + " in selection clause (try using a cast to force a type)");
        };
        var bound = binder.bind(lit, lit.toCql(), t);
        return simple(t, lit.toCql(), (r, ctx) -> bound.bind(ctx));
    }

    private static DataType integerType(String text) {
        BigInteger n = new BigInteger(text);
        return n.bitLength() < 32 ? NativeType.INT : n.bitLength() < 64 ? NativeType.BIGINT : NativeType.VARINT;
    }

    interface ValueFn {
        ByteBuffer apply(RowData r, BindContext ctx);
    }

    /**
     * An output computed from {@code args} by {@code make}; when some argument is an aggregate (
     * {@code max(v) + 1}), it is computed once per group from the aggregates' results (and the first row's values of
     * the other arguments), as Cassandra does.
     */
    static Output overAggregates(List<Output> args, java.util.function.Function<List<Output>, Output> make) {
        boolean agg = false;
        for (Output a : args) {
            agg |= a != null && a.isAggregate();
        }
        if (!agg) {
            return make.apply(args);
        }
        ByteBuffer[] slots = new ByteBuffer[args.size()];
        List<Output> views = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Output a = args.get(i);
            if (a == null) {
                views.add(null);
                continue;
            }
            int idx = i;
            views.add(simple(a.type(), a.name(), (r, ctx) -> slots[idx] == null ? null : slots[idx].duplicate()));
        }
        Output computed = make.apply(views);
        return new Output() {
            private boolean first = true;
            private final ByteBuffer[] firstValues = new ByteBuffer[args.size()];

            public DataType type() {
                return computed.type();
            }

            public String name() {
                return computed.name();
            }

            public ByteBuffer value(RowData row, BindContext ctx) {
                for (int i = 0; i < args.size(); i++) {
                    Output a = args.get(i);
                    if (a == null) {
                        continue;
                    }
                    if (a.isAggregate()) {
                        a.value(row, ctx);
                    } else if (first) {
                        firstValues[i] = RowData.copy(a.value(row, ctx));
                    }
                }
                first = false;
                return null;
            }

            public boolean isAggregate() {
                return true;
            }

            public void reset() {
                first = true;
                java.util.Arrays.fill(firstValues, null);
                for (Output a : args) {
                    if (a != null) {
                        a.reset();
                    }
                }
            }

            public ByteBuffer result(BindContext ctx) {
                for (int i = 0; i < args.size(); i++) {
                    Output a = args.get(i);
                    if (a != null) {
                        slots[i] = a.isAggregate() ? a.result(ctx) : firstValues[i];
                    }
                }
                return computed.value(null, ctx);
            }
        };
    }

    static Output simple(DataType type, String name, ValueFn fn) {
        return new Output() {
            public DataType type() {
                return type;
            }

            public String name() {
                return name;
            }

            public ByteBuffer value(RowData r, BindContext ctx) {
                return fn.apply(r, ctx);
            }
        };
    }

    private static Output function(Selector.FunctionCall fc, TableMetadata table, RowData row, Functions functions,
                                   TermBinder binder) {
        String fname = fc.function().name();
        if (Functions.isFromJson(fname)) {
            throw new InvalidRequestException(fname + "() cannot be used in the selection clause of a SELECT statement");
        }
        if (Functions.isToJson(fname)) {
            if (fc.args().size() != 1) {
                throw new InvalidRequestException("Invalid number of arguments for function system." + fname + "(any)");
            }
            if (fc.args().get(0) instanceof Selector.Value v && v.term() instanceof Term.Literal lit
                    && lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL) {
                throw new InvalidRequestException("Cannot infer type of argument NULL in call to function "
                        + "system.tojson(any): use type casts to disambiguate");
            }
        }
        if (SIMILARITY_FUNCTIONS.contains(fname)) {
            return similarity(fc, table, row, functions, binder);
        }
        if (MaskingFunctions.NAMES.contains(fname)) {
            return MaskingFunctions.build(fname, fc.args().size(),
                    (i, expected) -> typedArgument(fc, i, expected, table, row, functions, binder));
        }
        if (CollectionFunctions.isCollectionFunction(fname) && fc.args().size() == 1
                && fc.args().get(0) instanceof Selector.Value v && v.term() instanceof Term.BindMarker) {
            throw new InvalidRequestException("Cannot infer type of argument ? in call to function system." + fname
                    + (fname.startsWith("map_") ? "(map)" : "(collection)") + ": use type casts to disambiguate");
        }
        List<Output> args = new ArrayList<>();
        boolean literalArgs = false;
        for (Selector a : fc.args()) {
            Output literalCollection = null;
            if (COLLECTION_FUNCTIONS.contains(fname)) {
                literalCollection = literalCollection(fname, a, binder);
                if (literalCollection == null && (a instanceof Selector.ListSelector || a instanceof Selector.SetSelector)
                        && asTerm(a) == null) {
                    boolean set = a instanceof Selector.SetSelector;
                    List<Selector> elements = set ? ((Selector.SetSelector) a).elements()
                            : ((Selector.ListSelector) a).elements();
                    literalCollection = collectionOf(elements, set, table, row, functions, binder, fname);
                }
            }
            if (literalCollection != null) {
                args.add(literalCollection);
            } else if (a instanceof Selector.Value v && (v.term() instanceof Term.Literal
                    || v.term() instanceof Term.BindMarker)) {
                literalArgs = true;
                args.add(null);
            } else {
                args.add(build(a, table, row, functions, binder));
            }
        }
        if (literalArgs) {
            // a constant argument takes the type of the overload that accepts it (minTimeuuid('2024-01-01')),
            // preferably the constant's own type (abs(1) is the int overload); a bind marker cannot choose between
            // several overloads
            List<NativeFunction> candidates = functions.overloads(fname).stream()
                    .filter(f -> f.argTypes().size() == fc.args().size()).toList();
            if (candidates.size() > 1) {
                for (Selector a : fc.args()) {
                    if (a instanceof Selector.Value v && v.term() instanceof Term.BindMarker) {
                        throw new InvalidRequestException("Ambiguous call to function " + fname + " (can be matched "
                                + "by following signatures: " + signatures(candidates) + "): use type casts to "
                                + "disambiguate");
                    }
                }
            }
            List<NativeFunction> ordered = new ArrayList<>();
            List<NativeFunction> others = new ArrayList<>();
            for (NativeFunction fn : candidates) {
                boolean own = true;
                for (int i = 0; i < fc.args().size() && own; i++) {
                    if (args.get(i) == null && ((Selector.Value) fc.args().get(i)).term() instanceof Term.Literal lit) {
                        DataType natural = naturalType(lit);
                        own = natural == null || natural.equals(fn.argTypes().get(i));
                    }
                }
                (own ? ordered : others).add(fn);
            }
            ordered.addAll(others);
            if (ordered.size() == others.size()) {
                // no overload takes the constants as their own types: Cassandra cannot choose between several that
                // take them loosely (toUnixTimestamp('2024-01-01') is a timestamp or a date)
                List<NativeFunction> loose = new ArrayList<>();
                for (NativeFunction fn : candidates) {
                    boolean fits = true;
                    for (int i = 0; i < fc.args().size() && fits; i++) {
                        if (args.get(i) == null) {
                            fits = !(((Selector.Value) fc.args().get(i)).term() instanceof Term.Literal lit)
                                    || io.charybdis.node.cql.values.Literals.assignable(lit, fn.argTypes().get(i));
                        } else {
                            fits = fn.argTypes().get(i).equals(args.get(i).type());
                        }
                    }
                    if (fits) {
                        loose.add(fn);
                    }
                }
                if (loose.size() > 1) {
                    throw new InvalidRequestException("Ambiguous call to function " + fname + " (can be matched by "
                            + "following signatures: " + signatures(loose) + "): use type casts to disambiguate");
                }
            }
            InvalidRequestException bindError = null;
            for (NativeFunction fn : ordered) {
                List<Output> typed = new ArrayList<>(args);
                boolean ok = true;
                for (int i = 0; i < typed.size() && ok; i++) {
                    if (typed.get(i) == null && ((Selector.Value) fc.args().get(i)).term()
                            instanceof Term.BindMarker m) {
                        DataType t = fn.argTypes().get(i);
                        var bound = binder.marker(m, "[selection]", t);
                        typed.set(i, simple(t, "?", (r, ctx) -> {
                            ByteBuffer b = bound.bind(ctx);
                            return b == Values.UNSET ? null : b;
                        }));
                    } else if (typed.get(i) == null) {
                        Term.Literal lit = (Term.Literal) ((Selector.Value) fc.args().get(i)).term();
                        if (!io.charybdis.node.cql.values.Literals.assignable(lit, fn.argTypes().get(i))) {
                            ok = false;
                            continue;
                        }
                        try {
                            var bound = binder.bind(lit, lit.toCql(), fn.argTypes().get(i));
                            DataType t = fn.argTypes().get(i);
                            typed.set(i, simple(t, lit.toCql(), (r, ctx) -> bound.bind(ctx)));
                        } catch (InvalidRequestException e) {
                            bindError = e;
                            ok = false;
                        }
                    } else {
                        ok = fn.argTypes().get(i).equals(typed.get(i).type());
                    }
                }
                if (ok) {
                    args = typed;
                    break;
                }
            }
            List<NativeFunction> sameArity = functions.overloads(fname).stream()
                    .filter(f -> f.argTypes().size() == fc.args().size()).toList();
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) == null && sameArity.size() == 1
                        && ((Selector.Value) fc.args().get(i)).term() instanceof Term.Literal lit
                        && !io.charybdis.node.cql.values.Literals.assignable(lit, sameArity.get(0).argTypes().get(i))) {
                    throw new InvalidRequestException("Type error: " + termText(lit) + " cannot be passed as argument "
                            + i + " of function system." + fname + " of type "
                            + sameArity.get(0).argTypes().get(i).cqlName());
                }
            }
            if (candidates.size() == 1 && args.contains(null) && bindError != null) {
                throw bindError; // the one overload's constant does not parse (minTimeuuid('not a date'))
            }
            if (candidates.size() > 1 && args.contains(null)) {
                throw new InvalidRequestException("Invalid call to function " + fname + ", none of its type "
                        + "signatures match (known type signatures: " + signatures(functions.overloads(fname)) + ")");
            }
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i) == null) {
                    args.set(i, constantArgument((Selector.Value) fc.args().get(i), binder));
                }
            }
        }
        // to_json names its column system.tojson(..), as Cassandra does
        StringBuilder name = new StringBuilder("system.").append(Functions.isToJson(fname) ? "tojson" : fname).append('(');
        for (int i = 0; i < args.size(); i++) {
            name.append(i > 0 ? ", " : "").append(args.get(i).name());
        }
        name.append(')');
        String outName = name.toString();
        switch (fname) {
            case "count" -> {
                if (args.size() != 1) {
                    throw new InvalidRequestException("Invalid number of arguments in call to function system.count: "
                            + "1 required but " + args.size() + " provided");
                }
                if (args.get(0).isAggregate()) {
                    throw new InvalidRequestException("aggregate functions cannot be used as arguments of aggregate "
                            + "functions");
                }
                if (fc.args().get(0) instanceof Selector.Value) {
                    return new CountOutput("count", null, -1); // count(1) counts rows, like count(*)
                }
                return new CountOutput(outName, args.get(0), 0);
            }
            case "min", "max", "sum", "avg" -> {
                if (args.size() != 1 && !fname.equals("min") && !fname.equals("max")) {
                    throw Aggregate.noSignature(fname);
                }
                if (args.size() == 1 && args.get(0).isAggregate()) {
                    throw new InvalidRequestException("aggregate functions cannot be used as arguments of aggregate "
                            + "functions");
                }
                if (args.size() != 1) {
                    throw new InvalidRequestException("Invalid number of arguments in call to function system." + fname
                            + ": 1 required but " + args.size() + " provided");
                }
                return new Aggregate(fname, outName, args.get(0));
            }
            case "map_keys", "map_values", "collection_count", "collection_min", "collection_max", "collection_sum",
                 "collection_avg" -> {
                if (args.size() != 1) {
                    throw new InvalidRequestException("Invalid number of arguments in call to function system." + fname
                            + ": 1 required but " + args.size() + " provided");
                }
                return CollectionFunctions.build(fname, outName, args.get(0));
            }
            case "token" -> {
                List<Output> keyArgs = args;
                if (keyArgs.size() != table.partitionKey().size()) {
                    throw new InvalidRequestException("Invalid number of arguments in call to function system.token: "
                            + table.partitionKey().size() + " required but " + keyArgs.size() + " provided");
                }
                for (int i = 0; i < keyArgs.size(); i++) {
                    DataType keyType = table.partitionKey().get(i).type();
                    if (fc.args().get(i) instanceof Selector.Column
                            && !Functions.fits(keyArgs.get(i).type(), keyType)) {
                        throw new InvalidRequestException("Type error: " + keyArgs.get(i).name() + " cannot be passed "
                                + "as argument " + i + " of function system.token of type " + keyType.cqlName());
                    }
                }
                boolean ownKey = true;
                for (int i = 0; i < keyArgs.size(); i++) {
                    ownKey &= fc.args().get(i) instanceof Selector.Column col
                            && col.name().equals(table.partitionKey().get(i).name());
                }
                if (ownKey) {
                    return simple(io.charybdis.protocol.types.NativeType.BIGINT, outName,
                            (r, ctx) -> Values.bigint(r.token));
                }
                // token() of other values: the token those values would have as this table's partition key
                List<Output> parts = List.copyOf(keyArgs);
                return simple(io.charybdis.protocol.types.NativeType.BIGINT, outName, (r, ctx) -> {
                    ByteBuffer[] vals = new ByteBuffer[parts.size()];
                    for (int i = 0; i < vals.length; i++) {
                        vals[i] = parts.get(i).value(r, ctx);
                        if (vals[i] == null) {
                            return null;
                        }
                    }
                    return Values.bigint(io.charybdis.node.cql.keys.Murmur3.token(
                            io.charybdis.node.cql.keys.PartitionKeyCodec.compose(vals)));
                });
            }
            case "tojson", "to_json" -> {
                if (args.size() != 1) {
                    throw new InvalidRequestException("toJson() may only be used with a single argument");
                }
                Output arg = args.get(0);
                return simple(NativeType.TEXT, outName, (r, ctx) -> {
                    ByteBuffer v = arg.value(r, ctx);
                    return Values.text(io.charybdis.node.cql.values.Json.format(arg.type(), v));
                });
            }
            default -> {
            }
        }
        List<NativeFunction> overloads = functions.overloads(fname);
        if (overloads.isEmpty()) {
            throw new InvalidRequestException("Unknown function '" + fc.function().name() + "'");
        }
        NativeFunction chosen = null;
        for (NativeFunction fn : overloads) {
            if (fn.argTypes().size() != args.size()) {
                continue;
            }
            boolean ok = true;
            for (int i = 0; i < args.size(); i++) {
                ok &= fn.argTypes().get(i).equals(args.get(i).type());
            }
            if (ok) {
                chosen = fn;
                break;
            }
        }
        if (chosen == null) {
            chosen = resolveLoosely(fname, overloads, args);
        }
        NativeFunction fn = chosen;
        // Cassandra's blobAsTimeuuid reports its result as the custom LegacyTimeUUIDType
        DataType resultType = fn.name().equals("blobastimeuuid") ? MaskingFunctions.LEGACY_TIMEUUID
                : fn.returnType();
        return overAggregates(List.copyOf(args), finalArgs -> simple(resultType, outName, (r, ctx) -> {
            List<ByteBuffer> vals = new ArrayList<>(finalArgs.size());
            for (Output a : finalArgs) {
                vals.add(a.value(r, ctx));
            }
            return fn.execute(vals, ctx);
        }));
    }

    /**
     * Cassandra's resolution of a call no overload takes exactly: with a single overload, its arguments are checked
     * one by one; with several, the one overload that every argument fits loosely (ascii for text, timeuuid for
     * uuid) is taken, and none or several are errors listing the overloads in the registry's order.
     */
    private static NativeFunction resolveLoosely(String fname, List<NativeFunction> overloads, List<Output> args) {
        if (overloads.size() == 1) {
            NativeFunction f = overloads.get(0);
            if (f.argTypes().size() != args.size()) {
                throw new InvalidRequestException("Invalid number of arguments in call to function system." + f.name()
                        + ": " + f.argTypes().size() + " required but " + args.size() + " provided");
            }
            for (int i = 0; i < args.size(); i++) {
                // a blob argument takes a value of any type, its bytes as they are (blobAsInt(i))
                if (!argumentFits(args.get(i).type(), f.argTypes().get(i))
                        && Types.kind(f.argTypes().get(i)) != TypeKind.BLOB) {
                    throw new InvalidRequestException("Type error: " + args.get(i).name() + " cannot be passed as "
                            + "argument " + i + " of function system." + f.name() + " of type "
                            + f.argTypes().get(i).cqlName());
                }
            }
            return f;
        }
        List<NativeFunction> fitting = new ArrayList<>();
        for (NativeFunction f : overloads) {
            boolean ok = f.argTypes().size() == args.size();
            for (int i = 0; ok && i < args.size(); i++) {
                ok = argumentFits(args.get(i).type(), f.argTypes().get(i));
            }
            if (ok) {
                fitting.add(f);
            }
        }
        if (fitting.size() == 1) {
            return fitting.get(0);
        }
        if (fitting.isEmpty()) {
            throw new InvalidRequestException("Invalid call to function " + fname + ", none of its type signatures "
                    + "match (known type signatures: " + signatures(overloads) + ")");
        }
        throw new InvalidRequestException("Ambiguous call to function " + fname + " (can be matched by following "
                + "signatures: " + signatures(fitting) + "): use type casts to disambiguate");
    }

    /** Cassandra's weak assignment of a function argument: besides Functions.fits, a bigint is a timestamp. */
    private static boolean argumentFits(DataType value, DataType receiver) {
        return Functions.fits(value, receiver)
                || Types.kind(value) == TypeKind.BIGINT && Types.kind(receiver) == TypeKind.TIMESTAMP;
    }

    private static String signatures(List<NativeFunction> functions) {
        List<String> known = new ArrayList<>();
        for (NativeFunction f : functions) {
            StringBuilder sig = new StringBuilder("system.").append(f.name()).append(" : (");
            for (int i = 0; i < f.argTypes().size(); i++) {
                sig.append(i > 0 ? ", " : "").append(f.argTypes().get(i).cqlName());
            }
            known.add(sig.append(") -> ").append(f.returnType().cqlName()).toString());
        }
        return String.join(", ", known);
    }

    /**
     * Argument {@code i} of a call whose overload gives it type {@code expected} (null: the argument's own type): a
     * constant or bind marker takes the expected type, anything else must already have it.
     */
    /** Cassandra 5.0's vector similarity functions (float vectors of one dimension; a float result). */
    private static final java.util.Set<String> SIMILARITY_FUNCTIONS = java.util.Set.of("similarity_cosine",
            "similarity_euclidean", "similarity_dot_product");

    /**
     * {@code similarity_cosine / _euclidean / _dot_product(a, b)} as Cassandra 5.0 computes them: (1 + cosine) / 2,
     * 1 / (1 + squared distance), (1 + dot product) / 2, in float; a literal or marker argument takes the type of
     * the other argument; null when either is null.
     */
    private static Output similarity(Selector.FunctionCall fc, TableMetadata table, RowData row, Functions functions,
                                     TermBinder binder) {
        String fname = fc.function().name();
        if (fc.args().size() != 2) {
            throw new InvalidRequestException("Invalid number of arguments for function system." + fname
                    + "(vector<float, n>, vector<float, n>)");
        }
        // as Cassandra's FunctionFactory: each argument's type as known by itself (a list literal is a float vector
        // of its size, other constants their preferred types, markers and nulls unknown), then an unknown one takes
        // the first known type; each must be a float vector
        Output[] args = new Output[2];
        DataType[] types = new DataType[2];
        for (int i = 0; i < 2; i++) {
            Selector a = fc.args().get(i);
            boolean constant = a instanceof Selector.Value || !(a instanceof Selector.TypeHint) && asTerm(a) != null;
            if (!constant) {
                args[i] = build(a, table, row, functions, binder);
                types[i] = a instanceof Selector.TypeHint th && asTerm(th.selector()) != null
                        ? Types.freeze(args[i].type()) : args[i].type();
            } else {
                types[i] = similarityArgumentType(asTerm(a));
            }
        }
        DataType firstKnown = types[0] != null ? types[0] : types[1];
        for (int i = 0; i < 2; i++) {
            Selector a = fc.args().get(i);
            String argName = args[i] != null ? args[i].name() : similarityText(asTerm(a));
            DataType t = types[i] != null ? types[i] : firstKnown;
            if (t == null) {
                throw new InvalidRequestException("Cannot infer type of argument " + argName + " in call to function "
                        + "system." + fname + "(vector<float, n>, vector<float, n>): use type casts to disambiguate");
            }
            if (!(t instanceof io.charybdis.protocol.types.VectorType vt) || vt.element() != NativeType.FLOAT) {
                throw new InvalidRequestException("Function system." + fname + " requires a float vector argument, "
                        + "but found argument " + argName + " of type " + t.cqlName());
            }
            types[i] = t;
        }
        if (((io.charybdis.protocol.types.VectorType) types[0]).dimension()
                != ((io.charybdis.protocol.types.VectorType) types[1]).dimension()) {
            throw new InvalidRequestException("All arguments must have the same vector dimensions");
        }
        for (int i = 0; i < 2; i++) {
            if (args[i] == null) {
                Term term = asTerm(fc.args().get(i));
                DataType vectorType = types[i];
                io.charybdis.node.cql.values.BoundValue bound;
                try {
                    bound = term instanceof Term.BindMarker m ? binder.marker(m, "[selection]", vectorType)
                            : binder.bind(term, termText(term), vectorType);
                } catch (InvalidRequestException e) {
                    throw new InvalidRequestException("Type error: " + similarityText(term) + " cannot be passed as "
                            + "argument " + i + " of function system." + fname + " of type " + vectorType.cqlName());
                }
                args[i] = simple(vectorType, termText(term), (r, ctx) -> {
                    ByteBuffer b = bound.bind(ctx);
                    return b == Values.UNSET ? null : b;
                });
            }
        }
        int n = ((io.charybdis.protocol.types.VectorType) args[0].type()).dimension();
        if (((io.charybdis.protocol.types.VectorType) args[1].type()).dimension() != n) {
            throw new InvalidRequestException("All arguments must have the same vector dimensions");
        }
        Output x = args[0];
        Output y = args[1];
        String name = "system." + fname + "(" + x.name() + ", " + y.name() + ")";
        return overAggregates(List.of(x, y), in -> simple(NativeType.FLOAT, name, (r, ctx) -> {
            ByteBuffer a = in.get(0).value(r, ctx);
            ByteBuffer b = in.get(1).value(r, ctx);
            if (a == null || b == null) {
                return null;
            }
            int pa = a.position();
            int pb = b.position();
            float dot = 0;
            float na = 0;
            float nb = 0;
            float dist = 0;
            for (int i = 0; i < n; i++) {
                float u = a.getFloat(pa + 4 * i);
                float v = b.getFloat(pb + 4 * i);
                dot += u * v;
                na += u * u;
                nb += v * v;
                float d = u - v;
                dist += d * d;
            }
            float result = switch (fname) {
                case "similarity_cosine" -> {
                    if (na == 0 || nb == 0) {
                        throw new InvalidRequestException("Function system.similarity_cosine doesn't support "
                                + "all-zero vectors");
                    }
                    yield (1 + (float) (dot / Math.sqrt((double) na * nb))) / 2;
                }
                case "similarity_euclidean" -> 1 / (1 + dist);
                default -> (1 + dot) / 2;
            };
            return ByteBuffer.allocate(4).putFloat(0, result);
        }));
    }

    /**
     * The type a constant argument of a similarity function has by itself, as Cassandra infers it: a list literal
     * a float vector of its size, a number, string, boolean, uuid or duration its preferred type (a float constant
     * a double, a hex one a tinyint), a set or tuple literal of those a frozen collection; null when unknown.
     */
    private static DataType similarityArgumentType(Term term) {
        switch (term) {
            case Term.ListLiteral list -> {
                if (list.elements().isEmpty()) {
                    throw new InvalidRequestException("vectors may only have positive dimensions; given 0");
                }
                return new io.charybdis.protocol.types.VectorType(NativeType.FLOAT, list.elements().size());
            }
            case Term.Literal lit -> {
                return switch (lit.kind()) {
                    case FLOAT -> NativeType.DOUBLE;
                    case HEX -> NativeType.TINYINT;
                    case UUID -> java.util.UUID.fromString(lit.text()).version() == 1 ? NativeType.TIMEUUID
                            : NativeType.UUID;
                    case NULL -> null;
                    default -> io.charybdis.node.cql.values.FunctionResolver.preferredType(lit);
                };
            }
            case Term.Negation neg when neg.term() instanceof Term.Literal lit -> {
                return similarityArgumentType(lit);
            }
            case Term.SetLiteral set -> {
                DataType element = null;
                for (Term e : set.elements()) {
                    DataType t = e instanceof Term.Literal || e instanceof Term.ListLiteral
                            || e instanceof Term.BindMarker ? similarityElementType(e) : null;
                    if (t == null) {
                        continue;
                    }
                    if (element != null && !element.equals(t)) {
                        return null;
                    }
                    element = t;
                }
                return element == null ? null : Types.setOf(element, true);
            }
            case Term.TupleLiteral tuple -> {
                List<DataType> fields = new ArrayList<>();
                for (Term e : tuple.elements()) {
                    DataType t = similarityElementType(e);
                    if (t == null) {
                        return null;
                    }
                    fields.add(t);
                }
                return new io.charybdis.protocol.types.TupleType(fields).freeze();
            }
            default -> {
                return null;
            }
        }
    }

    private static DataType similarityElementType(Term e) {
        return switch (e) {
            case Term.Literal lit -> similarityArgumentType(lit);
            case Term.SetLiteral set -> similarityArgumentType(set);
            case Term.TupleLiteral tuple -> similarityArgumentType(tuple);
            default -> null;
        };
    }

    /** A constant argument as Cassandra prints it in these messages (null written NULL, at any depth). */
    private static String similarityText(Term t) {
        return switch (t) {
            case Term.Literal lit when lit.kind() == io.charybdis.node.cql.syntax.LiteralKind.NULL -> "NULL";
            case Term.ListLiteral l -> "[" + joinTexts(l.elements()) + "]";
            case Term.SetLiteral set -> "{" + joinTexts(set.elements()) + "}";
            case Term.TupleLiteral tuple -> "(" + joinTexts(tuple.elements()) + ")";
            default -> t.toCql();
        };
    }

    private static String joinTexts(List<Term> terms) {
        List<String> parts = new ArrayList<>(terms.size());
        for (Term t : terms) {
            parts.add(similarityText(t));
        }
        return String.join(", ", parts);
    }

    private static Output typedArgument(Selector.FunctionCall fc, int i, DataType expected, TableMetadata table,
                                        RowData row, Functions functions, TermBinder binder) {
        Selector a = fc.args().get(i);
        String fname = fc.function().name();
        if (a instanceof Selector.Value v && v.term() instanceof Term.BindMarker m) {
            if (expected == null) {
                throw cannotInfer(m);
            }
            var bound = binder.marker(m, "[selection]", expected);
            return simple(expected, "?", (r, ctx) -> {
                ByteBuffer b = bound.bind(ctx);
                return b == Values.UNSET ? null : b;
            });
        }
        if (a instanceof Selector.Value v && v.term() instanceof Term.Literal lit) {
            if (expected == null) {
                return constantArgument(v, binder);
            }
            if (!io.charybdis.node.cql.values.Literals.assignable(lit, expected)) {
                throw new InvalidRequestException("Type error: " + termText(lit) + " cannot be passed as argument " + i
                        + " of function system." + fname + " of type " + expected.cqlName());
            }
            var bound = binder.bind(lit, termText(lit), expected);
            return simple(expected, termText(lit), (r, ctx) -> bound.bind(ctx));
        }
        Output out = build(a, table, row, functions, binder);
        if (expected != null && !Functions.fits(out.type(), expected)) {
            throw new InvalidRequestException("Type error: " + out.name() + " cannot be passed as argument " + i
                    + " of function system." + fname + " of type " + expected.cqlName());
        }
        return out;
    }

    /** The type Cassandra prefers for a constant (an exact match): null for null. */
    private static DataType naturalType(Term.Literal lit) {
        return switch (lit.kind()) {
            case INTEGER -> NativeType.INT;
            case FLOAT -> NativeType.DOUBLE;
            case STRING -> NativeType.TEXT;
            case BOOLEAN -> NativeType.BOOLEAN;
            case UUID -> NativeType.UUID;
            case HEX -> NativeType.BLOB;
            case DURATION -> NativeType.DURATION;
            case NULL -> null;
        };
    }

    /** count(*) / count(x). */
    static final class CountOutput implements Output {
        private final String name;
        private final Output arg;
        private long count;

        CountOutput(String name, Output arg, int unused) {
            this.name = name;
            this.arg = arg;
        }

        public DataType type() {
            return io.charybdis.protocol.types.NativeType.BIGINT;
        }

        public String name() {
            return name;
        }

        public ByteBuffer value(RowData r, BindContext ctx) {
            if (arg == null || arg.peek(r, ctx) != null) {
                count++;
            }
            return null;
        }

        public boolean isAggregate() {
            return true;
        }

        public void reset() {
            count = 0;
        }

        public ByteBuffer result(BindContext ctx) {
            return Values.bigint(count);
        }
    }

    /** min, max, sum, avg with Cassandra's result types (sum/avg keep the argument type). */
    static final class Aggregate implements Output {
        private final String fn;
        private final String name;
        private final Output arg;
        private final TypeKind kind;
        /** min/max: the best value so far, a copy in {@link #bestBytes} (reused), or null. */
        private ByteBuffer best;
        private byte[] bestBytes = new byte[16];
        private ByteBuffer bestView = ByteBuffer.wrap(bestBytes);
        /** sum/avg: the exact sum is {@code sum + lsum} (integers in a long until it would overflow). */
        private BigDecimal sum = BigDecimal.ZERO;
        private long lsum;
        private double dsum;
        /** avg of floats/doubles once the double sum overflowed (Cassandra goes on exactly, in a BigDecimal). */
        private BigDecimal bigDsum;
        private long count;
        /** avg of decimals: Cassandra's running mean, avg += (x - avg) / n rounded half-even at each value. */
        private BigDecimal decimalAvg = BigDecimal.ZERO;
        /**
         * Decimal sums keep at most 10,000 digits, the precision of Cassandra's decimal arithmetic: summing 1e500000000
         * and 1 exactly would need half a billion digits and hold the shard for minutes (Cassandra's own sum does,
         * CASSANDRA-21401); every sum that fits in 10,000 digits is exact.
         */
        private static final java.math.MathContext SUM_PRECISION = new java.math.MathContext(10000,
                java.math.RoundingMode.HALF_UP);

        Aggregate(String fn, String name, Output arg) {
            this.fn = fn;
            this.name = name;
            this.arg = arg;
            this.kind = Types.kind(arg.type());
            if ((fn.equals("sum") || fn.equals("avg")) && !isNumeric(arg.type())) {
                if (Types.kind(arg.type()) == TypeKind.TIMESTAMP) {
                    // Cassandra matches a timestamp argument against bigint and varint (its literal forms)
                    throw new InvalidRequestException("Ambiguous call to function " + fn + " (can be matched by "
                            + "following signatures: system." + fn + " : (bigint) -> bigint, system." + fn
                            + " : (varint) -> varint): use type casts to disambiguate");
                }
                throw noSignature(fn);
            }
        }

        /** No overload of sum/avg takes the arguments (Cassandra lists its overloads in an unstable order). */
        static InvalidRequestException noSignature(String fn) {
            StringBuilder known = new StringBuilder();
            for (String t : List.of("varint", "int", "double", "smallint", "float", "counter", "decimal",
                    "tinyint", "bigint")) {
                known.append(known.length() == 0 ? "" : ", ").append("system.").append(fn).append(" : (")
                        .append(t).append(") -> ").append(t);
            }
            return new InvalidRequestException("Invalid call to function " + fn + ", none of its type signatures "
                    + "match (known type signatures: " + known + ")");
        }

        private static boolean isNumeric(DataType t) {
            return switch (Types.kind(t)) {
                case TINYINT, SMALLINT, INT, BIGINT, VARINT, DECIMAL, FLOAT, DOUBLE, COUNTER -> true;
                default -> false;
            };
        }

        public DataType type() {
            return arg.type();
        }

        public String name() {
            return name;
        }

        public boolean isAggregate() {
            return true;
        }

        public void reset() {
            best = null;
            sum = BigDecimal.ZERO;
            lsum = 0;
            dsum = 0;
            bigDsum = null;
            count = 0;
            decimalAvg = BigDecimal.ZERO;
        }

        /** Keeps a copy of {@code v} (a view of the current row) as the best value, in the reused array. */
        private void keep(ByteBuffer v) {
            int n = v.remaining();
            if (bestBytes.length < n) {
                bestBytes = new byte[Math.max(n, bestBytes.length * 2)];
                bestView = ByteBuffer.wrap(bestBytes);
            }
            v.get(v.position(), bestBytes, 0, n);
            bestView.limit(n);
            bestView.position(0);
            best = bestView;
        }

        private void addExact(long x) {
            long r = lsum + x;
            if (((lsum ^ r) & (x ^ r)) < 0) { // overflow: carry into the BigDecimal part
                sum = sum.add(BigDecimal.valueOf(lsum)).add(BigDecimal.valueOf(x));
                lsum = 0;
            } else {
                lsum = r;
            }
        }

        public ByteBuffer value(RowData r, BindContext ctx) {
            ByteBuffer v = arg.peek(r, ctx); // read here, not kept
            if (v == null || !v.hasRemaining()) {
                return null;
            }
            int p = v.position();
            switch (fn) {
                case "min" -> {
                    if (best == null || arg.type().compare(v, best) < 0) {
                        keep(v);
                    }
                }
                case "max" -> {
                    if (best == null || arg.type().compare(v, best) > 0) {
                        keep(v);
                    }
                }
                default -> {
                    // sum, avg: fixed-width numbers read in place; varint and decimal through their Java values
                    switch (kind) {
                        case TINYINT -> addExact(v.get(p));
                        case SMALLINT -> addExact(v.getShort(p));
                        case INT -> addExact(v.getInt(p));
                        case BIGINT, COUNTER -> addExact(v.getLong(p));
                        case FLOAT -> addDouble(v.getFloat(p));
                        case DOUBLE -> addDouble(v.getDouble(p));
                        default -> {
                            Object o = arg.type().compose(v.duplicate());
                            if (o instanceof BigDecimal bd && fn.equals("avg")) {
                                decimalAvg = decimalAvg.add(bd.subtract(decimalAvg, SUM_PRECISION)
                                        .divide(BigDecimal.valueOf(count + 1), java.math.RoundingMode.HALF_EVEN),
                                        SUM_PRECISION);
                            }
                            addComposed(o);
                        }
                    }
                    count++;
                }
            }
            return null;
        }

        private void addDouble(double d) {
            if (bigDsum != null && !Double.isInfinite(d) && !Double.isNaN(d)) {
                bigDsum = bigDsum.add(BigDecimal.valueOf(d));
                return;
            }
            if (bigDsum != null) {
                bigDsum = null; // an infinite or NaN value: the double arithmetic's answer
            }
            double next = dsum + d;
            if (fn.equals("avg") && Double.isInfinite(next) && !Double.isInfinite(d) && !Double.isInfinite(dsum)
                    && !Double.isNaN(dsum)) {
                bigDsum = BigDecimal.valueOf(dsum).add(BigDecimal.valueOf(d));
            }
            dsum = next;
        }

        private void addComposed(Object o) {
            if (o instanceof Float || o instanceof Double) {
                dsum += ((Number) o).doubleValue();
            } else if (o instanceof BigDecimal bd) {
                sum = sum.add(bd, SUM_PRECISION);
            } else if (o instanceof BigInteger bi) {
                sum = sum.add(new BigDecimal(bi));
            } else {
                addExact(((Number) o).longValue());
            }
        }

        /** min/max: the best value, in this aggregate's reused array: valid until the next row or reset. */
        public ByteBuffer result(BindContext ctx) {
            if (fn.equals("min") || fn.equals("max")) {
                return best;
            }
            BigDecimal sum = lsum == 0 ? this.sum : this.sum.add(BigDecimal.valueOf(lsum));
            TypeKind k = Types.kind(arg.type());
            boolean avg = fn.equals("avg");
            switch (k) {
                case FLOAT, DOUBLE -> {
                    double d = avg ? (count == 0 ? 0 : bigDsum != null ? bigDsum.divide(BigDecimal.valueOf(count),
                            java.math.MathContext.DECIMAL128).doubleValue() : dsum / count) : dsum;
                    return k == TypeKind.FLOAT ? arg.type().decompose((float) d) : arg.type().decompose(d);
                }
                case DECIMAL -> {
                    BigDecimal d = avg ? decimalAvg : sum;
                    return arg.type().decompose(d);
                }
                case VARINT -> {
                    BigInteger i = avg ? (count == 0 ? BigInteger.ZERO
                            : sum.toBigInteger().divide(BigInteger.valueOf(count))) : sum.toBigInteger();
                    return arg.type().decompose(i);
                }
                default -> {
                    long l = avg ? (count == 0 ? 0 : sum.toBigInteger().divide(BigInteger.valueOf(count)).longValue())
                            : sum.longValue();
                    return switch (k) {
                        case TINYINT -> arg.type().decompose((byte) l);
                        case SMALLINT -> arg.type().decompose((short) l);
                        case INT -> arg.type().decompose((int) l);
                        default -> arg.type().decompose(l);
                    };
                }
            }
        }
    }
}
