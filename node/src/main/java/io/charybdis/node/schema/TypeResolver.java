package io.charybdis.node.schema;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.CqlTypeSyntax;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.protocol.types.CustomType;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.ListType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.SetType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import io.charybdis.protocol.types.VectorType;

import java.util.ArrayList;
import java.util.List;

/** Turns a written type into a {@link DataType}, with Cassandra's rules on freezing and nesting. */
public final class TypeResolver {
    private TypeResolver() {
    }

    /** Resolves a column type; {@code keyspace} supplies user types. */
    public static DataType resolve(CqlTypeSyntax syntax, KeyspaceMetadata keyspace) {
        try {
            return resolve(syntax, keyspace, false, true);
        } catch (NestedNonFrozen e) {
            throw new InvalidRequestException(e.getMessage() + ": " + syntax.toCql());
        }
    }

    private static DataType resolve(CqlTypeSyntax syntax, KeyspaceMetadata ks, boolean frozen, boolean topLevel) {
        if (syntax instanceof CqlTypeSyntax.Native n) {
            return NativeType.fromCqlName(n.type().cqlName());
        }
        if (syntax instanceof CqlTypeSyntax.Frozen f) {
            if (f.inner() instanceof CqlTypeSyntax.Native) {
                // a syntax error in Cassandra (its parser checks it)
                throw new io.charybdis.node.cql.exceptions.SyntaxException("frozen<> is only allowed on collections, "
                        + "tuples, and user-defined types (got " + f.inner().toCql() + ")");
            }
            return resolve(f.inner(), ks, true, topLevel);
        }
        if (syntax instanceof CqlTypeSyntax.ListType l) {
            requireFrozenIfNested(frozen, topLevel, "collections");
            return new ListType(resolve(l.element(), ks, frozen, false), frozen);
        }
        if (syntax instanceof CqlTypeSyntax.SetType s) {
            requireFrozenIfNested(frozen, topLevel, "collections");
            DataType e = resolve(s.element(), ks, frozen, false);
            if (referencesDuration(e)) {
                // (the type as declared, frozen<> included)
                throw new InvalidRequestException("Durations are not allowed inside sets: "
                        + new SetType(e, frozen).cqlName());
            }
            return new SetType(e, frozen);
        }
        if (syntax instanceof CqlTypeSyntax.MapType m) {
            requireFrozenIfNested(frozen, topLevel, "collections");
            DataType key = resolve(m.key(), ks, frozen, false);
            if (referencesDuration(key)) {
                throw new InvalidRequestException("Durations are not allowed as map keys: "
                        + new MapType(key, resolve(m.value(), ks, frozen, false), frozen).cqlName());
            }
            return new MapType(key, resolve(m.value(), ks, frozen, false), frozen);
        }
        if (syntax instanceof CqlTypeSyntax.TupleType t) {
            List<DataType> comps = new ArrayList<>();
            for (CqlTypeSyntax c : t.elements()) {
                comps.add(resolve(c, ks, true, false));
            }
            return new TupleType(comps);
        }
        if (syntax instanceof CqlTypeSyntax.VectorType v) {
            if (v.dimension() <= 0) {
                throw new InvalidRequestException("vectors may only have positive dimensions; given " + v.dimension());
            }
            return new VectorType(resolve(v.element(), ks, true, false), v.dimension());
        }
        if (syntax instanceof CqlTypeSyntax.UserType u) {
            if (!frozen && !topLevel) {
                // checked by the enclosing collection before it looks at its elements, as Cassandra does
                throw new NestedNonFrozen("Non-frozen UDTs are not allowed inside collections");
            }
            if (u.name().keyspace() != null && ks != null && !u.name().keyspace().equals(ks.name())) {
                throw new InvalidRequestException("Statement on keyspace " + ks.name()
                        + " cannot refer to a user type in keyspace " + u.name().keyspace()
                        + "; user types can only be used in the keyspace they are defined in");
            }
            UserType t = ks == null ? null : ks.types().get(u.name().name());
            if (t == null) {
                throw new InvalidRequestException("Unknown type " + (ks == null ? "" : ks.name() + ".")
                        + u.name().name());
            }
            return new UserType(t.keyspace(), t.name(), t.fieldNames(), t.fieldTypes(), frozen);
        }
        if (syntax instanceof CqlTypeSyntax.Custom c) {
            NativeType n = NativeType.fromMarshalName(c.className());
            return n != null ? n : new CustomType(c.className());
        }
        throw new InvalidRequestException("Unsupported type " + syntax.toCql());
    }

    /**
     * Cassandra's parser-level check, made before anything is looked up: frozen&lt;&gt; only on collections, tuples
     * and user types (a syntax error otherwise).
     */
    public static void checkFreezable(CqlTypeSyntax syntax) {
        switch (syntax) {
            case CqlTypeSyntax.Frozen f -> {
                if (f.inner() instanceof CqlTypeSyntax.Native) {
                    throw new io.charybdis.node.cql.exceptions.SyntaxException("frozen<> is only allowed on "
                            + "collections, tuples, and user-defined types (got " + f.inner().toCql() + ")");
                }
                checkFreezable(f.inner());
            }
            case CqlTypeSyntax.ListType l -> checkFreezable(l.element());
            case CqlTypeSyntax.SetType st -> checkFreezable(st.element());
            case CqlTypeSyntax.MapType m -> {
                checkFreezable(m.key());
                checkFreezable(m.value());
            }
            case CqlTypeSyntax.TupleType t -> t.elements().forEach(TypeResolver::checkFreezable);
            case CqlTypeSyntax.VectorType v -> checkFreezable(v.element());
            default -> {
            }
        }
    }

    /**
     * Whether a written type is frozen&lt;&gt; at its top without being frozen by nature (a tuple or a vector), as
     * Cassandra refuses for function arguments.
     */
    public static boolean frozenNotImplicitly(CqlTypeSyntax syntax) {
        return syntax instanceof CqlTypeSyntax.Frozen f && !(f.inner() instanceof CqlTypeSyntax.TupleType)
                && !(f.inner() instanceof CqlTypeSyntax.VectorType);
    }

    /**
     * A written type as Cassandra shows it in messages about functions: names as written (unquoted), a tuple's
     * components and a frozen collection's elements frozen, a tuple or vector never marked frozen itself.
     */
    public static String asWritten(CqlTypeSyntax syntax) {
        return asWritten(syntax, null);
    }

    /** As {@link #asWritten(CqlTypeSyntax)}, user types not qualified shown in {@code keyspace} (when not null). */
    public static String asWritten(CqlTypeSyntax syntax, String keyspace) {
        return asWritten(syntax, false, keyspace);
    }

    private static String asWritten(CqlTypeSyntax syntax, boolean frozen, String ks) {
        return switch (syntax) {
            case CqlTypeSyntax.Frozen f -> asWritten(f.inner(), true, ks);
            case CqlTypeSyntax.ListType l -> frozenWrap("list<" + asWritten(l.element(), frozen, ks) + ">", frozen);
            case CqlTypeSyntax.SetType s -> frozenWrap("set<" + asWritten(s.element(), frozen, ks) + ">", frozen);
            case CqlTypeSyntax.MapType m -> frozenWrap("map<" + asWritten(m.key(), frozen, ks) + ", "
                    + asWritten(m.value(), frozen, ks) + ">", frozen);
            case CqlTypeSyntax.TupleType t -> {
                StringBuilder b = new StringBuilder("tuple<");
                for (int i = 0; i < t.elements().size(); i++) {
                    b.append(i == 0 ? "" : ", ").append(asWritten(t.elements().get(i), true, ks));
                }
                yield b.append('>').toString();
            }
            case CqlTypeSyntax.UserType u -> frozenWrap(
                    u.name().keyspace() != null ? u.name().keyspace() + "." + u.name().name()
                            : ks != null ? ks + "." + u.name().name() : u.name().name(),
                    frozen);
            case CqlTypeSyntax.VectorType v -> "vector<" + asWritten(v.element(), false, ks) + ", " + v.dimension()
                    + ">";
            default -> syntax.toCql();
        };
    }

    private static String frozenWrap(String type, boolean frozen) {
        return frozen ? "frozen<" + type + ">" : type;
    }

    /** Whether a type is duration or holds durations anywhere inside (Cassandra's referencesDuration). */
    public static boolean referencesDuration(DataType t) {
        return switch (t) {
            case NativeType n -> n == NativeType.DURATION;
            case ListType l -> referencesDuration(l.element());
            case SetType s -> referencesDuration(s.element());
            case MapType m -> referencesDuration(m.key()) || referencesDuration(m.value());
            case TupleType tu -> tu.components().stream().anyMatch(TypeResolver::referencesDuration);
            case UserType u -> u.fieldTypes().stream().anyMatch(TypeResolver::referencesDuration);
            case VectorType v -> referencesDuration(v.element());
            default -> false;
        };
    }

    private static void requireFrozenIfNested(boolean frozen, boolean topLevel, String what) {
        if (!frozen && !topLevel) {
            throw new NestedNonFrozen("Non-frozen " + what + " are not allowed inside collections");
        }
    }

    /** Rethrown at the top with the whole type appended, as Cassandra words it. */
    private static final class NestedNonFrozen extends InvalidRequestException {
        NestedNonFrozen(String message) {
            super(message);
        }
    }

    /** Parses a stored type string such as {@code frozen<map<text, int>>}. */
    public static DataType parse(String type, KeyspaceMetadata keyspace) {
        SchemaStatement.CreateType ct = (SchemaStatement.CreateType) CqlParser.parse(
                "CREATE TYPE parse_holder (f " + type + ")");
        return resolve(ct.fields().get(0).type(), keyspace);
    }
}
