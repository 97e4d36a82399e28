package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** Starts an in-process node on free ports in a temporary directory, and sessions to it through the Java driver. */
final class TestNode implements AutoCloseable {
    final Path dir;
    final UnaryOperator<NodeConfig.Builder> customize;
    CharybdisNode node;

    TestNode() throws Exception {
        this(Files.createTempDirectory("charybdis-test"));
    }

    TestNode(Path dir) throws Exception {
        this(dir, b -> b);
    }

    TestNode(UnaryOperator<NodeConfig.Builder> customize) throws Exception {
        this(Files.createTempDirectory("charybdis-test"), customize);
    }

    TestNode(Path dir, UnaryOperator<NodeConfig.Builder> customize) throws Exception {
        this.dir = dir;
        this.customize = customize;
        start();
    }

    void start() throws Exception {
        node = CharybdisNode.start(customize.apply(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2)).build());
    }

    void restart() throws Exception {
        node.close();
        start();
    }

    CqlSession session() {
        return session(b -> b);
    }

    CqlSession session(UnaryOperator<ProgrammaticDriverConfigLoaderBuilder> config) {
        return session(config, b -> b);
    }

    /** A session with driver settings {@code config}, and {@code builder} applied last (TLS, credentials). */
    CqlSession session(UnaryOperator<ProgrammaticDriverConfigLoaderBuilder> config, UnaryOperator<CqlSessionBuilder> builder) {
        ProgrammaticDriverConfigLoaderBuilder loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10));
        CqlSessionBuilder b = CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(config.apply(loader).build());
        return builder.apply(b).build();
    }

    @Override
    public void close() throws IOException {
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
