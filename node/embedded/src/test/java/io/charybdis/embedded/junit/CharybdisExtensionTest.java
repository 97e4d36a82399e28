package io.charybdis.embedded.junit;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.embedded.EmbeddedCharybdis;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** One node for the class, an init script, restart inside a test: as an application's test would use it. */
@Timeout(120)
class CharybdisExtensionTest {

    @RegisterExtension
    static final CharybdisExtension charybdis = CharybdisExtension.newInstance().withInitScript("shop.cql");

    static int port;

    @BeforeAll
    static void rememberPort() {
        port = charybdis.node().port();
        assertThat(charybdis.contactPoint().getPort()).isEqualTo(port);
        assertThat(charybdis.localDatacenter()).isEqualTo("datacenter1");
    }

    @Test
    void shouldHandTheTestASessionToANodeWithTheInitScriptApplied(CqlSession session) {
        assertThat(session.execute("SELECT item FROM shop.orders WHERE id = 1").one().getString("item"))
                .isEqualTo("book");
    }

    @Test
    void shouldReadWhatWasWrittenAfterARestartInsideTheTest(CqlSession session, EmbeddedCharybdis node) {
        session.execute("INSERT INTO shop.orders (id, item, qty) VALUES (2, 'pen', 5)");

        node.restart();

        assertThat(session.execute("SELECT qty FROM shop.orders WHERE id = 2").one().getInt("qty")).isEqualTo(5);
        assertThat(node.port()).isEqualTo(port);
    }

    @Test
    void shouldLetTheDriverBeConfiguredByTheApplicationFromContactPointAndDatacenter() {
        try (CqlSession own = CqlSession.builder().addContactPoint(charybdis.contactPoint())
                .withLocalDatacenter(charybdis.localDatacenter()).build()) {
            assertThat(own.execute("SELECT count(*) FROM shop.orders WHERE id = 1").one().getLong(0)).isEqualTo(1);
        }
    }

    @Nested
    class NestedTests {
        @Test
        void shouldShareTheOuterClassNode(EmbeddedCharybdis node) {
            assertThat(node.port()).isEqualTo(port);
        }
    }
}
