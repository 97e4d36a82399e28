package io.charybdis.cluster.messaging;

import static io.charybdis.cluster.messaging.FrameLayout.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.zip.CRC32C;

/** Encodes and decodes {@link FrameLayout} frames; the decoder checks version, bounds and checksum. */
final class FrameCodec {
    private FrameCodec() {
    }

    /** A whole frame around {@code payload} (not released: the caller keeps its own reference). */
    static ByteBuf encode(ByteBufAllocator alloc, int kind, int verb, long id, long epoch, int timeoutMillis,
                          ByteBuf payload) {
        int n = payload == null ? 0 : payload.readableBytes();
        ByteBuf out = alloc.ioBuffer(HEADER_LENGTH + n + CRC_LENGTH);
        out.writeInt(MAGIC).writeByte(VERSION).writeByte(kind).writeShort(verb).writeLong(id).writeLong(epoch)
                .writeInt(timeoutMillis).writeInt(n);
        if (n > 0) {
            out.writeBytes(payload, payload.readerIndex(), n);
        }
        out.writeInt((int) crc(out, 0, HEADER_LENGTH + n));
        return out;
    }

    static long crc(ByteBuf b, int from, int length) {
        CRC32C crc = new CRC32C();
        if (b.hasArray()) {
            crc.update(b.array(), b.arrayOffset() + from, length);
        } else {
            crc.update(b.nioBuffer(from, length));
        }
        return crc.getValue();
    }

    /** Splits the stream into frames; a bad frame fails the channel (the connection is closed). */
    static final class Decoder extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < HEADER_LENGTH) {
                return;
            }
            int start = in.readerIndex();
            if (in.getInt(start + MAGIC_OFFSET) != MAGIC) {
                throw new CorruptFrameException("bad magic", ctx.channel().remoteAddress());
            }
            int version = in.getUnsignedByte(start + VERSION_OFFSET);
            if (version != VERSION) {
                throw new MessagingVersionException(version, ctx.channel().remoteAddress());
            }
            int n = in.getInt(start + LENGTH_OFFSET);
            if (n < 0 || n > MAX_PAYLOAD) {
                throw new CorruptFrameException("payload length=" + n, ctx.channel().remoteAddress());
            }
            int total = HEADER_LENGTH + n + CRC_LENGTH;
            if (in.readableBytes() < total) {
                return;
            }
            int expected = in.getInt(start + HEADER_LENGTH + n);
            if ((int) crc(in, start, HEADER_LENGTH + n) != expected) {
                throw new CorruptFrameException("checksum mismatch", ctx.channel().remoteAddress());
            }
            int kind = in.getUnsignedByte(start + KIND_OFFSET);
            int verb = in.getUnsignedShort(start + VERB_OFFSET);
            long id = in.getLong(start + ID_OFFSET);
            long epoch = in.getLong(start + EPOCH_OFFSET);
            int timeout = in.getInt(start + TIMEOUT_OFFSET);
            ByteBuf payload = in.retainedSlice(start + HEADER_LENGTH, n);
            in.skipBytes(total);
            out.add(new Frame(kind, verb, id, epoch, timeout, payload));
        }
    }
}
