package io.charybdis.protocol.frame;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The CRC32 of v5 frame payloads: the standard CRC32 ({@link CRC32}) fed first with the four seed bytes
 * {@code FA 2D 55 CA}, then the payload.
 */
public final class Crc32Seeded {
    private static final byte[] SEED = {(byte) 0xFA, (byte) 0x2D, (byte) 0x55, (byte) 0xCA};

    private Crc32Seeded() {
    }

    /** A CRC32 that has already consumed the seed. */
    public static CRC32 newCrc32() {
        CRC32 crc = new CRC32();
        crc.update(SEED, 0, SEED.length);
        return crc;
    }

    public static int compute(byte[] b, int offset, int length) {
        CRC32 crc = newCrc32();
        crc.update(b, offset, length);
        return (int) crc.getValue();
    }

    /** The seeded CRC32 of {@code length} bytes of {@code buf} from {@code index}; the buffer is not modified. */
    public static int compute(ByteBuf buf, int index, int length) {
        CRC32 crc = newCrc32();
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
        } else {
            for (ByteBuffer nio : buf.nioBuffers(index, length)) {
                crc.update(nio);
            }
        }
        return (int) crc.getValue();
    }
}
