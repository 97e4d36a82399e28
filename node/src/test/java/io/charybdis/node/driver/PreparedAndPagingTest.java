package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.node.config.DataSize;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Prepared statements evicted from a small cache are re-prepared by the driver; paging state is portable. */
@Timeout(120)
class PreparedAndPagingTest {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode(b -> b.preparedStatementsCacheSize(DataSize.ofBytes(4096)));
        try (CqlSession s = node.session()) {
            s.execute("CREATE KEYSPACE pp WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE pp.t (p int, c int, v int, PRIMARY KEY (p, c))");
            for (int i = 0; i < 300; i++) {
                s.execute("INSERT INTO pp.t (p, c, v) VALUES (" + (i % 3) + ", " + i + ", " + i + ")");
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    @Test
    void shouldReprepareTransparentlyAfterEviction() {
        try (CqlSession s = node.session()) {
            PreparedStatement first = s.prepare("SELECT v FROM pp.t WHERE p = ? AND c = ?");
            List<PreparedStatement> others = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                others.add(s.prepare("SELECT v FROM pp.t WHERE p = ? AND c = " + i));
            }
            // the first statement was evicted from the node's cache by now: the driver gets UNPREPARED,
            // prepares it again and retries, without the application noticing
            Row r = s.execute(first.bind(1, 4)).one();
            assertThat(r.getInt(0)).isEqualTo(4);
            assertThat(s.execute(others.get(0).bind(0)).one().getInt(0)).isZero();
        }
    }

    @Test
    void shouldResumePagingOnAnotherConnection() {
        Set<Integer> seen = new HashSet<>();
        ByteBuffer state;
        try (CqlSession a = node.session()) {
            ResultSet page = a.execute(SimpleStatement.newInstance("SELECT c FROM pp.t").setPageSize(50));
            for (int i = 0; i < page.getAvailableWithoutFetching(); ) {
                seen.add(page.one().getInt(0));
                if (page.getAvailableWithoutFetching() == 0) {
                    break;
                }
            }
            state = page.getExecutionInfo().getPagingState();
            assertThat(state).isNotNull();
        }
        try (CqlSession b = node.session()) {
            ResultSet rest = b.execute(SimpleStatement.newInstance("SELECT c FROM pp.t").setPageSize(50)
                    .setPagingState(state));
            for (Row r : rest) {
                assertThat(seen.add(r.getInt(0))).as("row %s returned twice", r.getInt(0)).isTrue();
            }
        }
        assertThat(seen).hasSize(300);
    }
}
