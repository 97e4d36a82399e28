package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * {@code vector<elem, n>} (Cassandra 5.0), always frozen: Java value {@code List} (decompose also takes
 * {@code float[]}). Sent on the wire as the custom type {@code org.apache.cassandra.db.marshal.VectorType(elem,n)}.
 * Serialized as n elements without count; fixed-size elements without lengths, others each prefixed by an
 * unsigned vint length.
 */
public record VectorType(DataType element, int dimension) implements DataType {
    public VectorType {
        if (dimension <= 0) {
            throw new IllegalArgumentException("vector dimension must be positive: " + dimension);
        }
    }

    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.CUSTOM);
        Wire.writeString(out, marshalName());
    }

    @Override
    public String cqlName() {
        return "vector<" + element.cqlName() + ", " + dimension + ">";
    }

    @Override
    public String marshalName() {
        return MARSHAL_PACKAGE + "VectorType(" + TypeOptions.innerMarshal(element) + "," + dimension + ")";
    }

    @Override
    public int fixedLength() {
        int e = element.fixedLength();
        return e > 0 ? e * dimension : -1;
    }

    private List<ByteBuffer> split(ByteBuffer value) {
        ByteBuffer in = value.duplicate();
        if (!in.hasRemaining()) {
            throw new MarshalException("Invalid empty vector value");
        }
        List<ByteBuffer> out = new ArrayList<>(dimension);
        int fixed = element.fixedLength();
        for (int i = 0; i < dimension; i++) {
            int n;
            if (fixed > 0) {
                n = fixed;
            } else {
                long l = VInt.readUnsigned(in);
                if (l > in.remaining()) {
                    throw new MarshalException("Not enough bytes to read a " + cqlName());
                }
                n = (int) l;
            }
            if (in.remaining() < n) {
                throw new MarshalException("Not enough bytes to read a " + cqlName());
            }
            out.add(in.slice(in.position(), n));
            in.position(in.position() + n);
        }
        if (in.hasRemaining()) {
            throw new MarshalException("Unexpected " + in.remaining() + " extraneous bytes after "
                    + cqlName() + " value");
        }
        return out;
    }

    @Override
    public void validate(ByteBuffer value) {
        if (value != null) {
            for (ByteBuffer e : split(value)) {
                element.validate(e);
            }
        }
    }

    @Override
    public List<Object> compose(ByteBuffer value) {
        if (value == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(dimension);
        for (ByteBuffer e : split(value)) {
            out.add(element.compose(e));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null) {
            return null;
        }
        List<Object> values = new ArrayList<>(dimension);
        if (value instanceof float[] fs) {
            for (float f : fs) {
                values.add(f);
            }
        } else {
            Collection<?> c = TypeOptions.asCollection(value, this);
            values.addAll(c);
        }
        if (values.size() != dimension) {
            throw new MarshalException("Invalid vector literal for " + cqlName() + ": expected " + dimension
                    + " elements, got " + values.size());
        }
        List<ByteBuffer> parts = new ArrayList<>(dimension);
        int size = 0;
        boolean fixed = element.fixedLength() > 0;
        for (Object o : values) {
            ByteBuffer b = TypeOptions.decomposeElement(element, o);
            parts.add(b);
            size += b.remaining() + (fixed ? 0 : VInt.unsignedSize(b.remaining()));
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer b : parts) {
            if (!fixed) {
                VInt.writeUnsigned(out, b.remaining());
            }
            out.put(b.duplicate());
        }
        return out.flip();
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("[");
        for (ByteBuffer e : split(value)) {
            sb.append(sb.length() > 1 ? ", " : "").append(element.toCqlLiteral(e));
        }
        return sb.append(']').toString();
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        if (!a.hasRemaining() || !b.hasRemaining()) {
            return Values.compareEmpty(a, b);
        }
        List<ByteBuffer> ea = split(a);
        List<ByteBuffer> eb = split(b);
        for (int i = 0; i < dimension; i++) {
            int c = element.compare(ea.get(i), eb.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
