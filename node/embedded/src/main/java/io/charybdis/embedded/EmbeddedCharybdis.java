package io.charybdis.embedded;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.cqlscript.CqlScript;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.config.NodeConfigLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real Charybdis node running inside the caller's JVM: the same server {@code bin/charybdis} runs, on free ports
 * of 127.0.0.1, with its data in a temporary directory (or one the caller names).
 *
 * <pre>{@code
 * try (EmbeddedCharybdis node = EmbeddedCharybdis.builder().build().start();
 *      CqlSession session = node.newSession()) {
 *     session.execute("SELECT release_version FROM system.local");
 * }
 * }</pre>
 *
 * <p>Implementation notes:
 * <ul>
 *   <li>Nothing is static: every instance owns its node, ports and directory, so several run side by side in one
 *       JVM. The node's configuration comes only from the builder (cassandra.yaml key names, as
 *       {@code conf/charybdis.yaml}); the JVM's {@code charybdis.*} properties and {@code CHARYBDIS_*} environment
 *       are deliberately not read.</li>
 *   <li>The CQL ports are chosen free at the first start and kept for the instance's life, so a {@link #restart()}
 *       comes back where clients expect it, with the data it had (commit log replayed, SSTables reopened).</li>
 *   <li>{@link #restart()} returns once every open session made by {@link #newSession()} answers a query again,
 *       so a test can query right after it.</li>
 *   <li>{@link #close()} stops the node and deletes the data directory if this instance created it.</li>
 * </ul>
 */
public final class EmbeddedCharybdis implements AutoCloseable {

    /** The datacenter the node reports; what drivers need as their local datacenter. */
    public static final String LOCAL_DATACENTER = "datacenter1";

    private static final Duration RECONNECT_WAIT = Duration.ofSeconds(30);
    private static final Set<String> SYSTEM_KEYSPACES = Set.of("system", "system_schema", "system_auth",
            "system_distributed", "system_traces", "system_views", "system_virtual_schema");

    private final Map<String, String> settings;
    private final Path directory;
    private final boolean deleteOnClose;
    private final List<CqlSession> sessions = new CopyOnWriteArrayList<>();
    private CharybdisNode node;
    /** For execute() and the reset helpers; closed on stop. */
    private CqlSession internalSession;
    private int nativePort;
    private int shardAwarePort;
    private boolean closed;

    private EmbeddedCharybdis(Builder b) throws IOException {
        JvmFlags.check();
        this.deleteOnClose = b.directory == null;
        this.directory = b.directory != null ? b.directory.toAbsolutePath() : Files.createTempDirectory("charybdis-");
        this.settings = new LinkedHashMap<>(b.settings);
        this.nativePort = b.nativePort;
        this.shardAwarePort = b.shardAwarePort;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A node with the defaults (one shard, 128 MiB off-heap budget, no JMX, a temporary directory), started. */
    public static EmbeddedCharybdis startNew() {
        return builder().build().start();
    }

    /** Starts the node; returns once clients can connect. Does nothing if it is running. */
    public synchronized EmbeddedCharybdis start() {
        if (closed) {
            throw new IllegalStateException("this EmbeddedCharybdis is closed; build a new one");
        }
        if (node != null) {
            return this;
        }
        NodeConfig config = config();
        try {
            node = CharybdisNode.start(config);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Charybdis could not start in " + directory + ": " + e, e);
        }
        nativePort = node.nativePort();
        shardAwarePort = node.shardAwarePort();
        return this;
    }

    /** Stops the node (memtables flushed, commit log synced); its data stays for a later {@link #start()}. */
    public synchronized void stop() {
        if (internalSession != null) {
            internalSession.close();
            internalSession = null;
        }
        if (node != null) {
            node.close();
            node = null;
        }
    }

    /**
     * Stops and starts the node on the same ports and data, then waits (up to 30 s) until the sessions from
     * {@link #newSession()} have reconnected.
     */
    public void restart() {
        synchronized (this) {
            stop();
            start();
        }
        awaitSessionsReconnected();
    }

    public synchronized boolean isRunning() {
        return node != null;
    }

    /** Where drivers connect: 127.0.0.1 and the CQL port. */
    public InetSocketAddress contactPoint() {
        return new InetSocketAddress("127.0.0.1", port());
    }

    public synchronized int port() {
        requireStarted();
        return nativePort;
    }

    /** The ScyllaDB-style shard-aware CQL port. */
    public synchronized int shardAwarePort() {
        requireStarted();
        return shardAwarePort;
    }

    public String localDatacenter() {
        return LOCAL_DATACENTER;
    }

    /** The node's base directory (data, commit log, saved caches, hints below it). */
    public Path directory() {
        return directory;
    }

    /** The running node itself, for what this API does not cover; null when stopped. */
    public synchronized CharybdisNode node() {
        return node;
    }

    /** A driver session builder with the contact point, local datacenter and quick reconnection set. */
    public CqlSessionBuilder sessionBuilder() {
        return CqlSession.builder()
                .addContactPoint(contactPoint())
                .withLocalDatacenter(LOCAL_DATACENTER)
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(50))
                        .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(1))
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        // a DDL statement completes after the driver's debounced metadata refresh (1 s by default)
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(10))
                        // the native clock loads jnr-posix (about 0.2 s of a cold start); microseconds suffice
                        .withBoolean(DefaultDriverOption.TIMESTAMP_GENERATOR_FORCE_JAVA_CLOCK, true)
                        .build());
    }

    /** A new session to this node; {@link #restart()} waits for it to reconnect while it is open. */
    public CqlSession newSession() {
        return track(sessionBuilder().build());
    }

    /** A new session whose queries run in {@code keyspace}. */
    public CqlSession newSession(String keyspace) {
        return track(sessionBuilder().withKeyspace(keyspace).build());
    }

    /** Runs each statement of a CQL script (see {@link CqlScript}) in order. */
    public void execute(CqlScript script) {
        script.executeIn(internalSession());
    }

    /** Runs one CQL statement. */
    public void execute(String statement) {
        internalSession().execute(statement);
    }

    /**
     * Empties every table outside the system keyspaces (TRUNCATE), keeping the schema: a cheap reset between
     * tests that share a node.
     */
    public void truncateAllTables() {
        CqlSession session = internalSession();
        for (Row row : session.execute("SELECT keyspace_name, table_name FROM system_schema.tables")) {
            String keyspace = row.getString(0);
            if (!SYSTEM_KEYSPACES.contains(keyspace)) {
                session.execute("TRUNCATE " + CqlIdentifier.fromInternal(keyspace).asCql(true) + "."
                        + CqlIdentifier.fromInternal(row.getString(1)).asCql(true));
            }
        }
    }

    /** Drops every keyspace outside the system keyspaces. */
    public void dropAllKeyspaces() {
        CqlSession session = internalSession();
        for (Row row : session.execute("SELECT keyspace_name FROM system_schema.keyspaces")) {
            String keyspace = row.getString(0);
            if (!SYSTEM_KEYSPACES.contains(keyspace)) {
                session.execute("DROP KEYSPACE " + CqlIdentifier.fromInternal(keyspace).asCql(true));
            }
        }
    }

    private synchronized CqlSession internalSession() {
        requireRunning();
        if (internalSession == null) {
            internalSession = sessionBuilder().build();
        }
        return internalSession;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
        if (deleteOnClose) {
            Directories.deleteRecursively(directory);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedCharybdis[" + (node != null ? "127.0.0.1:" + nativePort : "stopped") + ", " + directory + "]";
    }

    private CqlSession track(CqlSession session) {
        sessions.removeIf(CqlSession::isClosed);
        sessions.add(session);
        return session;
    }

    /**
     * Waits until every open session from {@link #newSession()} answers a query again. The driver's view of the node
     * (state, open connections) can still show the connections of before the restart for a moment, so only an answer
     * proves the session reconnected.
     */
    private void awaitSessionsReconnected() {
        long deadline = System.nanoTime() + RECONNECT_WAIT.toNanos();
        SimpleStatement probe = SimpleStatement.newInstance("SELECT release_version FROM system.local")
                .setTimeout(Duration.ofSeconds(2));
        for (CqlSession s : sessions) {
            while (!s.isClosed()) {
                try {
                    s.execute(probe);
                    break;
                } catch (RuntimeException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("a session did not reconnect within " + RECONNECT_WAIT
                                + " after the restart of " + this, e);
                    }
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for sessions to reconnect", e);
                }
            }
        }
        sessions.removeIf(CqlSession::isClosed);
    }

    private void requireRunning() {
        if (node == null) {
            throw new IllegalStateException(closed ? "this EmbeddedCharybdis is closed" : "the node is not running: call start()");
        }
    }

    private void requireStarted() {
        if (nativePort == 0) {
            throw new IllegalStateException("the node has not been started yet: call start()");
        }
    }

    private NodeConfig config() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("smp", "1");
        values.put("memory_budget", "128MiB");
        values.put("commitlog_segment_size", "8MiB");
        values.put("prometheus_port", "-1"); // no metrics endpoint; config("prometheus_port", "0") for one
        values.put("jmx_port", "-1"); // no JMX server: about a third of a cold start; config("jmx_port", "0") for one
        values.putAll(settings);
        values.put("native_transport_port", Integer.toString(nativePort));
        values.put("native_shard_aware_transport_port", Integer.toString(shardAwarePort));
        values.put("listen_address", "127.0.0.1");
        values.put("rpc_address", "127.0.0.1");
        Properties properties = new Properties();
        properties.setProperty("charybdis.home", directory.toString());
        return new NodeConfigLoader(Map.of(), properties).load(null, values);
    }

    /** Settings of a node to be built; cassandra.yaml key names as in {@code conf/charybdis.yaml}. */
    public static final class Builder {
        private final Map<String, String> settings = new LinkedHashMap<>();
        private Path directory;
        private int nativePort;
        private int shardAwarePort;

        private Builder() {
        }

        /**
         * Sets a configuration key as {@code conf/charybdis.yaml} would, value as text (e.g.
         * {@code config("authenticator", "PasswordAuthenticator")}, {@code config("commitlog_sync", "batch")}).
         * Addresses and CQL ports are this class's to choose.
         */
        public Builder config(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (key.equals("native_transport_port") || key.equals("native_shard_aware_transport_port")
                    || key.equals("listen_address") || key.equals("rpc_address")) {
                throw new IllegalArgumentException(key + " is chosen by EmbeddedCharybdis; use port(int) for "
                        + "a fixed CQL port");
            }
            settings.put(key, value);
            return this;
        }

        /** Number of shards (default 1: tests rarely need more, and each shard is a thread). */
        public Builder shards(int shards) {
            if (shards < 1) {
                throw new IllegalArgumentException("shards=" + shards + " must be at least 1");
            }
            return config("smp", Integer.toString(shards));
        }

        /** Keeps data, commit log and caches in {@code dir} (kept on close) instead of a temporary directory. */
        public Builder directory(Path dir) {
            this.directory = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /** A fixed CQL port instead of a free one (0). */
        public Builder port(int port) {
            this.nativePort = port;
            return this;
        }

        /** A fixed shard-aware CQL port instead of a free one (0). */
        public Builder shardAwarePort(int port) {
            this.shardAwarePort = port;
            return this;
        }

        /** The node, not started: call {@link EmbeddedCharybdis#start()}. */
        public EmbeddedCharybdis build() {
            try {
                return new EmbeddedCharybdis(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary directory for the node", e);
            }
        }
    }
}
