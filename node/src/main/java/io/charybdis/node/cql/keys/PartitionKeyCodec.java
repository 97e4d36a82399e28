package io.charybdis.node.cql.keys;

import io.charybdis.node.cql.exceptions.InvalidRequestException;

import java.nio.ByteBuffer;

/**
 * Cassandra's serialized partition key: a single-column key is the column's value; a composite key is, for each
 * component, a 2-byte big-endian length, the value, and a 0x00 end-of-component byte. The token is the Murmur3
 * hash of these bytes, so drivers route requests with the same computation.
 */
public final class PartitionKeyCodec {
    private PartitionKeyCodec() {
    }

    public static ByteBuffer compose(ByteBuffer[] components) {
        if (components.length == 1) {
            return components[0].duplicate();
        }
        int size = 0;
        for (ByteBuffer c : components) {
            if (c.remaining() > 0xFFFF) {
                throw new InvalidRequestException("Key length of " + c.remaining() + " is longer than maximum of 65535");
            }
            size += 3 + c.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer c : components) {
            out.putShort((short) c.remaining());
            out.put(c.duplicate());
            out.put((byte) 0);
        }
        return out.flip();
    }

    public static ByteBuffer[] split(ByteBuffer key, int count) {
        ByteBuffer[] out = new ByteBuffer[count];
        if (count == 1) {
            out[0] = key.duplicate();
            return out;
        }
        ByteBuffer in = key.duplicate();
        for (int i = 0; i < count; i++) {
            int len = in.getShort() & 0xFFFF;
            ByteBuffer c = in.slice(in.position(), len);
            in.position(in.position() + len + 1);
            out[i] = c;
        }
        return out;
    }
}
