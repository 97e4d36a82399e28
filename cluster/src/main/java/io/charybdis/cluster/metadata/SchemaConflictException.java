package io.charybdis.cluster.metadata;

/** A schema change lost against another committed first: compute it again against the schema now in force. */
public final class SchemaConflictException extends RuntimeException {
    public SchemaConflictException(String message) {
        super(message);
    }
}
