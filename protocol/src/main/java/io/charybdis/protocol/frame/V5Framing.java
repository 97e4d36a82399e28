package io.charybdis.protocol.frame;

import io.charybdis.protocol.EnvelopeHeader;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;

/**
 * Switches a connection from the envelope-per-message layout to protocol v5 framing.
 *
 * <p>A server pipeline starts as
 * <pre>
 *   ... → "envelopeDecoder" ({@link EnvelopeDecoder}) → "envelopeEncoder" ({@link EnvelopeEncoder}) → handler
 * </pre>
 * OPTIONS/SUPPORTED and STARTUP with its READY or AUTHENTICATE reply travel in that layout. For a v5 connection,
 * right after writing READY or AUTHENTICATE (on the event loop, so the reply has already gone through the
 * envelope encoder), the server calls {@link #install}, which leaves
 * <pre>
 *   ... → "frameDecoder" ({@link FrameDecoder}) → "frameEncoder" ({@link FrameEncoder}) → handler
 * </pre>
 * replacing {@code envelopeDecoder} and {@code envelopeEncoder} in place. Bytes the envelope decoder had already
 * buffered are handed to the frame decoder. The frame decoder keeps the envelope decoder's maximum body length
 * and direction. Compression in v5 is per frame: with {@code lz4} both frame handlers use LZ4 frames, and the
 * envelope-level LZ4 of v4 is not used.
 */
public final class V5Framing {
    private V5Framing() {
    }

    /** Replaces the handlers named {@link EnvelopeDecoder#NAME} and {@link EnvelopeEncoder#NAME}. */
    public static void install(ChannelPipeline pipeline, boolean lz4) {
        install(pipeline, null, lz4);
    }

    /**
     * Installs v5 framing, replacing any {@link EnvelopeDecoder} and {@link EnvelopeEncoder} (found by type, any
     * name). If the pipeline has neither, the frame handlers are added before {@code beforeHandlerName} (or
     * last when it is null).
     */
    public static void install(ChannelPipeline pipeline, String beforeHandlerName, boolean lz4) {
        ChannelHandlerContext decoderCtx = pipeline.context(EnvelopeDecoder.class);
        ChannelHandlerContext encoderCtx = pipeline.context(EnvelopeEncoder.class);
        int maxBodyLength = EnvelopeHeader.DEFAULT_MAX_BODY_LENGTH;
        boolean server = true;
        if (decoderCtx != null) {
            EnvelopeDecoder old = (EnvelopeDecoder) decoderCtx.handler();
            maxBodyLength = old.maxBodyLength();
            server = old.expectsRequests();
        }
        FrameDecoder decoder = new FrameDecoder(lz4, maxBodyLength, server);
        FrameEncoder encoder = new FrameEncoder(lz4, server, FrameLayout.MAX_PAYLOAD_LENGTH);
        if (decoderCtx != null) {
            pipeline.replace(decoderCtx.name(), FrameDecoder.NAME, decoder);
        } else {
            add(pipeline, beforeHandlerName, FrameDecoder.NAME, decoder);
        }
        if (encoderCtx != null) {
            pipeline.replace(encoderCtx.name(), FrameEncoder.NAME, encoder);
        } else {
            add(pipeline, beforeHandlerName, FrameEncoder.NAME, encoder);
        }
    }

    private static void add(ChannelPipeline pipeline, String before, String name,
                            io.netty.channel.ChannelHandler handler) {
        if (before == null) {
            pipeline.addLast(name, handler);
        } else {
            pipeline.addBefore(before, name, handler);
        }
    }
}
