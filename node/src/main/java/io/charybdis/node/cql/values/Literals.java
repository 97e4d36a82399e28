package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.LiteralKind;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Parses CQL constants into the serialized form of their receiver's type, with Cassandra's rules for which
 * constant kinds each type accepts and Cassandra's error messages.
 */
public final class Literals {
    private Literals() {
    }

    public static ByteBuffer parse(Term.Literal lit, DataType type, String receiverName) {
        TypeKind kind = Types.kind(type);
        LiteralKind lk = lit.kind();
        String text = lit.text();
        try {
            switch (kind) {
                case ASCII -> {
                    requireKind(lit, type, receiverName, LiteralKind.STRING);
                    for (int i = 0; i < text.length(); i++) {
                        if (text.charAt(i) > 127) {
                            throw new InvalidRequestException("Invalid ASCII character in string literal: "
                                    + "java.nio.charset.UnmappableCharacterException: Input length = 1");
                        }
                    }
                    return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
                }
                case TEXT -> {
                    requireKind(lit, type, receiverName, LiteralKind.STRING);
                    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                }
                case BIGINT, COUNTER -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER);
                    return Values.bigint(parseLong(text, type));
                }
                case INT -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER);
                    long v = parseLong(text, type);
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        throw new InvalidRequestException("Unable to make int from '" + text + "'");
                    }
                    return Values.int32((int) v);
                }
                case SMALLINT -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER);
                    long v = parseLong(text, type);
                    if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
                        throw new InvalidRequestException("Unable to make short from '" + text + "'");
                    }
                    return ByteBuffer.allocate(2).putShort(0, (short) v);
                }
                case TINYINT -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER);
                    long v = parseLong(text, type);
                    if (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE) {
                        throw new InvalidRequestException("Unable to make byte from '" + text + "'");
                    }
                    return ByteBuffer.wrap(new byte[]{(byte) v});
                }
                case VARINT -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER);
                    return ByteBuffer.wrap(new BigInteger(text).toByteArray());
                }
                case DECIMAL -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.FLOAT);
                    return Values.decimal(new BigDecimal(text));
                }
                case DOUBLE -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.FLOAT);
                    return ByteBuffer.allocate(8).putDouble(0, parseDouble(text));
                }
                case FLOAT -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.FLOAT);
                    return ByteBuffer.allocate(4).putFloat(0, (float) parseDouble(text));
                }
                case BOOLEAN -> {
                    requireKind(lit, type, receiverName, LiteralKind.BOOLEAN);
                    return ByteBuffer.wrap(new byte[]{(byte) (text.equalsIgnoreCase("true") ? 1 : 0)});
                }
                case BLOB -> {
                    requireKind(lit, type, receiverName, LiteralKind.HEX);
                    String hex = text.substring(2);
                    if ((hex.length() & 1) != 0) {
                        throw new InvalidRequestException("cannot parse '" + hex + "' as hex bytes");
                    }
                    return ByteBuffer.wrap(HexFormat.of().parseHex(hex));
                }
                case UUID -> {
                    requireKind(lit, type, receiverName, LiteralKind.UUID);
                    return Values.uuid(UUID.fromString(text));
                }
                case TIMEUUID -> {
                    requireKind(lit, type, receiverName, LiteralKind.UUID);
                    UUID u = UUID.fromString(text);
                    if (u.version() != 1) {
                        throw new InvalidRequestException("Unsupported UUID version for timeuuid: " + u.version());
                    }
                    return Values.uuid(u);
                }
                case TIMESTAMP -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.STRING);
                    if (text.isEmpty()) {
                        return ByteBuffer.allocate(0);
                    }
                    return Values.bigint(DateTimes.parseTimestampMillis(text));
                }
                case DATE -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.STRING);
                    return Values.int32(lk == LiteralKind.INTEGER ? DateTimes.dateFromUnsigned(text)
                            : DateTimes.parseDate(text));
                }
                case TIME -> {
                    requireKind(lit, type, receiverName, LiteralKind.INTEGER, LiteralKind.STRING);
                    if (lk == LiteralKind.INTEGER) {
                        long nanos;
                        try {
                            nanos = Long.parseLong(text);
                        } catch (NumberFormatException e) {
                            nanos = -1;
                        }
                        if (nanos < 0 || nanos >= 86_400_000_000_000L) {
                            throw new InvalidRequestException("Unable to make long (for time) from: '" + text + "'");
                        }
                        return Values.bigint(nanos);
                    }
                    return Values.bigint(DateTimes.parseTimeNanos(text));
                }
                case DURATION -> {
                    if (lit.kind() == LiteralKind.INTEGER) {
                        // Cassandra takes an integer constant for a duration, then cannot parse it
                        throw new InvalidRequestException("Unable to convert '" + text + "' to a duration");
                    }
                    requireKind(lit, type, receiverName, LiteralKind.DURATION);
                    return Durations.parse(text);
                }
                case INET -> {
                    requireKind(lit, type, receiverName, LiteralKind.STRING);
                    return ByteBuffer.wrap(parseInet(text).getAddress());
                }
                case EMPTY -> throw new InvalidRequestException("Cannot set a value of type empty");
                case TUPLE -> {
                    if (lk == LiteralKind.NULL) {
                        throw new InvalidRequestException("Invalid " + describe(lk) + " constant (" + lit.text()
                                + ") for \"" + receiverName + "\" of type " + Types.cqlName(type));
                    }
                    if (lk == LiteralKind.HEX) {
                        // as Cassandra: a blob constant is the value's bytes
                        ByteBuffer raw = ByteBuffer.wrap(java.util.HexFormat.of().parseHex(text.substring(2)));
                        type.validate(raw);
                        return raw;
                    }
                    // as Cassandra: any other constant is the tuple's string form ('1:a', '@' for null)
                    return tupleFromString(text, type);
                }
                default -> throw new InvalidRequestException("Invalid " + describe(lk) + " constant (" + lit.text()
                        + ") for \"" + receiverName + "\" of type " + Types.cqlName(type));
            }
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw new InvalidRequestException("Unable to make " + Types.cqlName(type) + " from '" + text + "'");
        }
    }

    /**
     * A tuple from its string form, as Cassandra's TupleType.fromString reads it: components separated by unescaped
     * {@code :}, {@code @} for a null component, {@code \:} and {@code \@} for the characters themselves; missing
     * trailing components are absent, an empty string is the empty value.
     */
    static ByteBuffer tupleFromString(String text, DataType type) {
        if (text.isEmpty()) {
            return Values.EMPTY;
        }
        List<DataType> types = Types.fieldTypes(type);
        List<String> parts = new java.util.ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                cur.append(c).append(text.charAt(++i));
            } else if (c == ':') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        if (parts.size() > types.size()) {
            throw new InvalidRequestException("Invalid tuple literal: too many elements. Type " + Types.cqlName(type)
                    + " expects " + types.size() + " but got " + parts.size());
        }
        List<ByteBuffer> values = new java.util.ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            values.add(part.equals("@") ? null
                    : fromString(part.replace("\\:", ":").replace("\\@", "@"), types.get(i)));
        }
        return Values.tuple(values);
    }

    /** A value from its string form, as Cassandra's AbstractType.fromString reads it (the empty string: empty). */
    static ByteBuffer fromString(String text, DataType type) {
        TypeKind kind = Types.kind(type);
        if (text.isEmpty() && kind != TypeKind.TEXT && kind != TypeKind.ASCII) {
            return Values.EMPTY;
        }
        LiteralKind lk = switch (kind) {
            case TINYINT, SMALLINT, INT, BIGINT, VARINT, COUNTER -> LiteralKind.INTEGER;
            case FLOAT, DOUBLE, DECIMAL -> LiteralKind.FLOAT;
            case BOOLEAN -> LiteralKind.BOOLEAN;
            case UUID, TIMEUUID -> LiteralKind.UUID;
            case DURATION -> LiteralKind.DURATION;
            case BLOB -> LiteralKind.HEX;
            case TUPLE -> null;
            default -> LiteralKind.STRING;
        };
        if (lk == null) {
            return tupleFromString(text, type);
        }
        String t = lk == LiteralKind.HEX ? "0x" + text : text;
        if (lk == LiteralKind.BOOLEAN && !t.equalsIgnoreCase("true") && !t.equalsIgnoreCase("false")) {
            throw new InvalidRequestException("Unable to make boolean from '" + text + "'");
        }
        try {
            return parse(new Term.Literal(lk, t), type, "");
        } catch (InvalidRequestException e) {
            if (e.getMessage().startsWith("Invalid ")) {
                throw new InvalidRequestException("Unable to make " + Types.cqlName(type) + " from '" + text + "'");
            }
            throw e;
        }
    }

    /**
     * Whether a constant of this kind may be given for the type at all (Cassandra's testAssignment of constants):
     * the value itself may still not parse. null fits every type; collections, tuples and user types take no
     * constant.
     */
    public static boolean assignable(Term.Literal lit, DataType type) {
        if (lit.kind() == LiteralKind.NULL) {
            return true;
        }
        TypeKind kind = Types.kind(type);
        if (kind == TypeKind.CUSTOM || kind == TypeKind.TUPLE) {
            // as Cassandra: any constant may stand for a custom type or a tuple, read by its string form
            return true;
        }
        return switch (lit.kind()) {
            case STRING -> switch (kind) {
                case ASCII, TEXT, INET, DATE, TIME, TIMESTAMP -> true;
                default -> false;
            };
            case INTEGER -> switch (kind) {
                case BIGINT, COUNTER, DATE, DECIMAL, DOUBLE, DURATION, FLOAT, INT, SMALLINT, TIME, TIMESTAMP, TINYINT,
                     VARINT -> true;
                default -> false;
            };
            case FLOAT -> kind == TypeKind.DECIMAL || kind == TypeKind.DOUBLE || kind == TypeKind.FLOAT;
            case UUID -> kind == TypeKind.UUID || kind == TypeKind.TIMEUUID;
            case BOOLEAN -> kind == TypeKind.BOOLEAN;
            case HEX -> kind == TypeKind.BLOB;
            case DURATION -> kind == TypeKind.DURATION;
            case NULL -> true;
        };
    }

    private static void requireKind(Term.Literal lit, DataType type, String receiver, LiteralKind... allowed) {
        for (LiteralKind k : allowed) {
            if (lit.kind() == k) {
                return;
            }
        }
        throw new InvalidRequestException("Invalid " + describe(lit.kind()) + " constant (" + lit.text() + ") for \""
                + receiver + "\" of type " + Types.cqlName(type));
    }

    static String describe(LiteralKind k) {
        return switch (k) {
            case STRING -> "STRING";
            case INTEGER -> "INTEGER";
            case FLOAT -> "FLOAT";
            case BOOLEAN -> "BOOLEAN";
            case UUID -> "UUID";
            case HEX -> "HEX";
            case DURATION -> "DURATION";
            case NULL -> "NULL";
        };
    }

    static long parseLong(String text, DataType type) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("Unable to make "
                    + (type == io.charybdis.protocol.types.NativeType.INT ? "int" : "long") + " from '" + text + "'");
        }
    }

    static double parseDouble(String text) {
        return switch (text) {
            case "NaN", "-NaN" -> Double.NaN;
            case "Infinity", "+Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    static InetAddress parseInet(String text) {
        try {
            if (text.isEmpty() || !(Character.digit(text.charAt(0), 16) >= 0 || text.charAt(0) == ':')) {
                throw new InvalidRequestException("Unable to make inet address from '" + text + "'");
            }
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new InvalidRequestException("Unable to make inet address from '" + text + "'");
        }
    }
}
