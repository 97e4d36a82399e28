package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;

/** {@code CAST(x AS type)} between native types, as Cassandra's CastFcts allow. */
final class Casts {
    private Casts() {
    }

    static Selection.Output cast(Selection.Output inner, NativeType target) {
        DataType from = inner.type();
        TypeKind fk = Types.kind(from);
        String name = "cast(" + inner.name() + " as " + target.cqlName() + ")";
        if (from.equals(target)) {
            return Selection.simple(target, inner.name(), inner::value);
        }
        switch (fk) {
            case TIMESTAMP -> {
                if (target == NativeType.DATE) {
                    return Selection.simple(target, name, (r, ctx) -> {
                        ByteBuffer v = inner.value(r, ctx);
                        return v == null ? null : target.decompose(java.time.LocalDate.ofInstant(
                                java.time.Instant.ofEpochMilli(v.getLong(v.position())), java.time.ZoneOffset.UTC));
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
                                : target.decompose(java.time.LocalDate.ofInstant(java.time.Instant.ofEpochMilli(millis),
                                java.time.ZoneOffset.UTC));
                    });
                }
                if (target == NativeType.UUID) {
                    throw new InvalidRequestException(inner.name() + " cannot be cast to uuid");
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
                return switch (target) {
                    case TINYINT -> target.decompose(n.byteValue());
                    case SMALLINT -> target.decompose(n.shortValue());
                    case INT -> target.decompose(n.intValue());
                    case BIGINT, COUNTER -> target.decompose(n.longValue());
                    case FLOAT -> target.decompose(n.floatValue());
                    case DOUBLE -> target.decompose(n.doubleValue());
                    case VARINT -> target.decompose(n instanceof BigDecimal bd ? bd.toBigInteger()
                            : n instanceof BigInteger bi ? bi : BigInteger.valueOf(n.longValue()));
                    case DECIMAL -> target.decompose(n instanceof BigDecimal bd ? bd
                            : n instanceof BigInteger bi ? new BigDecimal(bi)
                            : (n instanceof Float || n instanceof Double) ? BigDecimal.valueOf(n.doubleValue())
                            : BigDecimal.valueOf(n.longValue()));
                    default -> throw new InvalidRequestException(cannot(from, target));
                };
            });
        }
        throw new InvalidRequestException(cannot(from, target));
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
