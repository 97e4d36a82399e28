package io.charybdis.protocol.frame;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.charybdis.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes {@link Envelope}s as a header ({@link EnvelopeHeader}) and a body, the layout of protocol v4 and of v5
 * before framing starts. Releases each envelope. Other messages (a ready-made {@link ByteBuf}) pass through.
 *
 * <p>With {@link #enableLz4()}, non-empty v4 bodies are sent compressed (4-byte big-endian uncompressed length, then
 * an LZ4 block) with the COMPRESSED flag set; the flag is otherwise always cleared.
 */
public final class EnvelopeEncoder extends MessageToByteEncoder<Envelope> {
    public static final String NAME = "envelopeEncoder";

    private final boolean responses;
    private boolean lz4;

    /** A server-side encoder: the direction bit says "response". */
    public EnvelopeEncoder() {
        this(true);
    }

    public EnvelopeEncoder(boolean responses) {
        super(Envelope.class);
        this.responses = responses;
    }

    public void enableLz4() {
        this.lz4 = true;
    }

    public boolean isLz4() {
        return lz4;
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Envelope msg, boolean preferDirect) {
        int n = EnvelopeHeader.LENGTH + (compress(msg) ? 4 + Lz4.maxCompressedLength(msg.body().readableBytes())
                : msg.body().readableBytes());
        return preferDirect ? ctx.alloc().ioBuffer(n) : ctx.alloc().heapBuffer(n);
    }

    private boolean compress(Envelope msg) {
        return lz4 && !msg.version().usesFraming() && msg.body().isReadable();
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Envelope msg, ByteBuf out) {
        write(msg, out, responses, compress(msg));
    }

    /** Writes {@code msg}'s header and body (compressed when asked) to {@code out}; does not release it. */
    static void write(Envelope msg, ByteBuf out, boolean response, boolean compress) {
        ByteBuf body = msg.body();
        int flags = msg.flags() & ~Envelope.COMPRESSED;
        if (!compress) {
            msg.writeHeader(out, response, flags, body.readableBytes());
            out.writeBytes(body, body.readerIndex(), body.readableBytes());
            return;
        }
        int headerIndex = out.writerIndex();
        msg.writeHeader(out, response, flags | Envelope.COMPRESSED, 0);
        out.writeInt(body.readableBytes());
        int n = Lz4.compress(body, body.readerIndex(), body.readableBytes(), out);
        out.setInt(headerIndex + EnvelopeHeader.BODY_LENGTH_OFFSET, 4 + n);
    }
}
