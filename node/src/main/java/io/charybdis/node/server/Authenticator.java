package io.charybdis.node.server;

import io.charybdis.node.auth.AuthService;
import io.charybdis.node.cql.exceptions.AuthenticationException;

import java.util.concurrent.CompletableFuture;

/**
 * The configured authenticator as the native protocol sees it. {@code AllowAllAuthenticator} logs everyone in as
 * the anonymous user; {@code PasswordAuthenticator} asks for SASL PLAIN credentials and checks them against the roles
 * in system_auth ({@link AuthService}), answering Cassandra's messages.
 */
public final class Authenticator {
    public static final String ALLOW_ALL = "org.apache.cassandra.auth.AllowAllAuthenticator";
    public static final String PASSWORD = "org.apache.cassandra.auth.PasswordAuthenticator";

    private final AuthService auth;

    private Authenticator(AuthService auth) {
        this.auth = auth;
    }

    public static Authenticator allowAll() {
        return new Authenticator(null);
    }

    public static Authenticator passwords(AuthService auth) {
        return new Authenticator(auth);
    }

    public boolean requiresLogin() {
        return auth != null;
    }

    /** The class name sent in AUTHENTICATE (some drivers accept only Cassandra's). */
    public String className() {
        return auth != null ? PASSWORD : ALLOW_ALL;
    }

    /** Completes with the role logged in, or fails with an {@link AuthenticationException}. */
    public CompletableFuture<String> authenticate(byte[] token) {
        if (auth == null) {
            return CompletableFuture.completedFuture("anonymous");
        }
        return auth.authenticate(token);
    }
}
