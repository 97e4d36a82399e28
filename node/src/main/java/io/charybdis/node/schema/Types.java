package io.charybdis.node.schema;

import io.charybdis.node.cql.keys.OrderedCodec;
import io.charybdis.node.cql.values.Values;
import io.charybdis.protocol.types.CustomType;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.ListType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.SetType;
import io.charybdis.protocol.types.TupleType;
import io.charybdis.protocol.types.UserType;
import io.charybdis.protocol.types.VectorType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** The CQL layer's view of {@link DataType}: shape dispatch, component access and key encodings. */
public final class Types {
    private Types() {
    }

    public static TypeKind kind(DataType t) {
        if (t instanceof NativeType n) {
            return switch (n) {
                case ASCII -> TypeKind.ASCII;
                case BIGINT -> TypeKind.BIGINT;
                case BLOB -> TypeKind.BLOB;
                case BOOLEAN -> TypeKind.BOOLEAN;
                case COUNTER -> TypeKind.COUNTER;
                case DECIMAL -> TypeKind.DECIMAL;
                case DOUBLE -> TypeKind.DOUBLE;
                case FLOAT -> TypeKind.FLOAT;
                case INT -> TypeKind.INT;
                case TIMESTAMP -> TypeKind.TIMESTAMP;
                case UUID -> TypeKind.UUID;
                case TEXT -> TypeKind.TEXT;
                case VARINT -> TypeKind.VARINT;
                case TIMEUUID -> TypeKind.TIMEUUID;
                case INET -> TypeKind.INET;
                case DATE -> TypeKind.DATE;
                case TIME -> TypeKind.TIME;
                case SMALLINT -> TypeKind.SMALLINT;
                case TINYINT -> TypeKind.TINYINT;
                case DURATION -> TypeKind.DURATION;
                case EMPTY -> TypeKind.EMPTY;
            };
        }
        if (t instanceof ListType) {
            return TypeKind.LIST;
        }
        if (t instanceof SetType) {
            return TypeKind.SET;
        }
        if (t instanceof MapType) {
            return TypeKind.MAP;
        }
        if (t instanceof TupleType) {
            return TypeKind.TUPLE;
        }
        if (t instanceof UserType) {
            return TypeKind.UDT;
        }
        if (t instanceof VectorType) {
            return TypeKind.VECTOR;
        }
        return TypeKind.CUSTOM;
    }

    public static String cqlName(DataType t) {
        return t.cqlName();
    }

    public static boolean isMultiCell(DataType t) {
        return t.isMultiCell();
    }

    public static boolean isCounter(DataType t) {
        return t == NativeType.COUNTER;
    }

    public static boolean isCollection(DataType t) {
        return kind(t).isCollection();
    }

    /**
     * A collection value as Cassandra keeps it whatever order a client sent it in: set elements and map keys sorted
     * by their type's order, without duplicates (the last value of a map key wins), and so within nested collections.
     * Returns {@code value} itself when it already is so (or is no collection, or holds a null element, which the
     * caller refuses).
     */
    public static ByteBuffer normalized(DataType t, ByteBuffer value) {
        TypeKind k = kind(t);
        if (value == null || !k.isCollection()) {
            return value;
        }
        boolean map = k == TypeKind.MAP;
        List<ByteBuffer> parts = Values.elements(value, map);
        int step = map ? 2 : 1;
        DataType keyType = map ? keyType(t) : elementType(t);
        DataType valueType = map ? valueType(t) : null;
        boolean changed = false;
        for (int i = 0; i < parts.size(); i++) {
            ByteBuffer p = parts.get(i);
            if (p == null) {
                return value;
            }
            ByteBuffer n = normalized(map && (i & 1) == 1 ? valueType : keyType, p);
            if (n != p) {
                parts.set(i, n);
                changed = true;
            }
        }
        if (k == TypeKind.LIST) {
            return changed ? Values.collection(parts) : value;
        }
        boolean ordered = true;
        for (int i = step; i < parts.size() && ordered; i += step) {
            ordered = keyType.compare(parts.get(i - step), parts.get(i)) < 0;
        }
        if (ordered) {
            return changed ? joinComponents(t, parts) : value;
        }
        java.util.TreeMap<ByteBuffer, ByteBuffer> sorted = new java.util.TreeMap<>(keyType::compare);
        for (int i = 0; i < parts.size(); i += step) {
            sorted.put(parts.get(i), map ? parts.get(i + 1) : parts.get(i));
        }
        List<ByteBuffer> out = new ArrayList<>(sorted.size() * step);
        sorted.forEach((key, v) -> {
            out.add(key);
            if (map) {
                out.add(v);
            }
        });
        return joinComponents(t, out);
    }

    /** Whether values of the type hold a decimal (itself, or inside a frozen collection, tuple, UDT or vector). */
    public static boolean containsDecimal(DataType t) {
        return switch (kind(t)) {
            case DECIMAL -> true;
            case LIST, SET, VECTOR -> containsDecimal(elementType(t));
            case MAP -> containsDecimal(keyType(t)) || containsDecimal(valueType(t));
            case TUPLE, UDT -> fieldTypes(t).stream().anyMatch(Types::containsDecimal);
            default -> false;
        };
    }

    /** Element type of a list, set or vector. */
    public static DataType elementType(DataType t) {
        if (t instanceof ListType l) {
            return l.element();
        }
        if (t instanceof SetType s) {
            return s.element();
        }
        if (t instanceof VectorType v) {
            return v.element();
        }
        throw new IllegalArgumentException("not a list, set or vector: " + t.cqlName());
    }

    public static DataType keyType(DataType t) {
        return ((MapType) t).key();
    }

    public static DataType valueType(DataType t) {
        return ((MapType) t).value();
    }

    public static List<DataType> fieldTypes(DataType t) {
        if (t instanceof TupleType tt) {
            return tt.components();
        }
        return ((UserType) t).fieldTypes();
    }

    public static List<String> fieldNames(DataType t) {
        return ((UserType) t).fieldNames();
    }

    public static int vectorDimension(DataType t) {
        return ((VectorType) t).dimension();
    }

    public static DataType freeze(DataType t) {
        return t.freeze();
    }

    /** The encoding kind of a type whose values encode atomically, or null for composite (frozen) types. */
    public static OrderedCodec.Kind orderedKind(DataType t) {
        return switch (kind(t)) {
            case TINYINT -> OrderedCodec.Kind.INT8;
            case SMALLINT -> OrderedCodec.Kind.INT16;
            case INT -> OrderedCodec.Kind.INT32;
            case BIGINT, COUNTER, TIMESTAMP, TIME -> OrderedCodec.Kind.INT64;
            case DATE -> OrderedCodec.Kind.UINT32;
            case FLOAT -> OrderedCodec.Kind.FLOAT;
            case DOUBLE -> OrderedCodec.Kind.DOUBLE;
            case BOOLEAN -> OrderedCodec.Kind.BOOLEAN;
            case VARINT -> OrderedCodec.Kind.VARINT;
            case DECIMAL -> OrderedCodec.Kind.DECIMAL;
            case UUID -> OrderedCodec.Kind.UUID;
            case TIMEUUID -> OrderedCodec.Kind.TIMEUUID;
            case LIST, SET, MAP, TUPLE, UDT, VECTOR -> null;
            default -> OrderedCodec.Kind.BYTES;
        };
    }

    /** The component values of a composite value: collection elements (map: k, v, k, v), tuple/UDT fields. */
    public static List<ByteBuffer> splitComponents(DataType t, ByteBuffer value) {
        return switch (kind(t)) {
            case LIST, SET -> Values.elements(value, false);
            case MAP -> Values.elements(value, true);
            case TUPLE, UDT -> Values.fields(value, fieldTypes(t).size());
            case VECTOR -> splitVector(t, value);
            default -> throw new IllegalArgumentException("not composite: " + t.cqlName());
        };
    }

    private static List<ByteBuffer> splitVector(DataType t, ByteBuffer value) {
        int dim = vectorDimension(t);
        int width = elementType(t).fixedLength();
        List<ByteBuffer> out = new ArrayList<>(dim);
        if (width > 0) {
            for (int i = 0; i < dim; i++) {
                out.add(value.slice(value.position() + i * width, width));
            }
            return out;
        }
        ByteBuffer in = value.duplicate();
        for (int i = 0; i < dim; i++) {
            long len = io.charybdis.protocol.types.VInt.readUnsigned(in);
            out.add(in.slice(in.position(), (int) len));
            in.position(in.position() + (int) len);
        }
        return out;
    }

    public static List<DataType> componentTypes(DataType t, ByteBuffer value) {
        int n = splitComponents(t, value).size();
        List<DataType> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(componentType(t, i));
        }
        return out;
    }

    /** The type of the i-th component as {@link #splitComponents} orders them. */
    public static DataType componentType(DataType t, int i) {
        return switch (kind(t)) {
            case LIST, SET, VECTOR -> elementType(t);
            case MAP -> (i & 1) == 0 ? keyType(t) : valueType(t);
            case TUPLE, UDT -> fieldTypes(t).get(i);
            default -> throw new IllegalArgumentException("not composite: " + t.cqlName());
        };
    }

    public static ByteBuffer joinComponents(DataType t, List<ByteBuffer> components) {
        return switch (kind(t)) {
            case LIST, SET -> Values.collection(components);
            case MAP -> {
                ByteBuffer out = Values.collection(components);
                out.putInt(0, components.size() / 2);
                yield out;
            }
            case TUPLE, UDT -> Values.tuple(components);
            case VECTOR -> joinVector(t, components);
            default -> throw new IllegalArgumentException("not composite: " + t.cqlName());
        };
    }

    private static ByteBuffer joinVector(DataType t, List<ByteBuffer> components) {
        int width = elementType(t).fixedLength();
        int size = 0;
        for (ByteBuffer c : components) {
            size += c.remaining() + (width > 0 ? 0 : io.charybdis.protocol.types.VInt.MAX_SIZE);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer c : components) {
            if (width <= 0) {
                io.charybdis.protocol.types.VInt.writeUnsigned(out, c.remaining());
            }
            out.put(c.duplicate());
        }
        return out.flip();
    }

    public static DataType listOf(DataType e, boolean frozen) {
        return new ListType(e, frozen);
    }

    public static DataType setOf(DataType e, boolean frozen) {
        return new SetType(e, frozen);
    }

    public static DataType mapOf(DataType k, DataType v, boolean frozen) {
        return new MapType(k, v, frozen);
    }

    public static DataType custom(String className) {
        return new CustomType(className);
    }
}
