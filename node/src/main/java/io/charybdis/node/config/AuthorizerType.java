package io.charybdis.node.config;

/**
 * {@code authorizer}: accepts Cassandra's class names, short ({@code CassandraAuthorizer}) or qualified
 * ({@code org.apache.cassandra.auth.CassandraAuthorizer}).
 */
public enum AuthorizerType {
    /** Every authenticated user may do everything (Cassandra's default). */
    ALLOW_ALL("AllowAllAuthorizer"),
    /** Cassandra's permission checks (GRANT / REVOKE): recognized so that startup can refuse it by name. */
    CASSANDRA("CassandraAuthorizer");

    private final String className;

    AuthorizerType(String className) {
        this.className = className;
    }

    public String className() {
        return className;
    }

    public String qualifiedClassName() {
        return ConfigNames.CASSANDRA_AUTH_PACKAGE + className;
    }

    public static AuthorizerType parse(String text) {
        String shortName = ConfigNames.stripPackage(text.trim(), ConfigNames.CASSANDRA_AUTH_PACKAGE);
        for (AuthorizerType t : values()) {
            if (t.className.equalsIgnoreCase(shortName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unsupported authorizer '" + text
                + "'; expected AllowAllAuthorizer or CassandraAuthorizer");
    }
}
