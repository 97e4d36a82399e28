package io.charybdis.testcontainers;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.github.dockerjava.api.command.InspectContainerResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.output.ToStringConsumer;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The image itself: the official image's variables (seeds forming a cluster), the health check, the user, its
 * nodetool and cqlsh, a restart.
 */
@Timeout(300)
class CharybdisImageTest {

    private static String image;

    @BeforeEach // not @BeforeAll: without an engine each test then shows as skipped, with the reason
    void image() {
        image = LocalImage.get();
    }

    @Test
    void shouldApplyTheOfficialImagesVariablesAndTurnHealthy() throws Exception {
        try (CharybdisContainer c = new CharybdisContainer(image)
                .withEnv("CASSANDRA_CLUSTER_NAME", "Orders Cluster")
                .withEnv("CASSANDRA_DC", "datacenter1")
                .withEnv("CASSANDRA_RACK", "rack1")
                .withEnv("CASSANDRA_ENDPOINT_SNITCH", "GossipingPropertyFileSnitch")
                .withEnv("CASSANDRA_NUM_TOKENS", "4")
                .withEnv("CASSANDRA_SEEDS", "127.0.0.1")
                .withEnv("HEAP_NEWSIZE", "128M")
                .withEnv("JVM_OPTS", "-Dcassandra.skip_wait_for_gossip_to_settle=0")) {
            c.start();
            try (CqlSession session = session(c)) {
                Row local = session.execute("SELECT cluster_name, data_center, rack, tokens FROM system.local").one();
                assertThat(local.getString("cluster_name")).isEqualTo("Orders Cluster");
                assertThat(local.getString("data_center")).isEqualTo("datacenter1");
                assertThat(local.getString("rack")).isEqualTo("rack1");
                assertThat(local.getSet("tokens", String.class)).hasSize(4);
            }
            assertThat(awaitHealth(c, Duration.ofSeconds(90))).isEqualTo("healthy");
            assertThat(c.execInContainer("id", "-u").getStdout().strip()).isEqualTo("999");
            // the image's nodetool talks to its node over JMX
            ExecResult status = c.execInContainer("nodetool", "status");
            assertThat(status.getExitCode()).as(status.getStdout() + status.getStderr()).isZero();
            assertThat(status.getStdout()).contains("Datacenter: datacenter1").containsPattern("(?m)^UN ");
            // the image's cqlsh talks to its node over CQL, on the port the container listens on
            ExecResult clusterName = cqlsh(c, "-e", "SELECT cluster_name FROM system.local");
            assertThat(clusterName.getStdout()).containsPattern("(?m)^ Orders Cluster\\s*$").contains("(1 rows)");
            ExecResult roundTrip = cqlsh(c, "-e", "CREATE KEYSPACE image_cqlsh WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}; "
                    + "CREATE TABLE image_cqlsh.orders (id int PRIMARY KEY, item text); "
                    + "INSERT INTO image_cqlsh.orders (id, item) VALUES (7, 'written by cqlsh'); "
                    + "SELECT id, item FROM image_cqlsh.orders WHERE id = 7");
            assertThat(roundTrip.getStdout()).containsPattern("(?m)^ +7 \\| written by cqlsh\\s*$")
                    .contains("(1 rows)");
            try (CqlSession session = session(c)) { // and the driver reads what cqlsh wrote
                assertThat(session.execute("SELECT item FROM image_cqlsh.orders WHERE id = 7").one().getString(0))
                        .isEqualTo("written by cqlsh");
            }
            // a failing statement fails the command, as in Apache's cqlsh
            ExecResult missing = c.execInContainer("cqlsh", "-e", "SELECT * FROM image_cqlsh.missing");
            assertThat(missing.getExitCode()).isNotZero();
            assertThat(missing.getStderr()).contains("table missing does not exist");
            assertThat(c.getLogs()).contains("HEAP_NEWSIZE=128M is not used");
        }
    }

    @Test
    void shouldFormAClusterWithTheNodesItsSeedsName() {
        int storageA = freePort(), storageB = freePort();
        String seeds = "127.0.0.2:" + storageA + ",127.0.0.3:" + storageB;
        try (CharybdisContainer a = member("127.0.0.2", storageA, seeds);
             CharybdisContainer b = member("127.0.0.3", storageB, seeds)) {
            a.start();
            b.start();
            try (CqlSession session = session(a)) {
                // the driver sees both nodes: each question goes to the node it is about
                java.util.UUID hostB = onNode(session, b, "SELECT host_id FROM system.local").one().getUuid(0);
                Row peer = onNode(session, a, "SELECT peer, host_id FROM system.peers_v2").one();
                assertThat(peer).isNotNull();
                assertThat(peer.getInetAddress("peer").getHostAddress()).isEqualTo("127.0.0.3");
                assertThat(peer.getUuid("host_id")).isEqualTo(hostB);
            }
        }
    }

    private static com.datastax.oss.driver.api.core.cql.ResultSet onNode(CqlSession session, CharybdisContainer c,
                                                                       String cql) {
        com.datastax.oss.driver.api.core.metadata.Node node = session.getMetadata().getNodes().values().stream()
                .filter(n -> n.getEndPoint().resolve() instanceof java.net.InetSocketAddress a
                        && a.getPort() == c.getContactPoint().getPort())
                .findFirst().orElseThrow();
        return session.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(cql).setNode(node));
    }

    /** Each member on its own loopback address (internode and metadata ports there), CQL on 127.0.0.1. */
    private static CharybdisContainer member(String listenAddress, int storagePort, String seeds) {
        return new CharybdisContainer(image).withEnv("CASSANDRA_CLUSTER_NAME", "Two Containers")
                .withEnv("CASSANDRA_LISTEN_ADDRESS", listenAddress)
                .withEnv("CASSANDRA_SEEDS", seeds)
                .withEnv("CHARYBDIS_STORAGE_PORT", Integer.toString(storagePort))
                .withEnv("CHARYBDIS_METADATA_PORT", Integer.toString(freePort()));
    }

    private static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldPlaceItselfInTheDataCenterAndRackItsSnitchReads() {
        try (CharybdisContainer c = new CharybdisContainer(image).withEnv("CASSANDRA_DC", "dc2")
                .withEnv("CASSANDRA_RACK", "r7").withEnv("CASSANDRA_ENDPOINT_SNITCH", "GossipingPropertyFileSnitch")) {
            c.start();
            try (CqlSession session = CqlSession.builder().addContactPoint(c.getContactPoint())
                    .withLocalDatacenter("dc2").build()) {
                Row local = session.execute("SELECT data_center, rack FROM system.local").one();
                assertThat(local.getString("data_center")).isEqualTo("dc2");
                assertThat(local.getString("rack")).isEqualTo("r7");
            }
        }
    }

    @Test
    void shouldRefuseASnitchItCannotServe() {
        assertFailsNaming(new CharybdisContainer(image).withEnv("CASSANDRA_ENDPOINT_SNITCH", "Ec2Snitch"),
                "CASSANDRA_ENDPOINT_SNITCH=Ec2Snitch");
    }

    @Test
    void shouldKeepDataAcrossAContainerRestart() {
        try (CharybdisContainer c = new CharybdisContainer(image).withInitScript("initial.cql")) {
            c.start();
            c.getDockerClient().restartContainerCmd(c.getContainerId()).exec();
            new CharybdisQueryWaitStrategy().waitUntilReady(c);
            try (CqlSession session = session(c)) {
                assertThat(session.execute("SELECT name FROM keySpaceTest.catalog_category WHERE id = 1").one()
                        .getString(0)).isEqualTo("test_category");
            }
        }
    }

    @Test
    void shouldLoginWithTheUsernameAndPasswordItReportsWhenAuthenticationIsOn() throws Exception {
        try (CharybdisContainer c = new CharybdisContainer(image)
                .withEnv("CHARYBDIS_AUTHENTICATOR", "PasswordAuthenticator")
                .withInitScript("initial.cql")) {
            c.start();
            try (CqlSession session = CqlSession.builder().addContactPoint(c.getContactPoint())
                    .withLocalDatacenter(c.getLocalDatacenter())
                    .withAuthCredentials(c.getUsername(), c.getPassword()).build()) {
                assertThat(session.execute("SELECT count(*) FROM keySpaceTest.catalog_category").one().getLong(0))
                        .isEqualTo(1);
            }
            assertThat(cqlsh(c, "-u", c.getUsername(), "-p", c.getPassword(), "-e",
                    "SELECT name FROM keySpaceTest.catalog_category WHERE id = 1").getStdout())
                    .containsPattern("(?m)^ +test_category\\s*$");
            ExecResult anonymous = c.execInContainer("cqlsh", "-e", "SELECT name FROM keySpaceTest.catalog_category");
            assertThat(anonymous.getExitCode()).isNotZero();
            assertThat(anonymous.getStdout() + anonymous.getStderr()).contains("AuthenticationFailed");
        }
    }

    private static void assertFailsNaming(CharybdisContainer container, String message) {
        ToStringConsumer output = new ToStringConsumer();
        try (container) {
            assertThatThrownBy(container.withLogConsumer(output)::start).isInstanceOf(ContainerLaunchException.class);
        }
        assertThat(output.toUtf8String()).contains(message);
    }

    /** Runs the image's cqlsh in the container; it must succeed. */
    private static ExecResult cqlsh(CharybdisContainer c, String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "cqlsh";
        System.arraycopy(args, 0, command, 1, args.length);
        ExecResult result = c.execInContainer(command);
        assertThat(result.getExitCode()).as("cqlsh %s%n%s%s", String.join(" ", args), result.getStdout(),
                result.getStderr()).isZero();
        return result;
    }

    private static CqlSession session(CharybdisContainer c) {
        return CqlSession.builder().addContactPoint(c.getContactPoint()).withLocalDatacenter(c.getLocalDatacenter())
                .build();
    }

    private static String awaitHealth(CharybdisContainer c, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String status = "none";
        while (System.nanoTime() < deadline) {
            InspectContainerResponse info = c.getDockerClient().inspectContainerCmd(c.getContainerId()).exec();
            InspectContainerResponse.ContainerState state = info.getState();
            status = state.getHealth() != null ? state.getHealth().getStatus() : "none";
            if ("healthy".equals(status)) {
                return status;
            }
            Thread.sleep(500);
        }
        return status;
    }
}
