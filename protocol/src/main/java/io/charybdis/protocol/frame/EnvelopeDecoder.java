package io.charybdis.protocol.frame;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.charybdis.protocol.EnvelopeTooLargeException;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.ProtocolVersionException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Cuts the byte stream into {@link Envelope}s laid out as in {@link EnvelopeHeader}: protocol v4 for the whole
 * connection, protocol v5 until the STARTUP exchange is over (then {@link V5Framing} replaces this handler).
 *
 * <p>Errors, all {@link ProtocolException}s carrying the stream id:
 * <ul>
 *   <li>an unsupported version byte: {@link ProtocolVersionException}, thrown; fatal, all later input is dropped;</li>
 *   <li>a body longer than the maximum: {@link EnvelopeTooLargeException} passed to {@code exceptionCaught}; the
 *       body is skipped as it arrives and decoding goes on after it;</li>
 *   <li>unknown opcode, wrong direction, version other than the connection's, corrupt LZ4 body, compressed body
 *       without negotiated compression: non-fatal, passed to {@code exceptionCaught}, body skipped.</li>
 * </ul>
 * The first envelope fixes the connection's version (or {@link #connectionVersion(ProtocolVersion)}).
 *
 * <p>With LZ4 enabled ({@link #enableLz4()}, after a STARTUP asking for it), a v4 body flagged COMPRESSED is a
 * 4-byte big-endian uncompressed length followed by an LZ4 block; the envelope passed on has the plain body and
 * the COMPRESSED flag cleared.
 */
public final class EnvelopeDecoder extends ByteToMessageDecoder {
    public static final String NAME = "envelopeDecoder";

    private final int maxBodyLength;
    private final boolean expectRequests;
    private ProtocolVersion connectionVersion;
    private boolean lz4;
    private long bytesToDiscard;
    private boolean failed;

    /** A server-side decoder (expects requests) with the 16 MiB default maximum. */
    public EnvelopeDecoder() {
        this(EnvelopeHeader.DEFAULT_MAX_BODY_LENGTH, true);
    }

    public EnvelopeDecoder(int maxBodyLength) {
        this(maxBodyLength, true);
    }

    /** @param expectRequests true on a server (requests come in), false on a client */
    public EnvelopeDecoder(int maxBodyLength, boolean expectRequests) {
        if (maxBodyLength < 0) {
            throw new IllegalArgumentException("maxBodyLength=" + maxBodyLength);
        }
        this.maxBodyLength = maxBodyLength;
        this.expectRequests = expectRequests;
    }

    public int maxBodyLength() {
        return maxBodyLength;
    }

    public boolean expectsRequests() {
        return expectRequests;
    }

    public void enableLz4() {
        this.lz4 = true;
    }

    public boolean isLz4() {
        return lz4;
    }

    public ProtocolVersion connectionVersion() {
        return connectionVersion;
    }

    public void connectionVersion(ProtocolVersion version) {
        this.connectionVersion = version;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (bytesToDiscard > 0) {
            int n = (int) Math.min(bytesToDiscard, in.readableBytes());
            in.skipBytes(n);
            bytesToDiscard -= n;
            if (bytesToDiscard > 0) {
                return;
            }
        }
        if (!in.isReadable()) {
            return;
        }
        int start = in.readerIndex();
        int versionByte = in.getUnsignedByte(start + EnvelopeHeader.VERSION_OFFSET);
        int versionCode = versionByte & EnvelopeHeader.VERSION_MASK;
        if (!ProtocolVersion.isSupported(versionCode)) {
            // v1 and v2 had a one-byte stream id at offset 2; reply on the stream the client will look at
            boolean oneByteStream = versionCode <= 2;
            if (in.readableBytes() < (oneByteStream ? 3 : 4)) {
                return;
            }
            int stream = oneByteStream ? in.getByte(start + 2) : in.getShort(start + EnvelopeHeader.STREAM_OFFSET);
            failed = true;
            in.skipBytes(in.readableBytes());
            throw new ProtocolVersionException(versionCode, stream);
        }
        if (in.readableBytes() < EnvelopeHeader.LENGTH) {
            return;
        }
        int flags = in.getUnsignedByte(start + EnvelopeHeader.FLAGS_OFFSET);
        int stream = in.getShort(start + EnvelopeHeader.STREAM_OFFSET);
        int opcodeCode = in.getUnsignedByte(start + EnvelopeHeader.OPCODE_OFFSET);
        long bodyLength = in.getUnsignedInt(start + EnvelopeHeader.BODY_LENGTH_OFFSET);
        if (bodyLength > maxBodyLength) {
            in.skipBytes(EnvelopeHeader.LENGTH);
            int n = (int) Math.min(bodyLength, in.readableBytes());
            in.skipBytes(n);
            bytesToDiscard = bodyLength - n;
            ctx.fireExceptionCaught(new EnvelopeTooLargeException(bodyLength, maxBodyLength, stream));
            return;
        }
        if (in.readableBytes() < EnvelopeHeader.LENGTH + bodyLength) {
            return;
        }
        in.skipBytes(EnvelopeHeader.LENGTH);
        ProtocolException error = EnvelopeChecks.check(versionByte, connectionVersion, expectRequests, stream,
                opcodeCode);
        ProtocolVersion version = ProtocolVersion.fromCode(versionCode);
        if (error == null && (flags & Envelope.COMPRESSED) != 0 && !(lz4 && !version.usesFraming())) {
            error = new ProtocolException("Received a compressed envelope but no compression was negotiated"
                    + (version == ProtocolVersion.V5 ? " (v5 compresses frames, not envelopes)" : ""),
                    stream, false);
        }
        if (error != null) {
            in.skipBytes((int) bodyLength);
            ctx.fireExceptionCaught(error);
            return;
        }
        if (connectionVersion == null) {
            connectionVersion = version;
        }
        Opcode opcode = Opcode.fromCode(opcodeCode);
        if ((flags & Envelope.COMPRESSED) != 0) {
            ByteBuf body;
            try {
                body = decompressV4Body(ctx, in, (int) bodyLength);
            } catch (ProtocolException e) {
                ctx.fireExceptionCaught(e.withStreamId(stream));
                return;
            } finally {
                in.skipBytes((int) bodyLength);
            }
            out.add(new Envelope(version, flags & ~Envelope.COMPRESSED, stream, opcode, body));
        } else {
            out.add(new Envelope(version, flags, stream, opcode, in.readRetainedSlice((int) bodyLength)));
        }
    }

    private ByteBuf decompressV4Body(ChannelHandlerContext ctx, ByteBuf in, int bodyLength) {
        if (bodyLength < 4) {
            throw new ProtocolException("Compressed body too short: length=" + bodyLength);
        }
        int index = in.readerIndex();
        int uncompressedLength = in.getInt(index);
        if (uncompressedLength < 0 || uncompressedLength > maxBodyLength) {
            throw new ProtocolException("Invalid uncompressed length in LZ4 body: " + uncompressedLength
                    + " (maximum " + maxBodyLength + ")");
        }
        return Lz4.decompress(ctx.alloc(), in, index + 4, bodyLength - 4, uncompressedLength);
    }
}
