package io.charybdis.testcontainers;

import com.datastax.oss.driver.api.core.CqlSession;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Network;
import io.charybdis.cqlscript.CqlScript;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Locale;

/**
 * The Charybdis image in Testcontainers, usable where an application has Testcontainers'
 * {@code CassandraContainer}: the same {@code withInitScript}, {@code withConfigurationOverride},
 * {@code getContactPoint}, {@code getLocalDatacenter}, {@code getUsername}/{@code getPassword}, and a wait strategy
 * that waits for a CQL query to succeed.
 *
 * <pre>{@code
 * try (CharybdisContainer charybdis = new CharybdisContainer("charybdis:latest").withInitScript("schema.cql")) {
 *     charybdis.start();
 *     CqlSession session = CqlSession.builder().addContactPoint(charybdis.getContactPoint())
 *             .withLocalDatacenter(charybdis.getLocalDatacenter()).build();
 * }
 * }</pre>
 *
 * <p>Differences from {@code CassandraContainer}, none visible to a test: the init script runs through the Java
 * driver from the test JVM (the image has no {@code cqlsh}); the wait strategy runs the image's
 * {@code cql-health}.
 *
 * <p>Networking: on an engine without a bridge network (e.g. {@code dockerd --bridge=none}) ports cannot be
 * published, so the container then shares the host's network and listens on free ports of 127.0.0.1
 * ({@link #getContactPoint()} says which). The system property {@code charybdis.testcontainers.network}
 * ({@code auto}, {@code host} or {@code bridge}) overrides the choice.
 */
public class CharybdisContainer extends GenericContainer<CharybdisContainer> {

    public static final int CQL_PORT = 9042;
    public static final int SHARD_AWARE_CQL_PORT = 19042;
    public static final int JMX_PORT = 7199;

    private static final String DEFAULT_LOCAL_DATACENTER = "datacenter1";
    private static final String CONTAINER_CONFIG_LOCATION = "/etc/cassandra";
    private static final String USERNAME = "cassandra";
    private static final String PASSWORD = "cassandra";
    /** On the host's network the node listens on the engine machine's loopback, where the tests run. */
    private static final String LOOPBACK = "127.0.0.1";

    private String configLocation;
    private String initScriptPath;
    private boolean hostNetwork;
    private int hostCqlPort;
    private int hostShardAwarePort;
    private int hostJmxPort;

    public CharybdisContainer(String dockerImageName) {
        this(DockerImageName.parse(dockerImageName));
    }

    public CharybdisContainer(DockerImageName dockerImageName) {
        super(dockerImageName);
        addExposedPorts(CQL_PORT, SHARD_AWARE_CQL_PORT);
        withEnv("CASSANDRA_DC", DEFAULT_LOCAL_DATACENTER);
        // sized for a test: a 512 MiB heap and a 256 MiB off-heap budget for memtables and cache
        withEnv("MAX_HEAP_SIZE", "512M");
        withEnv("CHARYBDIS_MEMORY_BUDGET", "256MiB");
        waitingFor(new CharybdisQueryWaitStrategy());
    }

    /** A classpath directory copied over {@code /etc/cassandra}; its {@code cassandra.yaml} configures the node. */
    public CharybdisContainer withConfigurationOverride(String configLocation) {
        this.configLocation = configLocation;
        return self();
    }

    /** A CQL script on the class path, run once the node answers CQL; a failing statement fails the start. */
    public CharybdisContainer withInitScript(String initScriptPath) {
        this.initScriptPath = initScriptPath;
        return self();
    }

    public String getUsername() {
        return USERNAME;
    }

    public String getPassword() {
        return PASSWORD;
    }

    /** Host and port where the test JVM reaches the CQL port. */
    public InetSocketAddress getContactPoint() {
        return hostNetwork ? new InetSocketAddress(LOOPBACK, hostCqlPort)
                : new InetSocketAddress(getHost(), getMappedPort(CQL_PORT));
    }

    /** Host and port of the shard-aware CQL port (ScyllaDB's protocol extension). */
    public InetSocketAddress getShardAwareContactPoint() {
        return hostNetwork ? new InetSocketAddress(LOOPBACK, hostShardAwarePort)
                : new InetSocketAddress(getHost(), getMappedPort(SHARD_AWARE_CQL_PORT));
    }

    public String getLocalDatacenter() {
        return getEnvMap().getOrDefault("CASSANDRA_DC", DEFAULT_LOCAL_DATACENTER);
    }

    /** Whether the container shares the host's network (see the class comment). */
    public boolean usesHostNetwork() {
        return hostNetwork;
    }

    @Override
    protected void configure() {
        if (configLocation != null) {
            MountableFile dir = MountableFile.forClasspathResource(configLocation);
            withCopyFileToContainer(dir, CONTAINER_CONFIG_LOCATION);
        }
        hostNetwork = useHostNetwork();
        if (hostNetwork) {
            setExposedPorts(List.of());
            withNetworkMode("host");
            hostCqlPort = freePort();
            hostShardAwarePort = freePort();
            hostJmxPort = freePort();
            if (!getEnvMap().containsKey("CASSANDRA_LISTEN_ADDRESS")) {
                withEnv("CASSANDRA_LISTEN_ADDRESS", LOOPBACK);
            }
            withEnv("CASSANDRA_RPC_ADDRESS", LOOPBACK);
            withEnv("CHARYBDIS_NATIVE_TRANSPORT_PORT", Integer.toString(hostCqlPort));
            withEnv("CHARYBDIS_NATIVE_SHARD_AWARE_TRANSPORT_PORT", Integer.toString(hostShardAwarePort));
            withEnv("CHARYBDIS_JMX_PORT", Integer.toString(hostJmxPort));
        }
    }

    @Override
    protected void containerIsStarted(InspectContainerResponse containerInfo) {
        if (initScriptPath != null) {
            runInitScript();
        }
    }

    private void runInitScript() {
        CqlScript script = CqlScript.fromClasspath(initScriptPath);
        try (CqlSession session = CqlSession.builder().addContactPoint(getContactPoint())
                .withLocalDatacenter(getLocalDatacenter()).withAuthCredentials(USERNAME, PASSWORD).build()) {
            script.executeIn(session);
        }
    }

    private static boolean useHostNetwork() {
        String choice = System.getProperty("charybdis.testcontainers.network", "auto").toLowerCase(Locale.ROOT);
        return switch (choice) {
            case "host" -> true;
            case "bridge" -> false;
            case "auto" -> {
                List<Network> networks = DockerClientFactory.instance().client().listNetworksCmd().exec();
                yield networks.stream().noneMatch(n -> "bridge".equals(n.getName()) && "bridge".equals(n.getDriver()));
            }
            default -> throw new IllegalArgumentException("charybdis.testcontainers.network=" + choice
                    + " must be auto, host or bridge");
        };
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port", e);
        }
    }
}
