package io.charybdis.protocol.frame;

import io.charybdis.protocol.CrcMismatchException;
import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.charybdis.protocol.EnvelopeTooLargeException;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Decodes protocol v5 frames ({@link FrameLayout}) into the {@link Envelope}s they carry.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li>The header CRC24 is checked before its lengths are trusted, the payload CRC32 (over the bytes as sent)
 *       before anything is decompressed; a mismatch throws {@link CrcMismatchException} and the decoder drops all
 *       later input: the connection must be closed.</li>
 *   <li>An LZ4 frame with uncompressed length 0 carries its payload uncompressed.</li>
 *   <li>A self-contained payload is a sequence of whole envelopes; their bodies are slices of the payload (no
 *       copy). A non-self-contained payload is a piece of one large envelope, accumulated until the envelope's
 *       header says it is complete.</li>
 *   <li>Envelopes inside frames must be version 5 requests (responses for a client-side decoder) with a known
 *       opcode; otherwise a non-fatal {@link ProtocolException} with the stream id goes to
 *       {@code exceptionCaught} and decoding goes on. An envelope whose body exceeds the maximum is skipped
 *       likewise ({@link EnvelopeTooLargeException}). A frame structure that makes no sense (envelope cut
 *       inside a self-contained frame, self-contained frame in the middle of a large envelope) is fatal.</li>
 * </ul>
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    public static final String NAME = "frameDecoder";

    private final boolean lz4;
    private final int maxBodyLength;
    private final boolean expectRequests;
    private boolean failed;

    /** Bytes of the large envelope being reassembled, or null. */
    private ByteBuf large;
    /** Total length (header and body) of the large envelope, or -1 while its header is incomplete. */
    private long largeTotal = -1;
    /** Bytes still to skip of a large envelope that exceeded the maximum. */
    private long largeDiscard;

    public FrameDecoder(boolean lz4) {
        this(lz4, EnvelopeHeader.DEFAULT_MAX_BODY_LENGTH, true);
    }

    public FrameDecoder(boolean lz4, int maxBodyLength, boolean expectRequests) {
        this.lz4 = lz4;
        this.maxBodyLength = maxBodyLength;
        this.expectRequests = expectRequests;
    }

    public boolean isLz4() {
        return lz4;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int headerLength = FrameLayout.headerLength(lz4);
        if (in.readableBytes() < headerLength) {
            return;
        }
        int start = in.readerIndex();
        int wireLength;
        int uncompressedLength;
        boolean selfContained;
        if (lz4) {
            long header8b = in.getLongLE(start);
            long header5b = header8b & 0xFF_FFFF_FFFFL;
            int readCrc = (int) (header8b >>> 40) & 0xFFFFFF;
            int crc = Crc24.compute(header5b, 5);
            if (crc != readCrc) {
                fail(in);
                throw new CrcMismatchException(true, readCrc, crc);
            }
            wireLength = (int) (header5b & FrameLayout.LENGTH_MASK);
            uncompressedLength = (int) ((header5b >>> FrameLayout.LZ4_UNCOMPRESSED_LENGTH_SHIFT)
                    & FrameLayout.LENGTH_MASK);
            selfContained = (header5b & (1L << FrameLayout.LZ4_SELF_CONTAINED_BIT)) != 0;
        } else {
            int header3b = in.getUnsignedMediumLE(start);
            int readCrc = in.getUnsignedMediumLE(start + 3);
            int crc = Crc24.compute(header3b, 3);
            if (crc != readCrc) {
                fail(in);
                throw new CrcMismatchException(true, readCrc, crc);
            }
            wireLength = header3b & FrameLayout.LENGTH_MASK;
            uncompressedLength = 0;
            selfContained = (header3b & (1 << FrameLayout.SELF_CONTAINED_BIT)) != 0;
        }
        int frameLength = headerLength + wireLength + FrameLayout.TRAILER_LENGTH;
        if (in.readableBytes() < frameLength) {
            return;
        }
        int payloadIndex = start + headerLength;
        int readCrc32 = in.getIntLE(payloadIndex + wireLength);
        int crc32 = Crc32Seeded.compute(in, payloadIndex, wireLength);
        if (crc32 != readCrc32) {
            fail(in);
            throw new CrcMismatchException(false, readCrc32 & 0xFFFFFFFFL, crc32 & 0xFFFFFFFFL);
        }
        ByteBuf payload;
        if (uncompressedLength != 0) {
            try {
                payload = Lz4.decompress(ctx.alloc(), in, payloadIndex, wireLength, uncompressedLength);
            } catch (ProtocolException e) {
                fail(in);
                throw new ProtocolException("Corrupt LZ4 frame: " + e.getMessage(), 0, true, e);
            }
        } else {
            payload = in.retainedSlice(payloadIndex, wireLength);
        }
        in.skipBytes(frameLength);
        try {
            if (selfContained) {
                readSelfContained(ctx, payload, out);
            } else {
                readPart(ctx, payload, out);
            }
        } catch (ProtocolException e) {
            if (e.isFatal()) {
                fail(in);
            }
            throw e;
        } finally {
            payload.release();
        }
    }

    private void fail(ByteBuf in) {
        failed = true;
        in.skipBytes(in.readableBytes());
        releaseLarge();
    }

    private void readSelfContained(ChannelHandlerContext ctx, ByteBuf payload, List<Object> out) {
        if (large != null || largeDiscard > 0) {
            throw new ProtocolException("Self-contained frame received while a large envelope is incomplete",
                    0, true);
        }
        while (payload.isReadable()) {
            if (payload.readableBytes() < EnvelopeHeader.LENGTH) {
                throw new ProtocolException("Self-contained frame ends inside an envelope header: remaining="
                        + payload.readableBytes(), 0, true);
            }
            int start = payload.readerIndex();
            long bodyLength = payload.getUnsignedInt(start + EnvelopeHeader.BODY_LENGTH_OFFSET);
            if (bodyLength > payload.readableBytes() - EnvelopeHeader.LENGTH) {
                throw new ProtocolException("Self-contained frame ends inside an envelope: bodyLength=" + bodyLength
                        + " remaining=" + (payload.readableBytes() - EnvelopeHeader.LENGTH), 0, true);
            }
            Object result = readEnvelope(payload);
            if (result instanceof ProtocolException e) {
                ctx.fireExceptionCaught(e);
            } else {
                out.add(result);
            }
        }
    }

    /** Reads one whole envelope from {@code buf}: an {@link Envelope} (body a retained slice) or a non-fatal error. */
    private Object readEnvelope(ByteBuf buf) {
        int start = buf.readerIndex();
        int versionByte = buf.getUnsignedByte(start + EnvelopeHeader.VERSION_OFFSET);
        int flags = buf.getUnsignedByte(start + EnvelopeHeader.FLAGS_OFFSET);
        int stream = buf.getShort(start + EnvelopeHeader.STREAM_OFFSET);
        int opcodeCode = buf.getUnsignedByte(start + EnvelopeHeader.OPCODE_OFFSET);
        int bodyLength = buf.getInt(start + EnvelopeHeader.BODY_LENGTH_OFFSET);
        buf.skipBytes(EnvelopeHeader.LENGTH);
        if (bodyLength > maxBodyLength) {
            buf.skipBytes(bodyLength);
            return new EnvelopeTooLargeException(bodyLength, maxBodyLength, stream);
        }
        ProtocolException error = EnvelopeChecks.check(versionByte, ProtocolVersion.V5, expectRequests, stream,
                opcodeCode);
        // In v5 compression applies to frames; drivers may still set the envelope's compression flag, which
        // Cassandra ignores. So do we: the body inside a frame is never compressed on its own.
        flags &= ~Envelope.COMPRESSED;
        if (error != null) {
            buf.skipBytes(bodyLength);
            return error;
        }
        return new Envelope(ProtocolVersion.V5, flags, stream, Opcode.fromCode(opcodeCode),
                buf.readRetainedSlice(bodyLength));
    }

    private void readPart(ChannelHandlerContext ctx, ByteBuf payload, List<Object> out) {
        if (largeDiscard > 0) {
            if (payload.readableBytes() > largeDiscard) {
                throw new ProtocolException("Non-self-contained frame runs past the end of its envelope", 0, true);
            }
            largeDiscard -= payload.readableBytes();
            return;
        }
        if (large == null) {
            large = ctx.alloc().buffer(Math.max(EnvelopeHeader.LENGTH, payload.readableBytes()));
            largeTotal = -1;
        }
        if (largeTotal < 0) {
            int missing = EnvelopeHeader.LENGTH - large.readableBytes();
            large.writeBytes(payload, Math.min(missing, payload.readableBytes()));
            if (large.readableBytes() < EnvelopeHeader.LENGTH) {
                return;
            }
            long bodyLength = large.getUnsignedInt(EnvelopeHeader.BODY_LENGTH_OFFSET);
            if (bodyLength > maxBodyLength) {
                int stream = large.getShort(EnvelopeHeader.STREAM_OFFSET);
                largeDiscard = bodyLength;
                releaseLarge();
                readPart(ctx, payload, out);
                ctx.fireExceptionCaught(new EnvelopeTooLargeException(bodyLength, maxBodyLength, stream));
                return;
            }
            largeTotal = EnvelopeHeader.LENGTH + bodyLength;
            large.ensureWritable((int) largeTotal - large.readableBytes());
        }
        if (large.readableBytes() + payload.readableBytes() > largeTotal) {
            throw new ProtocolException("Non-self-contained frame runs past the end of its envelope", 0, true);
        }
        large.writeBytes(payload);
        if (large.readableBytes() == largeTotal) {
            ByteBuf whole = large;
            large = null;
            largeTotal = -1;
            try {
                Object result = readEnvelope(whole);
                if (result instanceof ProtocolException e) {
                    ctx.fireExceptionCaught(e);
                } else {
                    out.add(result);
                }
            } finally {
                whole.release();
            }
        }
    }

    private void releaseLarge() {
        if (large != null) {
            large.release();
            large = null;
        }
        largeTotal = -1;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        releaseLarge();
    }
}
