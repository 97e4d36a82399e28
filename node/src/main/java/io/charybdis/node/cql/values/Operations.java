package io.charybdis.node.cql.values;

import io.charybdis.node.cql.statements.Arithmetic;
import io.charybdis.node.cql.syntax.ArithmeticOperator;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Cassandra's operators as the overloaded functions its OperationFcts declares ({@code system._add},
 * {@code _substract}, {@code _multiply}, {@code _divide}, {@code _modulo}, {@code _negate}): every pair of numeric
 * types (the result the wider type), {@code timestamp|date ± duration}, and the four text concatenations. Terms
 * ({@code WHERE t > '2024-01-01' - 1d}) and bind-marker operands of selections resolve against these overloads as
 * against any function's.
 */
public final class Operations {
    private static final List<NativeType> NUMBERS = List.of(NativeType.TINYINT, NativeType.SMALLINT, NativeType.INT,
            NativeType.BIGINT, NativeType.FLOAT, NativeType.DOUBLE, NativeType.DECIMAL, NativeType.VARINT,
            NativeType.COUNTER);
    private static final Map<ArithmeticOperator, List<NativeFunction>> BY_OPERATOR =
            new EnumMap<>(ArithmeticOperator.class);
    private static final List<NativeFunction> NEGATIONS = new ArrayList<>();

    static {
        for (ArithmeticOperator op : ArithmeticOperator.values()) {
            List<NativeFunction> fns = new ArrayList<>();
            for (NativeType l : NUMBERS) {
                for (NativeType r : NUMBERS) {
                    fns.add(operation(op, l, r));
                }
            }
            if (op == ArithmeticOperator.ADD || op == ArithmeticOperator.SUBTRACT) {
                fns.add(operation(op, NativeType.TIMESTAMP, NativeType.DURATION));
                fns.add(operation(op, NativeType.DATE, NativeType.DURATION));
            }
            if (op == ArithmeticOperator.ADD) {
                fns.add(operation(op, NativeType.TEXT, NativeType.TEXT));
                fns.add(operation(op, NativeType.ASCII, NativeType.ASCII));
                fns.add(operation(op, NativeType.TEXT, NativeType.ASCII));
                fns.add(operation(op, NativeType.ASCII, NativeType.TEXT));
            }
            BY_OPERATOR.put(op, List.copyOf(fns));
        }
        // in the order the reference listed them (Cassandra's order varies between its processes: see
        // Arithmetic.negateUnsupported)
        for (NativeType t : List.of(NativeType.SMALLINT, NativeType.COUNTER, NativeType.DECIMAL, NativeType.BIGINT,
                NativeType.VARINT, NativeType.DOUBLE, NativeType.FLOAT, NativeType.INT, NativeType.TINYINT)) {
            NEGATIONS.add(new NativeFunction("_negate", List.of(t), t, false,
                    (a, c) -> Arithmetic.negate(t, a.get(0))));
        }
    }

    private Operations() {
    }

    /** The function name Cassandra gives an operator. */
    public static String functionName(ArithmeticOperator op) {
        return switch (op) {
            case ADD -> "_add";
            case SUBTRACT -> "_substract";
            case MULTIPLY -> "_multiply";
            case DIVIDE -> "_divide";
            case MODULO -> "_modulo";
        };
    }

    private static NativeFunction operation(ArithmeticOperator op, DataType left, DataType right) {
        DataType result = Arithmetic.resultType(op, left, right);
        return new NativeFunction(functionName(op), List.of(left, right), result, false,
                (a, c) -> Arithmetic.apply(op, left, a.get(0), right, a.get(1), result));
    }

    /** The overloads of {@code op}. */
    public static List<NativeFunction> overloads(ArithmeticOperator op) {
        return BY_OPERATOR.get(op);
    }

    /** The overloads of unary minus. */
    public static List<NativeFunction> negations() {
        return NEGATIONS;
    }
}
