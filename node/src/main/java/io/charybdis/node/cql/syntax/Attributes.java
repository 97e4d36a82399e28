package io.charybdis.node.cql.syntax;

/** {@code USING TIMESTAMP t AND TTL n}; each is an INTEGER {@link Term.Literal} or a bind marker, null when absent. */
public record Attributes(Term timestamp, Term ttl) {
    public static final Attributes NONE = new Attributes(null, null);

    public boolean isEmpty() {
        return timestamp == null && ttl == null;
    }
}
