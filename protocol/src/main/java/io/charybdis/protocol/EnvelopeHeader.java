package io.charybdis.protocol;

/**
 * Layout of the 9-byte envelope header (a "frame" in protocol v4, an "envelope" inside v5 frames). Big-endian.
 *
 * <pre>
 *   0         8        16        24        32         40
 *   +---------+---------+---------+---------+---------+
 *   | version |  flags  |      stream       | opcode  |
 *   +---------+---------+---------+---------+---------+
 *   |                length                 |
 *   +---------+---------+---------+---------+
 *   |                                       |
 *   .            ...  body ...              .
 *   +----------------------------------------
 *
 *   version: bit 7 = direction (0 request, 1 response), bits 0-6 = protocol version
 *   stream:  signed [short]; negative ids are server-initiated (EVENT uses -1)
 *   length:  [int] length of the body that follows
 * </pre>
 */
public final class EnvelopeHeader {
    public static final int VERSION_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int STREAM_OFFSET = 2;
    public static final int OPCODE_OFFSET = 4;
    public static final int BODY_LENGTH_OFFSET = 5;
    /** Header size in bytes. */
    public static final int LENGTH = 9;

    public static final int RESPONSE_BIT = 0x80;
    public static final int VERSION_MASK = 0x7F;

    public static final int FLAG_COMPRESSED = 0x01;
    public static final int FLAG_TRACING = 0x02;
    public static final int FLAG_CUSTOM_PAYLOAD = 0x04;
    public static final int FLAG_WARNING = 0x08;
    public static final int FLAG_USE_BETA = 0x10;

    /** Cassandra's default native_transport_max_frame_size: 16 MiB. */
    public static final int DEFAULT_MAX_BODY_LENGTH = 16 * 1024 * 1024;

    private EnvelopeHeader() {
    }
}
