package io.charybdis.node.cql.syntax;

import java.util.Objects;

/** A possibly keyspace-qualified name: table, type, function, index, view. {@code keyspace} is null when omitted. */
public record QualifiedName(String keyspace, String name) {
    public QualifiedName {
        Objects.requireNonNull(name, "name");
    }

    public static QualifiedName of(String name) {
        return new QualifiedName(null, name);
    }

    public boolean hasKeyspace() {
        return keyspace != null;
    }

    /** The same name in {@code defaultKeyspace} when none was given. */
    public QualifiedName withDefaultKeyspace(String defaultKeyspace) {
        return keyspace != null ? this : new QualifiedName(defaultKeyspace, name);
    }

    public String toCql() {
        return keyspace == null ? Identifiers.quoteIfNeeded(name)
                : Identifiers.quoteIfNeeded(keyspace) + "." + Identifiers.quoteIfNeeded(name);
    }

    @Override
    public String toString() {
        return toCql();
    }
}
