package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.CustomType;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Cassandra 5.0's masking functions called in a selection: {@code mask_null}, {@code mask_default},
 * {@code mask_replace}, {@code mask_inner}, {@code mask_outer} and {@code mask_hash}, with their argument checks
 * and error texts as Cassandra 5.0.6 words them.
 */
final class MaskingFunctions {
    static final Set<String> NAMES = Set.of("mask_null", "mask_default", "mask_replace", "mask_inner", "mask_outer",
            "mask_hash");

    /** The type Cassandra's masking functions report for a timeuuid they return. */
    static final DataType LEGACY_TIMEUUID = new CustomType("org.apache.cassandra.db.marshal.LegacyTimeUUIDType");

    /** Builds one argument of a call: its expected type, or null when the argument's own type is taken. */
    interface ArgBuilder {
        Selection.Output build(int index, DataType expected);
    }

    private MaskingFunctions() {
    }

    static Selection.Output build(String fname, int argCount, ArgBuilder args) {
        return switch (fname) {
            case "mask_null" -> {
                arity(argCount == 1, "system.mask_null(any)");
                Selection.Output in = args.build(0, null);
                yield Selection.simple(in.type(), call(fname, in), (r, ctx) -> null);
            }
            case "mask_default" -> {
                arity(argCount == 1, "system.mask_default(any)");
                Selection.Output in = args.build(0, null);
                ByteBuffer def = defaultValue(in.type());
                DataType t = Types.kind(in.type()) == TypeKind.TIMEUUID ? LEGACY_TIMEUUID : in.type();
                yield Selection.simple(t, call(fname, in), (r, ctx) -> def.duplicate());
            }
            case "mask_replace" -> {
                arity(argCount == 2, "system.mask_replace(any, any)");
                Selection.Output in = args.build(0, null);
                Selection.Output replacement = args.build(1, in.type());
                yield Selection.simple(in.type(), call(fname, in, replacement),
                        (r, ctx) -> replacement.value(r, ctx));
            }
            case "mask_inner", "mask_outer" -> {
                arity(argCount == 3 || argCount == 4, "system." + fname + "([text|varchar|ascii], int, int, [text])");
                Selection.Output in = args.build(0, null);
                TypeKind k = Types.kind(in.type());
                if (k != TypeKind.TEXT && k != TypeKind.ASCII) {
                    throw new InvalidRequestException("Function system." + fname + " requires an argument of type "
                            + "[text|varchar|ascii], but found argument " + in.name() + " of type "
                            + in.type().cqlName());
                }
                Selection.Output begin = args.build(1, NativeType.INT);
                Selection.Output end = args.build(2, NativeType.INT);
                Selection.Output pad = argCount == 4 ? args.build(3, NativeType.TEXT) : null;
                boolean inner = fname.equals("mask_inner");
                String name = pad == null ? call(fname, in, begin, end) : call(fname, in, begin, end, pad);
                yield Selection.simple(in.type(), name, (r, ctx) -> {
                    ByteBuffer v = in.value(r, ctx);
                    ByteBuffer b = begin.value(r, ctx);
                    ByteBuffer e = end.value(r, ctx);
                    char padding = '*';
                    if (pad != null) {
                        ByteBuffer p = pad.value(r, ctx);
                        if (p != null) {
                            String ps = Values.toText(p);
                            if (ps.length() != 1) {
                                throw new InvalidRequestException("The padding argument for function system." + fname
                                        + " should be single-character, but '" + ps + "' has " + ps.length()
                                        + " characters.");
                            }
                            padding = ps.charAt(0);
                        }
                    }
                    if (v == null) {
                        return null;
                    }
                    int from = b == null || b.remaining() == 0 ? 0 : Math.max(0, b.getInt(b.position()));
                    int to = e == null || e.remaining() == 0 ? 0 : Math.max(0, e.getInt(e.position()));
                    String s = Values.toText(v);
                    return Values.text(inner ? maskInner(s, from, to, padding) : maskOuter(s, from, to, padding));
                });
            }
            case "mask_hash" -> {
                arity(argCount == 1 || argCount == 2, "system.mask_hash(any, [text])");
                Selection.Output in = args.build(0, null);
                Selection.Output algorithm = argCount == 2 ? args.build(1, NativeType.TEXT) : null;
                String name = algorithm == null ? call(fname, in) : call(fname, in, algorithm);
                yield Selection.simple(NativeType.BLOB, name, (r, ctx) -> {
                    String alg = "SHA-256";
                    if (algorithm != null) {
                        ByteBuffer a = algorithm.value(r, ctx);
                        if (a != null) {
                            alg = Values.toText(a);
                        }
                    }
                    MessageDigest digest;
                    try {
                        digest = MessageDigest.getInstance(alg);
                    } catch (NoSuchAlgorithmException ex) {
                        throw new InvalidRequestException("Hash algorithm not found: " + alg);
                    }
                    ByteBuffer v = in.value(r, ctx);
                    if (v == null) {
                        return null;
                    }
                    digest.update(v.duplicate());
                    return ByteBuffer.wrap(digest.digest());
                });
            }
            default -> throw new IllegalArgumentException(fname);
        };
    }

    private static void arity(boolean ok, String signature) {
        if (!ok) {
            throw new InvalidRequestException("Invalid number of arguments for function " + signature);
        }
    }

    private static String call(String fname, Selection.Output... args) {
        StringBuilder sb = new StringBuilder("system.").append(fname).append('(');
        for (int i = 0; i < args.length; i++) {
            sb.append(i > 0 ? ", " : "").append(args[i].name());
        }
        return sb.append(')').toString();
    }

    /** Keeps {@code begin} characters at the start and {@code end} at the end, pads those between. */
    private static String maskInner(String s, int begin, int end, char padding) {
        int n = s.length();
        if (begin + (long) end >= n) {
            return s;
        }
        StringBuilder sb = new StringBuilder(n).append(s, 0, begin);
        sb.append(String.valueOf(padding).repeat(n - begin - end));
        return sb.append(s, n - end, n).toString();
    }

    /** Pads {@code begin} characters at the start and {@code end} at the end, keeps those between. */
    private static String maskOuter(String s, int begin, int end, char padding) {
        int n = s.length();
        if (begin + (long) end >= n) {
            return String.valueOf(padding).repeat(n);
        }
        return String.valueOf(padding).repeat(begin) + s.substring(begin, n - end)
                + String.valueOf(padding).repeat(end);
    }

    /** The value mask_default gives a type: zero, false, '****', the epoch, an empty collection... */
    static ByteBuffer defaultValue(DataType type) {
        return switch (Types.kind(type)) {
            case TEXT, ASCII -> ByteBuffer.wrap("****".getBytes(StandardCharsets.UTF_8));
            case INT -> Values.int32(0);
            case BIGINT, COUNTER, TIMESTAMP, TIME -> Values.bigint(0);
            case SMALLINT -> ByteBuffer.allocate(2);
            case TINYINT -> ByteBuffer.allocate(1);
            case FLOAT -> ByteBuffer.allocate(4).putFloat(0, 0f);
            case DOUBLE -> Values.dbl(0);
            case DECIMAL -> Values.decimal(BigDecimal.ZERO);
            case VARINT -> ByteBuffer.wrap(BigInteger.ZERO.toByteArray());
            case BOOLEAN -> Values.bool(false);
            case BLOB, CUSTOM -> ByteBuffer.allocate(0);
            case INET -> ByteBuffer.allocate(4);
            case DATE -> Values.int32(Integer.MIN_VALUE);
            case UUID -> ByteBuffer.allocate(16);
            // the smallest time-based uuid of the epoch
            case TIMEUUID -> ByteBuffer.allocate(16).putLong(0, 0x138140001dd211b2L).putLong(8, 0x8080808080808080L);
            case DURATION -> ByteBuffer.wrap(new byte[3]);
            case LIST, SET, MAP -> Values.collection(List.of());
            case TUPLE -> {
                List<ByteBuffer> fields = new ArrayList<>();
                for (DataType c : ((TupleType) type).components()) {
                    fields.add(defaultValue(c));
                }
                yield Values.tuple(fields);
            }
            case UDT -> {
                List<ByteBuffer> fields = new ArrayList<>();
                for (DataType c : ((UserType) type).fieldTypes()) {
                    fields.add(defaultValue(c));
                }
                yield Values.tuple(fields);
            }
            default -> throw new InvalidRequestException("mask_default is not supported for type "
                    + type.cqlName());
        };
    }
}
