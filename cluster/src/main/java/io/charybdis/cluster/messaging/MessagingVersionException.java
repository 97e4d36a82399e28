package io.charybdis.cluster.messaging;

/** A peer speaks another internode frame version: the connection cannot be used. */
public final class MessagingVersionException extends RuntimeException {
    public MessagingVersionException(int version, Object peer) {
        super("internode frame version=" + version + " from peer=" + peer + " is not supported (this node speaks "
                + FrameLayout.VERSION + ")");
    }
}
