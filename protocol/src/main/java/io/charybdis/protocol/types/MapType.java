package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code map<key, value>}: Java value {@code Map} (composed in serialized order); serialized as [int n] then n
 * key/value pairs of [int]-prefixed elements, sorted by key ({@link #decompose} sorts).
 */
public record MapType(DataType key, DataType value, boolean frozen) implements DataType {
    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.MAP);
        key.writeOption(out, version);
        value.writeOption(out, version);
    }

    @Override
    public String cqlName() {
        String s = "map<" + key.cqlName() + ", " + value.cqlName() + ">";
        return frozen ? "frozen<" + s + ">" : s;
    }

    @Override
    public String marshalName() {
        return TypeOptions.frozenMarshal(frozen, MARSHAL_PACKAGE + "MapType(" + TypeOptions.innerMarshal(key) + ","
                + TypeOptions.innerMarshal(value) + ")");
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    @Override
    public DataType freeze() {
        return frozen ? this : new MapType(key, value, true);
    }

    @Override
    public void validate(ByteBuffer v) {
        if (v != null) {
            Values.validateCollection(v, "map", key, value);
        }
    }

    @Override
    public Map<Object, Object> compose(ByteBuffer v) {
        if (v == null) {
            return null;
        }
        List<ByteBuffer> all = Values.readAll(v, 2, "map");
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i += 2) {
            out.put(key.compose(all.get(i)), value.compose(all.get(i + 1)));
        }
        return Collections.unmodifiableMap(out);
    }

    @Override
    public ByteBuffer decompose(Object v) {
        if (v == null) {
            return null;
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new MarshalException("Cannot convert " + v.getClass().getSimpleName() + " to " + cqlName());
        }
        List<ByteBuffer[]> entries = new ArrayList<>(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
            entries.add(new ByteBuffer[] {TypeOptions.decomposeElement(key, e.getKey()),
                    TypeOptions.decomposeElement(value, e.getValue())});
        }
        entries.sort((a, b) -> key.compare(a[0], b[0]));
        List<ByteBuffer> flat = new ArrayList<>(entries.size() * 2);
        for (ByteBuffer[] e : entries) {
            if (!flat.isEmpty() && key.compare(flat.get(flat.size() - 2), e[0]) == 0) {
                flat.set(flat.size() - 1, e[1]);
            } else {
                flat.add(e[0]);
                flat.add(e[1]);
            }
        }
        return Values.pack(flat, flat.size() / 2, true);
    }

    @Override
    public String toCqlLiteral(ByteBuffer v) {
        if (v == null) {
            return "null";
        }
        List<ByteBuffer> all = Values.readAll(v, 2, "map");
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < all.size(); i += 2) {
            sb.append(i > 0 ? ", " : "").append(key.toCqlLiteral(all.get(i))).append(": ")
                    .append(value.toCqlLiteral(all.get(i + 1)));
        }
        return sb.append('}').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return TypeOptions.compareSequences(key, value, a, b, "map");
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
