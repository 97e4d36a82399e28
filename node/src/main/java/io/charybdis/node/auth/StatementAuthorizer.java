package io.charybdis.node.auth;

import io.charybdis.node.cql.ClientState;
import io.charybdis.node.cql.exceptions.UnauthorizedException;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.node.cql.syntax.BatchStatement;
import io.charybdis.node.cql.syntax.DeleteStatement;
import io.charybdis.node.cql.syntax.InsertJsonStatement;
import io.charybdis.node.cql.syntax.InsertStatement;
import io.charybdis.node.cql.syntax.ModificationStatement;
import io.charybdis.node.cql.syntax.QualifiedName;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.node.cql.syntax.SelectStatement;
import io.charybdis.node.cql.syntax.Statement;
import io.charybdis.node.cql.syntax.TruncateStatement;
import io.charybdis.node.cql.syntax.UpdateStatement;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaConstants;
import io.charybdis.node.schema.TableMetadata;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The permission each statement needs (CassandraAuthorizer), checked against the logged-in role's cached
 * permissions before the statement runs: SELECT on the table read, MODIFY on the table written (and SELECT too for a
 * conditional write), CREATE on {@code <all keyspaces>} or {@code <all tables in ks>}, ALTER and DROP on what is
 * altered or dropped. Tables every authenticated client may read (system.local, system.peers, system.peers_v2,
 * system_schema.*, system_virtual_schema.*) need nothing, as in Cassandra. Roles and permissions statements check
 * their own needs ({@link AuthStatements}).
 *
 * <p>Only built when the authorizer is CassandraAuthorizer: with AllowAllAuthorizer the processor holds none and
 * does no per-request work for permissions.
 */
public final class StatementAuthorizer {
    /** One permission needed on one resource. */
    public record Need(Permission permission, AuthResource resource) {
    }

    private static final Set<String> READABLE_SYSTEM = Set.of("system.local", "system.peers", "system.peers_v2");

    private final AuthService auth;

    public StatementAuthorizer(AuthService auth) {
        this.auth = auth;
    }

    /**
     * Checks {@code s} for the client's role; null when nothing is to be checked, else a future that fails with
     * Unauthorized.
     */
    public CompletableFuture<Void> check(Statement s, String keyspace, ClientState client, Schema schema) {
        if (client.isInternal()) {
            return null;
        }
        List<Need> needs = needs(s, keyspace, schema);
        if (needs.isEmpty()) {
            return null;
        }
        if (client.user() == null) {
            return CompletableFuture.failedFuture(new UnauthorizedException("You have not logged in"));
        }
        CompletableFuture<UserPermissions> user = auth.user(client.user());
        UserPermissions now = user.getNow(null);
        if (now != null) {
            ensure(now, needs); // the usual path: cached, checked at once
            return null;
        }
        return user.thenAccept(u -> ensure(u != null ? u : nobody(client.user()), needs));
    }

    private static UserPermissions nobody(String name) {
        return new UserPermissions(name, false, false, null, Set.of(name), java.util.Map.of());
    }

    private static void ensure(UserPermissions u, List<Need> needs) {
        for (Need n : needs) {
            u.ensure(n.permission(), n.resource());
        }
    }

    /** What {@code s} needs; empty when nothing. */
    public static List<Need> needs(Statement s, String keyspace, Schema schema) {
        List<Need> out = new ArrayList<>(2);
        switch (s) {
            case SelectStatement sel -> {
                AuthResource t = table(sel.table(), keyspace);
                if (t != null && !readableByAll(t)) {
                    out.add(new Need(Permission.SELECT, t));
                }
            }
            case ModificationStatement m -> modification(m, keyspace, out);
            case BatchStatement b -> {
                for (ModificationStatement m : b.statements()) {
                    modification(m, keyspace, out);
                }
            }
            case TruncateStatement tr -> add(out, Permission.MODIFY, table(tr.table(), keyspace));
            case SchemaStatement ddl -> schema(ddl, keyspace, schema, out);
            default -> {
            }
        }
        return out;
    }

    private static void modification(ModificationStatement m, String keyspace, List<Need> out) {
        AuthResource t = table(m.table(), keyspace);
        add(out, Permission.MODIFY, t);
        boolean conditional = switch (m) {
            case InsertStatement i -> i.ifNotExists();
            case InsertJsonStatement i -> i.ifNotExists();
            case UpdateStatement u -> u.ifExists() || !u.conditions().isEmpty();
            case DeleteStatement d -> d.ifExists() || !d.conditions().isEmpty();
        };
        if (conditional) {
            add(out, Permission.SELECT, t);
        }
    }

    private static void schema(SchemaStatement ddl, String keyspace, Schema schema, List<Need> out) {
        switch (ddl) {
            case SchemaStatement.CreateKeyspace c -> out.add(new Need(Permission.CREATE, AuthResource.ALL_KEYSPACES));
            case SchemaStatement.AlterKeyspace a -> add(out, Permission.ALTER, AuthResource.keyspace(a.keyspace()));
            case SchemaStatement.DropKeyspace d -> add(out, Permission.DROP, AuthResource.keyspace(d.keyspace()));
            case SchemaStatement.CreateTable c -> add(out, Permission.CREATE, allTables(c.table(), keyspace));
            case SchemaStatement.AlterTable a -> add(out, Permission.ALTER, table(a.table(), keyspace));
            case SchemaStatement.DropTable d -> add(out, Permission.DROP, table(d.table(), keyspace));
            case SchemaStatement.CreateIndex c -> add(out, Permission.ALTER, table(c.table(), keyspace));
            case SchemaStatement.DropIndex d -> {
                String ks = d.index().keyspace() != null ? d.index().keyspace() : keyspace;
                KeyspaceMetadata k = ks == null ? null : schema.keyspace(ks);
                if (k != null) {
                    for (TableMetadata t : k.tables().values()) {
                        if (t.indexes().containsKey(d.index().name())) {
                            add(out, Permission.ALTER, AuthResource.table(ks, t.name()));
                        }
                    }
                }
            }
            case SchemaStatement.CreateType c -> add(out, Permission.CREATE, allTables(c.type(), keyspace));
            case SchemaStatement.AlterType a -> add(out, Permission.ALTER, allTables(a.type(), keyspace));
            case SchemaStatement.DropType d -> add(out, Permission.DROP, allTables(d.type(), keyspace));
            default -> {
                // views, functions, aggregates, triggers: CREATE of a view, function or trigger is refused as not
                // built; no view or UDF can exist, so DROP/ALTER of one needs no permission (as in Cassandra, which
                // checks the permissions on an existing one only). Not checked yet: CREATE AGGREGATE's CREATE on the
                // keyspace's functions (it always fails, its state function not existing)
            }
        }
    }

    /**
     * Cassandra's guard on the schema of system keyspaces, whatever the authorizer: the local ones are not
     * user-modifiable at all, the replicated ones (system_auth, system_distributed, system_traces) only have their
     * replication altered.
     */
    public static void preventSystemSchemaChange(SchemaStatement ddl, String keyspace) {
        Need n = switch (ddl) {
            case SchemaStatement.AlterKeyspace a -> null;
            case SchemaStatement.DropKeyspace d -> new Need(Permission.DROP, AuthResource.keyspace(d.keyspace()));
            case SchemaStatement.CreateTable c -> new Need(Permission.CREATE, allTables(c.table(), keyspace));
            case SchemaStatement.AlterTable a -> new Need(Permission.ALTER, table(a.table(), keyspace));
            case SchemaStatement.DropTable d -> new Need(Permission.DROP, table(d.table(), keyspace));
            case SchemaStatement.CreateIndex c -> new Need(Permission.ALTER, table(c.table(), keyspace));
            case SchemaStatement.CreateType c -> new Need(Permission.CREATE, allTables(c.type(), keyspace));
            case SchemaStatement.AlterType a -> new Need(Permission.ALTER, allTables(a.type(), keyspace));
            case SchemaStatement.DropType d -> new Need(Permission.DROP, allTables(d.type(), keyspace));
            default -> null;
        };
        if (n == null || n.resource() == null) {
            return;
        }
        String ks = n.resource().keyspace();
        if (SchemaConstants.SYSTEM_AUTH.equals(ks) || SchemaConstants.SYSTEM_DISTRIBUTED.equals(ks)
                || SchemaConstants.SYSTEM_TRACES.equals(ks)) {
            throw new UnauthorizedException("Cannot " + n.permission() + " " + n.resource());
        }
    }

    private static boolean readableByAll(AuthResource t) {
        String ks = t.keyspace();
        return SchemaConstants.SYSTEM_SCHEMA.equals(ks) || SchemaConstants.SYSTEM_VIRTUAL_SCHEMA.equals(ks)
                || READABLE_SYSTEM.contains(ks + "." + t.object());
    }

    private static void add(List<Need> out, Permission p, AuthResource r) {
        if (r != null) {
            out.add(new Need(p, r));
        }
    }

    private static AuthResource table(QualifiedName name, String keyspace) {
        String ks = name.keyspace() != null ? name.keyspace() : keyspace;
        return ks == null ? null : AuthResource.table(ks, name.name());
    }

    private static AuthResource allTables(QualifiedName name, String keyspace) {
        String ks = name.keyspace() != null ? name.keyspace() : keyspace;
        return ks == null ? null : AuthResource.allTables(ks);
    }
}
