package io.charybdis.embedded.junit;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Each test writes to the same unqualified table name; neither sees the other's rows. */
@Timeout(120)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeyspacePerTestTest {

    @RegisterExtension
    static final CharybdisExtension charybdis = CharybdisExtension.newInstance().withKeyspaceScript("tables.cql");

    static String firstKeyspace;

    @Test
    @Order(1)
    void firstTestWritesToItsOwnKeyspace(CqlSession session, TestKeyspace keyspace) {
        firstKeyspace = keyspace.name();
        assertThat(session.getKeyspace()).hasValueSatisfying(k -> assertThat(k.asInternal()).isEqualTo(keyspace.name()));
        session.execute("INSERT INTO events (id, at, what) VALUES (1, 1, 'first')");
        assertThat(session.execute("SELECT count(*) FROM events").one().getLong(0)).isEqualTo(1);
    }

    @Test
    @Order(2)
    void secondTestStartsEmptyAndTheFirstKeyspaceIsGone(CqlSession session, TestKeyspace keyspace) {
        assertThat(keyspace.name()).isNotEqualTo(firstKeyspace);
        assertThat(session.execute("SELECT count(*) FROM events").one().getLong(0)).isZero();
        assertThat(session.execute("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?",
                firstKeyspace).one()).isNull();
    }
}
