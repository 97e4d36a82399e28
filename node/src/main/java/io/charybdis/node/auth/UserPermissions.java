package io.charybdis.node.auth;

import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.node.schema.SchemaConstants;

import java.util.Map;
import java.util.Set;

/**
 * What a logged-in role may do, as loaded once into the auth cache: its own row, every role granted to it (directly or
 * through others, itself included), whether any of them is a superuser, and the union of their permissions by
 * resource. Immutable; a change to roles or permissions replaces it (the cache is invalidated).
 */
public record UserPermissions(String name, boolean superuser, boolean canLogin, String saltedHash, Set<String> roles,
                              Map<AuthResource, Set<Permission>> permissions) {

    /**
     * Whether the role holds {@code p} on {@code resource} or on a resource above it; superusers hold everything.
     * What is granted on {@code <all keyspaces>} does not reach the system keyspaces (as in Cassandra 5.0: MODIFY
     * on ALL KEYSPACES must not let a role rewrite system_auth and make itself a superuser).
     */
    public boolean has(Permission p, AuthResource resource) {
        if (superuser) {
            return true;
        }
        boolean system = resource.keyspace() != null && SchemaConstants.isSystemKeyspace(resource.keyspace())
                && resource.kind() != AuthResource.Kind.KEYSPACE_FUNCTIONS
                && resource.kind() != AuthResource.Kind.FUNCTION;
        for (AuthResource r = resource; r != null; r = r.parent()) {
            if (system && r.kind() == AuthResource.Kind.ALL_KEYSPACES) {
                break;
            }
            Set<Permission> held = permissions.get(r);
            if (held != null && held.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** Cassandra's check on data, function and mbean resources, with its message. */
    public void ensure(Permission p, AuthResource resource) {
        if (!has(p, resource)) {
            throw new UnauthorizedException("User " + name + " has no " + p + " permission on " + resource
                    + " or any of its parents");
        }
    }
}
