package io.charybdis.stress;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An in-process Charybdis node on free ports (2 shards, data in a temporary folder) for a test class's end-to-end
 * tests: {@code @RegisterExtension static final InProcessNode NODE = new InProcessNode();} starts it before the
 * class's tests and stops it after. Aborts (skips) the class only while {@link CharybdisNode#start} is the
 * placeholder that throws {@link UnsupportedOperationException}. {@link #stress} runs a charybdis-stress command
 * line in this JVM.
 */
final class InProcessNode implements BeforeAllCallback, AfterAllCallback {

    private Path dir;
    private CharybdisNode node;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("charybdis-stress-node");
        NodeConfig config = NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).smp(2).build();
        try {
            node = CharybdisNode.start(config);
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("CharybdisNode.start is still the placeholder: " + e.getMessage());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (node != null) {
            node.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    int port() {
        return node.nativePort();
    }

    /** {@code -node 127.0.0.1 -port native=PORT}, to append to a command line. */
    String target() {
        return " -node 127.0.0.1 -port native=" + port();
    }

    /** A driver session to check what a run wrote. */
    CqlSession session() {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", port()))
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, "DcInferringLoadBalancingPolicy")
                        .build())
                .build();
    }

    /** Runs a charybdis-stress command line (split at spaces), checks its exit status, and returns its output. */
    static String stress(String line, int expectedStatus) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int status = Main.run(line.split(" "), out, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.println("$ charybdis-stress " + line + "\n" + text);
        assertThat(status).as(text).isEqualTo(expectedStatus);
        return text;
    }
}
