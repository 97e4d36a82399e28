package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * tombstone_warn_threshold (1000) and tombstone_failure_threshold (100000) at their defaults. The expected warnings
 * are what Apache Cassandra 5.0.6 answered to the same statements (same keys, so the same tokens): dead cells, deleted
 * rows, range tombstones (two markers each) and expired cells count; a read cut short by its LIMIT counts only what
 * it went through; each partition of an IN is its own read.
 */
@Timeout(180)
class TombstoneThresholdTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE tb WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE tb.t (k int, c int, v int, m map<int, int>, PRIMARY KEY (k, c))");
        session.execute("CREATE TABLE tb.s (k int PRIMARY KEY, v int)");
        session.execute("CREATE TABLE tb.f (k int, c int, m map<int, int>, PRIMARY KEY (k, c))");
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < 1100; i++) {
            keys.add(i);
        }
        session.execute(session.prepare("UPDATE tb.t SET m = m - ? WHERE k = 1 AND c = 1").bind(keys));
        PreparedStatement nullV = session.prepare("INSERT INTO tb.t (k, c, v) VALUES (2, ?, null)");
        PreparedStatement delete = session.prepare("DELETE FROM tb.t WHERE k = 3 AND c = ?");
        for (int c = 0; c < 1200; c++) {
            session.execute(nullV.bind(c));
            session.execute(delete.bind(c));
        }
        PreparedStatement range = session.prepare("DELETE FROM tb.t WHERE k = 4 AND c > ? AND c < ?");
        for (int c = 0; c < 3300; c += 3) {
            session.execute(range.bind(c, c + 2));
        }
        session.execute("INSERT INTO tb.t (k, c, v) VALUES (4, 1, 1)");
        PreparedStatement sNull = session.prepare("INSERT INTO tb.s (k, v) VALUES (?, null)");
        for (int k = 0; k < 1100; k++) {
            session.execute(sNull.bind(k));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        node.close();
    }

    private static List<String> warnings(String cql) {
        ResultSet rs = session.execute(cql);
        rs.all();
        return rs.getExecutionInfo().getWarnings();
    }

    private static String warning(int live, int tombstones, String query, long token) {
        return "Read " + live + " live rows and " + tombstones + " tombstone cells for query " + query + " LIMIT 5000 "
                + "ALLOW FILTERING; token " + token + " (see tombstone_warn_threshold)";
    }

    @Test
    void deadCellsDeletedRowsAndRangeTombstonesAreCountedAsCassandraCountsThem() {
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 1")).containsExactly(
                warning(0, 1100, "SELECT * FROM tb.t WHERE k = 1", -4069959284402364209L));
        assertThat(warnings("SELECT v FROM tb.t WHERE k = 1")).containsExactly(
                warning(0, 1100, "SELECT * FROM tb.t WHERE k = 1", -4069959284402364209L));
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 2")).containsExactly(
                warning(1200, 1200, "SELECT * FROM tb.t WHERE k = 2", -3248873570005575792L));
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 3")).containsExactly(
                warning(0, 1200, "SELECT * FROM tb.t WHERE k = 3", 9010454139840013625L));
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 4")).containsExactly(
                warning(1, 2200, "SELECT * FROM tb.t WHERE k = 4", -2729420104000364805L));
        assertThat(warnings("SELECT count(*) FROM tb.t WHERE k = 2")).containsExactly(
                warning(1200, 1200, "SELECT * FROM tb.t WHERE k = 2", -3248873570005575792L));
    }

    @Test
    void readsThatStopEarlyOrStayUnderTheThresholdDoNotWarn() {
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 2 LIMIT 10")).isEmpty();
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 4 LIMIT 1")).isEmpty();
        assertThat(warnings("SELECT v FROM tb.t WHERE k = 2 AND c IN (1, 2, 3)")).isEmpty();
        assertThat(warnings("SELECT * FROM tb.s WHERE k = 1")).isEmpty();
    }

    @Test
    void eachPartitionOfAnInAndEachRangeScanIsOneRead() {
        assertThat(warnings("SELECT * FROM tb.t WHERE k IN (1, 2)")).containsExactly(
                warning(0, 1100, "SELECT * FROM tb.t WHERE k = 1", -4069959284402364209L),
                warning(1200, 1200, "SELECT * FROM tb.t WHERE k = 2", -3248873570005575792L));
        assertThat(warnings("SELECT * FROM tb.s")).containsExactly(
                warning(1100, 1100, "SELECT * FROM tb.s", 9215045062550449386L));
        assertThat(warnings("SELECT * FROM tb.t WHERE token(k) > 0")).containsExactly(
                warning(0, 1200, "SELECT * FROM tb.t WHERE token(k) > 0", 9010454139840013625L));
    }

    @Test
    void expiredCellsAreTombstones() throws Exception {
        PreparedStatement ttl = session.prepare("INSERT INTO tb.t (k, c, v) VALUES (5, ?, 1) USING TTL 1");
        for (int c = 0; c < 1100; c++) {
            session.execute(ttl.bind(c));
        }
        Thread.sleep(2500);
        assertThat(warnings("SELECT * FROM tb.t WHERE k = 5")).containsExactly(
                warning(0, 1100, "SELECT * FROM tb.t WHERE k = 5", -7509452495886106294L));
    }

    @Test
    void aReadBeyondTheFailureThresholdFailsAsCassandrasReadFailureAndTheNodeKeepsServing() {
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i <= 100_000; i++) {
            keys.add(i);
        }
        session.execute(session.prepare("UPDATE tb.f SET m = m - ? WHERE k = 6 AND c = 1").bind(keys));
        session.execute("INSERT INTO tb.f (k, c, m) VALUES (7, 1, {1: 1})");
        assertThatThrownBy(() -> session.execute("SELECT * FROM tb.f WHERE k = 6"))
                .isInstanceOfSatisfying(ReadFailureException.class, e -> {
                    // the Java driver words the message itself from the error's fields
                    assertThat(e.getMessage()).isEqualTo("Cassandra failure during read query at consistency "
                            + "LOCAL_ONE (1 responses were required but only 0 replica responded, 1 failed)");
                    assertThat(e.getReceived()).isZero();
                    assertThat(e.getBlockFor()).isEqualTo(1);
                    assertThat(e.getReasonMap().values()).containsExactly(1);
                });
        assertThatThrownBy(() -> session.execute("SELECT * FROM tb.f")).isInstanceOf(ReadFailureException.class);
        assertThat(session.execute("SELECT m FROM tb.f WHERE k = 7").one().getMap(0, Integer.class, Integer.class))
                .containsEntry(1, 1);
    }
}
