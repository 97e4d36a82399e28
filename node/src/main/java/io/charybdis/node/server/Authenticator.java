package io.charybdis.node.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * The configured authenticator. {@code AllowAllAuthenticator} logs everyone in; {@code PasswordAuthenticator}
 * takes SASL PLAIN tokens ({@code \0user\0password}) and knows the default superuser cassandra/cassandra.
 */
public final class Authenticator {
    public static final String ALLOW_ALL = "org.apache.cassandra.auth.AllowAllAuthenticator";
    public static final String PASSWORD = "org.apache.cassandra.auth.PasswordAuthenticator";

    private final boolean password;
    private final Map<String, String> users;

    public Authenticator(boolean password, Map<String, String> users) {
        this.password = password;
        this.users = Map.copyOf(users);
    }

    public static Authenticator allowAll() {
        return new Authenticator(false, Map.of());
    }

    public static Authenticator passwords() {
        return new Authenticator(true, Map.of("cassandra", "cassandra"));
    }

    public boolean requiresLogin() {
        return password;
    }

    public String className() {
        return password ? PASSWORD : ALLOW_ALL;
    }

    /** The authenticated role, or null for bad credentials. */
    public String authenticate(byte[] token) {
        String[] parts = parse(token);
        if (parts == null) {
            return null;
        }
        String expected = users.get(parts[0]);
        if (expected == null) {
            return null;
        }
        boolean ok = MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                parts[1].getBytes(StandardCharsets.UTF_8));
        return ok ? parts[0] : null;
    }

    public String userOf(byte[] token) {
        String[] parts = parse(token);
        return parts == null ? "" : parts[0];
    }

    private static String[] parse(byte[] token) {
        if (token == null) {
            return null;
        }
        int first = -1;
        int second = -1;
        for (int i = 0; i < token.length; i++) {
            if (token[i] == 0) {
                if (first < 0) {
                    first = i;
                } else if (second < 0) {
                    second = i;
                }
            }
        }
        if (first < 0 || second < 0) {
            return null;
        }
        String user = new String(token, first + 1, second - first - 1, StandardCharsets.UTF_8);
        String pass = new String(token, second + 1, token.length - second - 1, StandardCharsets.UTF_8);
        return new String[]{user, pass};
    }
}
