package io.charybdis.node.config;

/**
 * {@code authenticator}: accepts Cassandra's class names, short ({@code PasswordAuthenticator}) or qualified
 * ({@code org.apache.cassandra.auth.PasswordAuthenticator}).
 */
public enum AuthenticatorType {
    /** No credentials asked (Cassandra's default). */
    ALLOW_ALL("AllowAllAuthenticator"),
    /** SASL PLAIN user name and password checked against {@code system_auth.roles}; superuser cassandra/cassandra. */
    PASSWORD("PasswordAuthenticator");

    private final String className;

    AuthenticatorType(String className) {
        this.className = className;
    }

    /** The short Cassandra class name, as configured and as reported in AUTHENTICATE messages' prefix-less form. */
    public String className() {
        return className;
    }

    /** The fully qualified Cassandra class name, e.g. the one sent in the AUTHENTICATE message. */
    public String qualifiedClassName() {
        return ConfigNames.CASSANDRA_AUTH_PACKAGE + className;
    }

    public static AuthenticatorType parse(String text) {
        String shortName = ConfigNames.stripPackage(text.trim(), ConfigNames.CASSANDRA_AUTH_PACKAGE);
        for (AuthenticatorType t : values()) {
            if (t.className.equalsIgnoreCase(shortName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unsupported authenticator '" + text
                + "'; expected AllowAllAuthenticator or PasswordAuthenticator");
    }
}
