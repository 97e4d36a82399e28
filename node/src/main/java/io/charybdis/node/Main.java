package io.charybdis.node;

import io.charybdis.node.config.BuildInfo;
import io.charybdis.node.config.ConfigurationException;
import io.charybdis.node.config.NodeConfig;
import io.charybdis.node.config.NodeConfigLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server process's entry point, started by {@code bin/charybdis}: parses the command line, loads the
 * configuration, starts a {@link CharybdisNode}, and closes it on SIGTERM / SIGINT (a JVM shutdown hook).
 *
 * <pre>
 * io.charybdis.node.Main [--config PATH] [--smp N] [--version] [--help]
 * </pre>
 *
 * The configuration file is, first found: {@code --config}, the {@code charybdis.config} system property, the
 * {@code CHARYBDIS_CONF} environment variable, {@code <charybdis.home>/conf/charybdis.yaml}; with none, the
 * built-in defaults. If the {@code charybdis.pidfile} system property names a file, the process id is written
 * there at startup and the file removed at shutdown.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    static final String USAGE = """
            Usage: charybdis [-f] [--config PATH] [--smp N] [-Dcharybdis.<key>=<value> ...]
              -f              run in the foreground (bin/charybdis only; the default is to daemonize)
              --config PATH   the YAML configuration file (default: conf/charybdis.yaml)
              --smp N         number of shards (threads); default: one per available processor
              --version       print the version and exit
              -Dcharybdis.<key>=<value> or CHARYBDIS_<KEY>=<value> overrides any configuration key.""";

    private Main() {
    }

    public static void main(String[] args) {
        CommandLine commandLine;
        try {
            commandLine = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("charybdis: " + e.getMessage());
            System.err.println(USAGE);
            deletePidFile(pidFile());
            System.exit(2);
            return;
        }
        if (commandLine.help() || commandLine.version()) {
            System.out.println(commandLine.help() ? USAGE : "Charybdis " + BuildInfo.version());
            deletePidFile(pidFile()); // the launcher wrote it before exec
            return;
        }
        Thread.setDefaultUncaughtExceptionHandler(
                (thread, e) -> LOG.error("Uncaught exception in thread {}", thread.getName(), e));

        NodeConfig config;
        try {
            config = loadConfig(commandLine, System.getenv(), System.getProperties());
        } catch (ConfigurationException e) {
            LOG.error("Invalid configuration: {}", e.getMessage());
            System.err.println("charybdis: invalid configuration: " + e.getMessage());
            deletePidFile(pidFile());
            System.exit(1);
            return;
        }
        LOG.info("Charybdis {} on Java {} ({}), pid {}, base directory {}", BuildInfo.version(),
                Runtime.version(), System.getProperty("java.vm.name"), ProcessHandle.current().pid(), config.baseDirectory());
        LOG.info("Node configuration: {}", config.asMap());

        Path pidFile = pidFile();
        AtomicReference<CharybdisNode> running = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(running, pidFile, stopped), "charybdis-shutdown"));
        writePidFile(pidFile);

        try {
            PartitionFile partitions = PartitionFile.fromSystemProperty(); // test-only network partitions
            running.set(partitions == null ? CharybdisNode.start(config) : CharybdisNode.start(config, partitions));
        } catch (ConfigurationException e) {
            LOG.error("Invalid configuration: {}", e.getMessage());
            System.err.println("charybdis: invalid configuration: " + e.getMessage());
            System.exit(1);
            return;
        } catch (Throwable e) {
            LOG.error("Charybdis failed to start: {}", e.toString(), e);
            System.err.println("charybdis: failed to start: " + e);
            System.exit(1);
            return;
        }
        running.get().onStopRequest(() -> System.exit(0)); // nodetool stopdaemon; the shutdown hook closes the node
        LOG.info("Charybdis {} {}", BuildInfo.version(), running.get().describeListening());

        // The node's own threads keep the JVM alive; waiting here also covers daemon-thread event loops.
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The configuration as Main would load it; package-private for tests. */
    static NodeConfig loadConfig(CommandLine commandLine, Map<String, String> env, Properties properties) {
        Path file = configFile(commandLine, env, properties);
        Map<String, String> flags = new LinkedHashMap<>();
        if (commandLine.smp() != null) {
            flags.put("smp", commandLine.smp().toString());
        }
        return new NodeConfigLoader(env, properties).load(file, flags);
    }

    static Path configFile(CommandLine commandLine, Map<String, String> env, Properties properties) {
        if (commandLine.config() != null) {
            return Path.of(commandLine.config());
        }
        String property = properties.getProperty("charybdis.config");
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String variable = env.get("CHARYBDIS_CONF");
        if (variable != null && !variable.isBlank()) {
            return Path.of(variable);
        }
        Path inHome = NodeConfig.defaultBaseDirectory(properties).resolve("conf").resolve("charybdis.yaml");
        return Files.isRegularFile(inHome) ? inHome : null;
    }

    private static void shutdown(AtomicReference<CharybdisNode> running, Path pidFile, CountDownLatch stopped) {
        try {
            CharybdisNode node = running.getAndSet(null);
            if (node != null) {
                LOG.info("Shutting down: closing client connections, syncing the commit log");
                node.close();
                LOG.info("Charybdis stopped cleanly");
            }
        } catch (Throwable e) {
            LOG.error("Error during shutdown", e);
        } finally {
            deletePidFile(pidFile);
            stopped.countDown();
        }
    }

    private static Path pidFile() {
        String name = System.getProperty("charybdis.pidfile");
        return name == null || name.isBlank() ? null : Path.of(name).toAbsolutePath();
    }

    private static void writePidFile(Path pidFile) {
        if (pidFile == null) {
            return;
        }
        try {
            Files.writeString(pidFile, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            LOG.warn("Cannot write pid file {}: {}", pidFile, e.toString());
        }
    }

    private static void deletePidFile(Path pidFile) {
        if (pidFile == null) {
            return;
        }
        try {
            String content = Files.readString(pidFile, StandardCharsets.US_ASCII).trim();
            if (content.equals(Long.toString(ProcessHandle.current().pid()))) {
                Files.delete(pidFile);
            }
        } catch (IOException e) {
            // already gone, or replaced by another process's: leave it
        }
    }

    /** The parsed command line; {@code -f} is accepted and ignored (the launcher handles it). */
    record CommandLine(String config, Integer smp, boolean help, boolean version) {

        static CommandLine parse(String... args) {
            String config = null;
            Integer smp = null;
            boolean help = false;
            boolean version = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String inlineValue = null;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    inlineValue = arg.substring(eq + 1);
                    arg = arg.substring(0, eq);
                }
                switch (arg) {
                    case "-f", "--foreground" -> { }
                    case "-h", "--help" -> help = true;
                    case "-v", "--version" -> version = true;
                    case "--config" -> config = inlineValue != null ? inlineValue : value(args, ++i, arg);
                    case "--smp" -> {
                        String v = inlineValue != null ? inlineValue : value(args, ++i, arg);
                        try {
                            smp = Integer.parseInt(v.trim());
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--smp needs a number of shards, got '" + v + "'");
                        }
                        if (smp < 1) {
                            throw new IllegalArgumentException("--smp must be at least 1, got " + smp);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
            return new CommandLine(config, smp, help, version);
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length || args[i].startsWith("--")) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return args[i];
        }
    }
}
