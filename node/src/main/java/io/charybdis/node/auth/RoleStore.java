package io.charybdis.node.auth;

import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.protocol.Consistency;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static io.charybdis.node.auth.InternalQueries.asBool;
import static io.charybdis.node.auth.InternalQueries.asText;
import static io.charybdis.node.auth.InternalQueries.asTextSet;
import static io.charybdis.node.auth.InternalQueries.bool;
import static io.charybdis.node.auth.InternalQueries.text;
import static io.charybdis.node.auth.InternalQueries.textSet;

/**
 * Roles, memberships and permissions as Cassandra's CassandraRoleManager and CassandraAuthorizer keep them in
 * {@code system_auth}: {@code roles} (one row per role, {@code member_of} the roles granted to it), {@code
 * role_members} (the same grants seen from the granted role), {@code role_permissions} (role, resource name, set of
 * permission names) and {@code resource_role_permissons_index} (resource name, role: who holds something on it).
 * Written and read through the coordinator like any table, so they are durable and replicated as system_auth's
 * replication says.
 */
public final class RoleStore {
    /** A row of system_auth.roles; {@code saltedHash} null for a role without a password. */
    public record Role(String name, boolean superuser, boolean login, Set<String> memberOf, String saltedHash) {
    }

    private final InternalQueries q;
    private final Consistency read;
    private final Consistency write;

    /**
     * {@code read} and {@code write}: {@code auth_read_consistency_level} and {@code auth_write_consistency_level}
     * (Cassandra 5.0's defaults: LOCAL_QUORUM, EACH_QUORUM). As in Cassandra, the default superuser's row is read
     * and written at QUORUM whatever they say.
     */
    public RoleStore(InternalQueries queries, Consistency read, Consistency write) {
        this.q = queries;
        this.read = read;
        this.write = write;
    }

    private Consistency readFor(String role) {
        return role.equals(AuthService.DEFAULT_SUPERUSER) ? Consistency.QUORUM : read;
    }

    private Consistency writeFor(String role) {
        return role.equals(AuthService.DEFAULT_SUPERUSER) ? Consistency.QUORUM : write;
    }

    public CompletableFuture<Role> role(String name) {
        return q.execute("SELECT role, is_superuser, can_login, member_of, salted_hash FROM system_auth.roles "
                + "WHERE role = ?", readFor(name), text(name))
                .thenApply(rows -> rows.isEmpty() ? null : role(rows.get(0)));
    }

    public CompletableFuture<Boolean> exists(String name) {
        return role(name).thenApply(r -> r != null);
    }

    /** Every role (a scan of system_auth.roles). */
    public CompletableFuture<List<Role>> allRoles() {
        return q.execute("SELECT role, is_superuser, can_login, member_of, salted_hash FROM system_auth.roles", read)
                .thenApply(rows -> rows.stream().map(RoleStore::role).toList());
    }

    private static Role role(List<ByteBuffer> row) {
        return new Role(asText(row.get(0)), asBool(row.get(1)), asBool(row.get(2)), asTextSet(row.get(3)),
                asText(row.get(4)));
    }

    /** Creates (or overwrites) a role row; {@code timestamp} in microseconds, or null for now. */
    public CompletableFuture<Void> createRole(String name, boolean superuser, boolean login, String hash,
                                              Long timestamp) {
        String using = timestamp == null ? "" : " USING TIMESTAMP " + timestamp;
        if (hash == null) {
            return q.execute("INSERT INTO system_auth.roles (role, is_superuser, can_login) VALUES (?, ?, ?)" + using,
                    writeFor(name), text(name), bool(superuser), bool(login)).thenApply(r -> null);
        }
        return q.execute("INSERT INTO system_auth.roles (role, is_superuser, can_login, salted_hash) VALUES "
                + "(?, ?, ?, ?)" + using, writeFor(name), text(name), bool(superuser), bool(login), text(hash))
                .thenApply(r -> null);
    }

    /** Changes the given attributes (each null when unchanged). */
    public CompletableFuture<Void> alterRole(String name, Boolean superuser, Boolean login, String hash) {
        List<String> sets = new ArrayList<>();
        List<ByteBuffer> values = new ArrayList<>();
        if (superuser != null) {
            sets.add("is_superuser = ?");
            values.add(bool(superuser));
        }
        if (login != null) {
            sets.add("can_login = ?");
            values.add(bool(login));
        }
        if (hash != null) {
            sets.add("salted_hash = ?");
            values.add(text(hash));
        }
        if (sets.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        values.add(text(name));
        return q.execute("UPDATE system_auth.roles SET " + String.join(", ", sets) + " WHERE role = ?", writeFor(name),
                values.toArray(ByteBuffer[]::new)).thenApply(r -> null);
    }

    public CompletableFuture<Void> grantRole(String role, String grantee) {
        return q.execute("UPDATE system_auth.roles SET member_of = member_of + ? WHERE role = ?", write,
                        textSet(List.of(role)), text(grantee))
                .thenCompose(r -> q.execute("INSERT INTO system_auth.role_members (role, member) VALUES (?, ?)",
                        write, text(role), text(grantee)))
                .thenApply(r -> null);
    }

    public CompletableFuture<Void> revokeRole(String role, String revokee) {
        return q.execute("UPDATE system_auth.roles SET member_of = member_of - ? WHERE role = ?", write,
                        textSet(List.of(role)), text(revokee))
                .thenCompose(r -> q.execute("DELETE FROM system_auth.role_members WHERE role = ? AND member = ?",
                        write, text(role), text(revokee)))
                .thenApply(r -> null);
    }

    /** The roles {@code role} is granted to (its members). */
    public CompletableFuture<List<String>> members(String role) {
        return q.execute("SELECT member FROM system_auth.role_members WHERE role = ?", read, text(role))
                .thenApply(rows -> rows.stream().map(r -> asText(r.get(0))).toList());
    }

    /**
     * Drops a role as Cassandra does: its memberships both ways, its row, the permissions granted to it and those
     * granted to others on it.
     */
    public CompletableFuture<Void> dropRole(Role role) {
        String name = role.name();
        CompletableFuture<?> f = members(name).thenCompose(members -> {
            CompletableFuture<?> all = CompletableFuture.completedFuture(null);
            for (String m : members) {
                all = all.thenCompose(x -> q.execute("UPDATE system_auth.roles SET member_of = member_of - ? "
                        + "WHERE role = ?", write, textSet(List.of(name)), text(m)));
            }
            return all;
        });
        for (String granted : role.memberOf()) {
            f = f.thenCompose(x -> q.execute("DELETE FROM system_auth.role_members WHERE role = ? AND member = ?",
                    write, text(granted), text(name)));
        }
        return f.thenCompose(x -> q.execute("DELETE FROM system_auth.role_members WHERE role = ?", write, text(name)))
                .thenCompose(x -> q.execute("DELETE FROM system_auth.roles WHERE role = ?", write, text(name)))
                .thenCompose(x -> q.execute("DELETE FROM system_auth.cidr_permissions WHERE role = ?", write,
                        text(name)))
                .thenCompose(x -> dropIdentitiesOf(name))
                .thenCompose(x -> revokeAllFrom(name))
                .thenCompose(x -> revokeAllOn(AuthResource.role(name)));
    }

    // ---- CIDR groups and identities -----------------------------------------------------------------------------

    /**
     * The CIDR groups a role may connect from (its row of {@code cidr_permissions}), written for every role created
     * as Cassandra's CIDR authorizers do, also the allow-all one: an empty set means every CIDR.
     */
    public CompletableFuture<Void> setCidrGroups(String role, Collection<String> groups) {
        return q.execute("INSERT INTO system_auth.cidr_permissions (role, cidr_groups) VALUES (?, ?)", write,
                text(role), textSet(groups)).thenApply(r -> null);
    }

    /** The names of the CIDR groups defined (rows of {@code cidr_groups}). */
    public CompletableFuture<List<String>> cidrGroups() {
        return q.execute("SELECT cidr_group FROM system_auth.cidr_groups", read)
                .thenApply(rows -> rows.stream().map(r -> asText(r.get(0))).toList());
    }

    /** The CIDRs of a group (its {@code cidrs} value: a set of (inet, smallint) tuples), or null for no such group. */
    public CompletableFuture<ByteBuffer> cidrsOf(String group) {
        return q.execute("SELECT cidrs FROM system_auth.cidr_groups WHERE cidr_group = ?", read, text(group))
                .thenApply(rows -> rows.isEmpty() ? null : rows.get(0).get(0));
    }

    /**
     * Writes a group's CIDRs; {@code cidrsLiteral} is the CQL literal of the set ({@code {('10.0.0.0', 8), ...}}),
     * built by the caller from parsed, checked addresses only.
     */
    public CompletableFuture<Void> putCidrGroup(String group, String cidrsLiteral) {
        return q.execute("INSERT INTO system_auth.cidr_groups (cidr_group, cidrs) VALUES (?, " + cidrsLiteral + ")",
                write, text(group)).thenApply(r -> null);
    }

    public CompletableFuture<Void> dropCidrGroup(String group) {
        return q.execute("DELETE FROM system_auth.cidr_groups WHERE cidr_group = ?", write, text(group))
                .thenApply(r -> null);
    }

    /** The role an mTLS identity maps to ({@code identity_to_role}), or null. */
    public CompletableFuture<String> roleOfIdentity(String identity) {
        return q.execute("SELECT role FROM system_auth.identity_to_role WHERE identity = ?", read, text(identity))
                .thenApply(rows -> rows.isEmpty() ? null : asText(rows.get(0).get(0)));
    }

    public CompletableFuture<Void> addIdentity(String identity, String role) {
        return q.execute("INSERT INTO system_auth.identity_to_role (identity, role) VALUES (?, ?)", write,
                text(identity), text(role)).thenApply(r -> null);
    }

    public CompletableFuture<Void> dropIdentity(String identity) {
        return q.execute("DELETE FROM system_auth.identity_to_role WHERE identity = ?", write, text(identity))
                .thenApply(r -> null);
    }

    /** Removes every identity mapped to {@code role} (a filtered scan of {@code identity_to_role}, as Cassandra's). */
    private CompletableFuture<Void> dropIdentitiesOf(String role) {
        return q.execute("SELECT identity FROM system_auth.identity_to_role WHERE role = ? ALLOW FILTERING", read,
                text(role)).thenCompose(rows -> {
                    CompletableFuture<Void> f = CompletableFuture.completedFuture(null);
                    for (List<ByteBuffer> r : rows) {
                        String identity = asText(r.get(0));
                        f = f.thenCompose(x -> dropIdentity(identity));
                    }
                    return f;
                });
    }

    // ---- permissions --------------------------------------------------------------------------------------------

    /** The permissions granted to {@code role} itself (not through other roles), by resource name. */
    public CompletableFuture<Map<String, Set<Permission>>> permissionsOf(String role) {
        return q.execute("SELECT resource, permissions FROM system_auth.role_permissions WHERE role = ?", read,
                text(role)).thenApply(rows -> {
                    Map<String, Set<Permission>> out = new LinkedHashMap<>();
                    for (List<ByteBuffer> r : rows) {
                        out.put(asText(r.get(0)), permissions(asTextSet(r.get(1))));
                    }
                    return out;
                });
    }

    /** Every grant: role, resource name, permissions (a scan of role_permissions). */
    public record Grant(String role, String resource, Set<Permission> permissions) {
    }

    public CompletableFuture<List<Grant>> allGrants() {
        return q.execute("SELECT role, resource, permissions FROM system_auth.role_permissions", read)
                .thenApply(rows -> rows.stream().map(r -> new Grant(asText(r.get(0)), asText(r.get(1)),
                        permissions(asTextSet(r.get(2))))).toList());
    }

    public CompletableFuture<Void> grant(String role, AuthResource resource, Collection<Permission> permissions) {
        return q.execute("UPDATE system_auth.role_permissions SET permissions = permissions + ? WHERE role = ? AND "
                        + "resource = ?", write, textSet(names(permissions)), text(role), text(resource.name()))
                .thenCompose(r -> q.execute("INSERT INTO system_auth.resource_role_permissons_index (resource, role) "
                        + "VALUES (?, ?)", write, text(resource.name()), text(role)))
                .thenApply(r -> null);
    }

    public CompletableFuture<Void> revoke(String role, AuthResource resource, Collection<Permission> permissions) {
        return q.execute("UPDATE system_auth.role_permissions SET permissions = permissions - ? WHERE role = ? AND "
                        + "resource = ?", write, textSet(names(permissions)), text(role), text(resource.name()))
                .thenCompose(r -> q.execute("SELECT permissions FROM system_auth.role_permissions WHERE role = ? AND "
                        + "resource = ?", read, text(role), text(resource.name())))
                .thenCompose(rows -> rows.isEmpty() || asTextSet(rows.get(0).get(0)).isEmpty()
                        ? q.execute("DELETE FROM system_auth.resource_role_permissons_index WHERE resource = ? AND "
                        + "role = ?", write, text(resource.name()), text(role))
                        : CompletableFuture.completedFuture(rows))
                .thenApply(r -> null);
    }

    /** Removes every permission granted to {@code role}. */
    public CompletableFuture<Void> revokeAllFrom(String role) {
        return permissionsOf(role).thenCompose(perms -> {
            CompletableFuture<?> f = CompletableFuture.completedFuture(null);
            for (String resource : perms.keySet()) {
                f = f.thenCompose(x -> q.execute("DELETE FROM system_auth.resource_role_permissons_index WHERE "
                        + "resource = ? AND role = ?", write, text(resource), text(role)));
            }
            return f.thenCompose(x -> q.execute("DELETE FROM system_auth.role_permissions WHERE role = ?", write,
                    text(role)));
        }).thenApply(r -> null);
    }

    /** Removes every permission on {@code resource}, whoever holds it (the resource was dropped). */
    public CompletableFuture<Void> revokeAllOn(AuthResource resource) {
        return revokeAllOn(resource.name());
    }

    /** Reads and writes partitions of the index and of role_permissions only: no scan, so it works in clusters. */
    private CompletableFuture<Void> revokeAllOn(String resource) {
        return q.execute("SELECT role FROM system_auth.resource_role_permissons_index WHERE resource = ?", read,
                text(resource)).thenCompose(rows -> {
                    CompletableFuture<?> f = CompletableFuture.completedFuture(null);
                    for (List<ByteBuffer> r : rows) {
                        ByteBuffer role = r.get(0);
                        f = f.thenCompose(x -> q.execute("DELETE FROM system_auth.role_permissions WHERE role = ? AND "
                                + "resource = ?", write, role, text(resource)));
                    }
                    return f.thenCompose(x -> q.execute("DELETE FROM system_auth.resource_role_permissons_index "
                            + "WHERE resource = ?", write, text(resource)));
                }).thenApply(r -> null);
    }

    private static Set<Permission> permissions(Set<String> names) {
        Set<Permission> out = EnumSet.noneOf(Permission.class);
        for (String n : names) {
            try {
                out.add(Permission.valueOf(n));
            } catch (IllegalArgumentException ignored) {
                // a permission of a newer version: not one this node can check
            }
        }
        return out;
    }

    private static List<String> names(Collection<Permission> permissions) {
        return permissions.stream().sorted().map(Enum::name).toList();
    }
}
