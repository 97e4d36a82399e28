package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CQL values as JSON, the way Cassandra's {@code SELECT JSON}, {@code toJson()}, {@code INSERT JSON} and
 * {@code fromJson()} write and read them: numbers and booleans bare, everything else as strings (timestamps as
 * {@code "yyyy-MM-dd HH:mm:ss.SSSZ"} in UTC, blobs as {@code "0x..."}), collections and tuples as arrays, maps and
 * UDTs as objects (map keys always strings). Includes a small JSON reader for the parsing direction.
 */
public final class Json {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSX")
            .withZone(ZoneOffset.UTC);

    private Json() {
    }

    // ---- writing -------------------------------------------------------------------------------------------------

    public static String format(DataType type, ByteBuffer value) {
        StringBuilder sb = new StringBuilder();
        write(sb, type, value);
        return sb.toString();
    }

    static void write(StringBuilder sb, DataType type, ByteBuffer value) {
        if (value == null) {
            sb.append("null");
            return;
        }
        TypeKind kind = Types.kind(type);
        if (!value.hasRemaining() && kind != TypeKind.TEXT && kind != TypeKind.ASCII && kind != TypeKind.BLOB
                && !kind.isCollection()) {
            sb.append("null");
            return;
        }
        switch (kind) {
            case TINYINT, SMALLINT, INT, BIGINT, COUNTER, VARINT, DECIMAL -> sb.append(type.compose(value));
            case FLOAT, DOUBLE -> {
                double d = ((Number) type.compose(value)).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    sb.append("null"); // as Cassandra: JSON has no NaN or infinities
                } else {
                    sb.append(type.compose(value));
                }
            }
            case BOOLEAN -> sb.append(type.compose(value));
            case TEXT, ASCII -> quote(sb, Values.toText(value));
            case BLOB -> sb.append("\"0x").append(HexFormat.of().formatHex(Values.bytes(value))).append('"');
            case TIMESTAMP -> sb.append('"').append(TIMESTAMP.format(Instant.ofEpochMilli(value.getLong(value.position()))))
                    .append('"');
            case LIST, SET, VECTOR, TUPLE -> {
                sb.append('[');
                List<ByteBuffer> parts = Types.splitComponents(type, value);
                for (int i = 0; i < parts.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    write(sb, Types.componentType(type, i), parts.get(i));
                }
                sb.append(']');
            }
            case MAP -> {
                sb.append('{');
                List<ByteBuffer> parts = Values.elements(value, true);
                for (int i = 0; i < parts.size(); i += 2) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    // an empty key (an empty value of a type without one, such as int) is the empty string
                    String key = parts.get(i).hasRemaining() ? format(Types.keyType(type), parts.get(i)) : "";
                    if (key.startsWith("\"")) {
                        sb.append(key);
                    } else {
                        quote(sb, key);
                    }
                    sb.append(": ");
                    write(sb, Types.valueType(type), parts.get(i + 1));
                }
                sb.append('}');
            }
            case UDT -> {
                sb.append('{');
                List<String> names = Types.fieldNames(type);
                List<ByteBuffer> fields = Values.fields(value, names.size());
                for (int i = 0; i < names.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    quote(sb, columnKey(names.get(i)));
                    sb.append(": ");
                    write(sb, Types.fieldTypes(type).get(i), fields.get(i));
                }
                sb.append('}');
            }
            default -> {
                String lit = type.toCqlLiteral(value);
                if (lit.startsWith("'") && lit.endsWith("'")) {
                    lit = lit.substring(1, lit.length() - 1).replace("''", "'");
                }
                quote(sb, lit);
            }
        }
    }

    /** A column or field name as a JSON key: case-sensitive names keep their CQL double quotes. */
    public static String columnKey(String name) {
        return io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded(name);
    }

    public static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    // ---- reading -------------------------------------------------------------------------------------------------

    /**
     * Parses JSON text into Java values: Map (ordered), List, String, BigDecimal, Boolean, or null. As Cassandra's
     * reader, it reads the first value and ignores what follows it.
     */
    public static Object parse(String text) {
        return new Reader(text).value();
    }

    /** JSON text that does not parse; {@link #detail()} says why, without the text itself. */
    public static final class ParseException extends InvalidRequestException {
        private static final long serialVersionUID = 1L;
        private final String detail;

        ParseException(String text, String detail) {
            super("Could not decode JSON string '" + text + "': " + detail);
            this.detail = detail;
        }

        public String detail() {
            return detail;
        }
    }

    private static final String DECODING = "Error decoding JSON value for ";

    /** Converts a parsed JSON value to the serialized form of {@code type}. */
    public static ByteBuffer toValue(Object json, DataType type, String receiver) {
        try {
            return convert(json, type, receiver);
        } catch (InvalidAscii e) {
            throw e;
        } catch (InvalidRequestException e) {
            String m = e.getMessage();
            if (m.startsWith(DECODING) || Types.kind(type) == TypeKind.DURATION) {
                throw e;
            }
            throw new InvalidRequestException(DECODING + receiver + ": " + m);
        }
    }

    /**
     * The message of a conversion error without the receiver's prefix, as {@code fromJson()} reports it (a
     * MarshalException of the function).
     */
    public static String conversionMessage(InvalidRequestException e, String receiver) {
        String m = e.getMessage();
        String prefix = DECODING + receiver + ": ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    /** The types whose JSON string {@code ""} is a value of their own (varint, date, time and blob refuse it). */
    private static final java.util.Set<TypeKind> EMPTY_STRING_IS_EMPTY_VALUE = java.util.EnumSet.of(TypeKind.INT,
            TypeKind.BIGINT, TypeKind.SMALLINT, TypeKind.TINYINT, TypeKind.DECIMAL, TypeKind.FLOAT, TypeKind.DOUBLE,
            TypeKind.BOOLEAN, TypeKind.UUID, TypeKind.TIMEUUID, TypeKind.INET, TypeKind.TIMESTAMP,
            TypeKind.DURATION);

    private static ByteBuffer convert(Object json, DataType type, String receiver) {
        if (json == null) {
            return null;
        }
        TypeKind kind = Types.kind(type);
        if ("".equals(json) && EMPTY_STRING_IS_EMPTY_VALUE.contains(kind)) {
            // Cassandra reads these types' JSON strings through their fromString, which makes the empty value of
            // an empty string (a boolean's is false)
            return kind == TypeKind.BOOLEAN ? type.decompose(false) : ByteBuffer.allocate(0);
        }
        try {
            switch (kind) {
                case TEXT, ASCII -> {
                    if (!(json instanceof String s)) {
                        throw mismatch(json, type, receiver);
                    }
                    if (kind == TypeKind.ASCII && !s.chars().allMatch(ch -> ch < 0x80)) {
                        throw new InvalidAscii(receiver);
                    }
                    return type.decompose(s);
                }
                case BOOLEAN -> {
                    if (json instanceof Boolean b) {
                        return type.decompose(b);
                    }
                    if (json instanceof String s) {
                        if (s.isEmpty()) {
                            return ByteBuffer.allocate(0);
                        }
                        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                            return type.decompose(Boolean.parseBoolean(s));
                        }
                        throw new InvalidRequestException("Unable to make boolean from '" + s + "'");
                    }
                    throw mismatch(json, type, receiver);
                }
                case TINYINT, SMALLINT -> {
                    // Cassandra reads both from the text of the number or string
                    if (!(json instanceof BigDecimal) && !(json instanceof String)) {
                        throw mismatch(json, type, receiver);
                    }
                    String text = json instanceof BigDecimal n ? jsonNumberText(n) : (String) json;
                    String what = kind == TypeKind.TINYINT ? "byte" : "short";
                    try {
                        return kind == TypeKind.TINYINT ? type.decompose(Byte.parseByte(text))
                                : type.decompose(Short.parseShort(text));
                    } catch (NumberFormatException e) {
                        throw new InvalidRequestException("Unable to make " + what + " from '" + text + "'");
                    }
                }
                case BIGINT, COUNTER -> {
                    if (json instanceof BigDecimal n) {
                        if (n.scale() != 0 || !"Long".equals(jsonNumberClass(n)) && !fitsInt(n)) {
                            throw mismatch(json, type, receiver);
                        }
                        return type.decompose(n.longValueExact());
                    }
                    if (!(json instanceof String str)) {
                        throw mismatch(json, type, receiver);
                    }
                    try {
                        return type.decompose(Long.parseLong(str));
                    } catch (NumberFormatException e) {
                        throw new InvalidRequestException("Unable to make long from '" + str + "'");
                    }
                }
                case VARINT -> {
                    String text = json instanceof BigDecimal n ? jsonNumberText(n) : String.valueOf(json);
                    try {
                        return type.decompose(new java.math.BigInteger(text));
                    } catch (NumberFormatException e) {
                        throw new InvalidRequestException("Value '" + text + "' is not a valid representation of a "
                                + "varint value");
                    }
                }
                case FLOAT, DOUBLE -> {
                    if (json instanceof String str) {
                        try {
                            return kind == TypeKind.FLOAT ? type.decompose(Float.parseFloat(str))
                                    : type.decompose(Double.parseDouble(str));
                        } catch (NumberFormatException e) {
                            throw new InvalidRequestException("Unable to make " + type.cqlName() + " from '" + str
                                    + "'");
                        }
                    }
                    if (!(json instanceof BigDecimal n)) {
                        throw mismatch(json, type, receiver);
                    }
                    return kind == TypeKind.FLOAT ? type.decompose(n.floatValue()) : type.decompose(n.doubleValue());
                }
                case INT, DECIMAL -> {
                    BigDecimal n = json instanceof BigDecimal bd ? bd
                            : json instanceof String s ? new BigDecimal(s.trim()) : null;
                    if (n == null) {
                        throw mismatch(json, type, receiver);
                    }
                    if (kind == TypeKind.INT && json instanceof BigDecimal && !fitsInt(n)) {
                        // Cassandra's JSON reader makes an Integer, a Long, a BigInteger or a Double of a number,
                        // and an int column takes only the first
                        throw new InvalidRequestException("Error decoding JSON value for " + receiver
                                + ": Expected an int value, but got a " + jsonNumberClass(n) + ": "
                                + jsonNumberText(n));
                    }
                    if (kind == TypeKind.DECIMAL && json instanceof BigDecimal && n.scale() != 0) {
                        // a JSON number with a fraction or an exponent reaches Cassandra as a Double
                        double d = n.doubleValue();
                        if (Double.isInfinite(d)) {
                            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Value '"
                                    + d + "' is not a valid representation of a decimal value");
                        }
                        return type.decompose(new BigDecimal(Double.toString(d)));
                    }
                    return kind == TypeKind.INT ? type.decompose(n.intValueExact()) : type.decompose(n);
                }
                case BLOB -> {
                    if (!(json instanceof String s) || !s.startsWith("0x")) {
                        throw new InvalidRequestException("Value '" + json + "' is not a valid blob representation: "
                                + "String representation of blob is missing 0x prefix: " + json);
                    }
                    String hex = s.substring(2);
                    try {
                        return ByteBuffer.wrap(HexFormat.of().parseHex(hex)); // (an odd length is refused too)
                    } catch (IllegalArgumentException e) {
                        throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Value '"
                                + s + "' is not a valid blob representation: cannot parse '" + hex + "' as hex bytes");
                    }
                }
                case TIMESTAMP -> {
                    if (json instanceof BigDecimal n && n.scale() == 0) {
                        return Values.bigint(n.longValueExact());
                    }
                    if (!(json instanceof String str)) {
                        throw mismatch(json, type, receiver);
                    }
                    try {
                        return Values.bigint(DateTimes.parseTimestampMillis(str));
                    } catch (InvalidRequestException e) {
                        throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": "
                                + e.getMessage());
                    }
                }
                case LIST, SET, VECTOR, TUPLE -> {
                    if (json instanceof String str) {
                        return toValue(embedded(str), type, receiver);
                    }
                    if (!(json instanceof List<?> list)) {
                        throw mismatch(json, type, receiver);
                    }
                    if (kind == TypeKind.VECTOR) {
                        int dimension = ((io.charybdis.protocol.types.VectorType) type).dimension();
                        if (list.size() != dimension) {
                            throw new InvalidRequestException("List had incorrect size: expected " + dimension
                                    + " but given " + list.size() + "; " + jsonText(list));
                        }
                    }
                    if (kind == TypeKind.TUPLE) {
                        int arity = Types.fieldTypes(type).size();
                        if (list.size() < arity) {
                            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Tuple is "
                                    + "missing items (expected " + arity + "): " + jsonText(list));
                        }
                        if (list.size() > arity) {
                            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Tuple "
                                    + "contains extra items (expected " + arity + "): " + jsonText(list));
                        }
                    }
                    List<ByteBuffer> parts = new ArrayList<>();
                    for (int i = 0; i < list.size(); i++) {
                        if (list.get(i) == null && kind != TypeKind.TUPLE) {
                            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Invalid "
                                    + "null element in " + (kind == TypeKind.SET ? "set" : "list"));
                        }
                        parts.add(toValue(list.get(i), Types.componentType(type, i), receiver));
                    }
                    if (kind == TypeKind.SET) {
                        DataType et = Types.elementType(type);
                        TreeMap<ByteBuffer, ByteBuffer> sorted = new TreeMap<>(et::compare);
                        parts.forEach(p -> sorted.put(p, p));
                        parts = new ArrayList<>(sorted.keySet());
                    }
                    return kind == TypeKind.TUPLE ? Values.tuple(parts) : Types.joinComponents(type, parts);
                }
                case MAP -> {
                    if (json instanceof String str) {
                        return toValue(embedded(str), type, receiver);
                    }
                    if (!(json instanceof Map<?, ?> map)) {
                        throw mismatch(json, type, receiver);
                    }
                    DataType kt = Types.keyType(type);
                    TreeMap<ByteBuffer, ByteBuffer> sorted = new TreeMap<>(kt::compare);
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        if (e.getValue() == null) {
                            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Invalid "
                                    + "null value in map");
                        }
                        // a key is a JSON string, read as the key type reads a string (a collection, tuple or UDT
                        // parses it as JSON), as Cassandra reads it
                        String k = (String) e.getKey();
                        sorted.put(toValue(k, kt, receiver), toValue(e.getValue(), Types.valueType(type),
                                receiver));
                    }
                    List<ByteBuffer> flat = new ArrayList<>();
                    sorted.forEach((k, v) -> {
                        flat.add(k);
                        flat.add(v);
                    });
                    return Types.joinComponents(type, flat);
                }
                case UDT -> {
                    if (json instanceof String str) {
                        return toValue(embedded(str), type, receiver);
                    }
                    if (!(json instanceof Map<?, ?> map)) {
                        throw mismatch(json, type, receiver);
                    }
                    List<String> names = Types.fieldNames(type);
                    // field names as CQL identifiers: a quoted key keeps its case, an unquoted one is lower-cased
                    Map<String, Object> byField = new java.util.LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        String key = (String) e.getKey();
                        byField.put(key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")
                                ? key.substring(1, key.length() - 1) : key.toLowerCase(java.util.Locale.ROOT),
                                e.getValue());
                    }
                    List<ByteBuffer> fields = new ArrayList<>();
                    for (int i = 0; i < names.size(); i++) {
                        fields.add(toValue(byField.remove(names.get(i)), Types.fieldTypes(type).get(i), receiver));
                    }
                    if (!byField.isEmpty()) {
                        throw new InvalidRequestException("Unknown field '" + byField.keySet().iterator().next()
                                + "' in value of user defined type " + ((io.charybdis.protocol.types.UserType) type)
                                .name());
                    }
                    return Values.tuple(fields);
                }
                case UUID, TIMEUUID -> {
                    if (!(json instanceof String s)) {
                        throw mismatch(json, type, receiver);
                    }
                    if (!s.matches("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")) {
                        throw new InvalidRequestException("Unable to make UUID from '" + s + "'");
                    }
                    return Literals.parse(new io.charybdis.node.cql.syntax.Term.Literal(
                            io.charybdis.node.cql.syntax.LiteralKind.UUID, s), type, receiver);
                }
                default -> {
                    if (!(json instanceof String s)) {
                        throw mismatch(json, type, receiver);
                    }
                    // JSON carries uuids and durations as strings, where CQL has literals of their own
                    io.charybdis.node.cql.syntax.LiteralKind literalKind = switch (Types.kind(type)) {
                        case UUID, TIMEUUID -> io.charybdis.node.cql.syntax.LiteralKind.UUID;
                        case DURATION -> io.charybdis.node.cql.syntax.LiteralKind.DURATION;
                        default -> io.charybdis.node.cql.syntax.LiteralKind.STRING;
                    };
                    return Literals.parse(new io.charybdis.node.cql.syntax.Term.Literal(literalKind, s), type, receiver);
                }
            }
        } catch (ArithmeticException | NumberFormatException e) {
            if (kind == TypeKind.DECIMAL) {
                throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Value '" + json
                        + "' is not a valid representation of a decimal value");
            }
            throw new InvalidRequestException("Error decoding JSON value for " + receiver + ": Unable to make "
                    + type.cqlName() + " from '" + json + "'");
        }
    }

    /** A collection, tuple or UDT given as a JSON string: Cassandra parses the string as JSON. */
    private static Object embedded(String text) {
        try {
            return parse(text);
        } catch (ParseException e) {
            throw new InvalidRequestException("Error decoding JSON string: " + e.detail());
        }
    }

    /** Whether a JSON number is one Cassandra's JSON reader makes an Integer of. */
    private static boolean fitsInt(BigDecimal n) {
        return n.scale() == 0 && n.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                && n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
    }

    private static String jsonNumberClass(BigDecimal n) {
        if (n.scale() != 0) {
            return "Double";
        }
        return n.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0 && n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE))
                <= 0 ? "Long" : "BigInteger";
    }

    private static String jsonNumberText(BigDecimal n) {
        return n.scale() != 0 ? Double.toString(n.doubleValue()) : n.toPlainString();
    }

    /**
     * A non-ASCII string for an ascii receiver: an invalid request in INSERT JSON, a failure of the function in
     * {@code fromJson()} (a MarshalException), as Cassandra reports them.
     */
    public static final class InvalidAscii extends InvalidRequestException {
        private static final long serialVersionUID = 1L;
        static final String MESSAGE = "Invalid ASCII character in string literal: "
                + "java.nio.charset.UnmappableCharacterException: Input length = 1";

        InvalidAscii(String receiver) {
            super("Error decoding JSON value for " + receiver + ": " + MESSAGE);
        }
    }

    /** A JSON value of the wrong kind for {@code type}, worded as Cassandra words it for each type. */
    private static InvalidRequestException mismatch(Object json, DataType type, String receiver) {
        String expected = switch (Types.kind(type)) {
            case TIMESTAMP -> "a long or a datestring representation of a timestamp value";
            case DATE -> "a string representation of a date value";
            case TIME -> "a string representation of a time value";
            case UUID -> "a string representation of a uuid";
            case TIMEUUID -> "a string representation of a timeuuid";
            case INET -> "a string representation of an inet value";
            case DURATION -> "a string representation of a duration";
            case BOOLEAN -> "a boolean value";
            case SET -> "a list (representing a set)";
            case LIST -> "a list";
            case VECTOR -> "a list";
            case MAP, UDT -> "a map";
            case TUPLE -> "a list representation of a tuple";
            case INT -> "an int value";
            case BIGINT, COUNTER -> "a bigint value";
            case SMALLINT -> "a short value";
            case TINYINT -> "a byte value";
            case VARINT -> "an integer value";
            case FLOAT -> "a float value";
            case DOUBLE -> "a double value";
            case DECIMAL -> "a decimal value";
            case TEXT -> "a UTF-8 string";
            case ASCII -> "an ascii string";
            case BLOB -> "a string";
            default -> "a " + type.cqlName() + " value";
        };
        return new InvalidRequestException("Error decoding JSON value for " + receiver + ": Expected " + expected
                + ", but got a " + jsonClass(json) + ": " + jsonText(json));
    }

    /** The class Cassandra's JSON reader (Jackson) makes of a parsed value. */
    private static String jsonClass(Object json) {
        return switch (json) {
            case Map<?, ?> m -> "LinkedHashMap";
            case List<?> l -> "ArrayList";
            case BigDecimal n -> n.scale() != 0 ? "Double" : fitsInt(n) ? "Integer" : jsonNumberClass(n);
            default -> json.getClass().getSimpleName();
        };
    }

    /** A parsed value as Java prints the reader's objects: {@code {a=1}}, {@code [1, 2]}, {@code 1.5}. */
    private static String jsonText(Object json) {
        return switch (json) {
            case null -> "null";
            case Map<?, ?> m -> {
                StringBuilder sb = new StringBuilder("{");
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    sb.append(sb.length() > 1 ? ", " : "").append(e.getKey()).append('=').append(jsonText(e.getValue()));
                }
                yield sb.append('}').toString();
            }
            case List<?> l -> {
                StringBuilder sb = new StringBuilder("[");
                for (Object o : l) {
                    sb.append(sb.length() > 1 ? ", " : "").append(jsonText(o));
                }
                yield sb.append(']').toString();
            }
            case BigDecimal n -> jsonNumberText(n);
            default -> json.toString();
        };
    }

    /** A minimal, strict JSON reader. */
    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s;
        }

        void skipWs() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        InvalidRequestException error(String what) {
            return new ParseException(s, what + " at character " + pos);
        }

        Object value() {
            skipWs();
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skipWs();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        skipWs();
                        String key = string();
                        skipWs();
                        expect(':');
                        m.put(key, value());
                        skipWs();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[' -> {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    skipWs();
                    if (peek(']')) {
                        return l;
                    }
                    do {
                        l.add(value());
                        skipWs();
                    } while (peek(','));
                    expect(']');
                    return l;
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", pos)) {
                        pos += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", pos)) {
                        pos += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", pos)) {
                        pos += 4;
                        return null;
                    }
                    int start = pos;
                    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    if (start == pos) {
                        throw error("unexpected character '" + c + "'");
                    }
                    try {
                        return new BigDecimal(s.substring(start, pos));
                    } catch (NumberFormatException e) {
                        throw error("bad number");
                    }
                }
            }
        }

        boolean peek(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            skipWs();
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    if (pos >= s.length()) {
                        throw error("bad escape");
                    }
                    char e = s.charAt(pos++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            if (pos + 4 > s.length()) {
                                throw error("bad unicode escape");
                            }
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            pos += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
        }
    }

}
