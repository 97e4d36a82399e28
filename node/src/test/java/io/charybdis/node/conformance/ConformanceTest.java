package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The CQL conformance suite: every statement of {@code src/test/resources/conformance/*.cql}, run in order through
 * the Java driver against an in-process node, must answer what Apache Cassandra 5.0.6 answered when the corpus was
 * recorded ({@link ConformanceRecorder}): the same columns and types, the same rows, the same warnings, the same
 * error code and message. One dynamic test per statement, named {@code <topic>#<n> (line L): <cql>}.
 */
@Timeout(120)
class ConformanceTest {
    static Path dir;
    static CharybdisNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-conformance");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
        session = Sessions.open("127.0.0.1", node.nativePort());
    }

    @AfterAll
    static void stop() throws IOException {
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @TestFactory
    Stream<DynamicNode> corpus() {
        // -Dconformance.topics=a,b runs only those topics (while working on one family)
        String only = System.getProperty("conformance.topics", "").strip();
        List<String> wanted = only.isEmpty() ? List.of() : List.of(only.split(","));
        return Corpus.topics(Corpus.DIR).stream()
                .filter(p -> wanted.isEmpty() || wanted.contains(Corpus.topicOf(p)))
                .map(file -> topic(file, () -> session, "ConformanceRecorder"));
    }

    /**
     * One topic's statements as dynamic tests run through {@code session}; {@code recordHint} says how to record the
     * topic again when its expected outcomes are missing or stale (shared with the conformance suites of other node
     * configurations).
     */
    static DynamicContainer topic(Path file, java.util.function.Supplier<CqlSession> session, String recordHint) {
        List<Corpus.Statement> statements = Corpus.parse(file);
        List<JsonNode> expected = readExpected(Corpus.expectedFile(file));
        List<DynamicTest> tests = new ArrayList<>();
        for (Corpus.Statement st : statements) {
            JsonNode exp = st.index() <= expected.size() ? expected.get(st.index() - 1) : null;
            String name = st.id() + " (line " + st.line() + "): " + oneLine(st.cql());
            tests.add(DynamicTest.dynamicTest(name, () -> check(st, exp, session.get(), recordHint)));
        }
        return DynamicContainer.dynamicContainer(Corpus.topicOf(file), tests);
    }

    private static void check(Corpus.Statement st, JsonNode expected, CqlSession session, String recordHint) {
        if (expected == null || !expected.get("cql").asText().equals(st.cql())) {
            fail(st.id() + ": the expected outcome is missing or stale; re-record with " + recordHint);
        }
        if (st.skipReason() != null) {
            abort("known difference: " + st.skipReason());
        }
        JsonNode actual = Outcome.run(session, st);
        String diff = Outcome.compare(st, expected, actual);
        if (diff != null) {
            fail(st.id() + " (line " + st.line() + ")\n" + st.cql() + "\n" + diff);
        }
        assertThat(diff).isNull();
    }

    static List<JsonNode> readExpected(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(Outcome.JSON.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String oneLine(String cql) {
        String s = cql.replaceAll("\\s+", " ");
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
