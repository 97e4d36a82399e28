package io.charybdis.cluster.messaging;

/** An internode frame failed its checks (magic, length bound, CRC32C): the connection is closed. */
public final class CorruptFrameException extends RuntimeException {
    public CorruptFrameException(String what, Object peer) {
        super("corrupt internode frame from peer=" + peer + ": " + what);
    }
}
