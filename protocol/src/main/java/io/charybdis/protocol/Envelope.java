package io.charybdis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

import java.util.Objects;

/**
 * One protocol message: header fields and a body. The body is reference counted and the envelope's reference
 * count is the body's: whoever ends up with an envelope releases it (decoders hand them on; encoders release
 * them after writing).
 *
 * <p>The version is that of the connection; the direction bit is not kept (it follows from the opcode).
 */
public final class Envelope implements ReferenceCounted {
    public static final int COMPRESSED = EnvelopeHeader.FLAG_COMPRESSED;
    public static final int TRACING = EnvelopeHeader.FLAG_TRACING;
    public static final int CUSTOM_PAYLOAD = EnvelopeHeader.FLAG_CUSTOM_PAYLOAD;
    public static final int WARNING = EnvelopeHeader.FLAG_WARNING;
    public static final int USE_BETA = EnvelopeHeader.FLAG_USE_BETA;

    private final ProtocolVersion version;
    private final int flags;
    private final short streamId;
    private final Opcode opcode;
    private final ByteBuf body;

    public Envelope(ProtocolVersion version, int flags, int streamId, Opcode opcode, ByteBuf body) {
        if (streamId < Short.MIN_VALUE || streamId > Short.MAX_VALUE) {
            throw new IllegalArgumentException("streamId=" + streamId + " is not a [short]");
        }
        this.version = Objects.requireNonNull(version, "version");
        this.flags = flags & 0xFF;
        this.streamId = (short) streamId;
        this.opcode = Objects.requireNonNull(opcode, "opcode");
        this.body = Objects.requireNonNull(body, "body");
    }

    public ProtocolVersion version() {
        return version;
    }

    public int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    public short streamId() {
        return streamId;
    }

    public Opcode opcode() {
        return opcode;
    }

    /** The body; its reader index is at the first body byte. */
    public ByteBuf body() {
        return body;
    }

    /** Header plus body length on the wire (uncompressed). */
    public int encodedLength() {
        return EnvelopeHeader.LENGTH + body.readableBytes();
    }

    /** The same envelope with other flags and body (the caller passes ownership of {@code newBody}). */
    public Envelope with(int newFlags, ByteBuf newBody) {
        return new Envelope(version, newFlags, streamId, opcode, newBody);
    }

    /** Writes the 9-byte header for this envelope with {@code bodyLength} and {@code wireFlags}. */
    public void writeHeader(ByteBuf out, boolean response, int wireFlags, int bodyLength) {
        out.writeByte((response ? EnvelopeHeader.RESPONSE_BIT : 0) | version.code());
        out.writeByte(wireFlags);
        out.writeShort(streamId);
        out.writeByte(opcode.code());
        out.writeInt(bodyLength);
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public Envelope retain() {
        body.retain();
        return this;
    }

    @Override
    public Envelope retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public Envelope touch() {
        body.touch();
        return this;
    }

    @Override
    public Envelope touch(Object hint) {
        body.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return body.release();
    }

    @Override
    public boolean release(int decrement) {
        return body.release(decrement);
    }

    @Override
    public String toString() {
        return "Envelope{version=" + version + ", flags=0x" + Integer.toHexString(flags) + ", stream=" + streamId
                + ", opcode=" + opcode + ", bodyLength=" + (body.refCnt() > 0 ? body.readableBytes() : -1) + '}';
    }
}
