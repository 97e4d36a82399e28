package io.charybdis.node.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where this node says it is: its data centre and rack, from {@code endpoint_snitch} as Cassandra's snitches place
 * a node. {@code SimpleSnitch} puts every node in {@code datacenter1}/{@code rack1};
 * {@code GossipingPropertyFileSnitch} reads {@code dc} and {@code rack} (and {@code dc_suffix}) from
 * {@code cassandra-rackdc.properties}, and the cluster metadata carries them to every other node. Other snitches
 * (cloud metadata, topology files) are refused at startup, naming the key.
 *
 * <p>The properties file is found as Cassandra finds it: the system property {@code cassandra-rackdc.properties}
 * (a path), else next to the YAML configuration file, else in {@code conf/} of the base directory.
 */
public record Snitch(String name, String datacenter, String rack) {
    public static final String SIMPLE = "SimpleSnitch";
    public static final String GOSSIPING_PROPERTY_FILE = "GossipingPropertyFileSnitch";
    public static final String RACKDC_FILE = "cassandra-rackdc.properties";

    public static Snitch of(NodeConfig config) {
        return switch (config.endpointSnitch()) {
            case SIMPLE -> new Snitch(SIMPLE, "datacenter1", "rack1");
            case GOSSIPING_PROPERTY_FILE -> fromProperties(config);
            default -> throw new ConfigurationException("endpoint_snitch: " + config.endpointSnitch() + " is not "
                    + "supported by Charybdis; use SimpleSnitch or GossipingPropertyFileSnitch (with dc and rack in "
                    + RACKDC_FILE + ")");
        };
    }

    /** The fully qualified class name, as nodetool and system tables show it. */
    public String className() {
        return "org.apache.cassandra.locator." + name;
    }

    private static Snitch fromProperties(NodeConfig config) {
        Path file = locate(config);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new ConfigurationException("endpoint_snitch: GossipingPropertyFileSnitch cannot read " + file + ": "
                    + e.getMessage(), e);
        }
        String dc = trimmed(p.getProperty("dc"));
        String rack = trimmed(p.getProperty("rack"));
        if (dc == null || rack == null) {
            throw new ConfigurationException("endpoint_snitch: DC or rack not found in snitch properties " + file
                    + ": GossipingPropertyFileSnitch needs both dc= and rack=");
        }
        String suffix = trimmed(p.getProperty("dc_suffix"));
        return new Snitch(GOSSIPING_PROPERTY_FILE, suffix == null ? dc : dc + suffix, rack);
    }

    static Path locate(NodeConfig config) {
        List<Path> tried = new ArrayList<>();
        String property = System.getProperty(RACKDC_FILE);
        if (property != null && !property.isBlank()) {
            Path p = Path.of(property.startsWith("file:") ? property.substring(5) : property);
            if (Files.isRegularFile(p)) {
                return p;
            }
            throw new ConfigurationException("endpoint_snitch: GossipingPropertyFileSnitch: " + p
                    + " (system property " + RACKDC_FILE + ") does not exist");
        }
        if (config.configDirectory() != null) {
            Path p = config.configDirectory().resolve(RACKDC_FILE);
            if (Files.isRegularFile(p)) {
                return p;
            }
            tried.add(p);
        }
        Path p = config.baseDirectory().resolve("conf").resolve(RACKDC_FILE);
        if (Files.isRegularFile(p)) {
            return p;
        }
        tried.add(p);
        throw new ConfigurationException("endpoint_snitch: GossipingPropertyFileSnitch needs " + RACKDC_FILE
                + " with dc= and rack=; none at " + tried);
    }

    private static String trimmed(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
