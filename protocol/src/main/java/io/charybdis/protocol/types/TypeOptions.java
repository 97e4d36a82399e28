package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/** [option] ids, reading type options and marshal class names, and helpers shared by the composite types. */
public final class TypeOptions {
    public static final int CUSTOM = 0x0000;
    public static final int LIST = 0x0020;
    public static final int MAP = 0x0021;
    public static final int SET = 0x0022;
    public static final int UDT = 0x0030;
    public static final int TUPLE = 0x0031;

    private static final Pattern UNQUOTED = Pattern.compile("[a-z][a-z0-9_]*");

    private TypeOptions() {
    }

    /** Reads an [option] type; composite types nested in others come back frozen. */
    public static DataType read(ByteBuf in) {
        int id = Wire.readUnsignedShort(in, "a type [option] id");
        switch (id) {
            case CUSTOM:
                String className = Wire.readString(in);
                try {
                    return parseMarshal(className);
                } catch (RuntimeException e) {
                    return new CustomType(className);
                }
            case LIST:
                return new ListType(read(in).freeze(), false);
            case SET:
                return new SetType(read(in).freeze(), false);
            case MAP: {
                DataType k = read(in).freeze();
                return new MapType(k, read(in).freeze(), false);
            }
            case UDT: {
                String ks = Wire.readString(in);
                String name = Wire.readString(in);
                int n = Wire.readUnsignedShort(in, "a UDT field count");
                List<String> names = new ArrayList<>(n);
                List<DataType> types = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    names.add(Wire.readString(in));
                    types.add(read(in).freeze());
                }
                return new UserType(ks, name, names, types, false);
            }
            case TUPLE: {
                int n = Wire.readUnsignedShort(in, "a tuple size");
                List<DataType> types = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    types.add(read(in).freeze());
                }
                return new TupleType(types);
            }
            default:
                NativeType t = NativeType.fromProtocolCode(id);
                if (t == null) {
                    throw new ProtocolException("Unknown type [option] id 0x" + Integer.toHexString(id));
                }
                return t;
        }
    }

    /**
     * Parses a Cassandra marshal class name ({@code org.apache.cassandra.db.marshal.MapType(...)}, with or
     * without the package, {@code FrozenType}, {@code ReversedType}, {@code VectorType}, {@code UserType}).
     * Unknown class names become {@link CustomType}.
     */
    public static DataType parseMarshal(String s) {
        int[] pos = {0};
        DataType t = parseMarshal(s.trim(), pos);
        if (pos[0] != s.trim().length()) {
            throw new IllegalArgumentException("Unexpected text at " + pos[0] + " in " + s);
        }
        return t;
    }

    private static DataType parseMarshal(String s, int[] pos) {
        int tokenStart = pos[0];
        String name = token(s, pos);
        String simple = name.startsWith(DataType.MARSHAL_PACKAGE) ? name.substring(DataType.MARSHAL_PACKAGE.length())
                : name;
        List<String> rawParams = null;
        if (pos[0] < s.length() && s.charAt(pos[0]) == '(') {
            rawParams = splitParams(s, pos);
        }
        switch (simple) {
            case "FrozenType":
                return parseMarshal(single(rawParams, s)).freeze();
            case "ReversedType":
                return parseMarshal(single(rawParams, s));
            case "ListType":
                return new ListType(parseMarshal(single(rawParams, s)), false);
            case "SetType":
                return new SetType(parseMarshal(single(rawParams, s)), false);
            case "MapType":
                expectParams(rawParams, 2, s);
                return new MapType(parseMarshal(rawParams.get(0)), parseMarshal(rawParams.get(1)), false);
            case "TupleType": {
                List<DataType> types = new ArrayList<>();
                for (String p : rawParams == null ? List.<String>of() : rawParams) {
                    types.add(parseMarshal(p));
                }
                return new TupleType(types);
            }
            case "VectorType":
                expectParams(rawParams, 2, s);
                return new VectorType(parseMarshal(rawParams.get(0)), Integer.parseInt(rawParams.get(1).trim()));
            case "UserType": {
                if (rawParams == null || rawParams.size() < 2) {
                    throw new IllegalArgumentException("UserType needs a keyspace and a name: " + s);
                }
                HexFormat hex = HexFormat.of();
                List<String> names = new ArrayList<>();
                List<DataType> types = new ArrayList<>();
                for (String p : rawParams.subList(2, rawParams.size())) {
                    int colon = p.indexOf(':');
                    names.add(new String(hex.parseHex(p.substring(0, colon).trim()), StandardCharsets.UTF_8));
                    types.add(parseMarshal(p.substring(colon + 1)));
                }
                return new UserType(rawParams.get(0).trim(),
                        new String(hex.parseHex(rawParams.get(1).trim()), StandardCharsets.UTF_8), names, types,
                        false);
            }
            default: {
                NativeType t = rawParams == null ? NativeType.fromMarshalName(simple) : null;
                if (t != null) {
                    return t;
                }
                if (simple.equals("CounterColumnType")) {
                    return NativeType.COUNTER;
                }
                return new CustomType(s.substring(tokenStart, pos[0]).trim());
            }
        }
    }

    private static String single(List<String> params, String s) {
        expectParams(params, 1, s);
        return params.get(0);
    }

    private static void expectParams(List<String> params, int n, String s) {
        if (params == null || params.size() != n) {
            throw new IllegalArgumentException("Expected " + n + " type parameters in " + s);
        }
    }

    private static String token(String s, int[] pos) {
        int start = pos[0];
        while (pos[0] < s.length() && "(),".indexOf(s.charAt(pos[0])) < 0) {
            pos[0]++;
        }
        return s.substring(start, pos[0]).trim();
    }

    /** Splits "(a,b(c,d),e)" at depth one; {@code pos} is at '(' and ends after ')'. */
    private static List<String> splitParams(String s, int[] pos) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = pos[0] + 1;
        for (int i = pos[0]; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    String last = s.substring(start, i);
                    if (!last.isBlank() || !out.isEmpty()) {
                        out.add(last);
                    }
                    pos[0] = i + 1;
                    return out;
                }
            } else if (c == ',' && depth == 1) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        throw new IllegalArgumentException("Unbalanced parentheses in " + s);
    }

    static String frozenMarshal(boolean frozen, String marshal) {
        return frozen ? DataType.MARSHAL_PACKAGE + "FrozenType(" + marshal + ")" : marshal;
    }

    static String innerMarshal(DataType t) {
        return t.marshalName();
    }

    /** {@code name} as CQL prints an identifier: bare when lower-case alphanumeric, else double-quoted. */
    public static String quoteIdentifier(String name) {
        if (UNQUOTED.matcher(name).matches()) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static Collection<?> asCollection(Object value, DataType type) {
        if (value instanceof Collection<?> c) {
            return c;
        }
        if (value instanceof Object[] a) {
            return List.of(a);
        }
        throw new MarshalException("Cannot convert " + value.getClass().getSimpleName() + " to " + type.cqlName());
    }

    static ByteBuffer decomposeElement(DataType t, Object o) {
        if (o == null) {
            throw new MarshalException("null is not supported inside collections");
        }
        return t.decompose(o);
    }

    /** Order of lists, sets (valueType null) and maps: element by element, then the shorter first. */
    static int compareSequences(DataType keyType, DataType valueType, ByteBuffer a, ByteBuffer b, String what) {
        if (!a.hasRemaining() || !b.hasRemaining()) {
            return Values.compareEmpty(a, b);
        }
        ByteBuffer ia = a.duplicate();
        ByteBuffer ib = b.duplicate();
        int na = Values.readCount(ia, what);
        int nb = Values.readCount(ib, what);
        for (int i = 0; i < Math.min(na, nb); i++) {
            int c = keyType.compare(Values.readElement(ia, what), Values.readElement(ib, what));
            if (c != 0) {
                return c;
            }
            if (valueType != null) {
                c = valueType.compare(Values.readElement(ia, what), Values.readElement(ib, what));
                if (c != 0) {
                    return c;
                }
            }
        }
        return Integer.compare(na, nb);
    }

    /** Order of tuples and UDTs: component by component, null first; extra non-null components sort after. */
    static int compareComponents(List<DataType> types, ByteBuffer a, ByteBuffer b, String what) {
        if (!a.hasRemaining() || !b.hasRemaining()) {
            return Values.compareEmpty(a, b);
        }
        List<ByteBuffer> ca = Values.readComponents(a, types.size(), what);
        List<ByteBuffer> cb = Values.readComponents(b, types.size(), what);
        int common = Math.min(ca.size(), cb.size());
        for (int i = 0; i < common; i++) {
            int c = Values.compareNullable(types.get(i), ca.get(i), cb.get(i));
            if (c != 0) {
                return c;
            }
        }
        for (int i = common; i < ca.size(); i++) {
            if (ca.get(i) != null) {
                return 1;
            }
        }
        for (int i = common; i < cb.size(); i++) {
            if (cb.get(i) != null) {
                return -1;
            }
        }
        return 0;
    }
}
