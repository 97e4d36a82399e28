package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tuple<a, b, ...>}, always frozen: Java value {@link TupleValue}; serialized as the [int]-prefixed
 * components (length -1 for null), possibly fewer than the type has.
 */
public record TupleType(List<DataType> components) implements DataType {
    public TupleType {
        components = List.copyOf(components);
    }

    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.TUPLE);
        out.writeShort(components.size());
        for (DataType t : components) {
            t.writeOption(out, version);
        }
    }

    @Override
    public String cqlName() {
        StringBuilder sb = new StringBuilder("frozen<tuple<");
        for (int i = 0; i < components.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(components.get(i).cqlName());
        }
        return sb.append(">>").toString();
    }

    @Override
    public String marshalName() {
        StringBuilder sb = new StringBuilder(MARSHAL_PACKAGE).append("TupleType(");
        for (int i = 0; i < components.size(); i++) {
            sb.append(i > 0 ? "," : "").append(TypeOptions.innerMarshal(components.get(i)));
        }
        return sb.append(')').toString();
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            Values.validateComponents(value, components, "tuple");
        }
    }

    @Override
    public TupleValue compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        List<ByteBuffer> parts = Values.readComponents(value, components.size(), "tuple");
        List<Object> out = new ArrayList<>(components.size());
        for (int i = 0; i < components.size(); i++) {
            out.add(i < parts.size() ? components.get(i).compose(parts.get(i)) : null);
        }
        return new TupleValue(out);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null) {
            return null;
        }
        List<?> values = value instanceof TupleValue tv ? tv.values() : value instanceof List<?> l ? l : null;
        if (values == null || values.size() > components.size()) {
            throw new MarshalException("Cannot convert " + value + " to " + cqlName());
        }
        List<ByteBuffer> parts = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            parts.add(components.get(i).decompose(values.get(i)));
        }
        return Values.pack(parts, 0, false);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        List<ByteBuffer> parts = Values.readComponents(value, components.size(), "tuple");
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < parts.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(components.get(i).toCqlLiteral(parts.get(i)));
        }
        return sb.append(')').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return TypeOptions.compareComponents(components, a, b, "tuple");
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
