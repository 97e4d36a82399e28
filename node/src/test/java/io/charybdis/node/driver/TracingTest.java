package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.QueryTrace;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import io.charybdis.node.tracing.Tracing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Query tracing through the Java driver: {@code setTracing(true)} makes the response carry a session id, and
 * {@code getQueryTrace()} reads {@code system_traces.sessions} and {@code events} written for it, as from Cassandra.
 */
@Timeout(120)
class TracingTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE tr WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE tr.t (k int, c int, v text, PRIMARY KEY (k, c))");
    }

    @AfterAll
    static void stop() throws Exception {
        session.close();
        node.close();
    }

    private static List<String> activities(QueryTrace trace) {
        return trace.getEvents().stream().map(TraceEvent::getActivity).toList();
    }

    @Test
    void shouldTraceASelectWithItsSteps() throws Exception {
        session.execute("INSERT INTO tr.t (k, c, v) VALUES (1, 1, 'a')");
        session.execute("INSERT INTO tr.t (k, c, v) VALUES (1, 2, 'b')");
        node.node.storage().flushAll().get();
        session.execute("DELETE FROM tr.t WHERE k = 1 AND c = 3");
        ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT * FROM tr.t WHERE k = 1")
                .setTracing(true));
        assertThat(rs.all()).hasSize(2);
        ExecutionInfo info = rs.getExecutionInfo();
        assertThat(info.getTracingId()).isNotNull();
        QueryTrace trace = info.getQueryTrace();
        assertThat(trace.getTracingId()).isEqualTo(info.getTracingId());
        assertThat(trace.getRequestType()).isEqualTo("Execute CQL3 query");
        assertThat(trace.getDurationMicros()).isPositive();
        assertThat(trace.getParameters()).containsEntry("query", "SELECT * FROM tr.t WHERE k = 1")
                .containsEntry("consistency_level", "LOCAL_ONE").containsEntry("page_size", "5000")
                .containsEntry("serial_consistency_level", "SERIAL");
        assertThat(trace.getCoordinatorAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(trace.getStartedAt()).isGreaterThan(System.currentTimeMillis() - 60_000);
        assertThat(activities(trace)).containsSubsequence("Parsing SELECT * FROM tr.t WHERE k = 1",
                "Preparing statement", "Executing single-partition query on t", "Acquiring sstable references",
                "Merged data from memtables and 1 sstables", "Read 2 live rows and 1 tombstone cells");
        // the storage steps run on the shard that owns the partition, the others on the connection's
        assertThat(trace.getEvents()).allSatisfy(e -> assertThat(e.getThreadName()).startsWith("charybdis-shard-"));
        for (TraceEvent e : trace.getEvents()) {
            assertThat(e.getSourceAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(e.getThreadName()).isNotBlank();
            assertThat(e.getSourceElapsedMicros()).isBetween(0, trace.getDurationMicros());
        }
    }

    @Test
    void shouldTracePreparedWritesAndBatches() {
        PreparedStatement insert = session.prepare("INSERT INTO tr.t (k, c, v) VALUES (?, ?, ?)");
        ResultSet rs = session.execute(insert.bind(2, 1, "x").setTracing(true));
        QueryTrace trace = rs.getExecutionInfo().getQueryTrace();
        assertThat(trace.getRequestType()).isEqualTo("Execute CQL3 prepared query");
        assertThat(trace.getParameters()).containsEntry("query", "INSERT INTO tr.t (k, c, v) VALUES (?, ?, ?)")
                .containsEntry("bound_var_0_k", "2").containsEntry("bound_var_1_c", "1")
                .containsEntry("bound_var_2_v", "'x'");
        // an unset value is recorded as Cassandra records it
        QueryTrace unsetTrace = session.execute(insert.bind(2, 1).unset(2).setTracing(true)).getExecutionInfo()
                .getQueryTrace();
        assertThat(unsetTrace.getParameters()).containsEntry("bound_var_0_k", "2")
                .containsEntry("bound_var_2_v", "<unset>");
        assertThat(activities(trace)).containsSubsequence("Determining replicas for mutation", "Appending to commitlog",
                "Adding to t memtable");

        BatchStatement batch = BatchStatement.newInstance(DefaultBatchType.LOGGED, insert.bind(3, 1, "y"),
                SimpleStatement.newInstance("INSERT INTO tr.t (k, c, v) VALUES (3, 2, 'z')")).setTracing(true);
        QueryTrace batchTrace = session.execute(batch).getExecutionInfo().getQueryTrace();
        assertThat(batchTrace.getRequestType()).isEqualTo("Execute batch of CQL3 queries");
        assertThat(activities(batchTrace)).contains("Parsing INSERT INTO tr.t (k, c, v) VALUES (3, 2, 'z')",
                "Determining replicas for mutation");
    }

    @Test
    void shouldTraceARangeRead() {
        session.execute("INSERT INTO tr.t (k, c, v) VALUES (5, 1, 'r')");
        QueryTrace trace = session.execute(SimpleStatement.newInstance("SELECT * FROM tr.t").setTracing(true))
                .getExecutionInfo().getQueryTrace();
        assertThat(activities(trace)).containsSubsequence("Parsing SELECT * FROM tr.t", "Preparing statement",
                "Computing ranges to query",
                "Executing seq scan for (min(-9223372036854775808), min(-9223372036854775808)]");
        assertThat(activities(trace)).anyMatch(a -> a.matches("Read \\d+ live rows and \\d+ tombstone cells"));
    }

    @Test
    void shouldNotTraceWhatTheClientDidNotAskFor() {
        ResultSet rs = session.execute("SELECT * FROM tr.t WHERE k = 9");
        assertThat(rs.getExecutionInfo().getTracingId()).isNull();
    }

    @Test
    void shouldWriteRowsWithADayToLive() {
        ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT * FROM tr.t WHERE k = 2")
                .setTracing(true));
        UUID id = rs.getExecutionInfo().getQueryTrace().getTracingId();
        Row s = session.execute("SELECT TTL(request), request, command FROM system_traces.sessions "
                + "WHERE session_id = ?", id).one();
        assertThat(s.getString("command")).isEqualTo("QUERY");
        assertThat(s.getInt(0)).isBetween(Tracing.TTL_SECONDS - 120, Tracing.TTL_SECONDS);
        Row e = session.execute("SELECT TTL(activity), source_port FROM system_traces.events WHERE session_id = ? "
                + "LIMIT 1", id).one();
        assertThat(e.getInt(0)).isBetween(Tracing.TTL_SECONDS - 120, Tracing.TTL_SECONDS);
        assertThat(e.getInt(1)).isEqualTo(7000);
    }

    @Test
    void shouldTraceUnaskedRequestsByProbability() throws Exception {
        Tracing tracing = node.node.tracing();
        assertThatThrownBy(() -> tracing.setProbability(1.5)).isInstanceOf(IllegalArgumentException.class);
        long before = sessions();
        tracing.setProbability(1.0);
        try {
            for (int i = 0; i < 5; i++) {
                ResultSet rs = session.execute("SELECT * FROM tr.t WHERE k = 42");
                assertThat(rs.getExecutionInfo().getTracingId()).isNull(); // not asked: the response names none
            }
        } finally {
            tracing.setProbability(0);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (sessions() < before + 5 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(sessions()).isGreaterThanOrEqualTo(before + 5);
        assertThat(session.execute("SELECT parameters FROM system_traces.sessions").all().stream()
                .map(r -> r.getMap(0, String.class, String.class).get("query")))
                .contains("SELECT * FROM tr.t WHERE k = 42");
    }

    private static long sessions() {
        return session.execute("SELECT count(*) FROM system_traces.sessions").one().getLong(0);
    }
}
