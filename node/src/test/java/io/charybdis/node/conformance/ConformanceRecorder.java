package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Records the expected outcomes of the conformance corpus from a real Apache Cassandra 5.0.6 node: every
 * statement of every {@code <topic>.cql} (or only the topics named) is run in order and its outcome written as one
 * JSON line of {@code <topic>.expected}.
 *
 * <pre>
 * ./mvnw -B -q -o -pl node test-compile
 * java -cp node/target/test-classes:node/target/classes:$(cat cp.txt) \
 *     io.charybdis.node.conformance.ConformanceRecorder 127.0.0.2 9042 node/src/test/resources/conformance [topic...]
 * </pre>
 *
 * <p>The topics of {@code conformance-auth/} are recorded from a reference started with {@code --auth}
 * (PasswordAuthenticator + CassandraAuthorizer), passing {@code --auth} after the directory: the default session
 * then logs in as cassandra/cassandra. Those of {@code conformance-auth-allowall/} are recorded the same way from a
 * reference whose authorizer is AllowAllAuthorizer (PasswordAuthenticator still on). Those of
 * {@code conformance-dropcs/} are recorded from a reference whose cassandra.yaml sets
 * {@code drop_compact_storage_enabled: true} (a second reference node, e.g. on 127.0.0.3).
 */
public final class ConformanceRecorder {
    private ConformanceRecorder() {
    }

    public static void main(String[] args) throws IOException {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        List<String> only = new java.util.ArrayList<>(List.of(args).subList(3, args.length));
        // --auth: the reference runs PasswordAuthenticator + CassandraAuthorizer; the default session is the superuser
        boolean auth = only.remove("--auth");
        try (CqlSession session = auth ? Sessions.open(host, port, "cassandra", "cassandra")
                : Sessions.open(host, port)) {
            String release = session.execute("SELECT release_version FROM system.local").one().getString(0);
            if (!release.startsWith("5.0")) {
                throw new IllegalStateException("reference must be Cassandra 5.0, is " + release);
            }
            for (Path file : Corpus.topics(dir)) {
                String topic = Corpus.topicOf(file);
                if (!only.isEmpty() && !only.contains(topic)) {
                    continue;
                }
                StringBuilder out = new StringBuilder();
                int errors = 0;
                List<Corpus.Statement> statements = Corpus.parse(file);
                try (LoginSessions sessions = new LoginSessions(host, port, session)) {
                for (Corpus.Statement st : statements) {
                    ObjectNode o = Outcome.run(sessions.sessionFor(st), st);
                    if (o.has("error")) {
                        errors++;
                        String msg = o.get("error").get("message").asText();
                        if (st.msgFragment() != null && !msg.contains(st.msgFragment())) {
                            System.err.printf("%s (line %d): fragment [%s] not in Cassandra's message: %s%n",
                                    st.id(), st.line(), st.msgFragment(), msg);
                        }
                    }
                    out.append(Outcome.JSON.writeValueAsString(o)).append('\n');
                }
                }
                Files.writeString(Corpus.expectedFile(file), out, StandardCharsets.UTF_8);
                System.out.printf("%-14s %4d statements, %3d errors (Cassandra %s)%n", topic, statements.size(),
                        errors, release);
            }
        }
    }
}
