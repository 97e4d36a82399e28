package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batches: the statements of a batch on one partition are applied together (a concurrent reader never sees part
 * of them), and batches with conditions are lightweight transactions on one partition, through CQL text and
 * through the protocol's BATCH message with prepared statements.
 */
@Timeout(120)
class BatchTest {
    static TestNode node;
    static final int ROWS = 8;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE b.t (k int, c int, s int static, v int, l list<int>, PRIMARY KEY (k, c))");
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        node.close();
    }

    private static List<String> columns(ResultSet rs) {
        List<String> out = new ArrayList<>();
        for (ColumnDefinition d : rs.getColumnDefinitions()) {
            out.add(d.getName().asInternal());
        }
        return out;
    }

    @Test
    void readersSeeAllOfASinglePartitionBatchOrNoneOfIt() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> torn = new AtomicReference<>();
        Set<Integer> seen = new HashSet<>();
        Thread reader = new Thread(() -> {
            while (!done.get() && torn.get() == null) {
                List<Row> rows = session.execute("SELECT c, v FROM b.t WHERE k = 1").all();
                Set<Integer> values = new HashSet<>();
                for (Row r : rows) {
                    values.add(r.getInt("v"));
                }
                if (values.size() > 1 || (!rows.isEmpty() && rows.size() != ROWS)) {
                    torn.set(rows.size() + " rows with values " + values);
                }
                synchronized (seen) {
                    seen.addAll(values);
                }
            }
        });
        reader.start();
        try {
            for (int i = 0; i < 200 && torn.get() == null; i++) {
                StringBuilder batch = new StringBuilder("BEGIN BATCH\n");
                for (int c = 0; c < ROWS; c++) {
                    batch.append("INSERT INTO b.t (k, c, v) VALUES (1, ").append(c).append(", ").append(i)
                            .append(");\n");
                }
                session.execute(batch.append("APPLY BATCH").toString());
            }
        } finally {
            done.set(true);
            reader.join();
        }
        assertThat(torn.get()).isNull();
        assertThat(seen.size()).isGreaterThan(1);
    }

    @Test
    void theStatementsOfABatchOnOnePartitionAreOneWrite() {
        session.execute("CREATE TABLE b.w (k int, c int, v text, PRIMARY KEY (k, c))");
        java.util.UUID id = session.execute("SELECT id FROM system_schema.tables WHERE keyspace_name = 'b' AND "
                + "table_name = 'w'").one().getUuid("id");
        io.charybdis.storage.TableId table = io.charybdis.storage.TableId.of(id);
        long before = node.node.storage().latencies(table).writes().count();
        session.execute("BEGIN BATCH\nINSERT INTO b.w (k, c, v) VALUES (1, 1, 'a');\n"
                + "UPDATE b.w SET v = 'b' WHERE k = 1 AND c = 2;\nDELETE FROM b.w WHERE k = 1 AND c = 3;\n"
                + "INSERT INTO b.w (k, c, v) VALUES (2, 1, 'a');\nDELETE FROM b.w WHERE k = 1 AND c > 5;\n"
                + "INSERT INTO b.w (k, c, v) VALUES (2, 2, 'a');\nAPPLY BATCH");
        assertThat(node.node.storage().latencies(table).writes().count() - before).isEqualTo(2);
        assertThat(session.execute("SELECT v FROM b.w WHERE k = 1").all()).extracting(r -> r.getString("v"))
                .containsExactly("a", "b");
        assertThat(session.execute("SELECT v FROM b.w WHERE k = 2").all()).hasSize(2);
    }

    @Test
    void conditionalBatchThroughPreparedStatements() {
        PreparedStatement insert = session.prepare("INSERT INTO b.t (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS");
        PreparedStatement update = session.prepare("UPDATE b.t SET v = ? WHERE k = ? AND c = ? IF v = ?");
        PreparedStatement plain = session.prepare("UPDATE b.t SET s = ? WHERE k = ?");

        ResultSet rs = session.execute(BatchStatement.newInstance(BatchType.LOGGED, insert.bind(2, 1, 10),
                insert.bind(2, 2, 20), plain.bind(7, 2)));
        assertThat(rs.wasApplied()).isTrue();
        assertThat(columns(rs)).containsExactly("[applied]");

        rs = session.execute(BatchStatement.newInstance(BatchType.LOGGED, update.bind(11, 2, 1, 10),
                update.bind(21, 2, 2, 99), plain.bind(8, 2)));
        assertThat(rs.wasApplied()).isFalse();
        assertThat(columns(rs)).containsExactly("[applied]", "k", "c", "v");
        List<Row> rows = rs.all();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getInt("c")).isEqualTo(1);
        assertThat(rows.get(0).getInt("v")).isEqualTo(10);
        assertThat(rows.get(1).getInt("v")).isEqualTo(20);
        // nothing of the batch was applied, the unconditional statement included
        Row s = session.execute("SELECT s, v FROM b.t WHERE k = 2 AND c = 1").one();
        assertThat(s.getInt("s")).isEqualTo(7);
        assertThat(s.getInt("v")).isEqualTo(10);

        rs = session.execute(BatchStatement.newInstance(BatchType.LOGGED, update.bind(11, 2, 1, 10),
                update.bind(21, 2, 2, 20), plain.bind(8, 2)));
        assertThat(rs.wasApplied()).isTrue();
        assertThat(session.execute("SELECT s, v FROM b.t WHERE k = 2 AND c = 2").one().getInt("v")).isEqualTo(21);
        assertThat(session.execute("SELECT s FROM b.t WHERE k = 2 LIMIT 1").one().getInt("s")).isEqualTo(8);
    }

    @Test
    void conditionsOnTheStaticRowAndReadsBeforeWrite() {
        session.execute("INSERT INTO b.t (k, c, v, l) VALUES (3, 1, 1, [1, 2, 3])");
        // a static condition that does not hold: the partition's first row is shown
        ResultSet rs = session.execute("BEGIN BATCH\nUPDATE b.t SET s = 1 WHERE k = 3 IF s = 5;\n"
                + "UPDATE b.t SET l[0] = 9 WHERE k = 3 AND c = 1;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isFalse();
        assertThat(columns(rs)).containsExactly("[applied]", "k", "c", "s");
        Row r = rs.one();
        assertThat(r.getInt("c")).isEqualTo(1);
        assertThat(r.isNull("s")).isTrue();
        rs = session.execute("BEGIN BATCH\nUPDATE b.t SET s = 1 WHERE k = 3 IF s = null;\n"
                + "UPDATE b.t SET l[0] = 9 WHERE k = 3 AND c = 1;\n"
                + "DELETE l[2] FROM b.t WHERE k = 3 AND c = 1;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isTrue();
        Row now = session.execute("SELECT s, l FROM b.t WHERE k = 3 AND c = 1").one();
        assertThat(now.getInt("s")).isEqualTo(1);
        assertThat(now.getList("l", Integer.class)).containsExactly(9, 2);
        // a condition on a row that does not exist, where the static row does: no row to show
        rs = session.execute("BEGIN BATCH\nUPDATE b.t SET v = 1 WHERE k = 3 AND c = 9 IF v = 4;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isFalse();
        assertThat(columns(rs)).containsExactly("[applied]");
    }

    @Test
    void theAnswerShowsWhatCassandraReadsBack() {
        session.execute("INSERT INTO b.t (k, c, s, v) VALUES (6, 1, 5, 1)");
        // the statements write regular rows only: the static column is not read, and shows as null
        ResultSet rs = session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (6, 1, 2) IF NOT EXISTS;\n"
                + "INSERT INTO b.t (k, c, v) VALUES (6, 2, 2) IF NOT EXISTS;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isFalse();
        // (static columns before regular ones, as Cassandra 5.0.6 answers)
        assertThat(columns(rs)).containsExactly("[applied]", "k", "c", "s", "l", "v");
        Row r = rs.one();
        assertThat(r.getInt("c")).isEqualTo(1);
        assertThat(r.isNull("s")).isTrue();
        assertThat(r.getInt("v")).isEqualTo(1);
        // an unconditional statement writing the static column does not change that; a conditional one does
        rs = session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (6, 1, 2) IF NOT EXISTS;\n"
                + "UPDATE b.t SET s = 7 WHERE k = 6;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isFalse();
        assertThat(rs.one().isNull("s")).isTrue();
        rs = session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (6, 1, 2) IF NOT EXISTS;\n"
                + "UPDATE b.t SET s = 7 WHERE k = 6 IF s = 5;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isFalse();
        assertThat(rs.one().getInt("s")).isEqualTo(5);
    }

    @Test
    void statementsOfAConditionalBatchMayHaveTheirOwnTimestamp() {
        ResultSet rs = session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (7, 1, 1) IF NOT EXISTS;\n"
                + "INSERT INTO b.t (k, c, v) VALUES (7, 2, 2) USING TIMESTAMP 1000;\nAPPLY BATCH");
        assertThat(rs.wasApplied()).isTrue();
        assertThat(session.execute("SELECT writetime(v) FROM b.t WHERE k = 7 AND c = 2").one().getLong(0))
                .isEqualTo(1000L);
        assertThatThrownBy(() -> session.execute("BEGIN BATCH\nUPDATE b.t SET v = 3 WHERE k = 7 AND c IN (1, 2);\n"
                + "UPDATE b.t SET v = 3 WHERE k = 7 AND c = 1 IF v = 1;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("IN on the clustering key columns is not supported with conditional updates");
    }

    @Test
    void invalidConditionalBatches() {
        assertThatThrownBy(() -> session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (4, 1, 1) IF NOT "
                + "EXISTS;\nUPDATE b.t SET v = 1 WHERE k = 4 AND c = 1 IF EXISTS;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
        assertThatThrownBy(() -> session.execute("BEGIN BATCH\nINSERT INTO b.t (k, c, v) VALUES (4, 1, 1) IF NOT "
                + "EXISTS;\nUPDATE b.t SET v = 1 WHERE k = 4 AND c = 1 IF v = 3;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Cannot mix IF conditions and IF NOT EXISTS for the same row");
        assertThatThrownBy(() -> session.execute("BEGIN BATCH\nUPDATE b.t SET v = 1 WHERE k = 4 AND c = 1 IF v = 3;\n"
                + "DELETE FROM b.t WHERE k = 4 AND c = 1 IF EXISTS;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Cannot mix IF conditions and IF EXISTS for the same row");
        assertThatThrownBy(() -> session.execute("BEGIN BATCH\nUPDATE b.t SET v = 1 WHERE k IN (4, 5) AND c = 1;\n"
                + "UPDATE b.t SET v = 1 WHERE k = 4 AND c = 1 IF v = 3;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Batch with conditions cannot span multiple partitions (you cannot use IN on the "
                        + "partition key)");
        assertThatThrownBy(() -> session.execute("BEGIN BATCH USING TIMESTAMP 10\nUPDATE b.t SET v = 1 WHERE k = 4 "
                + "AND c = 1 IF v = 3;\nAPPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Cannot provide custom timestamp for conditional BATCH");
        assertThat(session.execute("SELECT * FROM b.t WHERE k IN (4, 5)").all()).isEmpty();
    }
}
