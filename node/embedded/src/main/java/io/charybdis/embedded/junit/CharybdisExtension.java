package io.charybdis.embedded.junit;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.cqlscript.CqlScript;
import io.charybdis.embedded.EmbeddedCharybdis;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A JUnit 5 extension that runs an {@link EmbeddedCharybdis} for a test class and hands tests a ready
 * {@link CqlSession}.
 *
 * <pre>{@code
 * class OrdersTest {
 *     @RegisterExtension
 *     static final CharybdisExtension charybdis = CharybdisExtension.newInstance()
 *             .withInitScript("schema.cql");
 *
 *     @Test
 *     void storesAnOrder(CqlSession session) {
 *         session.execute("INSERT INTO shop.orders (id, item) VALUES (1, 'book')");
 *     }
 * }
 * }</pre>
 *
 * <p>Lifecycle: on a {@code static} field (or with {@code @ExtendWith(CharybdisExtension.class)}) one node serves
 * the whole class, nested classes included; on an instance field every test gets a fresh node. Each test's
 * {@link CqlSession} parameter is a new session, closed after the test.
 *
 * <p>Parameters it resolves: {@link CqlSession}, {@link EmbeddedCharybdis} (e.g. to {@code restart()} it inside a
 * test; the test's session reconnects before {@code restart()} returns) and {@link TestKeyspace}.
 *
 * <p>Isolation: {@link #withKeyspacePerTest()} gives each test its own keyspace, created before and dropped after
 * it, with the test's session bound to it and the {@link #withKeyspaceScript(String) keyspace scripts} run inside
 * it, so unqualified table names in the test and its scripts land in that keyspace.
 */
public final class CharybdisExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CharybdisExtension.class);
    private static final String SESSION = "session";
    private static final String KEYSPACE = "keyspace";
    private static final String PER_TEST_NODE = "node";

    private final List<String> initScripts = new ArrayList<>();
    private final List<String> keyspaceScripts = new ArrayList<>();
    private final Map<String, String> config = new LinkedHashMap<>();
    private UnaryOperator<EmbeddedCharybdis.Builder> customizer = UnaryOperator.identity();
    private boolean keyspacePerTest;
    private final AtomicInteger keyspaceCounter = new AtomicInteger();

    /** The node of the class (static registration), or null outside one. */
    private volatile EmbeddedCharybdis classNode;
    private volatile String classNodeOwner;

    /** For {@code @ExtendWith(CharybdisExtension.class)}: defaults. */
    public CharybdisExtension() {
    }

    public static CharybdisExtension newInstance() {
        return new CharybdisExtension();
    }

    /** A CQL script on the class path run once after the node starts (e.g. creating keyspaces and tables). */
    public CharybdisExtension withInitScript(String classpathResource) {
        initScripts.add(classpathResource);
        return this;
    }

    /** A configuration key of the node, as in {@code conf/charybdis.yaml}. */
    public CharybdisExtension withConfig(String key, String value) {
        config.put(key, value);
        return this;
    }

    /** Anything else about the node (shards, a fixed directory, ...). */
    public CharybdisExtension withNode(UnaryOperator<EmbeddedCharybdis.Builder> customizer) {
        this.customizer = customizer;
        return this;
    }

    /** Each test gets its own keyspace (replication factor 1), dropped after it; its session uses it. */
    public CharybdisExtension withKeyspacePerTest() {
        this.keyspacePerTest = true;
        return this;
    }

    /** A CQL script on the class path run inside each test's keyspace; implies {@link #withKeyspacePerTest()}. */
    public CharybdisExtension withKeyspaceScript(String classpathResource) {
        keyspacePerTest = true;
        keyspaceScripts.add(classpathResource);
        return this;
    }

    /** The node serving the current class; for use in static code such as {@code @BeforeAll} methods. */
    public EmbeddedCharybdis node() {
        EmbeddedCharybdis node = classNode;
        if (node == null) {
            throw new IllegalStateException("no node yet: register CharybdisExtension on a static field and use it "
                    + "from @BeforeAll or tests, or take an EmbeddedCharybdis parameter");
        }
        return node;
    }

    public InetSocketAddress contactPoint() {
        return node().contactPoint();
    }

    public String localDatacenter() {
        return node().localDatacenter();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (classNode == null) {
            classNode = startNode();
            classNodeOwner = context.getUniqueId();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (context.getUniqueId().equals(classNodeOwner)) {
            EmbeddedCharybdis node = classNode;
            classNode = null;
            classNodeOwner = null;
            node.close();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        EmbeddedCharybdis node = classNode;
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (node == null) {
            node = startNode();
            store.put(PER_TEST_NODE, node);
        }
        if (keyspacePerTest) {
            String keyspace = keyspaceName(context);
            node.execute("CREATE KEYSPACE " + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            store.put(KEYSPACE, new TestKeyspace(keyspace));
            if (!keyspaceScripts.isEmpty()) {
                try (CqlSession inKeyspace = node.sessionBuilder().withKeyspace(keyspace).build()) {
                    for (String script : keyspaceScripts) {
                        CqlScript.fromClasspath(script).executeIn(inKeyspace);
                    }
                }
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        CqlSession session = store.remove(SESSION, CqlSession.class);
        if (session != null) {
            session.close();
        }
        EmbeddedCharybdis perTest = store.remove(PER_TEST_NODE, EmbeddedCharybdis.class);
        TestKeyspace keyspace = store.remove(KEYSPACE, TestKeyspace.class);
        if (perTest != null) {
            perTest.close();
        } else if (keyspace != null && classNode != null && classNode.isRunning()) {
            classNode.execute("DROP KEYSPACE IF EXISTS " + keyspace.name());
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == CqlSession.class || type == EmbeddedCharybdis.class
                || (type == TestKeyspace.class && keyspacePerTest);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        EmbeddedCharybdis node = nodeFor(context);
        if (type == EmbeddedCharybdis.class) {
            return node;
        }
        if (type == TestKeyspace.class) {
            return store.get(KEYSPACE, TestKeyspace.class);
        }
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException("CqlSession parameters are handed to test methods and their "
                    + "@BeforeEach/@AfterEach methods; in @BeforeAll use charybdis.node().newSession()");
        }
        CqlSession session = store.get(SESSION, CqlSession.class);
        if (session == null) {
            TestKeyspace keyspace = store.get(KEYSPACE, TestKeyspace.class);
            session = keyspace != null ? node.newSession(keyspace.name()) : node.newSession();
            store.put(SESSION, session);
        }
        return session;
    }

    private EmbeddedCharybdis nodeFor(ExtensionContext context) {
        EmbeddedCharybdis perTest = context.getStore(NAMESPACE).get(PER_TEST_NODE, EmbeddedCharybdis.class);
        if (perTest != null) {
            return perTest;
        }
        if (classNode == null) {
            throw new ParameterResolutionException("no Charybdis node is running for " + context.getDisplayName());
        }
        return classNode;
    }

    private EmbeddedCharybdis startNode() {
        EmbeddedCharybdis.Builder builder = EmbeddedCharybdis.builder();
        config.forEach(builder::config);
        EmbeddedCharybdis node = customizer.apply(builder).build().start();
        try {
            for (String script : initScripts) {
                node.execute(CqlScript.fromClasspath(script));
            }
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    private String keyspaceName(ExtensionContext context) {
        String method = context.getTestMethod().map(m -> m.getName()).orElse("test");
        String base = method.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (base.length() > 32) {
            base = base.substring(0, 32);
        }
        return "t" + keyspaceCounter.incrementAndGet() + "_" + base;
    }
}
