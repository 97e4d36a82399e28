package io.charybdis.node.cql.keys;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** A growable byte array used to build keys; reusable via {@link #reset()}. */
public final class ByteSink {
    private byte[] buf;
    private int len;

    public ByteSink(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    public ByteSink put(byte b) {
        ensure(1);
        buf[len++] = b;
        return this;
    }

    public ByteSink put(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
        return this;
    }

    public ByteSink put(ByteBuffer b) {
        int n = b.remaining();
        ensure(n);
        b.duplicate().get(buf, len, n);
        len += n;
        return this;
    }

    public ByteSink putInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    public ByteSink putLong(long v) {
        putInt((int) (v >>> 32));
        return putInt((int) v);
    }

    public ByteSink putShort(int v) {
        ensure(2);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    /** Inverts every byte written since {@code from} (used for DESC clustering columns). */
    public void invertFrom(int from) {
        for (int i = from; i < len; i++) {
            buf[i] = (byte) ~buf[i];
        }
    }

    public int length() {
        return len;
    }

    public void reset() {
        len = 0;
    }

    public byte[] toArray() {
        return Arrays.copyOf(buf, len);
    }

    public ByteBuffer toBuffer() {
        return ByteBuffer.wrap(toArray());
    }
}
