package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code set<elem>}: Java value {@code Set} (composed in serialized order); serialized like a list, elements
 * sorted by the element type's order without duplicates ({@link #decompose} sorts).
 */
public record SetType(DataType element, boolean frozen) implements DataType {
    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.SET);
        element.writeOption(out, version);
    }

    @Override
    public String cqlName() {
        String s = "set<" + element.cqlName() + ">";
        return frozen ? "frozen<" + s + ">" : s;
    }

    @Override
    public String marshalName() {
        return TypeOptions.frozenMarshal(frozen, MARSHAL_PACKAGE + "SetType(" + TypeOptions.innerMarshal(element)
                + ")");
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    @Override
    public DataType freeze() {
        return frozen ? this : new SetType(element, true);
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            Values.validateCollection(value, "set", element);
        }
    }

    @Override
    public Set<Object> compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        Set<Object> out = new LinkedHashSet<>();
        for (ByteBuffer e : Values.readAll(value, 1, "set")) {
            out.add(element.compose(e));
        }
        return Collections.unmodifiableSet(out);
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
        elements.sort(element::compare);
        List<ByteBuffer> unique = new ArrayList<>(elements.size());
        for (ByteBuffer e : elements) {
            if (unique.isEmpty() || element.compare(unique.get(unique.size() - 1), e) != 0) {
                unique.add(e);
            }
        }
        return Values.pack(unique, unique.size(), true);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("{");
        for (ByteBuffer e : Values.readAll(value, 1, "set")) {
            sb.append(sb.length() > 1 ? ", " : "").append(element.toCqlLiteral(e));
        }
        return sb.append('}').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return TypeOptions.compareSequences(element, null, a, b, "set");
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
