package io.charybdis.node.auth;

import io.charybdis.node.cql.syntax.AuthStatement.Permission;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A resource permissions are granted on, as Cassandra names it: {@code name} is the form kept in
 * {@code system_auth.role_permissions.resource} ({@code data/ks/table}, {@code roles/r}, {@code functions/ks/f[args]},
 * {@code mbean/name}), {@link #toString()} the form messages and LIST PERMISSIONS show ({@code <table ks.table>}).
 *
 * <p>Resources form chains: a table's parent is its keyspace, whose parent is {@code <all keyspaces>}; a permission
 * held on any resource of the chain applies to the resources below it. Each kind takes only some permissions
 * ({@link #applicable()}), Cassandra's sets.
 */
public record AuthResource(Kind kind, String keyspace, String object, String display) {

    public enum Kind { ALL_KEYSPACES, KEYSPACE, ALL_TABLES, TABLE, ALL_ROLES, ROLE, ALL_FUNCTIONS, KEYSPACE_FUNCTIONS,
        FUNCTION, ALL_MBEANS, MBEAN }

    private static final Set<Permission> DATA = EnumSet.of(Permission.CREATE, Permission.ALTER, Permission.DROP,
            Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE, Permission.UNMASK, Permission.SELECT_MASKED);
    private static final Set<Permission> TABLE_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE, Permission.UNMASK, Permission.SELECT_MASKED);
    private static final Set<Permission> ROLES_ROOT = EnumSet.of(Permission.CREATE, Permission.ALTER,
            Permission.DROP, Permission.AUTHORIZE, Permission.DESCRIBE);
    private static final Set<Permission> ROLE_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.AUTHORIZE, Permission.DESCRIBE);
    private static final Set<Permission> FUNCTIONS_ROOT = EnumSet.of(Permission.CREATE, Permission.ALTER,
            Permission.DROP, Permission.AUTHORIZE, Permission.EXECUTE);
    private static final Set<Permission> FUNCTION_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.AUTHORIZE, Permission.EXECUTE);
    private static final Set<Permission> MBEANS = EnumSet.of(Permission.AUTHORIZE, Permission.DESCRIBE,
            Permission.EXECUTE, Permission.MODIFY, Permission.SELECT);

    public static final AuthResource ALL_KEYSPACES = new AuthResource(Kind.ALL_KEYSPACES, null, null, null);
    public static final AuthResource ALL_ROLES = new AuthResource(Kind.ALL_ROLES, null, null, null);
    public static final AuthResource ALL_FUNCTIONS = new AuthResource(Kind.ALL_FUNCTIONS, null, null, null);
    public static final AuthResource ALL_MBEANS = new AuthResource(Kind.ALL_MBEANS, null, null, null);

    public static AuthResource keyspace(String ks) {
        return new AuthResource(Kind.KEYSPACE, ks, null, null);
    }

    public static AuthResource allTables(String ks) {
        return new AuthResource(Kind.ALL_TABLES, ks, null, null);
    }

    public static AuthResource table(String ks, String table) {
        return new AuthResource(Kind.TABLE, ks, table, null);
    }

    public static AuthResource role(String role) {
        return new AuthResource(Kind.ROLE, null, role, null);
    }

    public static AuthResource keyspaceFunctions(String ks) {
        return new AuthResource(Kind.KEYSPACE_FUNCTIONS, ks, null, null);
    }

    /**
     * A function: {@code object} is the name with its argument types as stored ({@code f[int^text]}... kept
     * verbatim), {@code display} the form shown ({@code f(int, text)}).
     */
    public static AuthResource function(String ks, String name, List<String> argTypes) {
        return new AuthResource(Kind.FUNCTION, ks, name + "[" + String.join("^", argTypes) + "]",
                name + "(" + String.join(", ", argTypes) + ")");
    }

    public static AuthResource mbean(String name) {
        return new AuthResource(Kind.MBEAN, null, name, null);
    }

    /** The name kept in system_auth. */
    public String name() {
        return switch (kind) {
            case ALL_KEYSPACES -> "data";
            case KEYSPACE -> "data/" + keyspace;
            case ALL_TABLES -> "data/" + keyspace + "/*";
            case TABLE -> "data/" + keyspace + "/" + object;
            case ALL_ROLES -> "roles";
            case ROLE -> "roles/" + object;
            case ALL_FUNCTIONS -> "functions";
            case KEYSPACE_FUNCTIONS -> "functions/" + keyspace;
            case FUNCTION -> "functions/" + keyspace + "/" + object;
            case ALL_MBEANS -> "mbean";
            case MBEAN -> "mbean/" + object;
        };
    }

    /** The resource a stored name denotes, or null for a name of no known kind. */
    public static AuthResource fromName(String name) {
        String[] p = name.split("/", 3);
        switch (p[0]) {
            case "data" -> {
                if (p.length == 1) {
                    return ALL_KEYSPACES;
                }
                if (p.length == 2) {
                    return keyspace(p[1]);
                }
                return p[2].equals("*") ? allTables(p[1]) : table(p[1], p[2]);
            }
            case "roles" -> {
                return p.length == 1 ? ALL_ROLES : role(name.substring("roles/".length()));
            }
            case "functions" -> {
                if (p.length == 1) {
                    return ALL_FUNCTIONS;
                }
                if (p.length == 2) {
                    return keyspaceFunctions(p[1]);
                }
                String fn = p[2];
                int open = fn.indexOf('[');
                String args = open < 0 ? "" : fn.substring(open + 1, fn.length() - 1);
                List<String> types = args.isEmpty() ? List.of() : List.of(args.split("\\^"));
                return function(p[1], open < 0 ? fn : fn.substring(0, open), types);
            }
            case "mbean" -> {
                return p.length == 1 ? ALL_MBEANS : mbean(name.substring("mbean/".length()));
            }
            default -> {
                return null;
            }
        }
    }

    /** The resource this one inherits permissions from, or null at the top of a chain. */
    public AuthResource parent() {
        return switch (kind) {
            case KEYSPACE -> ALL_KEYSPACES;
            case ALL_TABLES, TABLE -> keyspace(keyspace);
            case ROLE -> ALL_ROLES;
            case KEYSPACE_FUNCTIONS -> ALL_FUNCTIONS;
            case FUNCTION -> keyspaceFunctions(keyspace);
            case MBEAN -> ALL_MBEANS;
            default -> null;
        };
    }

    /** This resource, then its parent, up to the top of its chain. */
    public List<AuthResource> chain() {
        List<AuthResource> out = new ArrayList<>(4);
        for (AuthResource r = this; r != null; r = r.parent()) {
            out.add(r);
        }
        return out;
    }

    /** The permissions this kind of resource takes. */
    public Set<Permission> applicable() {
        return switch (kind) {
            case ALL_KEYSPACES, KEYSPACE, ALL_TABLES -> DATA;
            case TABLE -> TABLE_LEVEL;
            case ALL_ROLES -> ROLES_ROOT;
            case ROLE -> ROLE_LEVEL;
            case ALL_FUNCTIONS, KEYSPACE_FUNCTIONS -> FUNCTIONS_ROOT;
            case FUNCTION -> FUNCTION_LEVEL;
            case ALL_MBEANS, MBEAN -> MBEANS;
        };
    }

    /** Cassandra's class name of this kind, for "Resource type X does not support ..." messages. */
    public String typeName() {
        return switch (kind) {
            case ALL_KEYSPACES, KEYSPACE, ALL_TABLES, TABLE -> "DataResource";
            case ALL_ROLES, ROLE -> "RoleResource";
            case ALL_FUNCTIONS, KEYSPACE_FUNCTIONS, FUNCTION -> "FunctionResource";
            case ALL_MBEANS, MBEAN -> "JMXResource";
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ALL_KEYSPACES -> "<all keyspaces>";
            case KEYSPACE -> "<keyspace " + keyspace + ">";
            case ALL_TABLES -> "<all tables in " + keyspace + ">";
            case TABLE -> "<table " + keyspace + "." + object + ">";
            case ALL_ROLES -> "<all roles>";
            case ROLE -> "<role " + object + ">";
            case ALL_FUNCTIONS -> "<all functions>";
            case KEYSPACE_FUNCTIONS -> "<all functions in " + keyspace + ">";
            case FUNCTION -> "<function " + keyspace + "." + display + ">";
            case ALL_MBEANS -> "<all mbeans>";
            case MBEAN -> "<mbean " + object + ">";
        };
    }
}
