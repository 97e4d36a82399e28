package io.charybdis.cluster;

/**
 * A request this cluster cannot serve yet because the feature it needs is not built; the message names the
 * feature. Clients get an Invalid error (never a server error), and nothing was read or written.
 */
public final class NotYetSupportedException extends CoordinatorException {
    public NotYetSupportedException(String message) {
        super(message);
    }
}
