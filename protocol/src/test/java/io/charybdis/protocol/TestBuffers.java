package io.charybdis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/** Helpers to write request bytes by hand, the way a driver does. */
public final class TestBuffers {
    private TestBuffers() {
    }

    /** A v4-layout envelope as raw bytes. */
    public static ByteBuf envelope(int versionByte, int flags, int stream, int opcode, byte[] body) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(versionByte);
        b.writeByte(flags);
        b.writeShort(stream);
        b.writeByte(opcode);
        b.writeInt(body.length);
        b.writeBytes(body);
        return b;
    }

    public static byte[] bytes(ByteBuf b) {
        byte[] out = ByteBufUtil.getBytes(b);
        b.release();
        return out;
    }

    public static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int i = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    /** Builder of body bytes in the spec's notations. */
    public static final class Body {
        private final ByteBuf b = Unpooled.buffer();

        public Body byte_(int v) {
            b.writeByte(v);
            return this;
        }

        public Body short_(int v) {
            b.writeShort(v);
            return this;
        }

        public Body int_(int v) {
            b.writeInt(v);
            return this;
        }

        public Body long_(long v) {
            b.writeLong(v);
            return this;
        }

        public Body string(String s) {
            byte[] u = s.getBytes(StandardCharsets.UTF_8);
            b.writeShort(u.length);
            b.writeBytes(u);
            return this;
        }

        public Body longString(String s) {
            byte[] u = s.getBytes(StandardCharsets.UTF_8);
            b.writeInt(u.length);
            b.writeBytes(u);
            return this;
        }

        public Body bytes(byte[] v) {
            if (v == null) {
                b.writeInt(-1);
            } else {
                b.writeInt(v.length);
                b.writeBytes(v);
            }
            return this;
        }

        public Body shortBytes(byte[] v) {
            b.writeShort(v.length);
            b.writeBytes(v);
            return this;
        }

        public Body raw(byte[] v) {
            b.writeBytes(v);
            return this;
        }

        public byte[] build() {
            return TestBuffers.bytes(b);
        }
    }

    public static Body body() {
        return new Body();
    }
}
