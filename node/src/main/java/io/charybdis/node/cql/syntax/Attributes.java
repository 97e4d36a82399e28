package io.charybdis.node.cql.syntax;

/**
 * {@code USING TIMESTAMP t AND TTL n AND TIMEOUT d}; timestamp and TTL are INTEGER {@link Term.Literal}s or bind
 * markers, the timeout (ScyllaDB's extension, which its drivers send) a duration term or a bind marker; each null when
 * absent.
 */
public record Attributes(Term timestamp, Term ttl, Term timeout) {
    public static final Attributes NONE = new Attributes(null, null, null);

    public Attributes(Term timestamp, Term ttl) {
        this(timestamp, ttl, null);
    }

    public boolean isEmpty() {
        return timestamp == null && ttl == null && timeout == null;
    }
}
