package io.charybdis.embedded.junit;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/** The shortest form: {@code @ExtendWith} with the defaults, one node for the class. */
@Timeout(120)
@ExtendWith(CharybdisExtension.class)
class DeclarativeExtensionTest {

    @Test
    void shouldHandTheTestASession(CqlSession session) {
        assertThat(session.execute("SELECT data_center, rack FROM system.local").one().getString("data_center"))
                .isEqualTo("datacenter1");
    }
}
