package io.charybdis.protocol.frame;

import io.charybdis.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.nio.ByteBuffer;

/**
 * LZ4 block compression over ByteBufs. Everything read from the network goes through the <em>safe</em>
 * decompressor, which never reads or writes outside its buffers; a corrupt block becomes a {@link ProtocolException}.
 */
public final class Lz4 {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    private static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

    private Lz4() {
    }

    public static int maxCompressedLength(int length) {
        return COMPRESSOR.maxCompressedLength(length);
    }

    /**
     * Compresses {@code length} bytes of {@code src} from {@code srcIndex} into {@code dst} at its writer index,
     * which must have {@link #maxCompressedLength} writable bytes; advances the writer index; returns the
     * compressed length.
     */
    public static int compress(ByteBuf src, int srcIndex, int length, ByteBuf dst) {
        int max = maxCompressedLength(length);
        dst.ensureWritable(max);
        ByteBuffer in = nio(src, srcIndex, length);
        ByteBuffer out = dst.nioBuffer(dst.writerIndex(), max);
        int n = COMPRESSOR.compress(in, in.position(), length, out, out.position(), max);
        dst.writerIndex(dst.writerIndex() + n);
        return n;
    }

    /**
     * Decompresses {@code length} bytes of {@code src} from {@code srcIndex}, which must decompress to exactly
     * {@code uncompressedLength} bytes, into a new buffer.
     *
     * @throws ProtocolException (non-fatal, stream 0) if the block is corrupt or of another length
     */
    public static ByteBuf decompress(ByteBufAllocator alloc, ByteBuf src, int srcIndex, int length,
                                     int uncompressedLength) {
        ByteBuf dst = alloc.buffer(uncompressedLength, uncompressedLength);
        boolean ok = false;
        try {
            if (uncompressedLength > 0 || length > 0) {
                ByteBuffer in = nio(src, srcIndex, length);
                ByteBuffer out = dst.nioBuffer(0, uncompressedLength);
                int n = DECOMPRESSOR.decompress(in, in.position(), length, out, out.position(), uncompressedLength);
                if (n != uncompressedLength) {
                    throw new ProtocolException("Corrupt LZ4 data: decompressed length=" + n + " expected="
                            + uncompressedLength);
                }
            }
            dst.writerIndex(uncompressedLength);
            ok = true;
            return dst;
        } catch (LZ4Exception | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new ProtocolException("Corrupt LZ4 data: " + e.getMessage(), 0, false, e);
        } finally {
            if (!ok) {
                dst.release();
            }
        }
    }

    private static ByteBuffer nio(ByteBuf buf, int index, int length) {
        if (buf.nioBufferCount() == 1) {
            return buf.nioBuffer(index, length);
        }
        ByteBuffer copy = ByteBuffer.allocate(length);
        buf.getBytes(index, copy);
        copy.flip();
        return copy;
    }
}
