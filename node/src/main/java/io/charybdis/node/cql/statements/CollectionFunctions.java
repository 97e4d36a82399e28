package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cassandra 5.0's collection functions: {@code map_keys}, {@code map_values}, {@code collection_count},
 * {@code collection_min}, {@code collection_max}, {@code collection_sum} and {@code collection_avg}. They take
 * their types from their argument (a set or list of any numeric type sums to that type), so they are built here
 * per call rather than declared as fixed overloads.
 *
 * <p>Arithmetic as Cassandra does it: a sum wraps around in the element type (a tinyint sum overflows); an average
 * of integers divides the exact sum and truncates; a decimal average is kept as a running mean,
 * {@code avg += (x - avg) / n} rounded half-even at each step, as Cassandra's decimal average is; floats and
 * doubles add in their own precision. A null collection counts, sums and averages to null; its keys and values are
 * empty collections.
 */
final class CollectionFunctions {
    static boolean isCollectionFunction(String name) {
        return switch (name) {
            case "map_keys", "map_values", "collection_count", "collection_min", "collection_max", "collection_sum",
                 "collection_avg" -> true;
            default -> false;
        };
    }

    static final List<String> NAMES = List.of("map_keys", "map_values", "collection_count", "collection_min",
            "collection_max", "collection_sum", "collection_avg");

    private CollectionFunctions() {
    }

    static Selection.Output build(String fn, String outName, Selection.Output arg) {
        DataType type = arg.type();
        TypeKind kind = Types.kind(type);
        String full = "system." + fn;
        boolean map = kind == TypeKind.MAP;
        boolean setOrList = kind == TypeKind.SET || kind == TypeKind.LIST;
        switch (fn) {
            case "map_keys", "map_values" -> {
                if (!map) {
                    throw wrongArgument(full, "a map", arg);
                }
                boolean keys = fn.equals("map_keys");
                DataType out = keys ? DataType.set(Types.keyType(type)) : DataType.list(Types.valueType(type));
                return Selection.simple(out, outName, (r, ctx) -> {
                    ByteBuffer v = arg.value(r, ctx);
                    if (v == null) {
                        return null; // a null (or empty non-frozen) map has no keys: null, as in Cassandra
                    }
                    List<ByteBuffer> parts = Values.elements(v, true);
                    List<ByteBuffer> kept = new ArrayList<>(parts.size() / 2);
                    for (int i = keys ? 0 : 1; i < parts.size(); i += 2) {
                        kept.add(parts.get(i));
                    }
                    return Values.collection(kept);
                });
            }
            case "collection_count" -> {
                if (!kind.isCollection()) {
                    throw wrongArgument(full, "a collection", arg);
                }
                return Selection.simple(NativeType.INT, outName, (r, ctx) -> {
                    ByteBuffer v = arg.value(r, ctx);
                    return v == null ? null : Values.int32(v.getInt(v.position()));
                });
            }
            case "collection_min", "collection_max" -> {
                if (!setOrList) {
                    throw wrongArgument(full, "a set or list", arg);
                }
                DataType element = Types.elementType(type);
                boolean min = fn.equals("collection_min");
                return Selection.simple(element, outName, (r, ctx) -> {
                    ByteBuffer v = arg.value(r, ctx);
                    ByteBuffer best = null;
                    for (ByteBuffer e : v == null ? List.<ByteBuffer>of() : Values.elements(v, false)) {
                        if (e != null && (best == null || (min ? element.compare(e, best) < 0
                                : element.compare(e, best) > 0))) {
                            best = e;
                        }
                    }
                    return best == null ? null : ByteBuffer.wrap(Values.bytes(best));
                });
            }
            default -> { // collection_sum, collection_avg
                DataType element = setOrList ? Types.elementType(type) : null;
                if (element == null || !numeric(Types.kind(element))) {
                    throw wrongArgument(full, "a numeric set/list", arg);
                }
                boolean avg = fn.equals("collection_avg");
                NativeType t = (NativeType) element;
                return Selection.simple(element, outName, (r, ctx) -> {
                    ByteBuffer v = arg.value(r, ctx);
                    if (v == null) {
                        return null;
                    }
                    List<Object> numbers = new ArrayList<>();
                    for (ByteBuffer e : Values.elements(v, false)) {
                        if (e != null && e.hasRemaining()) {
                            numbers.add(t.compose(e.duplicate()));
                        }
                    }
                    return avg ? average(t, numbers) : sum(t, numbers);
                });
            }
        }
    }

    private static boolean numeric(TypeKind k) {
        return switch (k) {
            case TINYINT, SMALLINT, INT, BIGINT, VARINT, DECIMAL, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    private static InvalidRequestException wrongArgument(String fn, String what, Selection.Output arg) {
        return new InvalidRequestException("Function " + fn + " requires " + what + " argument, but found argument "
                + arg.name() + " of type " + arg.type().cqlName());
    }

    private static ByteBuffer sum(NativeType t, List<Object> numbers) {
        switch (t) {
            case FLOAT -> {
                float f = 0;
                for (Object n : numbers) {
                    f += (Float) n;
                }
                return t.decompose(f);
            }
            case DOUBLE -> {
                double d = 0;
                for (Object n : numbers) {
                    d += (Double) n;
                }
                return t.decompose(d);
            }
            case DECIMAL -> {
                BigDecimal d = BigDecimal.ZERO;
                for (Object n : numbers) {
                    d = d.add((BigDecimal) n);
                }
                return t.decompose(d);
            }
            default -> {
                return integer(t, exactSum(numbers));
            }
        }
    }

    private static ByteBuffer average(NativeType t, List<Object> numbers) {
        int count = numbers.size();
        switch (t) {
            case FLOAT -> {
                float f = 0;
                for (Object n : numbers) {
                    f += (Float) n;
                }
                return t.decompose(count == 0 ? 0f : f / count);
            }
            case DOUBLE -> {
                double d = 0;
                for (Object n : numbers) {
                    d += (Double) n;
                }
                return t.decompose(count == 0 ? 0d : d / count);
            }
            case DECIMAL -> {
                BigDecimal avg = BigDecimal.ZERO;
                int i = 0;
                for (Object n : numbers) {
                    i++;
                    avg = avg.add(((BigDecimal) n).subtract(avg).divide(BigDecimal.valueOf(i), RoundingMode.HALF_EVEN));
                }
                return t.decompose(avg);
            }
            default -> {
                BigInteger sum = exactSum(numbers);
                return integer(t, count == 0 ? BigInteger.ZERO : sum.divide(BigInteger.valueOf(count)));
            }
        }
    }

    private static BigInteger exactSum(List<Object> numbers) {
        BigInteger sum = BigInteger.ZERO;
        for (Object n : numbers) {
            sum = sum.add(n instanceof BigInteger b ? b : BigInteger.valueOf(((Number) n).longValue()));
        }
        return sum;
    }

    /** An integer in the element type, wrapping around as that type's arithmetic does. */
    private static ByteBuffer integer(NativeType t, BigInteger v) {
        return switch (t) {
            case TINYINT -> t.decompose(v.byteValue());
            case SMALLINT -> t.decompose(v.shortValue());
            case INT -> t.decompose(v.intValue());
            case BIGINT -> t.decompose(v.longValue());
            default -> t.decompose(v);
        };
    }
}
