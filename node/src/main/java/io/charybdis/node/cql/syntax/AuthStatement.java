package io.charybdis.node.cql.syntax;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Roles, users, permissions and identities. Role names are lower-cased unless quoted or given as a string
 * literal; user names (CREATE/ALTER/DROP USER) keep their case, as in Cassandra.
 */
public sealed interface AuthStatement extends Statement {

    enum Permission { CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE, EXECUTE, UNMASK, SELECT_MASKED }

    /** {@code ACCESS TO ALL DATACENTERS} ({@code all}) or {@code ACCESS TO DATACENTERS {'dc1', ...}}; same for CIDRS. */
    record Access(boolean all, List<String> names) {
        public Access {
            names = List.copyOf(names);
        }
    }

    /** Options of CREATE/ALTER ROLE and USER; each is null when not given. */
    record RoleOptions(
            String password,
            String hashedPassword,
            Boolean login,
            Boolean superuser,
            Map<String, String> options,
            Access datacenters,
            Access cidrs) {
        public static final RoleOptions NONE = new RoleOptions(null, null, null, null, null, null, null);
    }

    /** A resource of GRANT / REVOKE / LIST PERMISSIONS. */
    sealed interface Resource {
        record AllKeyspaces() implements Resource {
        }

        record Keyspace(String keyspace) implements Resource {
        }

        record Table(QualifiedName table) implements Resource {
        }

        record AllTablesInKeyspace(String keyspace) implements Resource {
        }

        record AllRoles() implements Resource {
        }

        record Role(String role) implements Resource {
        }

        record AllFunctions() implements Resource {
        }

        record AllFunctionsInKeyspace(String keyspace) implements Resource {
        }

        record Function(QualifiedName function, List<CqlTypeSyntax> argumentTypes) implements Resource {
            public Function {
                argumentTypes = List.copyOf(argumentTypes);
            }
        }

        record AllMBeans() implements Resource {
        }

        /** {@code MBEAN 'name'} ({@code pattern} false) or {@code MBEANS 'pattern'} ({@code pattern} true). */
        record MBean(String name, boolean pattern) implements Resource {
        }
    }

    record CreateRole(String role, boolean ifNotExists, RoleOptions options) implements AuthStatement {
    }

    record AlterRole(String role, boolean ifExists, RoleOptions options) implements AuthStatement {
    }

    record DropRole(String role, boolean ifExists) implements AuthStatement {
    }

    /** {@code LIST ROLES [OF role] [NORECURSIVE]}; {@code of} null when absent. */
    record ListRoles(String of, boolean recursive) implements AuthStatement {
    }

    /** {@code CREATE USER}; {@code options.superuser()} is non-null (false by default), login is implied. */
    record CreateUser(String user, boolean ifNotExists, RoleOptions options) implements AuthStatement {
    }

    record AlterUser(String user, boolean ifExists, RoleOptions options) implements AuthStatement {
    }

    record DropUser(String user, boolean ifExists) implements AuthStatement {
    }

    record ListUsers() implements AuthStatement {
    }

    /** {@code permissions} holds every permission when {@code all} ({@code GRANT ALL [PERMISSIONS]}). */
    record GrantPermissions(Set<Permission> permissions, boolean all, Resource resource, String grantee)
            implements AuthStatement {
        public GrantPermissions {
            permissions = Set.copyOf(permissions);
        }
    }

    record RevokePermissions(Set<Permission> permissions, boolean all, Resource resource, String revokee)
            implements AuthStatement {
        public RevokePermissions {
            permissions = Set.copyOf(permissions);
        }
    }

    /** {@code LIST perms [ON resource] [OF role] [NORECURSIVE]}; {@code resource}, {@code of} null when absent. */
    record ListPermissions(Set<Permission> permissions, boolean all, Resource resource, String of, boolean recursive)
            implements AuthStatement {
        public ListPermissions {
            permissions = Set.copyOf(permissions);
        }
    }

    record GrantRole(String role, String grantee) implements AuthStatement {
    }

    record RevokeRole(String role, String revokee) implements AuthStatement {
    }

    record AddIdentity(String identity, String role, boolean ifNotExists) implements AuthStatement {
    }

    record DropIdentity(String identity, boolean ifExists) implements AuthStatement {
    }
}
