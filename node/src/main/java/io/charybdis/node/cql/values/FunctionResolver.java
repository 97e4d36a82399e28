package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.LiteralKind;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cassandra's resolution of a call among a function's overloads, for calls in term positions: function calls,
 * {@code CAST(x AS t)} (a call of {@code system.cast_as_t}), arithmetic ({@code system._add}...) and unary minus.
 *
 * <p>Implementation notes (Cassandra's FunctionResolver and the testAssignment of its terms): each argument is tested
 * against each overload's parameter type and found an EXACT match, WEAKLY assignable or NOT assignable. A constant is
 * an exact match for its preferred type (a string of ASCII characters: ascii, else text; an integer: int, bigint or
 * varint by size; a floating constant: double, decimal where a double cannot hold it exactly; uuid, boolean, blob,
 * duration) and weakly assignable to the other types its kind may be written for; a bind marker is weakly assignable
 * to anything; a type hint is exact for its own type and weak for the types that accept its values; a nested call is
 * resolved against the parameter (failing to resolve: weak) and is exact when it returns the parameter's type. A
 * single overload is taken as is (its arguments then checked one by one); otherwise the overloads whose return type
 * the receiver accepts are tested, the first exact match wins, and several weak ones are ambiguous, except for an
 * operation without bind markers, where the overload of the receiver's own type wins. The types accepting another's
 * values are Cassandra's isValueCompatibleWith: blob takes anything, text ascii, uuid timeuuid, bigint and
 * timestamp each other, varint int and bigint, date int, time bigint.
 */
public final class FunctionResolver {
    /** How well an argument fits a parameter type. */
    public enum Match {
        EXACT, WEAK, NOT;

        boolean assignable() {
            return this != NOT;
        }
    }

    /** What kind of call: messages differ for operations and unary minus. */
    public enum Kind {
        FUNCTION, OPERATION, NEGATION
    }

    /**
     * A call to resolve. {@code shownName} is the function's name as messages print it (as written: {@code
     * tounixtimestamp}, {@code system.cast_as_int}); {@code operator} the operator's symbol for operations.
     */
    public record Call(Kind kind, String shownName, String operator, List<NativeFunction> candidates,
                       List<Term> args) {
    }

    /** Turns a nested term into a call when it is one (a function call, cast, operation or negation); else null. */
    public interface Calls {
        Call callOf(Term term);
    }

    private final Calls calls;

    public FunctionResolver(Calls calls) {
        this.calls = calls;
    }

    /** Picks the overload of {@code call} for a receiver of type {@code receiverType} (null: unknown). */
    public NativeFunction resolve(Call call, DataType receiverType) {
        List<NativeFunction> candidates = call.candidates();
        List<Term> args = call.args();
        if (candidates.size() == 1) {
            NativeFunction fn = candidates.get(0);
            if (fn.argTypes().size() != args.size()) {
                throw new InvalidRequestException("Invalid number of arguments in call to function system."
                        + fn.name() + ": " + fn.argTypes().size() + " required but " + args.size() + " provided");
            }
            for (int i = 0; i < args.size(); i++) {
                if (!test(args.get(i), fn.argTypes().get(i)).assignable()) {
                    throw new InvalidRequestException("Type error: " + text(args.get(i)) + " cannot be passed as "
                            + "argument " + i + " of function system." + fn.name() + " of type "
                            + Types.cqlName(fn.argTypes().get(i)));
                }
            }
            return fn;
        }
        List<NativeFunction> compatibles = new ArrayList<>();
        for (NativeFunction fn : candidates) {
            if (receiverType != null && returnMatch(fn.returnType(), receiverType) == Match.NOT) {
                continue;
            }
            Match m = matchArguments(fn, args);
            if (m == Match.EXACT) {
                return fn;
            }
            if (m == Match.WEAK) {
                compatibles.add(fn);
            }
        }
        if (compatibles.isEmpty()) {
            if (call.kind() == Kind.OPERATION) {
                throw new InvalidRequestException("the '" + call.operator() + "' operation is not supported between "
                        + text(args.get(0)) + " and " + text(args.get(1)));
            }
            throw new InvalidRequestException("Invalid call to function " + call.shownName() + ", none of its type "
                    + "signatures match (known type signatures: " + signatures(candidates) + ")");
        }
        if (compatibles.size() > 1) {
            if (call.kind() == Kind.OPERATION) {
                if (receiverType != null && args.stream().noneMatch(a -> a instanceof Term.BindMarker)) {
                    for (NativeFunction fn : compatibles) {
                        if (receiverType.equals(fn.argTypes().get(0)) && receiverType.equals(fn.argTypes().get(1))) {
                            return fn;
                        }
                    }
                }
                throw new InvalidRequestException("Ambiguous '" + call.operator() + "' operation with args "
                        + text(args.get(0)) + " and " + text(args.get(1)) + ": use type hint to disambiguate, "
                        + "example '(int) ?'");
            }
            if (call.kind() == Kind.NEGATION) {
                throw new InvalidRequestException("Ambiguous negation: use type casts to disambiguate");
            }
            throw new InvalidRequestException("Ambiguous call to function " + call.shownName() + " (can be matched by "
                    + "following signatures: " + signatures(compatibles) + "): use type casts to disambiguate");
        }
        return compatibles.get(0);
    }

    private Match matchArguments(NativeFunction fn, List<Term> args) {
        if (fn.argTypes().size() != args.size()) {
            return Match.NOT;
        }
        Match res = Match.EXACT;
        for (int i = 0; i < args.size(); i++) {
            Match m = test(args.get(i), fn.argTypes().get(i));
            if (m == Match.NOT) {
                return Match.NOT;
            }
            if (m == Match.WEAK) {
                res = Match.WEAK;
            }
        }
        return res;
    }

    /** Cassandra's testAssignment of a term to a receiver of type {@code type}. */
    public Match test(Term term, DataType type) {
        if (term instanceof Term.TupleLiteral t && t.elements().size() == 1 && Types.kind(type) != TypeKind.TUPLE) {
            term = t.elements().get(0); // a term in parentheses, (a + b), unless a tuple is wanted
        }
        switch (term) {
            case Term.BindMarker m -> {
                return Match.WEAK;
            }
            case Term.Literal lit -> {
                return literal(lit, type);
            }
            case Term.TypeCast hint -> {
                DataType hinted = io.charybdis.node.schema.TypeResolver.resolve(hint.type(), null);
                return returnMatch(hinted, type);
            }
            default -> {
            }
        }
        Call call = calls.callOf(term);
        if (call != null) {
            NativeFunction fn;
            try {
                fn = resolve(call, type);
            } catch (InvalidRequestException e) {
                return Match.WEAK;
            }
            return returnMatch(fn.returnType(), type);
        }
        TypeKind k = Types.kind(type);
        boolean fits = switch (term) {
            case Term.ListLiteral l -> k == TypeKind.LIST || k == TypeKind.SET || k == TypeKind.VECTOR;
            case Term.SetLiteral s -> k == TypeKind.SET;
            case Term.MapLiteral m -> k == TypeKind.MAP;
            case Term.EmptyBraces e -> k == TypeKind.SET || k == TypeKind.MAP;
            case Term.UdtLiteral u -> k == TypeKind.UDT || k == TypeKind.MAP;
            case Term.TupleLiteral t -> k == TypeKind.TUPLE;
            default -> true;
        };
        return fits ? Match.WEAK : Match.NOT;
    }

    /** How a value of type {@code value} (a function's result, a hinted term) fits a receiver of type {@code receiver}. */
    public static Match returnMatch(DataType value, DataType receiver) {
        if (value.equals(receiver)) {
            return Match.EXACT;
        }
        return acceptsValuesOf(receiver, value) ? Match.WEAK : Match.NOT;
    }

    /** Cassandra's isValueCompatibleWith between native types: whether {@code receiver} accepts {@code value}'s bytes. */
    public static boolean acceptsValuesOf(DataType receiver, DataType value) {
        if (receiver.equals(value)) {
            return true;
        }
        TypeKind r = Types.kind(receiver);
        TypeKind v = Types.kind(value);
        return switch (r) {
            case BLOB -> true;
            case TEXT -> v == TypeKind.ASCII;
            case UUID -> v == TypeKind.TIMEUUID;
            case TIMESTAMP -> v == TypeKind.BIGINT;
            case BIGINT -> v == TypeKind.TIMESTAMP;
            case VARINT -> v == TypeKind.INT || v == TypeKind.BIGINT || v == TypeKind.TIMESTAMP;
            case DATE -> v == TypeKind.INT;
            case TIME -> v == TypeKind.BIGINT;
            default -> false;
        };
    }

    /** A constant's fit: exact for its preferred type, weak for the others it may be written for. */
    public static Match literal(Term.Literal lit, DataType type) {
        if (lit.kind() == LiteralKind.NULL) {
            return Match.WEAK;
        }
        TypeKind k = Types.kind(type);
        switch (k) {
            case LIST, SET, MAP, UDT -> {
                return Match.NOT;
            }
            case TUPLE, VECTOR, CUSTOM -> {
                return Match.WEAK;
            }
            default -> {
            }
        }
        if (type.equals(preferredType(lit))) {
            return Match.EXACT;
        }
        return Literals.assignable(lit, type) ? Match.WEAK : Match.NOT;
    }

    /** The type a constant prefers (Cassandra's Constants.Type.getPreferedTypeFor). */
    public static DataType preferredType(Term.Literal lit) {
        String text = lit.text();
        return switch (lit.kind()) {
            case STRING -> StandardCharsets.US_ASCII.newEncoder().canEncode(text) ? NativeType.ASCII : NativeType.TEXT;
            case INTEGER -> {
                int bits = new BigInteger(text).bitLength();
                yield bits < 32 ? NativeType.INT : bits < 64 ? NativeType.BIGINT : NativeType.VARINT;
            }
            case FLOAT -> {
                if (text.endsWith("NaN") || text.endsWith("Infinity")) {
                    yield NativeType.DOUBLE;
                }
                BigDecimal exact = new BigDecimal(text);
                double d = exact.doubleValue();
                yield Double.isFinite(d) && new BigDecimal(d).compareTo(exact) == 0 ? NativeType.DOUBLE
                        : NativeType.DECIMAL;
            }
            case UUID -> NativeType.UUID;
            case BOOLEAN -> NativeType.BOOLEAN;
            case HEX -> NativeType.BLOB;
            case DURATION -> NativeType.DURATION;
            case NULL -> null;
        };
    }

    /** A term as Cassandra prints it in these messages. */
    public static String text(Term t) {
        if (t instanceof Term.TypeCast hint) {
            return "(" + hint.type().toCql() + ")" + text(hint.term());
        }
        return t instanceof Term.Literal lit && lit.kind() == LiteralKind.NULL ? "NULL" : t.toCql();
    }

    /** Overloads as Cassandra lists them: {@code system.f : (int, text) -> bigint}. */
    public static String signatures(List<NativeFunction> functions) {
        List<String> out = new ArrayList<>(functions.size());
        for (NativeFunction f : functions) {
            StringBuilder sig = new StringBuilder("system.").append(quoted(f.name())).append(" : (");
            for (int i = 0; i < f.argTypes().size(); i++) {
                sig.append(i > 0 ? ", " : "").append(Types.cqlName(f.argTypes().get(i)));
            }
            out.add(sig.append(") -> ").append(Types.cqlName(f.returnType())).toString());
        }
        return String.join(", ", out);
    }

    private static String quoted(String name) {
        return name.startsWith("_") ? "\"" + name + "\"" : name;
    }

    /** Evaluates a resolved call over its bound arguments (an unset argument leaves the value unset). */
    public static BoundValue apply(NativeFunction fn, List<BoundValue> args) {
        return ctx -> {
            List<ByteBuffer> values = new ArrayList<>(args.size());
            for (BoundValue b : args) {
                ByteBuffer v = b.bind(ctx);
                if (v == Values.UNSET) {
                    // as Cassandra: an unset argument fails the statement (nothing in it is skipped)
                    throw new InvalidRequestException("Invalid unset value for argument in call to function "
                            + fn.name());
                }
                values.add(v);
            }
            return fn.execute(values, ctx);
        };
    }
}
