package io.charybdis.protocol.frame;

import io.charybdis.protocol.Envelope;
import io.charybdis.protocol.EnvelopeHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

import java.util.ArrayList;
import java.util.List;

/**
 * Packs outgoing {@link Envelope}s into protocol v5 frames ({@link FrameLayout}).
 *
 * <p>Implementation notes: envelopes written between two flushes are copied, header and body, into one pending
 * payload; when the next one would not fit in {@link FrameLayout#MAX_PAYLOAD_LENGTH}, or on flush, the pending
 * payload goes out as one self-contained frame. An envelope larger than a frame's payload is cut into
 * non-self-contained frames of maximum size, written at once after the pending frame. Each envelope's promise
 * completes when the frame holding its end is written. Messages other than envelopes (ready-made ByteBufs) pass
 * through, after the pending frame so that order is kept.
 *
 * <p>With LZ4, each payload is compressed; when that does not make it smaller it is sent as is with an
 * uncompressed length of 0.
 */
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {
    public static final String NAME = "frameEncoder";

    private final boolean lz4;
    private final boolean responses;
    private final int maxPayloadLength;
    private ByteBuf pending;
    private final List<ChannelPromise> pendingPromises = new ArrayList<>();

    public FrameEncoder(boolean lz4) {
        this(lz4, true, FrameLayout.MAX_PAYLOAD_LENGTH);
    }

    /** @param maxPayloadLength at most {@link FrameLayout#MAX_PAYLOAD_LENGTH}; smaller values serve tests */
    public FrameEncoder(boolean lz4, boolean responses, int maxPayloadLength) {
        if (maxPayloadLength < EnvelopeHeader.LENGTH || maxPayloadLength > FrameLayout.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("maxPayloadLength=" + maxPayloadLength);
        }
        this.lz4 = lz4;
        this.responses = responses;
        this.maxPayloadLength = maxPayloadLength;
    }

    public boolean isLz4() {
        return lz4;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Envelope envelope)) {
            writePending(ctx);
            ctx.write(msg, promise);
            return;
        }
        try {
            int size = envelope.encodedLength();
            if (size > maxPayloadLength) {
                writePending(ctx);
                writeLarge(ctx, envelope, promise);
                return;
            }
            if (pending != null && pending.readableBytes() + size > maxPayloadLength) {
                writePending(ctx);
            }
            if (pending == null) {
                pending = ctx.alloc().buffer(Math.min(Math.max(size, 1024), maxPayloadLength), maxPayloadLength);
            }
            EnvelopeEncoder.write(envelope, pending, responses, false);
            pendingPromises.add(promise);
        } finally {
            envelope.release();
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writePending(ctx);
        ctx.flush();
    }

    private void writePending(ChannelHandlerContext ctx) {
        if (pending == null) {
            return;
        }
        ByteBuf payload = pending;
        pending = null;
        ByteBuf frame;
        try {
            frame = encodeFrame(ctx.alloc(), payload, payload.readerIndex(), payload.readableBytes(), true, lz4);
        } finally {
            payload.release();
        }
        ctx.write(frame, combine(ctx, pendingPromises));
        pendingPromises.clear();
    }

    private void writeLarge(ChannelHandlerContext ctx, Envelope envelope, ChannelPromise promise) {
        int size = envelope.encodedLength();
        ByteBuf whole = ctx.alloc().buffer(size);
        try {
            EnvelopeEncoder.write(envelope, whole, responses, false);
            while (whole.isReadable()) {
                int n = Math.min(maxPayloadLength, whole.readableBytes());
                ByteBuf frame = encodeFrame(ctx.alloc(), whole, whole.readerIndex(), n, false, lz4);
                whole.skipBytes(n);
                if (whole.isReadable()) {
                    ChannelPromise partPromise = ctx.newPromise();
                    partPromise.addListener(f -> {
                        if (!f.isSuccess()) {
                            promise.tryFailure(f.cause());
                        }
                    });
                    ctx.write(frame, partPromise);
                } else {
                    ctx.write(frame, promise);
                }
            }
        } finally {
            whole.release();
        }
    }

    private static ChannelPromise combine(ChannelHandlerContext ctx, List<ChannelPromise> promises) {
        List<ChannelPromise> real = new ArrayList<>(promises.size());
        for (ChannelPromise p : promises) {
            if (!p.isVoid()) {
                real.add(p);
            }
        }
        if (real.isEmpty()) {
            return ctx.voidPromise();
        }
        if (real.size() == 1) {
            return real.get(0);
        }
        ChannelPromise combined = ctx.newPromise();
        combined.addListener(f -> {
            for (ChannelPromise p : real) {
                if (f.isSuccess()) {
                    p.trySuccess();
                } else {
                    p.tryFailure(f.cause());
                }
            }
        });
        return combined;
    }

    /**
     * One frame holding {@code length} bytes of {@code payload} from {@code index} (at most
     * {@link FrameLayout#MAX_PAYLOAD_LENGTH}).
     */
    public static ByteBuf encodeFrame(ByteBufAllocator alloc, ByteBuf payload, int index, int length,
                                      boolean selfContained, boolean lz4) {
        if (length > FrameLayout.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("payload length=" + length + " exceeds "
                    + FrameLayout.MAX_PAYLOAD_LENGTH);
        }
        if (!lz4) {
            ByteBuf frame = alloc.buffer(FrameLayout.HEADER_LENGTH + length + FrameLayout.TRAILER_LENGTH);
            int header3b = FrameLayout.header3b(length, selfContained);
            frame.writeMediumLE(header3b);
            frame.writeMediumLE(Crc24.compute(header3b, 3));
            frame.writeBytes(payload, index, length);
            frame.writeIntLE(Crc32Seeded.compute(payload, index, length));
            return frame;
        }
        int max = Lz4.maxCompressedLength(length);
        ByteBuf frame = alloc.buffer(FrameLayout.LZ4_HEADER_LENGTH + Math.max(max, length)
                + FrameLayout.TRAILER_LENGTH);
        frame.writerIndex(FrameLayout.LZ4_HEADER_LENGTH);
        int compressed = Lz4.compress(payload, index, length, frame);
        int wireLength;
        int uncompressedLength;
        if (compressed < length) {
            wireLength = compressed;
            uncompressedLength = length;
        } else {
            frame.writerIndex(FrameLayout.LZ4_HEADER_LENGTH);
            frame.writeBytes(payload, index, length);
            wireLength = length;
            uncompressedLength = 0;
        }
        long header5b = FrameLayout.header5b(wireLength, uncompressedLength, selfContained);
        frame.setLongLE(0, header5b | ((long) Crc24.compute(header5b, 5) << 40));
        frame.writeIntLE(Crc32Seeded.compute(frame, FrameLayout.LZ4_HEADER_LENGTH, wireLength));
        return frame;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        for (ChannelPromise p : pendingPromises) {
            p.tryFailure(new IllegalStateException("frame encoder removed before flush"));
        }
        pendingPromises.clear();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        writePending(ctx);
        ctx.flush();
        ctx.close(promise);
    }
}
