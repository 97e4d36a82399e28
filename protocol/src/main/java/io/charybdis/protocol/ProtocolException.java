package io.charybdis.protocol;

import io.netty.handler.codec.DecoderException;

/**
 * A request the server cannot read: the reply is an ERROR with code {@link #errorCode()} (PROTOCOL_ERROR, 0x000A,
 * unless a subclass says otherwise) on {@link #streamId()}.
 *
 * <p>It extends Netty's {@link DecoderException} (a {@link RuntimeException}) so that a
 * {@code ByteToMessageDecoder} rethrows it unwrapped and {@code exceptionCaught} sees it as is.
 *
 * <p>{@link #isFatal()} tells whether the byte stream is still in step: after a fatal error (bad version, broken
 * CRC, truncated frame) the connection must be closed once the ERROR is written; after a non-fatal one (malformed
 * body, unknown opcode, envelope too large and skipped) the connection can go on serving.
 */
public class ProtocolException extends DecoderException {
    private final int streamId;
    private final boolean fatal;

    public ProtocolException(String message) {
        this(message, 0, false, null);
    }

    public ProtocolException(String message, int streamId, boolean fatal) {
        this(message, streamId, fatal, null);
    }

    public ProtocolException(String message, int streamId, boolean fatal, Throwable cause) {
        super(message, cause);
        this.streamId = streamId;
        this.fatal = fatal;
    }

    /** The stream the ERROR reply goes to (0 when unknown). */
    public int streamId() {
        return streamId;
    }

    public boolean isFatal() {
        return fatal;
    }

    public ErrorCode errorCode() {
        return ErrorCode.PROTOCOL_ERROR;
    }

    /** A copy of this error on another stream (used when a body decoder did not know the stream). */
    public ProtocolException withStreamId(int newStreamId) {
        ProtocolException copy = new ProtocolException(getMessage(), newStreamId, fatal, getCause());
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /** The ProtocolException in {@code t}'s cause chain, or null. */
    public static ProtocolException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ProtocolException pe) {
                return pe;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
