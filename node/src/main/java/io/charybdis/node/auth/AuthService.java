package io.charybdis.node.auth;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.charybdis.node.cql.exceptions.AuthenticationException;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import org.mindrot.jbcrypt.BCrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Authentication and authorization as Cassandra's PasswordAuthenticator, CassandraRoleManager and
 * CassandraAuthorizer do them, over {@link RoleStore}.
 *
 * <p>Implementation notes: logged-in roles are looked up through a cache of {@link UserPermissions} that expire
 * {@code permissions_validity} after loading (Cassandra's roles, permissions and credentials caches in one; the
 * smallest of the three validities applies), and every change made through this node invalidates it at once, so
 * a GRANT is seen by this node's next statement; other nodes see it when their entries expire, as in Cassandra.
 * bcrypt (2^10 rounds, as Cassandra) costs tens of milliseconds of CPU: it runs on a small pool of its own, never on
 * a shard thread. Loading runs asynchronously through the coordinator.
 */
public final class AuthService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AuthService.class);
    public static final String DEFAULT_SUPERUSER = "cassandra";
    public static final int BCRYPT_LOG2_ROUNDS = 10;

    private final boolean passwords;
    private final boolean authorization;
    private final RoleStore store;
    private final Duration validity;
    private final long maxEntries;
    /** Made on first use: a node without logins or permissions never looks a role up (and a cold start skips it). */
    private volatile AsyncLoadingCache<String, UserPermissions> cache;
    private final ExecutorService hashing;

    public AuthService(boolean passwords, boolean authorization, RoleStore store, Duration validity,
                       long maxEntries) {
        this.passwords = passwords;
        this.authorization = authorization;
        this.store = store;
        this.hashing = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "charybdis-auth-hash");
            t.setDaemon(true);
            return t;
        });
        this.validity = validity;
        this.maxEntries = maxEntries;
    }

    private AsyncLoadingCache<String, UserPermissions> cache() {
        AsyncLoadingCache<String, UserPermissions> c = cache;
        if (c == null) {
            synchronized (this) {
                c = cache;
                if (c == null) {
                    c = Caffeine.newBuilder()
                            .expireAfterWrite(validity.isNegative() ? Duration.ZERO : validity)
                            .maximumSize(Math.max(1, maxEntries))
                            .buildAsync((name, executor) -> load(name));
                    cache = c;
                }
            }
        }
        return c;
    }

    public boolean requiresLogin() {
        return passwords;
    }

    /** Whether statements are checked against granted permissions (CassandraAuthorizer). */
    public boolean requiresAuthorization() {
        return authorization;
    }

    public RoleStore store() {
        return store;
    }

    /** The cached permissions of a role; completes with null when it does not exist. */
    public CompletableFuture<UserPermissions> user(String name) {
        return cache().get(name);
    }

    /** How many roles the cache holds (an estimate). */
    public long cachedRoles() {
        return cache.synchronous().estimatedSize();
    }

    /** How long a role's roles and permissions stay cached. */
    public Duration validity() {
        return cache.synchronous().policy().expireAfterWrite().map(e -> e.getExpiresAfter())
                .orElse(Duration.ZERO);
    }

    /** Changes {@link #validity()} for the entries written from now on (nodetool setauthcacheconfig). */
    public void setValidity(Duration validity) {
        cache.synchronous().policy().expireAfterWrite().ifPresent(e -> e.setExpiresAfter(validity));
    }

    public long maxEntries() {
        return cache.synchronous().policy().eviction().map(e -> e.getMaximum()).orElse(0L);
    }

    public void setMaxEntries(long max) {
        cache.synchronous().policy().eviction().ifPresent(e -> e.setMaximum(Math.max(1, max)));
    }

    /** Forgets every cached role: called after any change to roles, memberships or permissions. */
    public void invalidate() {
        AsyncLoadingCache<String, UserPermissions> c = cache;
        if (c != null) { // nothing was looked up yet: nothing to forget
            c.synchronous().invalidateAll();
        }
    }

    private CompletableFuture<UserPermissions> load(String name) {
        return store.role(name).thenCompose(self -> {
            if (self == null) {
                return CompletableFuture.completedFuture(null);
            }
            Map<String, RoleStore.Role> seen = new HashMap<>();
            seen.put(name, self);
            return expand(seen, new ArrayDeque<>(self.memberOf())).thenCompose(all -> {
                Map<AuthResource, Set<Permission>> perms = new HashMap<>();
                CompletableFuture<Void> f = CompletableFuture.completedFuture(null);
                if (authorization) {
                    for (String role : all.keySet()) {
                        f = f.thenCompose(x -> store.permissionsOf(role).thenAccept(p -> p.forEach((res, set) -> {
                            AuthResource r = AuthResource.fromName(res);
                            if (r != null) {
                                perms.computeIfAbsent(r, k -> EnumSet.noneOf(Permission.class)).addAll(set);
                            }
                        })));
                    }
                }
                boolean superuser = all.values().stream().anyMatch(RoleStore.Role::superuser);
                return f.thenApply(x -> new UserPermissions(name, superuser, self.login(), self.saltedHash(),
                        Set.copyOf(all.keySet()), Map.copyOf(perms)));
            });
        });
    }

    /** Follows member_of until every role granted, directly or not, is in {@code seen}. */
    private CompletableFuture<Map<String, RoleStore.Role>> expand(Map<String, RoleStore.Role> seen,
                                                                  Deque<String> todo) {
        String next = todo.poll();
        if (next == null) {
            return CompletableFuture.completedFuture(seen);
        }
        if (seen.containsKey(next)) {
            return expand(seen, todo);
        }
        return store.role(next).thenCompose(r -> {
            if (r != null) {
                seen.put(next, r);
                todo.addAll(r.memberOf());
            }
            return expand(seen, todo);
        });
    }

    /** Every role granted to {@code role}, itself included (recursive) or only directly. */
    public CompletableFuture<Set<String>> rolesOf(String role, boolean recursive) {
        return store.role(role).thenCompose(self -> {
            if (self == null) {
                return CompletableFuture.completedFuture(Set.of());
            }
            if (!recursive) {
                Set<String> out = new LinkedHashSet<>();
                out.add(role);
                out.addAll(self.memberOf());
                return CompletableFuture.completedFuture(out);
            }
            Map<String, RoleStore.Role> seen = new HashMap<>();
            seen.put(role, self);
            return expand(seen, new ArrayDeque<>(self.memberOf())).thenApply(m -> Set.copyOf(m.keySet()));
        });
    }

    // ---- authentication -----------------------------------------------------------------------------------------

    /**
     * SASL PLAIN ({@code [authzid]\0user\0password}): completes with the role logged in, or fails with
     * AuthenticationException and Cassandra's message.
     */
    public CompletableFuture<String> authenticate(byte[] token) {
        String[] parts = parsePlain(token);
        if (parts == null) {
            return CompletableFuture.failedFuture(new AuthenticationException("Password must not be null"));
        }
        String user = parts[0];
        String password = parts[1];
        return store.role(user).thenApplyAsync(role -> {
            if (role == null || role.saltedHash() == null || !checkpw(password, role.saltedHash())) {
                throw new AuthenticationException("Provided username " + user + " and/or password are incorrect");
            }
            if (!role.login()) {
                throw new AuthenticationException(user + " is not permitted to log in");
            }
            return user;
        }, hashing);
    }

    private static boolean checkpw(String password, String hash) {
        try {
            return BCrypt.checkpw(password, hash);
        } catch (IllegalArgumentException e) {
            return false; // not a bcrypt hash
        }
    }

    public static String hash(String password) {
        return BCrypt.hashpw(password, BCrypt.gensalt(BCRYPT_LOG2_ROUNDS));
    }

    /** Hashes on the hashing pool (bcrypt is slow by design). */
    public CompletableFuture<String> hashAsync(String password) {
        return CompletableFuture.supplyAsync(() -> hash(password), hashing);
    }

    private static final java.util.regex.Pattern BCRYPT_HASH =
            java.util.regex.Pattern.compile("\\$2a?\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

    /**
     * Whether {@code hash} is a bcrypt hash jBCrypt can check (HASHED PASSWORD), by its form: checking a password
     * against it would cost a bcrypt round on the caller's (shard) thread.
     */
    public static boolean isBcrypt(String hash) {
        return BCRYPT_HASH.matcher(hash).matches();
    }

    static String[] parsePlain(byte[] token) {
        if (token == null) {
            return null;
        }
        int second = -1;
        int first = -1;
        for (int i = token.length - 1; i >= 0; i--) {
            if (token[i] == 0) {
                if (second < 0) {
                    second = i;
                } else {
                    first = i;
                    break;
                }
            }
        }
        if (second < 0) {
            return null;
        }
        String user = new String(token, first + 1, second - first - 1, StandardCharsets.UTF_8);
        String pass = new String(token, second + 1, token.length - second - 1, StandardCharsets.UTF_8);
        return new String[]{user, pass};
    }

    /**
     * Cassandra's default superuser: when no role exists yet, cassandra/cassandra is created, superuser and login,
     * written at timestamp 0 so that any later change made to it (ALTER, DROP) wins over a node that creates it again.
     */
    public CompletableFuture<Void> setupDefaultSuperuser() {
        return store.role(DEFAULT_SUPERUSER).thenCompose(existing -> {
            if (existing != null) {
                return CompletableFuture.completedFuture(null);
            }
            return store.allRoles().exceptionally(e -> List.of()).thenCompose(all -> {
                if (!all.isEmpty()) {
                    return CompletableFuture.completedFuture(null);
                }
                return hashAsync(DEFAULT_SUPERUSER).thenCompose(h -> store.createRole(DEFAULT_SUPERUSER, true, true,
                        h, 0L)).thenRun(() -> log.info("Created default superuser role '{}'", DEFAULT_SUPERUSER));
            });
        });
    }

    public boolean isClosed() {
        return hashing.isShutdown();
    }

    @Override
    public void close() {
        hashing.shutdownNow();
        try {
            hashing.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
