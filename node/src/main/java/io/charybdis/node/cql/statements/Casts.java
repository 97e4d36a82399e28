package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * {@code CAST(x AS type)} between native types, as Cassandra's CastFcts allow: a cast to type T is a call of the
 * function {@code system.cast_as_T}, which has one overload per type it converts from (numbers to numbers, most
 * types to text and ascii, dates and times between themselves). A cast to the value's own type is the value.
 */
public final class Casts {
    private Casts() {
    }

    private static final List<NativeType> NUMBERS = List.of(NativeType.TINYINT, NativeType.SMALLINT, NativeType.INT,
            NativeType.BIGINT, NativeType.FLOAT, NativeType.DOUBLE, NativeType.DECIMAL, NativeType.COUNTER,
            NativeType.VARINT);

    /**
     * The types {@code cast_as_<target>} takes, in the order Cassandra 5.0 lists them in its error message (the
     * iteration order of its function registry; recorded for ascii and int, the others ordered alike).
     */
    public static List<NativeType> castSources(NativeType target) {
        return switch (target) {
            case ASCII -> List.of(NativeType.TINYINT, NativeType.BIGINT, NativeType.UUID, NativeType.DECIMAL,
                    NativeType.INET, NativeType.DOUBLE, NativeType.SMALLINT, NativeType.VARINT, NativeType.INT,
                    NativeType.TIME, NativeType.DATE, NativeType.COUNTER, NativeType.BOOLEAN, NativeType.TIMEUUID,
                    NativeType.FLOAT, NativeType.TIMESTAMP);
            case TEXT -> List.of(NativeType.TINYINT, NativeType.BIGINT, NativeType.UUID, NativeType.DECIMAL,
                    NativeType.INET, NativeType.DOUBLE, NativeType.SMALLINT, NativeType.VARINT, NativeType.INT,
                    NativeType.TIME, NativeType.DATE, NativeType.COUNTER, NativeType.BOOLEAN, NativeType.TIMEUUID,
                    NativeType.FLOAT, NativeType.TIMESTAMP, NativeType.ASCII);
            case TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, VARINT -> {
                List<NativeType> order = new java.util.ArrayList<>(List.of(NativeType.DECIMAL, NativeType.VARINT,
                        NativeType.SMALLINT, NativeType.FLOAT, NativeType.COUNTER, NativeType.TINYINT,
                        NativeType.DOUBLE, NativeType.BIGINT));
                int self = order.indexOf(target);
                if (self >= 0) {
                    order.set(self, NativeType.INT);
                }
                yield order;
            }
            case DATE -> List.of(NativeType.TIMEUUID, NativeType.TIMESTAMP);
            case TIMESTAMP -> List.of(NativeType.TIMEUUID, NativeType.DATE);
            default -> List.of();
        };
    }

    static Selection.Output cast(Selection.Output source, NativeType target) {
        DataType from = source.type();
        TypeKind fk = Types.kind(from);
        // an empty value (no bytes, not null) of a type that has none composes to null: its cast is null
        Selection.Output inner = fk == TypeKind.TEXT || fk == TypeKind.ASCII || fk == TypeKind.BLOB ? source
                : Selection.simple(from, source.name(), (r, ctx) -> {
                    ByteBuffer v = source.value(r, ctx);
                    return v == null || !v.hasRemaining() ? null : v;
                });
        String name = "cast(" + inner.name() + " as " + target.cqlName() + ")";
        if (from.equals(target)) {
            return Selection.simple(target, inner.name(), inner::value);
        }
        List<NativeType> sources = castSources(target);
        // the overloads a value of another type still fits (Cassandra's weak assignment): a timestamp is a bigint,
        // an int a raw date
        boolean weak = (fk == TypeKind.TIMESTAMP && target == NativeType.BIGINT)
                || (fk == TypeKind.INT && target == NativeType.TIMESTAMP);
        if (!weak && !(from instanceof NativeType n && sources.contains(n))) {
            if (sources.isEmpty()) {
                throw new InvalidRequestException(inner.name() + " cannot be cast to " + target.cqlName());
            }
            String fn = "system.cast_as_" + target.cqlName();
            StringBuilder known = new StringBuilder();
            for (NativeType t : sources) {
                known.append(known.length() == 0 ? "" : ", ").append(fn).append(" : (").append(t.cqlName())
                        .append(") -> ").append(target.cqlName());
            }
            throw new InvalidRequestException("Invalid call to function " + fn + ", none of its type signatures "
                    + "match (known type signatures: " + known + ")");
        }
        switch (fk) {
            case TIMESTAMP -> {
                if (target == NativeType.DATE) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        // truncated towards zero, as Cassandra's toDate
                        return v == null ? null : target.decompose(java.time.LocalDate.ofEpochDay(
                                v.getLong(v.position()) / 86_400_000L));
                    });
                }
                if (target == NativeType.BIGINT) {
                    return Selection.simple(target, name, (r, ctx) -> inner.value(r, ctx));
                }
                if (target == NativeType.TEXT || target == NativeType.ASCII) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        return v == null ? null : target.decompose(isoMillis(v.getLong(v.position())));
                    });
                }
            }
            case DATE -> {
                if (target == NativeType.TIMESTAMP) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        return v == null ? null : io.charybdis.node.cql.values.Values.bigint(
                                io.charybdis.node.cql.values.DateTimes.toLocalDate(v.getInt(v.position()))
                                        .toEpochDay() * 86_400_000L);
                    });
                }
                if (target == NativeType.TEXT || target == NativeType.ASCII) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        return v == null ? null : target.decompose(io.charybdis.node.cql.values.DateTimes
                                .toLocalDate(v.getInt(v.position())).toString());
                    });
                }
            }
            case TIMEUUID -> {
                if (target == NativeType.TIMESTAMP || target == NativeType.DATE) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        if (v == null) {
                            return null;
                        }
                        long millis = io.charybdis.node.cql.values.TimeUuids.unixMillis(
                                io.charybdis.node.cql.values.Values.toUuid(v));
                        return target == NativeType.TIMESTAMP ? io.charybdis.node.cql.values.Values.bigint(millis)
                                : target.decompose(java.time.LocalDate.ofEpochDay(millis / 86_400_000L));
                    });
                }
            }
            case INT -> {
                if (target == NativeType.TIMESTAMP) {
                    // Cassandra converts through date: the int is a raw date (days offset by 2^31)
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        return v == null ? null : io.charybdis.node.cql.values.Values.bigint(
                                ((v.getInt(v.position()) & 0xFFFFFFFFL) - (1L << 31)) * 86_400_000L);
                    });
                }
            }
            default -> {
            }
        }
        if (target == NativeType.TEXT || target == NativeType.ASCII) {
            return Selection.simple(target, name, (r, ctx) -> {
                ByteBuffer v = inner.value(r, ctx);
                if (v == null) {
                    return null;
                }
                Object o = from.compose(v);
                String s = switch (fk) {
                    case TEXT, ASCII -> (String) o;
                    default -> {
                        String lit = from.toCqlLiteral(v);
                        yield lit.startsWith("'") && lit.endsWith("'") ? lit.substring(1, lit.length() - 1) : lit;
                    }
                };
                return target.decompose(s);
            });
        }
        boolean numericFrom = switch (fk) {
            case TINYINT, SMALLINT, INT, BIGINT, VARINT, DECIMAL, FLOAT, DOUBLE, COUNTER -> true;
            default -> false;
        };
        if (numericFrom) {
            return Selection.simple(target, name, (r, ctx) -> {
                ByteBuffer v = inner.value(r, ctx);
                if (v == null) {
                    return null;
                }
                Number n = (Number) from.compose(v);
                if (target == NativeType.DECIMAL && (n instanceof Float || n instanceof Double)
                        && !Double.isFinite(n.doubleValue())) {
                    // Cassandra's cast fails (its BigDecimal refuses NaN and infinities); a function failure here
                    String fn = "castAsDecimal";
                    throw new io.charybdis.node.cql.exceptions.FunctionFailureException("execution of 'system." + fn
                            + "[" + from.cqlName() + "]' failed: java.lang.NumberFormatException: Character "
                            + (Double.isNaN(n.doubleValue()) ? "N" : "I") + " is neither a decimal digit number, "
                            + "decimal point, nor \"e\" notation exponential mark.", "system", fn,
                            java.util.List.of(from.cqlName()));
                }
                return switch (target) {
                    case TINYINT -> target.decompose(n.byteValue());
                    case SMALLINT -> target.decompose(n.shortValue());
                    case INT -> target.decompose(n.intValue());
                    case BIGINT, COUNTER -> target.decompose(n.longValue());
                    case FLOAT -> target.decompose(n.floatValue());
                    case DOUBLE -> target.decompose(n.doubleValue());
                    // as Cassandra: a varint from any other number goes through its long value (wrapping)
                    case VARINT -> target.decompose(n instanceof BigInteger bi ? bi : BigInteger.valueOf(n.longValue()));
                    // a float's decimal is its shortest text, not its double's
                    case DECIMAL -> target.decompose(n instanceof BigDecimal bd ? bd
                            : n instanceof BigInteger bi ? new BigDecimal(bi)
                            : n instanceof Float f ? new BigDecimal(Float.toString(f))
                            : n instanceof Double ? BigDecimal.valueOf(n.doubleValue())
                            : BigDecimal.valueOf(n.longValue()));
                    default -> throw new InvalidRequestException(cannot(from, target));
                };
            });
        }
        throw new InvalidRequestException(cannot(from, target));
    }

    /**
     * The overloads of {@code system.cast_as_<target>} as functions over values (a CAST in a term position is a call
     * of one of them, resolved as any function call is), in the order Cassandra lists them.
     */
    public static List<io.charybdis.node.cql.values.NativeFunction> castFunctions(NativeType target) {
        List<io.charybdis.node.cql.values.NativeFunction> out = new java.util.ArrayList<>();
        for (NativeType source : castSources(target)) {
            out.add(new io.charybdis.node.cql.values.NativeFunction("cast_as_" + target.cqlName(), List.of(source),
                    target, false, (args, ctx) -> {
                        ByteBuffer v = args.get(0);
                        return cast(Selection.simple(source, "arg", (r, c) -> v), target).value(null, ctx);
                    }));
        }
        return out;
    }

    private static String isoMillis(long millis) {
        String s = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(millis));
        return s;
    }

    private static String cannot(DataType from, DataType to) {
        return "Cannot cast " + from.cqlName() + " to " + to.cqlName();
    }
}
