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
            return Selection.simple(target, name, inner::value);
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

    private static String cannot(DataType from, DataType to) {
        return "Cannot cast " + from.cqlName() + " to " + to.cqlName();
    }
}
