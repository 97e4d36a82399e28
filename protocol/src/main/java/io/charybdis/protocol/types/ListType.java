package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** {@code list<elem>}: Java value {@code List}; serialized as [int n] then n [int]-prefixed elements. */
public record ListType(DataType element, boolean frozen) implements DataType {
    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.LIST);
        element.writeOption(out, version);
    }

    @Override
    public String cqlName() {
        String s = "list<" + element.cqlName() + ">";
        return frozen ? "frozen<" + s + ">" : s;
    }

    @Override
    public String marshalName() {
        return TypeOptions.frozenMarshal(frozen, MARSHAL_PACKAGE + "ListType(" + TypeOptions.innerMarshal(element)
                + ")");
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    @Override
    public DataType freeze() {
        return frozen ? this : new ListType(element, true);
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            Values.validateCollection(value, "list", element);
        }
    }

    @Override
    public List<Object> compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        List<Object> out = new ArrayList<>();
        for (ByteBuffer e : Values.readAll(value, 1, "list")) {
            out.add(element.compose(e));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null) {
            return null;
        }
        Collection<?> c = TypeOptions.asCollection(value, this);
        List<ByteBuffer> elements = new ArrayList<>(c.size());
        for (Object o : c) {
            elements.add(TypeOptions.decomposeElement(element, o));
        }
        return Values.pack(elements, elements.size(), true);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("[");
        for (ByteBuffer e : Values.readAll(value, 1, "list")) {
            sb.append(sb.length() > 1 ? ", " : "").append(element.toCqlLiteral(e));
        }
        return sb.append(']').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return TypeOptions.compareSequences(element, null, a, b, "list");
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
