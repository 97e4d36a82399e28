package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(120)
class DriverRoundTripTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        node.close();
    }

    @Test
    void shouldCreateWriteAndReadBack() {
        session.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
                + "'replication_factor': 1}");
        session.execute("CREATE TABLE IF NOT EXISTS ks.t (pk int, ck text, v bigint, PRIMARY KEY (pk, ck))");
        session.execute("INSERT INTO ks.t (pk, ck, v) VALUES (1, 'a', 10)");
        session.execute("INSERT INTO ks.t (pk, ck, v) VALUES (1, 'b', 20)");
        List<Row> rows = session.execute("SELECT * FROM ks.t WHERE pk = 1").all();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getString("ck")).isEqualTo("a");
        assertThat(rows.get(1).getLong("v")).isEqualTo(20L);
    }
}
