package io.charybdis.node.jmx;

import io.charybdis.node.auth.AuthResource;
import io.charybdis.node.auth.AuthService;
import io.charybdis.node.auth.UserPermissions;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXPrincipal;
import javax.management.remote.MBeanServerForwarder;
import javax.security.auth.Subject;

/**
 * JMX against the roles, as Cassandra 5.0 offers it with {@code cassandra.jmx.remote.login.config=CassandraLogin}
 * (its {@code CassandraLoginModule}: a JMX user is a role that can log in, checked with its password) and
 * {@code cassandra.jmx.authorizer=org.apache.cassandra.auth.jmx.AuthorizationProxy} (what a JMX user may do is the
 * role's permissions on MBean resources: {@code GRANT SELECT ON MBEAN '...'}, {@code ON ALL MBEANS}, or a pattern
 * {@code ON MBEANS 'org.apache.cassandra.db:type=*'}).
 *
 * <p>Authorization follows AuthorizationProxy: superusers may do everything but the restricted methods (creating,
 * registering or unregistering MBeans, class loaders, deserialization), which nobody may call remotely; for others,
 * reading attributes needs SELECT, writing them MODIFY, invoking operations EXECUTE, and describing MBeans (their
 * info, instance checks, queries of names) DESCRIBE, held on ALL MBEANS, on the MBean or on a pattern matching it; a
 * query whose target is a pattern needs the permission on every MBean it matches; a call with no MBean as target
 * needs the permission on ALL MBEANS.
 *
 * <p>Logins and permission reads block the JMX (RMI) thread that asks, never a shard: the role store's futures
 * complete on shard threads.
 */
final class JmxRoles {
    private static final long TIMEOUT_S = 10;

    private static final Set<String> RESTRICTED = Set.of("createMBean", "deserialize", "getClassLoader",
            "getClassLoaderFor", "instantiate", "registerMBean", "unregisterMBean", "getClassLoaderRepository");

    private static final Map<String, Permission> PERMISSIONS = Map.ofEntries(
            Map.entry("getAttribute", Permission.SELECT), Map.entry("getAttributes", Permission.SELECT),
            Map.entry("setAttribute", Permission.MODIFY), Map.entry("setAttributes", Permission.MODIFY),
            Map.entry("invoke", Permission.EXECUTE), Map.entry("getInstanceOf", Permission.DESCRIBE),
            Map.entry("getMBeanInfo", Permission.DESCRIBE), Map.entry("hashCode", Permission.DESCRIBE),
            Map.entry("isInstanceOf", Permission.DESCRIBE), Map.entry("isRegistered", Permission.DESCRIBE),
            Map.entry("queryMBeans", Permission.DESCRIBE), Map.entry("queryNames", Permission.DESCRIBE));

    private JmxRoles() {
    }

    /** Checks {@code [user, password]} against the roles, as a CQL login does. */
    static JMXAuthenticator authenticator(AuthService auth) {
        return credentials -> {
            if (!(credentials instanceof String[] c) || c.length != 2 || c[0] == null || c[1] == null) {
                throw new SecurityException("Authentication failed! Credentials required: a user name and password");
            }
            byte[] token = ("\0" + c[0] + "\0" + c[1]).getBytes(StandardCharsets.UTF_8);
            try {
                String role = auth.authenticate(token).get(TIMEOUT_S, TimeUnit.SECONDS);
                return new Subject(true, Set.of(new JMXPrincipal(role)), Set.of(), Set.of());
            } catch (ExecutionException e) {
                throw new SecurityException("Authentication failed! " + e.getCause().getMessage());
            } catch (InterruptedException | TimeoutException e) {
                throw new SecurityException("Authentication failed! the roles could not be read: " + e);
            }
        };
    }

    /** Enforces the roles' MBean permissions on every call a JMX client makes. */
    static MBeanServerForwarder authorizer(AuthService auth) {
        Handler h = new Handler(auth);
        return (MBeanServerForwarder) Proxy.newProxyInstance(MBeanServerForwarder.class.getClassLoader(),
                new Class<?>[] {MBeanServerForwarder.class}, h);
    }

    private static final class Handler implements InvocationHandler {
        private final AuthService auth;
        private volatile MBeanServer mbs;

        Handler(AuthService auth) {
            this.auth = auth;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("getMBeanServer")) {
                return mbs;
            }
            if (name.equals("setMBeanServer")) {
                if (args[0] == null) {
                    throw new IllegalArgumentException("Null MBeanServer");
                }
                mbs = (MBeanServer) args[0];
                return null;
            }
            if (method.getDeclaringClass() == Object.class) {
                return switch (name) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "JmxRoles.authorizer";
                };
            }
            Subject subject = Subject.current();
            if (subject != null) { // in-process callers have none; every remote connection has one
                authorize(subject, name, args);
            }
            try {
                return method.invoke(mbs, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private void authorize(Subject subject, String method, Object[] args) {
            if (RESTRICTED.contains(method)) {
                throw new SecurityException("Access Denied");
            }
            String role = subject.getPrincipals().stream().map(Principal::getName).findFirst().orElse(null);
            if (role == null) {
                throw new SecurityException("Access Denied");
            }
            UserPermissions user;
            try {
                user = auth.user(role).get(TIMEOUT_S, TimeUnit.SECONDS);
            } catch (ExecutionException | InterruptedException | TimeoutException e) {
                throw new SecurityException("Access Denied: the permissions of " + role + " could not be read");
            }
            if (user == null) {
                throw new SecurityException("Access Denied");
            }
            if (user.superuser()) {
                return;
            }
            Permission required = PERMISSIONS.get(method);
            if (required == null) {
                throw new SecurityException("Access Denied");
            }
            Object target = args == null || args.length == 0 ? null : args[0];
            boolean allowed;
            if (target instanceof ObjectName on) {
                allowed = on.isPattern() ? coversAll(user, required, on) : covers(user, required, on);
            } else {
                allowed = holdsOnAll(user, required);
            }
            if (!allowed) {
                throw new SecurityException("Access Denied");
            }
        }

        private static boolean holdsOnAll(UserPermissions user, Permission p) {
            Set<Permission> all = user.permissions().get(AuthResource.ALL_MBEANS);
            return all != null && all.contains(p);
        }

        /** Whether {@code p} is held on ALL MBEANS or on a name or pattern that matches {@code target}. */
        private static boolean covers(UserPermissions user, Permission p, ObjectName target) {
            if (holdsOnAll(user, p)) {
                return true;
            }
            for (Map.Entry<AuthResource, Set<Permission>> e : user.permissions().entrySet()) {
                if (e.getKey().kind() == AuthResource.Kind.MBEAN && e.getValue().contains(p)) {
                    try {
                        if (ObjectName.getInstance(e.getKey().object()).apply(target)) {
                            return true;
                        }
                    } catch (MalformedObjectNameException ignored) {
                        // a grant on a name that is no ObjectName matches nothing
                    }
                }
            }
            return false;
        }

        /** A pattern target: {@code p} must be held on every MBean it matches. */
        private boolean coversAll(UserPermissions user, Permission p, ObjectName pattern) {
            if (holdsOnAll(user, p)) {
                return true;
            }
            for (ObjectName name : mbs.queryNames(pattern, null)) {
                if (!covers(user, p, name)) {
                    return false;
                }
            }
            return true;
        }
    }
}
