package io.charybdis.node.auth;

import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;

import java.util.Map;
import java.util.Set;

/**
 * What a logged-in role may do, as loaded once into the auth cache: its own row, every role granted to it (directly or
 * through others, itself included), whether any of them is a superuser, and the union of their permissions by
 * resource. Immutable; a change to roles or permissions replaces it (the cache is invalidated).
 */
public record UserPermissions(String name, boolean superuser, boolean canLogin, String saltedHash, Set<String> roles,
                              Map<AuthResource, Set<Permission>> permissions) {

    /** Whether the role holds {@code p} on {@code resource} or on a resource above it; superusers hold everything. */
    public boolean has(Permission p, AuthResource resource) {
        if (superuser) {
            return true;
        }
        for (AuthResource r = resource; r != null; r = r.parent()) {
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
