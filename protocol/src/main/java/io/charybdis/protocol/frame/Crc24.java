package io.charybdis.protocol.frame;

import io.netty.buffer.ByteBuf;

/**
 * The CRC24 that protects v5 frame headers: initial value {@code 0x875060}, polynomial {@code 0x1974F0B} (a
 * Koopman polynomial with good Hamming distance for short messages), no reflection, no final xor. Bytes are fed in
 * wire order, which for the little-endian frame header means least significant byte first.
 */
public final class Crc24 {
    public static final int INIT = 0x875060;
    public static final int POLY = 0x1974F0B;

    private Crc24() {
    }

    /** CRC24 of the low {@code length} bytes of {@code bytes}, least significant byte first. */
    public static int compute(long bytes, int length) {
        int crc = INIT;
        for (int i = 0; i < length; i++) {
            crc = update(crc, (int) (bytes >>> (8 * i)) & 0xFF);
        }
        return crc;
    }

    /** CRC24 of {@code length} bytes of {@code buf} from {@code index}, in buffer order. */
    public static int compute(ByteBuf buf, int index, int length) {
        int crc = INIT;
        for (int i = 0; i < length; i++) {
            crc = update(crc, buf.getUnsignedByte(index + i));
        }
        return crc;
    }

    private static int update(int crc, int b) {
        crc ^= b << 16;
        for (int bit = 0; bit < 8; bit++) {
            crc <<= 1;
            if ((crc & 0x1000000) != 0) {
                crc ^= POLY;
            }
        }
        return crc & 0xFFFFFF;
    }
}
