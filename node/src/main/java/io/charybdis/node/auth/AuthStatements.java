package io.charybdis.node.auth;

import io.charybdis.node.cql.ClientState;
import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.exceptions.SyntaxException;
import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.syntax.AuthStatement;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.node.cql.syntax.AuthStatement.Resource;
import io.charybdis.node.cql.syntax.AuthStatement.RoleOptions;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.protocol.response.ColumnSpec;
import io.charybdis.protocol.response.ResultMetadata;
import io.charybdis.protocol.response.RowsWriter;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * CREATE/ALTER/DROP ROLE and USER, GRANT/REVOKE of roles and permissions, LIST ROLES/USERS/PERMISSIONS, as Cassandra
 * 5.0 runs them with CassandraRoleManager and CassandraAuthorizer: the same checks in the same order (authorize,
 * then validate, then execute), the same messages, the same rows.
 */
public final class AuthStatements {
    private static final String ROLE_MANAGER = "org.apache.cassandra.auth.CassandraRoleManager";
    private static final DataType OPTIONS_TYPE = new MapType(NativeType.TEXT, NativeType.TEXT, false);

    private final AuthService auth;
    private final Supplier<Schema> schema;
    private final Supplier<Set<String>> dataCenters;

    /** {@code dataCenters}: the data centres of the ring, which {@code ACCESS TO DATACENTERS} may name. */
    public AuthStatements(AuthService auth, Supplier<Schema> schema, Supplier<Set<String>> dataCenters) {
        this.auth = auth;
        this.schema = schema;
        this.dataCenters = dataCenters;
    }

    /** The executable form of an auth statement, analysed against the current keyspace. */
    public CqlStatement statement(AuthStatement s, String keyspace) {
        // what Cassandra checks while preparing (syntax-level errors)
        switch (s) {
            case AuthStatement.GrantPermissions g -> resource(g.resource(), keyspace, g.permissions(), g.all());
            case AuthStatement.RevokePermissions r -> resource(r.resource(), keyspace, r.permissions(), r.all());
            case AuthStatement.ListPermissions l when l.resource() != null ->
                    resource(l.resource(), keyspace, l.permissions(), l.all());
            default -> {
            }
        }
        return new CqlStatement() {
            @Override
            public List<BindVariable> bindVariables() {
                return List.of();
            }

            @Override
            public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
                return run(s, keyspace, ctx);
            }
        };
    }

    private CompletableFuture<ResultMessage> run(AuthStatement s, String keyspace, QueryContext ctx) {
        ClientState client = ctx.client();
        if (client.user() == null) {
            return CompletableFuture.failedFuture(new UnauthorizedException("You have not logged in"));
        }
        if (!auth.requiresLogin()) {
            // AllowAllAuthenticator: the role manager supports LOGIN and SUPERUSER only, checked first
            AuthStatement.RoleOptions o = switch (s) {
                case AuthStatement.CreateRole c -> c.options();
                case AuthStatement.CreateUser c -> c.options();
                case AuthStatement.AlterRole a -> a.options();
                case AuthStatement.AlterUser a -> a.options();
                default -> null;
            };
            if (o != null && (o.password() != null || o.hashedPassword() != null)) {
                return CompletableFuture.failedFuture(new InvalidRequestException(ROLE_MANAGER + " doesn't support "
                        + (o.password() != null ? "PASSWORD" : "HASHED_PASSWORD")));
            }
            if (o != null && o.options() != null) {
                return CompletableFuture.failedFuture(new InvalidRequestException(ROLE_MANAGER
                        + " doesn't support OPTIONS"));
            }
            // AllowAllAuthenticator: Cassandra's anonymous user may not manage roles
            return CompletableFuture.failedFuture(new UnauthorizedException("You have to be logged in and not "
                    + "anonymous to perform this request"));
        }
        return auth.user(client.user()).thenCompose(user -> {
            UserPermissions u = user != null ? user : new UserPermissions(client.user(), false, false, null,
                    Set.of(client.user()), java.util.Map.of());
            CompletableFuture<ResultMessage> r = switch (s) {
                case AuthStatement.CreateRole c -> createRole(u, c.role(), c.ifNotExists(), c.options());
                case AuthStatement.CreateUser c -> createRole(u, c.user(), c.ifNotExists(), c.options());
                case AuthStatement.AlterRole a -> alterRole(u, a.role(), a.ifExists(), a.options());
                case AuthStatement.AlterUser a -> alterRole(u, a.user(), a.ifExists(), a.options());
                case AuthStatement.DropRole d -> dropRole(u, d.role(), d.ifExists());
                case AuthStatement.DropUser d -> dropRole(u, d.user(), d.ifExists());
                case AuthStatement.GrantRole g -> grantRole(u, g.role(), g.grantee(), true);
                case AuthStatement.RevokeRole r2 -> grantRole(u, r2.role(), r2.revokee(), false);
                case AuthStatement.GrantPermissions g -> grant(u, g.permissions(), g.all(),
                        resource(g.resource(), keyspace, g.permissions(), g.all()), g.grantee(), true, ctx);
                case AuthStatement.RevokePermissions r2 -> grant(u, r2.permissions(), r2.all(),
                        resource(r2.resource(), keyspace, r2.permissions(), r2.all()), r2.revokee(), false, ctx);
                case AuthStatement.ListPermissions l -> listPermissions(u, l, keyspace, ctx);
                case AuthStatement.ListRoles l -> listRoles(u, l.of(), l.recursive(), false, ctx);
                case AuthStatement.ListUsers l -> listRoles(u, null, true, true, ctx);
                case AuthStatement.AddIdentity a -> addIdentity(u, a.identity(), a.role(), a.ifNotExists());
                case AuthStatement.DropIdentity d -> dropIdentity(u, d.identity(), d.ifExists());
            };
            return r;
        });
    }

    // ---- roles --------------------------------------------------------------------------------------------------

    private static UnauthorizedException insufficient(UserPermissions u) {
        return new UnauthorizedException("User " + u.name() + " does not have sufficient privileges to perform the "
                + "requested operation");
    }

    /**
     * Whether {@code u} holds {@code p} on {@code resource}; with AllowAllAuthorizer everyone holds everything (only
     * the superuser-status rules remain), as Cassandra's ClientState skips every permission check then.
     */
    private boolean has(UserPermissions u, Permission p, AuthResource resource) {
        return !auth.requiresAuthorization() || u.has(p, resource);
    }

    private void ensure(UserPermissions u, Permission p, AuthResource resource) {
        if (auth.requiresAuthorization()) {
            u.ensure(p, resource);
        }
    }

    private void checkRolePermission(UserPermissions u, Permission p, AuthResource resource) {
        if (!has(u, p, resource)) {
            throw insufficient(u);
        }
    }

    private void validateOptions(RoleOptions o) {
        if (o.options() != null) {
            throw new InvalidRequestException(ROLE_MANAGER + " doesn't support OPTIONS");
        }
        if (o.hashedPassword() != null && !AuthService.isBcrypt(o.hashedPassword())) {
            throw new InvalidRequestException("Invalid hashed password value. Please use jBcrypt.");
        }
    }

    private CompletableFuture<String> hashOf(RoleOptions o) {
        if (o.hashedPassword() != null) {
            return CompletableFuture.completedFuture(o.hashedPassword());
        }
        if (o.password() != null) {
            return auth.hashAsync(o.password());
        }
        return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<ResultMessage> createRole(UserPermissions u, String role, boolean ifNotExists,
                                                        RoleOptions o) {
        checkRolePermission(u, Permission.CREATE, AuthResource.ALL_ROLES);
        if (Boolean.TRUE.equals(o.superuser()) && !u.superuser()) {
            throw new UnauthorizedException("Only superusers can create a role with superuser status");
        }
        validateOptions(o);
        if (role.isEmpty()) {
            throw new InvalidRequestException("Role name can't be an empty string");
        }
        validateDataCenters(o);
        return validateCidrs(o).thenCompose(v -> auth.store().exists(role)).thenCompose(exists -> {
            if (exists) {
                if (ifNotExists) {
                    return done();
                }
                throw new InvalidRequestException(role + " already exists");
            }
            // network permissions: AllowAllNetworkAuthorizer, Cassandra's default and Charybdis's only one, keeps none
            return hashOf(o).thenCompose(hash -> auth.store().createRole(role, Boolean.TRUE.equals(o.superuser()),
                            Boolean.TRUE.equals(o.login()), hash, null))
                    .thenCompose(x -> auth.store().setCidrGroups(role, cidrGroups(o)))
                    .thenCompose(x -> grantToCreator(u, AuthResource.role(role)))
                    .thenCompose(x -> changed());
        });
    }

    /** Cassandra gives the creator of a keyspace, table, role or function every permission on it. */
    public CompletableFuture<Void> grantToCreator(UserPermissions u, AuthResource resource) {
        if (!auth.requiresAuthorization()) {
            return CompletableFuture.completedFuture(null);
        }
        return auth.store().grant(u.name(), resource, resource.applicable()).thenRun(auth::invalidate);
    }

    /**
     * After a DDL statement: its creator gets every permission on what it created (a keyspace and its functions, a
     * table), and permissions on what was dropped are revoked from everyone, as Cassandra does (for a keyspace: on
     * it, its tables ({@code droppedTables}, as they were before the drop) and its functions).
     */
    public CompletableFuture<Void> schemaChanged(io.charybdis.node.schema.SchemaChange change, ClientState client,
                                                 java.util.Collection<String> droppedTables) {
        if (!auth.requiresAuthorization() || change == null) {
            return CompletableFuture.completedFuture(null);
        }
        var target = change.target();
        var kind = change.change();
        if (kind == io.charybdis.node.schema.SchemaChange.Change.CREATED && client.user() != null
                && !client.isInternal() && auth.requiresLogin()) {
            return auth.user(client.user()).thenCompose(u -> {
                if (u == null) {
                    return CompletableFuture.<Void>completedFuture(null);
                }
                if (target == io.charybdis.node.schema.SchemaChange.Target.KEYSPACE) {
                    return grantToCreator(u, AuthResource.keyspace(change.keyspace()))
                            .thenCompose(x -> grantToCreator(u, AuthResource.keyspaceFunctions(change.keyspace())));
                }
                if (target == io.charybdis.node.schema.SchemaChange.Target.TABLE) {
                    return grantToCreator(u, AuthResource.table(change.keyspace(), change.name()));
                }
                return CompletableFuture.<Void>completedFuture(null);
            });
        }
        if (kind == io.charybdis.node.schema.SchemaChange.Change.DROPPED) {
            CompletableFuture<Void> f;
            if (target == io.charybdis.node.schema.SchemaChange.Target.KEYSPACE) {
                String ks = change.keyspace();
                List<AuthResource> gone = new ArrayList<>(List.of(AuthResource.keyspace(ks),
                        AuthResource.allTables(ks), AuthResource.keyspaceFunctions(ks)));
                for (String t : droppedTables) {
                    gone.add(AuthResource.table(ks, t));
                }
                f = CompletableFuture.completedFuture(null);
                for (AuthResource r : gone) {
                    f = f.thenCompose(x -> auth.store().revokeAllOn(r));
                }
            } else if (target == io.charybdis.node.schema.SchemaChange.Target.TABLE) {
                f = auth.store().revokeAllOn(AuthResource.table(change.keyspace(), change.name()));
            } else {
                return CompletableFuture.completedFuture(null);
            }
            return f.thenRun(auth::invalidate);
        }
        return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<ResultMessage> alterRole(UserPermissions u, String role, boolean ifExists,
                                                       RoleOptions o) {
        boolean changesSuperuser = o.superuser() != null;
        if (changesSuperuser && u.roles().contains(role)) {
            throw new UnauthorizedException("You aren't allowed to alter your own superuser status or that of a role "
                    + "granted to you");
        }
        if (changesSuperuser && !u.superuser()) {
            throw new UnauthorizedException("Only superusers are allowed to alter superuser status");
        }
        if (o.datacenters() != null && !u.superuser()) {
            throw new UnauthorizedException("Only superusers are allowed to alter access to datacenters.");
        }
        if (o.cidrs() != null && !u.superuser()) {
            throw new UnauthorizedException("Only superusers are allowed to alter access from CIDR groups.");
        }
        if (!u.superuser()) {
            if (u.name().equals(role)) {
                String notAlterable = o.login() != null ? "LOGIN" : o.options() != null ? "OPTIONS" : null;
                if (notAlterable != null) {
                    throw new UnauthorizedException("You aren't allowed to alter " + notAlterable);
                }
            } else {
                checkRolePermission(u, Permission.ALTER, AuthResource.role(role));
            }
        }
        if (o.password() == null && o.hashedPassword() == null && o.login() == null
                && o.superuser() == null && o.options() == null && o.datacenters() == null && o.cidrs() == null) {
            throw new InvalidRequestException("ALTER [ROLE|USER] can't be empty");
        }
        validateOptions(o);
        validateDataCenters(o);
        return validateCidrs(o).thenCompose(v -> auth.store().exists(role)).thenCompose(exists -> {
            if (!exists) {
                if (ifExists) {
                    return done();
                }
                throw new InvalidRequestException("Role " + role + " doesn't exist");
            }
            CompletableFuture<Void> altered = hashOf(o).thenCompose(hash -> auth.store().alterRole(role,
                    o.superuser(), o.login(), hash));
            if (o.datacenters() != null) {
                // as Cassandra: the other options are applied, then the network authorizer refuses
                return altered.thenCompose(x -> {
                    auth.invalidate();
                    throw new InvalidRequestException("ACCESS TO DATACENTERS operations not supported by "
                            + "AllowAllNetworkAuthorizer");
                });
            }
            if (o.cidrs() != null) {
                altered = altered.thenCompose(x -> auth.store().setCidrGroups(role, cidrGroups(o)));
            }
            return altered.thenCompose(x -> changed());
        });
    }

    /** {@code ACCESS TO DATACENTERS}: every one named must be a data centre of the ring. */
    private void validateDataCenters(RoleOptions o) {
        if (o.datacenters() == null || o.datacenters().all()) {
            return;
        }
        Set<String> named = new java.util.LinkedHashSet<>(o.datacenters().names());
        if (!dataCenters.get().containsAll(named)) {
            throw new InvalidRequestException("Invalid value(s) for DATACENTERS '" + named + "',All values must be "
                    + "valid datacenters");
        }
    }

    /** {@code ACCESS FROM CIDRS}: every group named must be a row of {@code system_auth.cidr_groups}. */
    private CompletableFuture<Void> validateCidrs(RoleOptions o) {
        if (o.cidrs() == null || o.cidrs().all()) {
            return CompletableFuture.completedFuture(null);
        }
        return auth.store().cidrGroups().thenAccept(groups -> {
            List<String> invalid = new java.util.ArrayList<>(new java.util.LinkedHashSet<>(o.cidrs().names()));
            invalid.removeAll(groups);
            if (!invalid.isEmpty()) {
                throw new InvalidRequestException("Invalid CIDR group(s): " + invalid + ". Available CIDR Groups are: "
                        + groups);
            }
        });
    }

    /** The groups a role is given: none (every CIDR) unless {@code ACCESS FROM CIDRS} names some. */
    private static List<String> cidrGroups(RoleOptions o) {
        return o.cidrs() == null || o.cidrs().all() ? List.of()
                : List.copyOf(new java.util.LinkedHashSet<>(o.cidrs().names()));
    }

    // ---- identities (system_auth.identity_to_role, read by Cassandra's MutualTlsAuthenticator) ----------------

    /** ADD IDENTITY: Cassandra checks CREATE on the caller's own role (so CREATE on ALL ROLES, or superuser). */
    private CompletableFuture<ResultMessage> addIdentity(UserPermissions u, String identity, String role,
                                                         boolean ifNotExists) {
        checkRolePermission(u, Permission.CREATE, AuthResource.role(u.name()));
        RoleStore store = auth.store();
        return store.exists(role).thenCompose(exists -> {
            if (!exists) {
                throw new InvalidRequestException("Can not add identity for non-existent role '" + role + "'");
            }
            return identityExists(identity);
        }).thenCompose(exists -> {
            if (exists) {
                if (ifNotExists) {
                    return done();
                }
                throw new InvalidRequestException(identity + " already exists");
            }
            return store.addIdentity(identity, role).thenCompose(x -> done());
        });
    }

    /** DROP IDENTITY: Cassandra checks DROP on the caller's own role. */
    private CompletableFuture<ResultMessage> dropIdentity(UserPermissions u, String identity, boolean ifExists) {
        checkRolePermission(u, Permission.DROP, AuthResource.role(u.name()));
        return identityExists(identity).thenCompose(exists -> {
            if (!exists) {
                if (ifExists) {
                    return done();
                }
                throw new InvalidRequestException("identity '" + identity + "' doesn't exist");
            }
            return auth.store().dropIdentity(identity).thenCompose(x -> done());
        });
    }

    /** Whether the identity is mapped to a role; an empty one is refused by the read ("Key may not be empty"). */
    private CompletableFuture<Boolean> identityExists(String identity) {
        return auth.store().roleOfIdentity(identity).thenApply(r -> r != null);
    }

    private CompletableFuture<ResultMessage> dropRole(UserPermissions u, String role, boolean ifExists) {
        checkRolePermission(u, Permission.DROP, AuthResource.role(role));
        return auth.store().role(role).thenCompose(r -> {
            if (r != null && !u.superuser()) {
                return auth.rolesOf(role, true).thenCompose(granted -> {
                    // superuser status of the dropped role, through any role granted to it
                    return superuserAmong(granted).thenCompose(isSuper -> {
                        if (isSuper) {
                            throw new UnauthorizedException("Only superusers can drop a role with superuser status");
                        }
                        return dropChecked(u, role, r, ifExists);
                    });
                });
            }
            return dropChecked(u, role, r, ifExists);
        });
    }

    private CompletableFuture<Boolean> superuserAmong(Set<String> roles) {
        CompletableFuture<Boolean> f = CompletableFuture.completedFuture(false);
        for (String name : roles) {
            f = f.thenCompose(found -> found ? CompletableFuture.completedFuture(true)
                    : auth.store().role(name).thenApply(r -> r != null && r.superuser()));
        }
        return f;
    }

    private CompletableFuture<ResultMessage> dropChecked(UserPermissions u, String role, RoleStore.Role r,
                                                         boolean ifExists) {
        if (r == null) {
            if (ifExists) {
                return done();
            }
            throw new InvalidRequestException(role + " doesn't exist");
        }
        if (u.name().equals(role)) {
            throw new InvalidRequestException("Cannot DROP primary role for current login");
        }
        return auth.store().dropRole(r).thenCompose(x -> changed());
    }

    private CompletableFuture<ResultMessage> grantRole(UserPermissions u, String role, String grantee, boolean grant) {
        checkRolePermission(u, Permission.AUTHORIZE, AuthResource.role(role));
        RoleStore store = auth.store();
        return store.exists(role).thenCompose(roleExists -> {
            if (!roleExists) {
                throw new InvalidRequestException(role + " doesn't exist");
            }
            return store.exists(grantee);
        }).thenCompose(granteeExists -> {
            if (!granteeExists) {
                throw new InvalidRequestException(grantee + " doesn't exist");
            }
            if (!grant) {
                return auth.rolesOf(grantee, false).thenCompose(direct -> {
                    if (!direct.contains(role) || role.equals(grantee)) {
                        throw new InvalidRequestException(grantee + " is not a member of " + role);
                    }
                    return store.revokeRole(role, grantee);
                });
            }
            return auth.rolesOf(grantee, true).thenCompose(ofGrantee -> {
                if (ofGrantee.contains(role)) {
                    throw new InvalidRequestException(grantee + " is a member of " + role);
                }
                return auth.rolesOf(role, true);
            }).thenCompose(ofRole -> {
                if (ofRole.contains(grantee)) {
                    throw new InvalidRequestException(role + " is a member of " + grantee);
                }
                return store.grantRole(role, grantee);
            });
        }).thenCompose(x -> changed());
    }

    // ---- permissions --------------------------------------------------------------------------------------------

    /** The resource a statement names, checked as Cassandra checks it while preparing. */
    private AuthResource resource(Resource r, String keyspace, Set<Permission> permissions, boolean all) {
        AuthResource res = switch (r) {
            case Resource.AllKeyspaces a -> AuthResource.ALL_KEYSPACES;
            case Resource.Keyspace k -> AuthResource.keyspace(k.keyspace());
            case Resource.AllTablesInKeyspace k -> AuthResource.allTables(k.keyspace());
            case Resource.Table t -> {
                String ks = t.table().keyspace() != null ? t.table().keyspace() : keyspace;
                if (ks == null) {
                    throw new InvalidRequestException("No keyspace has been specified. USE a keyspace, or explicitly "
                            + "specify keyspace.tablename");
                }
                yield AuthResource.table(ks, t.table().name());
            }
            case Resource.AllRoles a -> AuthResource.ALL_ROLES;
            case Resource.Role role -> AuthResource.role(role.role());
            case Resource.AllFunctions a -> AuthResource.ALL_FUNCTIONS;
            case Resource.AllFunctionsInKeyspace k -> AuthResource.keyspaceFunctions(k.keyspace());
            case Resource.Function f -> throw new InvalidRequestException("Permissions on a single function need "
                    + "user-defined functions, which Charybdis does not have yet: " + f.function());
            case Resource.AllMBeans a -> AuthResource.ALL_MBEANS;
            case Resource.MBean m -> AuthResource.mbean(m.name());
        };
        if (!all) {
            Set<Permission> supported = EnumSet.copyOf(permissions);
            supported.retainAll(res.applicable());
            if (supported.isEmpty()) {
                throw new SyntaxException("Resource type " + res.typeName() + " does not support any of the "
                        + "requested permissions");
            }
        }
        return res;
    }

    private boolean exists(AuthResource r) {
        Schema s = schema.get();
        return switch (r.kind()) {
            case KEYSPACE, ALL_TABLES, KEYSPACE_FUNCTIONS -> s.keyspace(r.keyspace()) != null;
            case TABLE -> {
                KeyspaceMetadata ks = s.keyspace(r.keyspace());
                yield ks != null && ks.table(r.object()) != null;
            }
            default -> true;
        };
    }

    private CompletableFuture<Boolean> existsAsync(AuthResource r) {
        if (r.kind() == AuthResource.Kind.ROLE) {
            return auth.store().exists(r.object());
        }
        return CompletableFuture.completedFuture(exists(r));
    }

    private CompletableFuture<ResultMessage> grant(UserPermissions u, Set<Permission> requested, boolean all,
                                                   AuthResource resource, String grantee, boolean grant,
                                                   QueryContext ctx) {
        Set<Permission> perms = EnumSet.copyOf(requested);
        perms.retainAll(resource.applicable());
        ensure(u, Permission.AUTHORIZE, resource);
        for (Permission p : perms) {
            ensure(u, p, resource);
        }
        RoleStore store = auth.store();
        return store.exists(grantee).thenCompose(granteeExists -> {
            if (!granteeExists) {
                throw new InvalidRequestException("Role " + grantee + " doesn't exist");
            }
            return existsAsync(resource);
        }).thenCompose(resourceExists -> {
            if (!resourceExists) {
                throw new InvalidRequestException("Resource " + resource + " doesn't exist");
            }
            if (!auth.requiresAuthorization()) {
                // Cassandra's AllowAllAuthorizer answers a Server_error (UnsupportedOperationException) here
                throw new InvalidRequestException((grant ? "GRANT" : "REVOKE")
                        + " operation is not supported by AllowAllAuthorizer");
            }
            if (grant) {
                return store.grant(grantee, resource, perms);
            }
            return store.permissionsOf(grantee).thenCompose(held -> {
                Set<Permission> missing = EnumSet.noneOf(Permission.class);
                missing.addAll(perms);
                missing.removeAll(held.getOrDefault(resource.name(), Set.of()));
                if (!missing.isEmpty()) {
                    ctx.warn("Role '" + grantee + "' was not granted " + String.join(", ",
                            missing.stream().map(Enum::name).toList()) + " on " + resource);
                }
                return store.revoke(grantee, resource, perms);
            });
        }).thenCompose(x -> changed());
    }

    private record PermissionRow(String role, AuthResource resource, Permission permission) {
    }

    private CompletableFuture<ResultMessage> listPermissions(UserPermissions u, AuthStatement.ListPermissions l,
                                                             String keyspace, QueryContext ctx) {
        AuthResource resource = l.resource() == null ? null
                : resource(l.resource(), keyspace, l.permissions(), l.all());
        String of = l.of();
        CompletableFuture<Boolean> valid = resource == null ? CompletableFuture.completedFuture(true)
                : existsAsync(resource).thenApply(e -> {
                    if (!e) {
                        throw new InvalidRequestException(resource + " doesn't exist");
                    }
                    return true;
                });
        return valid.thenCompose(x -> of == null ? CompletableFuture.completedFuture(true)
                : auth.store().exists(of)).thenCompose(ofExists -> {
            if (!ofExists) {
                throw new InvalidRequestException("<role " + of + "> doesn't exist");
            }
            if (of == null) {
                if (!has(u, Permission.DESCRIBE, AuthResource.ALL_ROLES)) {
                    throw new UnauthorizedException("You are not authorized to view everyone's permissions");
                }
            } else if (!u.roles().contains(of) && !has(u, Permission.DESCRIBE, AuthResource.role(of))) {
                throw new UnauthorizedException("You are not authorized to view " + of + "'s permissions");
            }
            if (!auth.requiresAuthorization()) {
                throw new InvalidRequestException("LIST PERMISSIONS operation is not supported by AllowAllAuthorizer");
            }
            CompletableFuture<Set<String>> roles = of == null ? CompletableFuture.completedFuture(null)
                    : auth.rolesOf(of, l.recursive());
            return roles.thenCompose(roleSet -> grantsOf(roleSet).thenApply(grants -> {
                Set<AuthResource> chain = resource == null ? null
                        : new java.util.HashSet<>(l.recursive() ? resource.chain() : List.of(resource));
                List<PermissionRow> rows = new ArrayList<>();
                for (RoleStore.Grant g : grants) {
                    if (roleSet != null && !roleSet.contains(g.role())) {
                        continue;
                    }
                    AuthResource r = AuthResource.fromName(g.resource());
                    if (r == null || (chain != null && !chain.contains(r))) {
                        continue;
                    }
                    for (Permission p : g.permissions()) {
                        if (l.all() || l.permissions().contains(p)) {
                            rows.add(new PermissionRow(g.role(), r, p));
                        }
                    }
                }
                if (rows.isEmpty()) {
                    return ResultMessage.VOID;
                }
                rows.sort(Comparator.comparing(PermissionRow::role).thenComparing(p -> p.resource().name())
                        .thenComparing(PermissionRow::permission));
                RowsWriter w = new RowsWriter(ctx.alloc(), ctx.version());
                w.begin(ResultMetadata.of(List.of(col("role", NativeType.TEXT), col("username", NativeType.TEXT),
                        col("resource", NativeType.TEXT), col("permission", NativeType.TEXT))), false, null, null);
                for (PermissionRow r : rows) {
                    w.value(InternalQueries.text(r.role())).value(InternalQueries.text(r.role()))
                            .value(InternalQueries.text(r.resource().toString()))
                            .value(InternalQueries.text(r.permission().name()));
                }
                return new ResultMessage.Rows(w);
            }));
        });
    }

    private CompletableFuture<ResultMessage> listRoles(UserPermissions u, String of, boolean recursive,
                                                       boolean users, QueryContext ctx) {
        CompletableFuture<Set<String>> names;
        if (of != null) {
            names = auth.store().exists(of).thenCompose(exists -> {
                if (!exists) {
                    throw new InvalidRequestException("<role " + of + "> doesn't exist");
                }
                if (!u.roles().contains(of) && !has(u, Permission.DESCRIBE, AuthResource.ALL_ROLES)) {
                    throw new UnauthorizedException("You are not authorized to view roles granted to " + of + " ");
                }
                return auth.rolesOf(of, recursive);
            });
        } else if (has(u, Permission.DESCRIBE, AuthResource.ALL_ROLES)) {
            names = CompletableFuture.completedFuture(null);
        } else {
            names = auth.rolesOf(u.name(), true);
        }
        return names.thenCompose(only -> rolesNamed(only).thenApply(all -> {
            List<RoleStore.Role> rows = new ArrayList<>();
            for (RoleStore.Role r : all) {
                if ((only == null || only.contains(r.name())) && (!users || r.login())) {
                    rows.add(r);
                }
            }
            rows.sort(Comparator.comparing(RoleStore.Role::name));
            RowsWriter w = new RowsWriter(ctx.alloc(), ctx.version());
            if (users) {
                w.begin(ResultMetadata.of(List.of(col("name", NativeType.TEXT), col("super", NativeType.BOOLEAN),
                        col("datacenters", NativeType.TEXT))), false, null, null);
            } else {
                w.begin(ResultMetadata.of(List.of(col("role", NativeType.TEXT), col("super", NativeType.BOOLEAN),
                        col("login", NativeType.BOOLEAN), col("options", OPTIONS_TYPE),
                        col("datacenters", NativeType.TEXT))), false, null, null);
            }
            for (RoleStore.Role r : rows) {
                w.value(InternalQueries.text(r.name())).value(InternalQueries.bool(r.superuser()));
                if (!users) {
                    w.value(InternalQueries.bool(r.login())).value(ByteBuffer.wrap(new byte[4]));
                }
                w.value(InternalQueries.text("ALL"));
            }
            return (ResultMessage) new ResultMessage.Rows(w);
        }));
    }

    /** The grants of these roles (partition reads), or of every role (a scan of role_permissions) when null. */
    private CompletableFuture<List<RoleStore.Grant>> grantsOf(Set<String> roles) {
        if (roles == null) {
            return auth.store().allGrants();
        }
        List<RoleStore.Grant> out = new ArrayList<>();
        CompletableFuture<Void> f = CompletableFuture.completedFuture(null);
        for (String role : roles) {
            f = f.thenCompose(x -> auth.store().permissionsOf(role).thenAccept(p ->
                    p.forEach((resource, perms) -> out.add(new RoleStore.Grant(role, resource, perms)))));
        }
        return f.thenApply(x -> out);
    }

    /** These roles (partition reads), or every role (a scan of roles) when null. */
    private CompletableFuture<List<RoleStore.Role>> rolesNamed(Set<String> names) {
        if (names == null) {
            return auth.store().allRoles();
        }
        List<RoleStore.Role> out = new ArrayList<>();
        CompletableFuture<Void> f = CompletableFuture.completedFuture(null);
        for (String name : names) {
            f = f.thenCompose(x -> auth.store().role(name).thenAccept(r -> {
                if (r != null) {
                    out.add(r);
                }
            }));
        }
        return f.thenApply(x -> out);
    }

    private static ColumnSpec col(String name, DataType type) {
        return new ColumnSpec("system_auth", "roles", name, type);
    }

    private CompletableFuture<ResultMessage> changed() {
        auth.invalidate();
        return done();
    }

    private static CompletableFuture<ResultMessage> done() {
        return CompletableFuture.completedFuture(ResultMessage.VOID);
    }
}
