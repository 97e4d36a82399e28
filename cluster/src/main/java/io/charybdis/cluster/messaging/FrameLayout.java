package io.charybdis.cluster.messaging;

/**
 * The internode frame on {@code storage_port}: a fixed header, the payload, and a CRC32C of both.
 *
 * <pre>
 *  0         4         5      6          8                  16                 24           28           32
 *  +---------+---------+------+----------+------------------+------------------+------------+------------+
 *  |  magic  | version | kind |   verb   |    message id    |  sender's epoch  |  timeout   |   length   |
 *  | "CHRY"  |   u8    |  u8  |   u16    |       i64        |       i64        | i32 millis |  i32 = n   |
 *  +---------+---------+------+----------+------------------+------------------+------------+------------+
 *  |  payload (n bytes)                                                         | CRC32C of bytes [0, 32+n) |
 *  +----------------------------------------------------------------------------+---------------------------+
 * </pre>
 *
 * A frame of another version is refused with {@link MessagingVersionException} (the connection closes: the two
 * nodes cannot talk); a bad magic, an oversized length or a checksum mismatch is a {@link CorruptFrameException}
 * (the connection closes; its pending requests fail and are retried by their callers).
 */
public final class FrameLayout {
    public static final int MAGIC = 0x43485259; // "CHRY"
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int KIND_OFFSET = 5;
    public static final int VERB_OFFSET = 6;
    public static final int ID_OFFSET = 8;
    public static final int EPOCH_OFFSET = 16;
    public static final int TIMEOUT_OFFSET = 24;
    public static final int LENGTH_OFFSET = 28;
    public static final int HEADER_LENGTH = 32;
    public static final int CRC_LENGTH = 4;

    /** Largest payload accepted: a bigger one means a corrupt length (mutations are bounded far below). */
    public static final int MAX_PAYLOAD = 256 << 20;

    /** Kinds of frame. */
    public static final int KIND_HANDSHAKE = 0;
    public static final int KIND_REQUEST = 1;
    public static final int KIND_RESPONSE = 2;
    public static final int KIND_FAILURE = 3;

    private FrameLayout() {
    }
}
