package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.RequestTimeoutException;
import io.charybdis.node.cql.statements.RequestTimeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ScyllaDB's CQL extensions that ScyllaDB's drivers send to a node advertising ScyllaDB's protocol extension:
 * {@code USING TIMEOUT} on every data statement (a real per-request timeout), and {@code system_schema.scylla_*}.
 */
@Timeout(120)
class ScyllaExtensionsTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE sx WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE sx.t (k int, c int, v text, PRIMARY KEY (k, c))");
        session.execute("CREATE TABLE sx.n (k int PRIMARY KEY, n counter)");
    }

    @AfterAll
    static void stop() throws Exception {
        session.close();
        node.close();
    }

    @Test
    void usingTimeoutCombinesWithTheOtherAttributesOfEveryStatement() {
        session.execute("INSERT INTO sx.t (k, c, v) VALUES (1, 1, 'a') USING TIMEOUT 5s");
        session.execute("INSERT INTO sx.t (k, c, v) VALUES (1, 2, 'b') USING TTL 100 AND TIMEOUT 500ms AND TIMESTAMP 42");
        session.execute("UPDATE sx.t USING TIMEOUT 1m AND TTL 200 SET v = 'c' WHERE k = 1 AND c = 3");
        session.execute("UPDATE sx.n USING TIMEOUT 1s SET n = n + 2 WHERE k = 1");
        session.execute("BEGIN BATCH USING TIMEOUT 2s INSERT INTO sx.t (k, c, v) VALUES (2, 1, 'd'); "
                + "INSERT INTO sx.t (k, c, v) VALUES (2, 2, 'e'); APPLY BATCH");
        assertThat(session.execute("SELECT c, v, writetime(v) FROM sx.t WHERE k = 1 USING TIMEOUT 10s").all())
                .extracting(r -> r.getInt(0) + r.getString(1))
                .containsExactly("1a", "2b", "3c");
        assertThat(session.execute("SELECT writetime(v) FROM sx.t WHERE k = 1 AND c = 2 USING TIMEOUT 1s").one()
                .getLong(0)).isEqualTo(42);
        assertThat(session.execute("SELECT count(*) FROM sx.t WHERE k = 2 ALLOW FILTERING BYPASS CACHE "
                + "USING TIMEOUT 1s").one().getLong(0)).isEqualTo(2);
        session.execute("DELETE FROM sx.t USING TIMESTAMP 43 AND TIMEOUT 1s WHERE k = 1 AND c = 2");
        session.execute("DELETE FROM sx.t USING TIMEOUT 1s WHERE k = 2");
        assertThat(session.execute("SELECT c FROM sx.t WHERE k = 1").all()).extracting(r -> r.getInt(0))
                .containsExactly(1, 3);
        assertThat(session.execute("SELECT * FROM sx.t WHERE k = 2").all()).isEmpty();
        assertThat(session.execute("SELECT n FROM sx.n WHERE k = 1").one().getLong(0)).isEqualTo(2);
    }

    @Test
    void preparedTimeoutsAreDurationMarkersNamedTimeout() {
        PreparedStatement select = session.prepare("SELECT v FROM sx.t WHERE k = ? USING TIMEOUT ?");
        assertThat(select.getVariableDefinitions()).extracting(ColumnDefinition::getName)
                .extracting(n -> n.asInternal()).containsExactly("k", "[timeout]");
        assertThat(select.getVariableDefinitions().get(1).getType()).isEqualTo(DataTypes.DURATION);
        assertThat(select.getPartitionKeyIndices()).containsExactly(0);
        PreparedStatement insert = session.prepare("INSERT INTO sx.t (k, c, v) VALUES (?, ?, ?) USING TIMEOUT :t AND TTL ?");
        assertThat(insert.getVariableDefinitions()).extracting(d -> d.getName().asInternal())
                .containsExactly("k", "c", "v", "t", "[ttl]");
        session.execute(insert.bind(5, 1, "p", CqlDuration.from("3s"), 60));
        assertThat(session.execute(select.bind(5, CqlDuration.from("3s"))).one().getString(0)).isEqualTo("p");
        // an unset timeout is no timeout; a null one is refused
        assertThat(session.execute(select.bind(5).unset(1)).one().getString(0)).isEqualTo("p");
        assertThatThrownBy(() -> session.execute(select.bind(5, null)))
                .isInstanceOf(InvalidQueryException.class).hasMessage("Timeout value cannot be null");
    }

    @Test
    void badTimeoutsAreInvalidRequestsAsOnScylla() {
        assertThatThrownBy(() -> session.execute("SELECT * FROM sx.t USING TIMEOUT 1d"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Timeout values cannot be expressed in days/months");
        assertThatThrownBy(() -> session.execute("SELECT * FROM sx.t USING TIMEOUT 5us"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Timeout values cannot have granularity finer than milliseconds");
        assertThatThrownBy(() -> session.execute("SELECT * FROM sx.t USING TIMEOUT -5ms"))
                .isInstanceOf(InvalidQueryException.class).hasMessage("Timeout values must be non-negative");
    }

    @Test
    void aRequestThatCannotFinishInItsTimeoutAnswersATimeoutError() {
        assertThatThrownBy(() -> session.execute("SELECT * FROM sx.t USING TIMEOUT 0ms"))
                .isInstanceOf(ReadTimeoutException.class);
        assertThatThrownBy(() -> session.execute("INSERT INTO sx.t (k, c, v) VALUES (9, 9, 'x') USING TIMEOUT 0ms"))
                .isInstanceOfSatisfying(WriteTimeoutException.class,
                        e -> assertThat(e.getWriteType()).isEqualTo(WriteType.SIMPLE));
        assertThatThrownBy(() -> session.execute("UPDATE sx.n USING TIMEOUT 0ms SET n = n + 1 WHERE k = 9"))
                .isInstanceOfSatisfying(WriteTimeoutException.class,
                        e -> assertThat(e.getWriteType()).isEqualTo(WriteType.COUNTER));
        assertThatThrownBy(() -> session.execute("BEGIN UNLOGGED BATCH USING TIMEOUT 0ms "
                + "INSERT INTO sx.t (k, c, v) VALUES (9, 9, 'x'); APPLY BATCH"))
                .isInstanceOfSatisfying(WriteTimeoutException.class,
                        e -> assertThat(e.getWriteType()).isEqualTo(WriteType.UNLOGGED_BATCH));
        // the connection keeps serving
        assertThat(session.execute("SELECT count(*) FROM sx.t WHERE k = 9").one().getLong(0)).isZero();
    }

    @Test
    void aResultLaterThanTheTimeoutIsReplacedByTheTimeoutError() throws Exception {
        CompletableFuture<ResultMessage> never = new CompletableFuture<>();
        long start = System.nanoTime();
        CompletableFuture<ResultMessage> timed = RequestTimeout.within(never, Duration.ofMillis(50),
                () -> RequestTimeoutException.read(io.charybdis.protocol.Consistency.ONE, 1));
        assertThatThrownBy(timed::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RequestTimeoutException.class);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
        CompletableFuture<ResultMessage> quick = new CompletableFuture<>();
        CompletableFuture<ResultMessage> inTime = RequestTimeout.within(quick, Duration.ofSeconds(10),
                () -> RequestTimeoutException.read(io.charybdis.protocol.Consistency.ONE, 1));
        quick.complete(ResultMessage.VOID);
        assertThat(inTime.get()).isSameAs(ResultMessage.VOID);
    }

    @Test
    void scyllaSchemaTablesAnswerButAreNotListed() {
        List<Row> tables = session.execute("SELECT keyspace_name, table_name, partitioner, version "
                + "FROM system_schema.scylla_tables WHERE keyspace_name = 'sx'").all();
        assertThat(tables).extracting(r -> r.getString(1)).containsExactly("n", "t");
        assertThat(tables).allSatisfy(r -> {
            assertThat(r.isNull(2)).isTrue();
            assertThat(r.getUuid(3)).isNotNull();
        });
        java.util.UUID before = tables.get(1).getUuid(3);
        session.execute("ALTER TABLE sx.t ADD extra int");
        java.util.UUID after = session.execute("SELECT version FROM system_schema.scylla_tables "
                + "WHERE keyspace_name = 'sx' AND table_name = 't' USING TIMEOUT 2s").one().getUuid(0);
        assertThat(after).isNotEqualTo(before);
        assertThat(session.execute("SELECT keyspace_name, initial_tablets FROM system_schema.scylla_keyspaces "
                + "WHERE keyspace_name IN ('sx', 'system')").all()).isEmpty();
        assertThat(session.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = "
                + "'system_schema'").all()).extracting(r -> r.getString(0)).doesNotContain("scylla_tables",
                "scylla_keyspaces");
    }
}
