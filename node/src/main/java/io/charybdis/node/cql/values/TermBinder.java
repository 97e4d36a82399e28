package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.LiteralKind;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.MarshalException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prepares the terms of one statement against their receivers: constants are parsed once, bind markers record the
 * variable they stand for, collection and tuple literals become small expression trees evaluated per execution.
 */
public final class TermBinder {
    private final String keyspace;
    private final String table;
    private final BindVariable[] variables;
    /** What each marker is bound to: a column's name, or a special receiver ({@code [limit]}, {@code in(k)}...). */
    private final String[] receivers;
    private final Functions functions;
    /** Set while binding a selection's type-hinted literal, where collection literals may hold markers. */
    private boolean markersInCollections;
    /** The types of the table's partition key columns, which type token()'s arguments; null when unknown. */
    private List<DataType> partitionKeyTypes;

    public TermBinder(String keyspace, String table, int markerCount, Functions functions) {
        this.keyspace = keyspace;
        this.table = table;
        this.variables = new BindVariable[markerCount];
        this.receivers = new String[markerCount];
        this.functions = functions;
    }

    /** The statement's keyspace (its user types name type hints); null when unknown. */
    private io.charybdis.node.schema.KeyspaceMetadata keyspaceMetadata;

    /** Gives type hints the statement keyspace's user types; returns this binder. */
    public TermBinder withKeyspace(io.charybdis.node.schema.KeyspaceMetadata ks) {
        this.keyspaceMetadata = ks;
        return this;
    }

    /** The statement's keyspace, or null when this binder has none. */
    public io.charybdis.node.schema.KeyspaceMetadata keyspaceMetadata() {
        return keyspaceMetadata;
    }

    /** Gives token() in terms the table's partition key types; returns this binder. */
    public TermBinder withPartitionKey(List<DataType> types) {
        this.partitionKeyTypes = List.copyOf(types);
        return this;
    }

    /** The table's partition key types, or null when this binder has no table. */
    public List<DataType> partitionKeyTypes() {
        return partitionKeyTypes;
    }

    public List<BindVariable> variables() {
        List<BindVariable> out = new ArrayList<>(variables.length);
        for (int i = 0; i < variables.length; i++) {
            BindVariable v = variables[i];
            out.add(v != null ? v : new BindVariable(keyspace, table, "expr(" + i + ")", io.charybdis.protocol.types.NativeType.BLOB));
        }
        return out;
    }

    /** The receiver of each marker, by index (null for a marker bound to nothing known). */
    public List<String> receivers() {
        return Arrays.asList(receivers.clone());
    }

    /** Records a marker's receiver without binding a term (for IN ? and such special receivers). */
    public BoundValue marker(Term.BindMarker m, String receiverName, DataType type) {
        String name = m.name() != null ? m.name() : receiverName;
        variables[m.index()] = new BindVariable(keyspace, table, name, type);
        receivers[m.index()] = receiverName;
        int index = m.index();
        boolean collection = Types.isCollection(type);
        return ctx -> {
            ByteBuffer v = ctx.value(index);
            if (v == null || v == Values.UNSET) {
                return v;
            }
            try {
                type.validate(v);
            } catch (MarshalException e) {
                // as Cassandra: the type's own message, naming no column
                throw new InvalidRequestException(e.getMessage());
            }
            // as Cassandra: a collection is kept in its type's order, whatever order the client sent
            return collection ? Types.normalized(type, v) : v;
        };
    }

    /**
     * Whether a value hinted as {@code hint} may go to a receiver of type {@code receiver}: Cassandra's value
     * compatibility of native types (the same type, ascii into text, any type into blob, the integers into varint,
     * timestamps and bigints into each other).
     */
    static boolean hintFits(io.charybdis.protocol.types.NativeType hint,
                            io.charybdis.protocol.types.NativeType receiver) {
        if (hint == receiver || receiver == io.charybdis.protocol.types.NativeType.BLOB) {
            return true;
        }
        return switch (receiver) {
            case TEXT -> hint == io.charybdis.protocol.types.NativeType.ASCII;
            case VARINT -> hint == io.charybdis.protocol.types.NativeType.INT
                    || hint == io.charybdis.protocol.types.NativeType.BIGINT
                    || hint == io.charybdis.protocol.types.NativeType.SMALLINT
                    || hint == io.charybdis.protocol.types.NativeType.TINYINT;
            case BIGINT -> hint == io.charybdis.protocol.types.NativeType.TIMESTAMP;
            case COUNTER -> hint == io.charybdis.protocol.types.NativeType.BIGINT;
            case TIMESTAMP -> hint == io.charybdis.protocol.types.NativeType.BIGINT;
            default -> false;
        };
    }

    /**
     * Binds a type-hinted term of a selection ({@code (list<int>)[1, ?]}): there, unlike in values and conditions,
     * Cassandra lets collection literals hold bind markers.
     */
    public BoundValue bindHinted(Term term, String receiverName, DataType type) {
        boolean was = markersInCollections;
        markersInCollections = true;
        try {
            return bind(term, receiverName, type);
        } finally {
            markersInCollections = was;
        }
    }

    public BoundValue bind(Term term, String receiverName, DataType type) {
        if (term instanceof Term.BindMarker m) {
            return marker(m, receiverName, type);
        }
        if (term instanceof Term.Literal lit) {
            if (lit.kind() == LiteralKind.NULL) {
                if (Types.isCounter(type)) {
                    // as Cassandra: a null constant is not assignable to a counter, wherever it stands
                    throw new InvalidRequestException("Invalid null value for counter increment/decrement");
                }
                return ctx -> null;
            }
            return BoundValue.constant(Literals.parse(lit, type, receiverName));
        }
        if (term instanceof Term.TypeCast cast) {
            if (cast.type() instanceof io.charybdis.node.cql.syntax.CqlTypeSyntax.Native hint
                    && type instanceof io.charybdis.protocol.types.NativeType receiver
                    && !hintFits(io.charybdis.protocol.types.NativeType.fromCqlName(hint.type().cqlName()),
                            receiver)) {
                throw new InvalidRequestException("Cannot assign value (" + hint.toCql() + ")"
                        + cast.term().toCql() + " to " + receiverName + " of type " + type.cqlName());
            }
            return bind(cast.term(), receiverName, type);
        }
        if (term instanceof Term.TupleLiteral one && one.elements().size() == 1 && Types.kind(type) != TypeKind.TUPLE) {
            // the parser cannot tell a one-element tuple from a term in parentheses; the receiver does
            return bind(one.elements().get(0), receiverName, type);
        }
        if (term instanceof Term.Negation neg && neg.term() instanceof Term.Literal lit
                && (lit.kind() == LiteralKind.INTEGER || lit.kind() == LiteralKind.FLOAT
                || lit.kind() == LiteralKind.DURATION)) {
            return BoundValue.constant(Literals.parse(new Term.Literal(lit.kind(), "-" + lit.text()), type, receiverName));
        }
        if (term instanceof Term.FunctionCall call) {
            return functions.bindCall(call, receiverName, type, this);
        }
        if (term instanceof Term.Cast || term instanceof Term.BinaryOp || term instanceof Term.Negation) {
            // CAST(x AS t), a + b, -(x): calls of Cassandra's cast_as_t, _add..., _negate, resolved as functions
            return functions.bindResolved(term, receiverName, type, this);
        }
        TypeKind kind = Types.kind(type);
        if (term instanceof Term.ListLiteral && kind != TypeKind.LIST && kind != TypeKind.VECTOR) {
            // as Cassandra: a list literal tests its receiver first, wherever it stands
            throw unexpectedListReceiver(type);
        }
        switch (kind) {
            case LIST, VECTOR -> {
                if (!(term instanceof Term.ListLiteral list)) {
                    throw invalid(term, receiverName, type);
                }
                DataType elementType = Types.elementType(type);
                if (kind == TypeKind.VECTOR && list.elements().size() != Types.vectorDimension(type)) {
                    throw new InvalidRequestException("Invalid vector literal for " + receiverName + " of type "
                            + type.cqlName() + "; expected " + Types.vectorDimension(type) + " elements, but given "
                            + list.elements().size());
                }
                BoundValue[] elements = bindElements(list.elements(), receiverName, elementType,
                        kind == TypeKind.VECTOR ? "vector" : "list");
                if (kind == TypeKind.LIST) {
                    refuseMarkers(list.elements(), "list", receiverName);
                }
                String container = kind == TypeKind.VECTOR ? "vectors" : "collections";
                return ctx -> {
                    List<ByteBuffer> values = evalElements(elements, ctx, container);
                    return values == null ? Values.UNSET : Types.joinComponents(type, values);
                };
            }
            case SET -> {
                List<Term> elementsTerms;
                if (term instanceof Term.SetLiteral set) {
                    elementsTerms = set.elements();
                } else if (term instanceof Term.EmptyBraces) {
                    elementsTerms = List.of();
                } else {
                    throw invalid(term, receiverName, type);
                }
                DataType elementType = Types.elementType(type);
                BoundValue[] elements = bindElements(elementsTerms, receiverName, elementType, "set");
                refuseMarkers(elementsTerms, "set", receiverName);
                return ctx -> {
                    List<ByteBuffer> values = evalElements(elements, ctx, "collections");
                    if (values == null) {
                        return Values.UNSET;
                    }
                    TreeMap<ByteBuffer, ByteBuffer> sorted = new TreeMap<>(elementType::compare);
                    for (ByteBuffer v : values) {
                        sorted.put(v, v);
                    }
                    return Values.collection(new ArrayList<>(sorted.keySet()));
                };
            }
            case MAP -> {
                List<Map.Entry<Term, Term>> entries;
                if (term instanceof Term.MapLiteral map) {
                    entries = map.entries();
                } else if (term instanceof Term.EmptyBraces) {
                    entries = List.of();
                } else if (term instanceof Term.UdtLiteral udt) {
                    entries = new ArrayList<>();
                    for (Map.Entry<String, Term> e : udt.fields().entrySet()) {
                        entries.add(Map.entry(Term.Literal.string(e.getKey()), e.getValue()));
                    }
                } else {
                    throw invalid(term, receiverName, type);
                }
                DataType kt = Types.keyType(type);
                DataType vt = Types.valueType(type);
                BoundValue[] keys = new BoundValue[entries.size()];
                BoundValue[] vals = new BoundValue[entries.size()];
                for (int i = 0; i < entries.size(); i++) {
                    keys[i] = element(entries.get(i).getKey(), "key(" + receiverName + ")", kt, "map", receiverName,
                            "key");
                    vals[i] = element(entries.get(i).getValue(), "value(" + receiverName + ")", vt, "map", receiverName,
                            "value");
                }
                if (!(term instanceof Term.UdtLiteral)) {
                    for (Map.Entry<Term, Term> e : entries) {
                        refuseMarkers(List.of(e.getKey(), e.getValue()), "map", receiverName);
                    }
                }
                return ctx -> {
                    TreeMap<ByteBuffer, ByteBuffer> sorted = new TreeMap<>(kt::compare);
                    for (int i = 0; i < keys.length; i++) {
                        ByteBuffer k = keys[i].bind(ctx);
                        ByteBuffer v = vals[i].bind(ctx);
                        if (k == null || v == null) {
                            throw new InvalidRequestException("null is not supported inside collections");
                        }
                        if (k == Values.UNSET || v == Values.UNSET) {
                            return Values.UNSET;
                        }
                        sorted.put(k, v);
                    }
                    List<ByteBuffer> flat = new ArrayList<>(sorted.size() * 2);
                    sorted.forEach((k, v) -> {
                        flat.add(k);
                        flat.add(v);
                    });
                    return Types.joinComponents(type, flat);
                };
            }
            case TUPLE -> {
                if (!(term instanceof Term.TupleLiteral tuple)) {
                    throw invalid(term, receiverName, type);
                }
                List<DataType> fieldTypes = Types.fieldTypes(type);
                if (tuple.elements().size() > fieldTypes.size()) {
                    throw new InvalidRequestException("Invalid tuple literal for " + receiverName
                            + ": too many elements. Type " + type.cqlName() + " expects " + fieldTypes.size()
                            + " but got " + tuple.elements().size());
                }
                BoundValue[] fields = new BoundValue[tuple.elements().size()];
                for (int i = 0; i < fields.length; i++) {
                    // as Cassandra, a component of the wrong kind is refused before any is parsed
                    if (tuple.elements().get(i) instanceof Term.Literal lit
                            && !Literals.assignable(lit, fieldTypes.get(i))) {
                        throw new InvalidRequestException("Invalid tuple literal for " + receiverName + ": component "
                                + i + " is not of type " + fieldTypes.get(i).cqlName());
                    }
                }
                for (int i = 0; i < fields.length; i++) {
                    Term component = tuple.elements().get(i);
                    try {
                        fields[i] = bind(component, receiverName, fieldTypes.get(i));
                    } catch (InvalidRequestException e) {
                        if (isCollectionOrTupleLiteral(component) && !containsMarker(component)
                                && !e.getMessage().startsWith("Unexpected receiver type")) {
                            throw new InvalidRequestException("Invalid tuple literal for " + receiverName
                                    + ": component " + i + " is not of type " + fieldTypes.get(i).cqlName());
                        }
                        throw e;
                    }
                }
                int arity = fieldTypes.size();
                return ctx -> {
                    List<ByteBuffer> values = new ArrayList<>(arity);
                    for (BoundValue f : fields) {
                        ByteBuffer v = f.bind(ctx);
                        if (v == Values.UNSET) {
                            throw new InvalidRequestException("Invalid unset value for tuple field number "
                                    + values.size());
                        }
                        values.add(v);
                    }
                    while (values.size() < arity) {
                        values.add(null);
                    }
                    return Values.tuple(values);
                };
            }
            case UDT -> {
                Map<String, Term> given;
                if (term instanceof Term.UdtLiteral udt) {
                    given = udt.fields();
                } else if (term instanceof Term.EmptyBraces) {
                    // {} reads as an empty set, which a user type does not accept
                    throw new InvalidRequestException("Invalid set literal for " + receiverName + " of type "
                            + ((io.charybdis.protocol.types.UserType) type).name());
                } else {
                    throw invalid(term, receiverName, type);
                }
                List<String> names = Types.fieldNames(type);
                List<DataType> fieldTypes = Types.fieldTypes(type);
                for (String f : given.keySet()) {
                    if (!names.contains(f)) {
                        throw new InvalidRequestException("Unknown field '" + f + "' in value of user defined type "
                                + type.cqlName());
                    }
                }
                BoundValue[] fields = new BoundValue[names.size()];
                for (int i = 0; i < names.size(); i++) {
                    Term t = given.get(names.get(i));
                    fields[i] = t == null ? ctx -> null : element(t, receiverName + "." + names.get(i),
                            fieldTypes.get(i), "user type", receiverName, "field " + names.get(i));
                }
                boolean frozen = !type.isMultiCell();
                String typeName = ((io.charybdis.protocol.types.UserType) type).name();
                return ctx -> {
                    List<ByteBuffer> values = new ArrayList<>(fields.length);
                    for (BoundValue f : fields) {
                        ByteBuffer v = f.bind(ctx);
                        if (v == Values.UNSET && frozen) {
                            throw new InvalidRequestException("Invalid unset value for field '"
                                    + names.get(values.size()) + "' of user defined type " + typeName);
                        }
                        values.add(v == Values.UNSET ? null : v);
                    }
                    return Values.tuple(values);
                };
            }
            default -> throw invalid(term, receiverName, type);
        }
    }

    private BoundValue[] bindElements(List<Term> terms, String receiverName, DataType elementType, String what) {
        BoundValue[] out = new BoundValue[terms.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = element(terms.get(i), receiverName, elementType, what, receiverName, "value");
        }
        return out;
    }

    /**
     * Binds one element of a collection, tuple or UDT literal; a constant of the wrong type gets Cassandra's
     * message ({@code Invalid list literal for l: value 'a' is not of type int}).
     */
    private BoundValue element(Term term, String elementReceiver, DataType type, String what, String receiverName,
                               String role) {
        try {
            return bind(term, elementReceiver, type);
        } catch (InvalidRequestException e) {
            if (isCollectionOrTupleLiteral(term) && !containsMarker(term)
                    && !e.getMessage().startsWith("Unexpected receiver type")) {
                String shown = role.startsWith("field ") ? role : role + " " + term.toCql();
                throw new InvalidRequestException("Invalid " + what + " literal for " + receiverName + ": " + shown
                        + " is not of type " + type.cqlName());
            }
            if (term instanceof Term.TypeCast && e.getMessage().startsWith("Cannot assign value (")
                    && e.getMessage().contains(" to " + elementReceiver + " of type ")
                    || term instanceof Term.FunctionCall
                    && e.getMessage().startsWith("Type error: cannot assign result of function ")
                    && e.getMessage().contains(" to " + elementReceiver + " (type ")) {
                // as Cassandra: a type hint or a function result that does not fit the elements' type
                String shown = term instanceof Term.TypeCast cast ? "(" + cast.type().toCql() + ")"
                        + cast.term().toCql() : term.toCql();
                throw new InvalidRequestException("Invalid " + what + " literal for " + receiverName + ": " + role
                        + " " + shown + " is not of type " + type.cqlName());
            }
            if (term instanceof Term.Literal lit && lit.kind() != LiteralKind.NULL && !Literals.assignable(lit, type)) {
                // a constant of the right kind keeps its own error (Unable to make int from '99999999999')
                String shown = role.startsWith("field ") ? role : role + " " + term.toCql();
                throw new InvalidRequestException("Invalid " + what + " literal for " + receiverName + ": " + shown
                        + " is not of type " + type.cqlName());
            }
            throw e;
        }
    }

    /**
     * As Cassandra: a list, set or map literal holds no bind marker, at any depth (a marker stands for the whole
     * collection instead); vectors, tuples and user type literals may hold them.
     */
    private void refuseMarkers(List<Term> elements, String what, String receiverName) {
        if (markersInCollections) {
            return;
        }
        for (Term t : elements) {
            if (containsMarker(t)) {
                throw new InvalidRequestException("Invalid " + what + " literal for " + receiverName
                        + ": bind variables are not supported inside collection literals");
            }
        }
    }

    private static InvalidRequestException unexpectedListReceiver(DataType type) {
        return new InvalidRequestException("Unexpected receiver type '" + type.cqlName()
                + "'; only list and vector are expected");
    }

    private static boolean isCollectionOrTupleLiteral(Term t) {
        return t instanceof Term.TupleLiteral || t instanceof Term.ListLiteral || t instanceof Term.SetLiteral
                || t instanceof Term.MapLiteral || t instanceof Term.UdtLiteral;
    }

    /** Whether a term holds a bind marker anywhere inside it. */
    public static boolean containsMarker(Term t) {
        return switch (t) {
            case Term.BindMarker m -> true;
            case Term.ListLiteral l -> l.elements().stream().anyMatch(TermBinder::containsMarker);
            case Term.SetLiteral l -> l.elements().stream().anyMatch(TermBinder::containsMarker);
            case Term.TupleLiteral l -> l.elements().stream().anyMatch(TermBinder::containsMarker);
            case Term.MapLiteral m -> m.entries().stream()
                    .anyMatch(e -> containsMarker(e.getKey()) || containsMarker(e.getValue()));
            case Term.UdtLiteral u -> u.fields().values().stream().anyMatch(TermBinder::containsMarker);
            case Term.FunctionCall f -> f.args().stream().anyMatch(TermBinder::containsMarker);
            case Term.TypeCast c -> containsMarker(c.term());
            case Term.Cast c -> containsMarker(c.term());
            case Term.Negation n -> containsMarker(n.term());
            case Term.BinaryOp b -> containsMarker(b.left()) || containsMarker(b.right());
            default -> false;
        };
    }

    private BoundValue[] bindAll(List<Term> terms, String receiverName, DataType elementType) {
        BoundValue[] out = new BoundValue[terms.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bind(terms.get(i), receiverName, elementType);
        }
        return out;
    }

    /** The elements' values, or null when one is unset; {@code container}: "collections" or "vectors". */
    private static List<ByteBuffer> evalElements(BoundValue[] elements, BindContext ctx, String container) {
        List<ByteBuffer> values = new ArrayList<>(elements.length);
        for (BoundValue e : elements) {
            ByteBuffer v = e.bind(ctx);
            if (v == null) {
                throw new InvalidRequestException("null is not supported inside " + container);
            }
            if (v == Values.UNSET) {
                return null;
            }
            values.add(v);
        }
        return values;
    }

    private static InvalidRequestException invalid(Term term, String receiverName, DataType type) {
        return new InvalidRequestException("Invalid " + describe(term) + " literal for " + receiverName + " of type "
                + type.cqlName());
    }

    private static String describe(Term t) {
        String simple = t.getClass().getSimpleName();
        return switch (simple) {
            case "ListLiteral" -> "list";
            case "SetLiteral" -> "set";
            case "MapLiteral" -> "map";
            case "TupleLiteral" -> "tuple";
            case "UdtLiteral" -> "user type";
            case "EmptyBraces" -> "set";
            default -> Arrays.asList(simple.split("(?=[A-Z])")).get(0).toLowerCase(java.util.Locale.ROOT);
        };
    }
}
