package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** INSERT JSON (DEFAULT NULL / UNSET) and SELECT JSON, through the Java driver. */
@Timeout(60)
class JsonStatementsTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE js WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE js.users (id int, name text, \"Age\" int, emails set<text>, at timestamp, "
                + "PRIMARY KEY (id, name))");
    }

    @AfterAll
    static void stop() throws Exception {
        session.close();
        node.close();
    }

    @Test
    void shouldInsertAndSelectJson() {
        session.execute("INSERT INTO js.users JSON '{\"id\": 1, \"name\": \"ann\", \"\\\"Age\\\"\": 30, "
                + "\"emails\": [\"a@x\", \"b@x\"], \"at\": \"2011-02-03 04:05:00.000Z\"}'");
        Row r = session.execute("SELECT JSON id, name, \"Age\", emails, at FROM js.users WHERE id = 1").one();
        assertThat(r.getColumnDefinitions().get(0).getName().asInternal()).isEqualTo("[json]");
        assertThat(r.getString(0)).isEqualTo("{\"id\": 1, \"name\": \"ann\", \"\\\"Age\\\"\": 30, "
                + "\"emails\": [\"a@x\", \"b@x\"], \"at\": \"2011-02-03 04:05:00.000Z\"}");
    }

    @Test
    void shouldHonourDefaultUnset() {
        session.execute("INSERT INTO js.users JSON '{\"id\": 2, \"name\": \"bob\", \"\\\"Age\\\"\": 40}'");
        session.execute(SimpleStatement.newInstance("INSERT INTO js.users JSON ? DEFAULT UNSET",
                "{\"id\": 2, \"name\": \"bob\", \"emails\": [\"c@x\"]}"));
        Row r = session.execute("SELECT \"Age\", emails FROM js.users WHERE id = 2 AND name = 'bob'").one();
        assertThat(r.getInt(0)).isEqualTo(40);
        session.execute("INSERT INTO js.users JSON '{\"id\": 2, \"name\": \"bob\"}'");
        Row nulled = session.execute("SELECT \"Age\" FROM js.users WHERE id = 2 AND name = 'bob'").one();
        assertThat(nulled.isNull(0)).isTrue();
    }

    @Test
    void shouldConvertWithToJsonAndFromJson() {
        session.execute("INSERT INTO js.users (id, name, emails) VALUES (5, 'eve', fromJson('[\"e@x\"]'))");
        Row r = session.execute("SELECT toJson(emails), toJson(name) FROM js.users WHERE id = 5").one();
        assertThat(r.getString(0)).isEqualTo("[\"e@x\"]");
        assertThat(r.getString(1)).isEqualTo("\"eve\"");
    }

    @Test
    void shouldRejectBadJson() {
        assertThatThrownBy(() -> session.execute("INSERT INTO js.users JSON '{\"id\": 3, \"nope\": 1}'"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("unrecognized column");
        assertThatThrownBy(() -> session.execute("INSERT INTO js.users JSON '{\"id\": \"x\", \"name\": \"a\"}'"))
                .isInstanceOf(InvalidQueryException.class);
    }
}
