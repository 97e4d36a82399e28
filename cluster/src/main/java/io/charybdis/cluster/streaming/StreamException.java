package io.charybdis.cluster.streaming;

/** A transfer of token ranges between nodes could not complete (a source did not answer, a write failed). */
public final class StreamException extends RuntimeException {
    public StreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
