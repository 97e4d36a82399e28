package io.charybdis.storage.util;

import java.util.zip.CRC32;
import org.agrona.DirectBuffer;

/** CRC32 helpers over agrona buffers. */
public final class Crc {
    private Crc() {
    }

    public static int crc32(DirectBuffer buffer, int offset, int length) {
        CRC32 crc = new CRC32();
        if (buffer.byteArray() != null) {
            crc.update(buffer.byteArray(), (int) (buffer.addressOffset() - org.agrona.BufferUtil.ARRAY_BASE_OFFSET) + offset, length);
        } else {
            byte[] tmp = new byte[Math.min(length, 8192)];
            int done = 0;
            while (done < length) {
                int n = Math.min(tmp.length, length - done);
                buffer.getBytes(offset + done, tmp, 0, n);
                crc.update(tmp, 0, n);
                done += n;
            }
        }
        return (int) crc.getValue();
    }

    public static int crc32(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
