package io.charybdis.protocol;

/**
 * An envelope whose body is longer than the configured maximum ({@code native_transport_max_frame_size}). Like
 * Cassandra, the reply is an INVALID error ("Request is too big: ...") on the envelope's stream; the decoder skips
 * the body, so the connection stays usable.
 */
public class EnvelopeTooLargeException extends ProtocolException {
    private final long length;
    private final long maximum;

    public EnvelopeTooLargeException(long length, long maximum, int streamId) {
        super("Request is too big: length " + length + " exceeds maximum allowed length " + maximum + ".",
                streamId, false);
        this.length = length;
        this.maximum = maximum;
    }

    public long length() {
        return length;
    }

    public long maximum() {
        return maximum;
    }

    @Override
    public ErrorCode errorCode() {
        return ErrorCode.INVALID;
    }

    @Override
    public EnvelopeTooLargeException withStreamId(int newStreamId) {
        return new EnvelopeTooLargeException(length, maximum, newStreamId);
    }
}
