package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.AuthenticatorType;
import io.charybdis.node.config.AuthorizerType;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The conformance topics of {@code src/test/resources/conformance-auth/}, recorded from Apache Cassandra 5.0.6 with
 * PasswordAuthenticator and CassandraAuthorizer (the permission matrix, roles and users, replacing the default
 * superuser), run against an in-process node configured the same way, and those of
 * {@code src/test/resources/conformance-auth-allowall/}, recorded with PasswordAuthenticator and AllowAllAuthorizer,
 * against a second node configured so. The default session is the superuser cassandra/cassandra; {@code @login}
 * switches to a session of the role it names, as when recording.
 */
@Timeout(120)
class AuthConformanceTest {
    static final Path AUTH_DIR = Path.of("src/test/resources/conformance-auth");
    /** Topics recorded with PasswordAuthenticator and AllowAllAuthorizer, run against a node configured so. */
    static final Path ALLOW_ALL_DIR = Path.of("src/test/resources/conformance-auth-allowall");
    static Path dir;
    static CharybdisNode node;
    static CqlSession session;
    static CharybdisNode allowAllNode;
    static CqlSession allowAllSession;
    static final List<LoginSessions> opened = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-auth-conformance");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir.resolve("authorizer")).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2)
                .authenticator(AuthenticatorType.PASSWORD).authorizer(AuthorizerType.CASSANDRA).build());
        session = Sessions.open("127.0.0.1", node.nativePort(), "cassandra", "cassandra");
        allowAllNode = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir.resolve("allow-all"))
                .nativeTransportPort(0).nativeShardAwareTransportPort(0).jmxPort(0).smp(1)
                .authenticator(AuthenticatorType.PASSWORD).authorizer(AuthorizerType.ALLOW_ALL).build());
        allowAllSession = Sessions.open("127.0.0.1", allowAllNode.nativePort(), "cassandra", "cassandra");
    }

    @AfterAll
    static void stop() throws IOException {
        opened.forEach(LoginSessions::close);
        for (AutoCloseable c : new AutoCloseable[] {session, node, allowAllSession, allowAllNode}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IOException(e);
                }
            }
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Where Cassandra answers a Server_error (skipped in the corpus), Charybdis answers an invalid request. */
    @org.junit.jupiter.api.Test
    void grantsWithAllowAllAuthorizerAreInvalidRequests() {
        allowAllSession.execute("CREATE ROLE IF NOT EXISTS aa_grantee");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> allowAllSession.execute(
                        "GRANT SELECT ON ALL KEYSPACES TO aa_grantee"))
                .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.InvalidQueryException.class)
                .hasMessage("GRANT operation is not supported by AllowAllAuthorizer");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> allowAllSession.execute(
                        "REVOKE SELECT ON ALL KEYSPACES FROM aa_grantee"))
                .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.InvalidQueryException.class)
                .hasMessage("REVOKE operation is not supported by AllowAllAuthorizer");
        allowAllSession.execute("DROP ROLE aa_grantee");
    }

    @TestFactory
    Stream<DynamicNode> corpus() {
        return Stream.concat(Corpus.topics(AUTH_DIR).stream().map(f -> topic(f, false)),
                Corpus.topics(ALLOW_ALL_DIR).stream().map(f -> topic(f, true)));
    }

    private static DynamicContainer topic(Path file, boolean allowAll) {
        List<Corpus.Statement> statements = Corpus.parse(file);
        List<JsonNode> expected = ConformanceTest.readExpected(Corpus.expectedFile(file));
        LoginSessions[] sessions = new LoginSessions[1];
        List<DynamicTest> tests = new ArrayList<>();
        for (Corpus.Statement st : statements) {
            JsonNode exp = st.index() <= expected.size() ? expected.get(st.index() - 1) : null;
            String name = st.id() + " (line " + st.line() + "): " + oneLine(st.cql());
            tests.add(DynamicTest.dynamicTest(name, () -> {
                if (sessions[0] == null) {
                    sessions[0] = allowAll
                            ? new LoginSessions("127.0.0.1", allowAllNode.nativePort(), allowAllSession)
                            : new LoginSessions("127.0.0.1", node.nativePort(), session);
                    opened.add(sessions[0]);
                }
                check(sessions[0], st, exp);
            }));
        }
        return DynamicContainer.dynamicContainer((allowAll ? "allow-all/" : "") + Corpus.topicOf(file), tests);
    }

    private static void check(LoginSessions sessions, Corpus.Statement st, JsonNode expected) {
        if (expected == null || !expected.get("cql").asText().equals(st.cql())) {
            fail(st.id() + ": the expected outcome is missing or stale; re-record with ConformanceRecorder --auth");
        }
        if (st.skipReason() != null) {
            abort("known difference: " + st.skipReason());
        }
        JsonNode actual = Outcome.run(sessions.sessionFor(st), st);
        String diff = Outcome.compare(st, expected, actual);
        if (diff != null) {
            fail(st.id() + " (line " + st.line() + ")\n" + st.cql() + "\n" + diff);
        }
    }

    private static String oneLine(String cql) {
        String s = cql.replaceAll("\\s+", " ");
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
