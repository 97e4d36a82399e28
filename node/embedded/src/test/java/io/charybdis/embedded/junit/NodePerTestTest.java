package io.charybdis.embedded.junit;

import com.datastax.oss.driver.api.core.CqlSession;
import io.charybdis.embedded.EmbeddedCharybdis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** On an instance field the extension gives every test a fresh node. */
@Timeout(120)
class NodePerTestTest {

    @RegisterExtension
    final CharybdisExtension charybdis = CharybdisExtension.newInstance().withConfig("cluster_name", "Per Test");

    static final Set<String> directories = new HashSet<>();

    @Test
    void firstNode(CqlSession session, EmbeddedCharybdis node) {
        assertFresh(session, node);
    }

    @Test
    void secondNode(CqlSession session, EmbeddedCharybdis node) {
        assertFresh(session, node);
    }

    private static void assertFresh(CqlSession session, EmbeddedCharybdis node) {
        assertThat(directories.add(node.directory().toString())).isTrue();
        assertThat(session.execute("SELECT cluster_name FROM system.local").one().getString(0)).isEqualTo("Per Test");
        assertThat(session.execute("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'ks'")
                .one()).isNull();
        session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }
}
