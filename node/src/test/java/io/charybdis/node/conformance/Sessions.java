package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;

import java.net.InetSocketAddress;
import java.time.Duration;

/** Driver sessions as the recorder and the test both open them: no schema or token metadata, long timeouts. */
final class Sessions {
    private Sessions() {
    }

    static CqlSession open(String host, int port) {
        return open(host, port, b -> b);
    }

    /** A session logged in as {@code user} (PlainTextAuthProvider); no credentials when {@code user} is null. */
    static CqlSession open(String host, int port, String user, String password) {
        return open(host, port, b -> user == null ? b : b.withAuthCredentials(user, password));
    }

    /** As {@link #open(String, int)}, with {@code builder} applied last (TLS, credentials). */
    static CqlSession open(String host, int port,
                           java.util.function.UnaryOperator<com.datastax.oss.driver.api.core.CqlSessionBuilder> builder) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, false)
                .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, false)
                .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, 5000)
                .build();
        return builder.apply(CqlSession.builder()
                .addContactPoint(new InetSocketAddress(host, port))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(config))
                .build();
    }
}
