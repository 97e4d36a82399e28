package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user-defined type: Java value {@link UdtValue}; serialized like a tuple of its fields (trailing fields may be
 * missing).
 */
public record UserType(String keyspace, String name, List<String> fieldNames, List<DataType> fieldTypes,
                       boolean frozen) implements DataType {
    public UserType {
        fieldNames = List.copyOf(fieldNames);
        fieldTypes = List.copyOf(fieldTypes);
        if (fieldNames.size() != fieldTypes.size()) {
            throw new IllegalArgumentException("fieldNames=" + fieldNames + " fieldTypes=" + fieldTypes);
        }
    }

    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.UDT);
        Wire.writeString(out, keyspace);
        Wire.writeString(out, name);
        out.writeShort(fieldNames.size());
        for (int i = 0; i < fieldNames.size(); i++) {
            Wire.writeString(out, fieldNames.get(i));
            fieldTypes.get(i).writeOption(out, version);
        }
    }

    @Override
    public String cqlName() {
        String s = TypeOptions.quoteIdentifier(name);
        return frozen ? "frozen<" + s + ">" : s;
    }

    @Override
    public String marshalName() {
        HexFormat hex = HexFormat.of();
        StringBuilder sb = new StringBuilder(MARSHAL_PACKAGE).append("UserType(").append(keyspace).append(',')
                .append(hex.formatHex(name.getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < fieldNames.size(); i++) {
            sb.append(',').append(hex.formatHex(fieldNames.get(i).getBytes(StandardCharsets.UTF_8))).append(':')
                    .append(TypeOptions.innerMarshal(fieldTypes.get(i)));
        }
        return TypeOptions.frozenMarshal(frozen, sb.append(')').toString());
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    @Override
    public DataType freeze() {
        return frozen ? this : new UserType(keyspace, name, fieldNames, fieldTypes, true);
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            Values.validateComponents(value, fieldTypes, "user type");
        }
    }

    @Override
    public UdtValue compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        List<ByteBuffer> parts = Values.readComponents(value, fieldTypes.size(), "user type");
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < fieldNames.size(); i++) {
            out.put(fieldNames.get(i), i < parts.size() ? fieldTypes.get(i).compose(parts.get(i)) : null);
        }
        return new UdtValue(out);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null) {
            return null;
        }
        Map<?, ?> fields = value instanceof UdtValue u ? u.fields() : value instanceof Map<?, ?> m ? m : null;
        if (fields == null) {
            throw new MarshalException("Cannot convert " + value + " to " + cqlName());
        }
        for (Object k : fields.keySet()) {
            if (!fieldNames.contains(k)) {
                throw new MarshalException("Unknown field '" + k + "' in value of user defined type " + name);
            }
        }
        List<ByteBuffer> parts = new ArrayList<>(fieldNames.size());
        for (int i = 0; i < fieldNames.size(); i++) {
            parts.add(fieldTypes.get(i).decompose(fields.get(fieldNames.get(i))));
        }
        return Values.pack(parts, 0, false);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        List<ByteBuffer> parts = Values.readComponents(value, fieldTypes.size(), "user type");
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < parts.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(TypeOptions.quoteIdentifier(fieldNames.get(i))).append(": ")
                    .append(fieldTypes.get(i).toCqlLiteral(parts.get(i)));
        }
        return sb.append('}').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return TypeOptions.compareComponents(fieldTypes, a, b, "user type");
    }

    @Override
    public String toString() {
        return keyspace + "." + cqlName();
    }
}
