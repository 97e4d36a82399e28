package io.charybdis.protocol.types;

import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** A type known only by its Cassandra class name: values are opaque bytes ({@code ByteBuffer}). */
public record CustomType(String className) implements DataType {
    @Override
    public void writeOption(ByteBuf out, ProtocolVersion version) {
        out.writeShort(TypeOptions.CUSTOM);
        Wire.writeString(out, className);
    }

    @Override
    public String cqlName() {
        return "'" + className + "'";
    }

    @Override
    public String marshalName() {
        return className;
    }

    @Override
    public void validate(ByteBuffer value) {
    }

    @Override
    public Object compose(ByteBuffer value) {
        return value == null ? null : NativeType.BLOB.compose(value);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        return NativeType.BLOB.decompose(value);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null) {
            return "null";
        }
        byte[] b = new byte[value.remaining()];
        value.duplicate().get(b);
        return "0x" + HexFormat.of().formatHex(b);
    }

    @Override
    public int compare(ByteBuffer a, ByteBuffer b) {
        return NativeCodec.compareUnsigned(a, b);
    }

    @Override
    public String toString() {
        return cqlName();
    }
}
