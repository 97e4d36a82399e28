package io.charybdis.cluster;

/**
 * A request the coordinator could not complete as asked, for a reason a client is told about with one of
 * Cassandra's error codes (unavailable, timeouts, failures, overload). Expected under faults; never a bug.
 */
public abstract class CoordinatorException extends RuntimeException {
    protected CoordinatorException(String message) {
        super(message, null, false, false);
    }
}
