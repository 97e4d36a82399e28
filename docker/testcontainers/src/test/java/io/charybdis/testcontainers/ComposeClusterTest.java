package io.charybdis.testcontainers;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.github.dockerjava.api.command.InspectContainerResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docker/compose.yaml as a user runs it, with the override for engines without a bridge network
 * (docker/compose.hostnet.yaml: host networking, one loopback address per node): {@code docker-compose up} brings up
 * three nodes that turn healthy, each lists the other two in system.peers, and a keyspace replicated three times
 * takes a QUORUM write and read; {@code docker-compose down -v} removes the containers and volumes.
 *
 * <p>Needs a Docker engine and the Compose tool ({@code docker-compose}, v1.29 as Debian packages it, or
 * {@code COMPOSE_COMMAND}, e.g. "docker compose" for the v2 plugin); without either the test is skipped, saying
 * so. The nodes' addresses are the override's defaults (127.0.0.31-33) unless CHARYBDIS_NODE1_ADDRESS... are set.
 */
@Timeout(600)
class ComposeClusterTest {

    private static final String PROJECT = "charybdis-compose-test";

    @Test
    void shouldRunAThreeNodeClusterThatServesQuorumReadsAndWrites() throws Exception {
        String image = LocalImage.get();
        List<String> compose = composeCommand();
        Path dir = Path.of(System.getProperty("charybdis.repo", "../..")).resolve("docker").toAbsolutePath();
        List<String> base = new ArrayList<>(compose);
        base.addAll(List.of("-p", PROJECT, "-f", "compose.yaml", "-f", "compose.hostnet.yaml"));
        Map<String, String> env = Map.of("CHARYBDIS_IMAGE", image);
        String[] addresses = {address(1), address(2), address(3)};

        run(dir, env, base, "down", "-v"); // what an interrupted earlier run may have left
        try {
            Result up = run(dir, env, base, "up", "-d");
            assertThat(up.exit).as("docker-compose up: %s%s", up.output, logs(dir, env, base)).isZero();
            List<String> ids = List.of(run(dir, env, base, "ps", "-q").output.strip().split("\\s+"));
            assertThat(ids).as("containers of %s", PROJECT).hasSize(3);
            for (String id : ids) {
                assertThat(awaitHealthy(id, 240)).as("health of %s%s", id, logs(dir, env, base)).isEqualTo("healthy");
            }

            try (CqlSession session = CqlSession.builder().addContactPoint(new InetSocketAddress(addresses[0], 9042))
                    .withLocalDatacenter("dc1").build()) {
                // every node lists the other two as peers, in its data center and rack
                for (int i = 0; i < 3; i++) {
                    Node node = node(session, addresses[i]);
                    ResultSet local = session.execute(SimpleStatement.newInstance(
                            "SELECT cluster_name, data_center, rack FROM system.local").setNode(node));
                    Row row = local.one();
                    assertThat(row.getString("cluster_name")).isEqualTo("Charybdis Compose Cluster");
                    assertThat(row.getString("data_center")).isEqualTo("dc1");
                    assertThat(row.getString("rack")).isEqualTo("rack" + (i + 1));
                    List<String> peers = session.execute(SimpleStatement.newInstance(
                                    "SELECT peer FROM system.peers").setNode(node)).all().stream()
                            .map(r -> r.getInetAddress("peer").getHostAddress()).sorted().toList();
                    List<String> others = new ArrayList<>(List.of(addresses));
                    others.remove(i);
                    assertThat(peers).as("system.peers of %s", addresses[i]).containsExactlyElementsOf(
                            others.stream().sorted().toList());
                }

                session.execute("CREATE KEYSPACE orders WITH replication = "
                        + "{'class': 'NetworkTopologyStrategy', 'dc1': 3}");
                session.execute("CREATE TABLE orders.items (id int PRIMARY KEY, what text)");
                for (int i = 0; i < 3; i++) { // a QUORUM write and read coordinated by each node
                    Node node = node(session, addresses[i]);
                    session.execute(SimpleStatement.newInstance("INSERT INTO orders.items (id, what) VALUES (?, ?)",
                            i, "item " + i).setConsistencyLevel(ConsistencyLevel.QUORUM).setNode(node));
                }
                for (int i = 0; i < 3; i++) {
                    Node node = node(session, addresses[(i + 1) % 3]);
                    Row row = session.execute(SimpleStatement.newInstance(
                                    "SELECT what FROM orders.items WHERE id = ?", i)
                            .setConsistencyLevel(ConsistencyLevel.QUORUM).setNode(node)).one();
                    assertThat(row).as("row %d read at QUORUM through %s", i, addresses[(i + 1) % 3]).isNotNull();
                    assertThat(row.getString("what")).isEqualTo("item " + i);
                }
            }
        } finally {
            Result down = run(dir, env, base, "down", "-v");
            assertThat(down.exit).as("docker-compose down -v: %s", down.output).isZero();
        }
        assertThat(run(dir, env, base, "ps", "-q").output.strip()).as("containers left after down").isEmpty();
        assertThat(DockerClientFactory.instance().client().listVolumesCmd().exec().getVolumes().stream()
                .map(v -> v.getName()).filter(n -> n.startsWith(PROJECT)).toList()).as("volumes left after down -v")
                .isEmpty();
    }

    private static String address(int node) {
        String given = System.getenv("CHARYBDIS_NODE" + node + "_ADDRESS");
        return given != null && !given.isBlank() ? given : "127.0.0.3" + node;
    }

    private static Node node(CqlSession session, String address) {
        return session.getMetadata().getNodes().values().stream()
                .filter(n -> n.getEndPoint().resolve() instanceof InetSocketAddress a
                        && a.getAddress().getHostAddress().equals(address))
                .findFirst().orElseThrow(() -> new AssertionError("the driver does not know a node at " + address
                        + ": " + session.getMetadata().getNodes().values()));
    }

    /** {@code COMPOSE_COMMAND} (split on spaces), else docker-compose from the PATH; skips the test without one. */
    private static List<String> composeCommand() {
        String given = System.getenv("COMPOSE_COMMAND");
        if (given != null && !given.isBlank()) {
            return List.of(given.strip().split("\\s+"));
        }
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            found |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, "docker-compose"));
        }
        assumeTrue(found, "SKIPPED: no docker-compose on the PATH (.ci/run installs it: apt-get install "
                + "docker-compose; or set COMPOSE_COMMAND)");
        return List.of("docker-compose");
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path dir, Map<String, String> env, List<String> base, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(base);
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> environment = new HashMap<>(env);
        environment.putIfAbsent("COMPOSE_INTERACTIVE_NO_CLI", "1");
        pb.environment().putAll(environment);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes(); // until the process closes its output
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, String.join(" ", command) + " did not finish within 300 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static String logs(Path dir, Map<String, String> env, List<String> base) {
        try {
            return "\n--- docker-compose logs ---\n" + run(dir, env, base, "logs", "--no-color", "--tail=40").output
                    .lines().collect(Collectors.joining("\n"));
        } catch (IOException | InterruptedException e) {
            return "\n(no logs: " + e + ")";
        }
    }

    private static String awaitHealthy(String containerId, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String status = "none";
        while (System.nanoTime() < deadline) {
            InspectContainerResponse info = DockerClientFactory.instance().client()
                    .inspectContainerCmd(containerId).exec();
            status = info.getState().getHealth() != null ? info.getState().getHealth().getStatus() : "none";
            if ("healthy".equals(status) || !Boolean.TRUE.equals(info.getState().getRunning())) {
                return status;
            }
            Thread.sleep(1000);
        }
        return status;
    }
}
