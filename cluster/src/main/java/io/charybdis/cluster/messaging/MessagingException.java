package io.charybdis.cluster.messaging;

/**
 * Why an internode request got no answer: the peer could not be reached, did not answer in time, refused more
 * work, or failed it. Expected under faults; the coordinator turns them into Cassandra's timeouts and failures.
 */
public class MessagingException extends RuntimeException {
    public enum Reason { TIMEOUT, UNREACHABLE, OVERLOADED, REMOTE_FAILURE, CLOSED }

    private final Reason reason;

    public MessagingException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
