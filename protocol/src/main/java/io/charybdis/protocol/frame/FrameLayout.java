package io.charybdis.protocol.frame;

/**
 * Layout of a protocol v5 frame ("segment"): a header checked by {@link Crc24}, a payload of at most
 * {@link #MAX_PAYLOAD_LENGTH} bytes, and a trailer holding the {@link Crc32Seeded} of the payload as sent. All
 * framing integers are <b>little-endian</b> (the envelopes inside stay big-endian).
 *
 * <pre>
 * Uncompressed frame, 6-byte header; bits numbered from the least significant bit of the 3-byte LE header:
 *
 *   bits 0-16  payload length (17 bits)
 *   bit  17    self-contained flag
 *   bits 18-23 padding (0)
 *   bytes 3-5  CRC24 of header bytes 0-2
 *
 *   +-------------------------+----------------+----------------------+------------------+
 *   | header3b (LE)  3 bytes  | crc24 3 bytes  | payload (length)     | crc32 (LE) 4 b.  |
 *   +-------------------------+----------------+----------------------+------------------+
 *
 * LZ4 frame, 8-byte header; bits of the 5-byte LE header:
 *
 *   bits 0-16  compressed (= on-the-wire) payload length
 *   bits 17-33 uncompressed length; 0 means the payload was sent uncompressed
 *   bit  34    self-contained flag
 *   bits 35-39 padding (0)
 *   bytes 5-7  CRC24 of header bytes 0-4
 *
 *   +-------------------------+----------------+----------------------+------------------+
 *   | header5b (LE)  5 bytes  | crc24 3 bytes  | LZ4 block or raw     | crc32 (LE) 4 b.  |
 *   +-------------------------+----------------+----------------------+------------------+
 * </pre>
 *
 * A self-contained frame holds one or more whole envelopes. An envelope too big for one frame is cut into
 * consecutive non-self-contained frames, each holding only bytes of that envelope.
 */
public final class FrameLayout {
    public static final int HEADER_LENGTH = 6;
    public static final int LZ4_HEADER_LENGTH = 8;
    public static final int TRAILER_LENGTH = 4;
    public static final int MAX_PAYLOAD_LENGTH = (1 << 17) - 1;

    public static final int LENGTH_MASK = 0x1FFFF;
    public static final int SELF_CONTAINED_BIT = 17;
    public static final int LZ4_UNCOMPRESSED_LENGTH_SHIFT = 17;
    public static final int LZ4_SELF_CONTAINED_BIT = 34;

    private FrameLayout() {
    }

    public static int headerLength(boolean lz4) {
        return lz4 ? LZ4_HEADER_LENGTH : HEADER_LENGTH;
    }

    /** The 3 header bytes (before the CRC) of an uncompressed frame. */
    public static int header3b(int payloadLength, boolean selfContained) {
        return payloadLength | (selfContained ? 1 << SELF_CONTAINED_BIT : 0);
    }

    /** The 5 header bytes (before the CRC) of an LZ4 frame. */
    public static long header5b(int compressedLength, int uncompressedLength, boolean selfContained) {
        return compressedLength | ((long) uncompressedLength << LZ4_UNCOMPRESSED_LENGTH_SHIFT)
                | (selfContained ? 1L << LZ4_SELF_CONTAINED_BIT : 0L);
    }
}
