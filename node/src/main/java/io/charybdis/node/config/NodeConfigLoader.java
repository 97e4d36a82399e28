package io.charybdis.node.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Builds a {@link NodeConfig} from layered sources. Precedence, lowest first: built-in defaults, the YAML
 * file, environment variables {@code CHARYBDIS_<KEY>} (key upper-cased), system properties
 * {@code charybdis.<key>}, then command-line flags such as {@code --smp}. For each key the highest layer that
 * sets it (under its name or a legacy alias such as {@code commitlog_sync_period_in_ms}) wins; setting a key
 * twice in one layer (name and alias) is an error. Blank override values count as unset.
 *
 * <p>Unknown YAML keys and unknown {@code charybdis.*} system properties are reported as warnings, not failures;
 * unknown {@code CHARYBDIS_*} environment variables are ignored (the launcher uses some for itself). Keys of
 * cassandra.yaml that have no meaning here (thread pools, memtable heap sizes, ...) are accepted quietly.
 */
public final class NodeConfigLoader {

    private static final Logger LOG = LoggerFactory.getLogger(NodeConfigLoader.class);

    /** {@code charybdis.*} system properties the launcher and Main use, which are not configuration keys. */
    private static final Set<String> RESERVED_PROPERTIES = Set.of("home", "logdir", "config", "pidfile", "console.level",
            "test.partition_file");

    private final Map<String, String> environment;
    private final Properties systemProperties;
    private final List<String> warnings = new ArrayList<>();

    public NodeConfigLoader(Map<String, String> environment, Properties systemProperties) {
        this.environment = Map.copyOf(environment);
        this.systemProperties = systemProperties;
    }

    /**
     * Loads {@code yamlFile} ({@code null}: defaults only) and applies the overrides; {@code commandLine} maps
     * config keys to values given as flags (e.g. {@code smp -> 4}).
     */
    public NodeConfig load(Path yamlFile, Map<String, String> commandLine) {
        if (yamlFile == null) {
            return load(Map.of(), "defaults", commandLine);
        }
        String text;
        try {
            text = Files.readString(yamlFile, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException("configuration file " + yamlFile.toAbsolutePath() + " does not exist");
        } catch (IOException e) {
            throw new ConfigurationException("cannot read configuration file " + yamlFile.toAbsolutePath() + ": " + e, e);
        }
        return loadYaml(text, yamlFile.toAbsolutePath().toString(), commandLine);
    }

    /** Like {@link #load(Path, Map)} with the YAML given as text; {@code source} names it in messages. */
    public NodeConfig loadYaml(String yamlText, String source, Map<String, String> commandLine) {
        return load(parseYaml(yamlText, source), source, commandLine);
    }

    /** Warnings of the last load (unknown keys and the like), also logged. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    static Map<String, Object> parseYaml(String text, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(50);
        Object root;
        try (Reader reader = new java.io.StringReader(text)) {
            root = new Yaml(new SafeConstructor(options)).load(reader);
        } catch (YAMLException | IOException e) {
            throw new ConfigurationException("cannot parse " + source + ": " + e.getMessage(), e);
        }
        if (root == null) {
            return Map.of();
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new ConfigurationException(source + " must be a YAML mapping of keys to values, found " + typeName(root));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new ConfigurationException(source + ": key " + e.getKey() + " is not a string");
            }
            result.put(key, e.getValue());
        }
        return result;
    }

    private NodeConfig load(Map<String, Object> yaml, String yamlSource, Map<String, String> commandLine) {
        warnings.clear();
        List<Layer> layers = List.of(
                new Layer(yamlSource.equals("defaults") ? "defaults" : yamlSource, Layer.Kind.YAML, yaml),
                new Layer("environment", Layer.Kind.ENVIRONMENT, environmentValues()),
                new Layer("system properties", Layer.Kind.SYSTEM_PROPERTY, systemPropertyValues()),
                new Layer("command line", Layer.Kind.COMMAND_LINE, nonBlank(commandLine)));

        reportUnknown(yaml, yamlSource);
        ConfigKeys.refuseUnsupportedTransportSettings(yaml, yamlSource);
        ConfigKeys.refuseUnsupportedHintSettings(yaml, yamlSource);
        NodeConfig.Builder builder = NodeConfig.builder().baseDirectory(NodeConfig.defaultBaseDirectory(systemProperties));
        if (!yamlSource.equals("defaults")) {
            java.nio.file.Path parent = java.nio.file.Path.of(yamlSource).toAbsolutePath().getParent();
            builder.configDirectory(parent);
        }
        for (ConfigKeys.Key<?> key : ConfigKeys.ALL) {
            apply(key, layers, builder);
        }
        NodeConfig config = builder.build();
        for (String w : warnings) {
            LOG.warn(w);
        }
        return config;
    }

    private <T> void apply(ConfigKeys.Key<T> key, List<Layer> layers, NodeConfig.Builder builder) {
        for (int i = layers.size() - 1; i >= 0; i--) {
            Layer layer = layers.get(i);
            ConfigKeys.Alias<T> found = null;
            for (ConfigKeys.Alias<T> alias : key.names()) {
                if (layer.values().get(alias.name()) == null) {
                    continue;
                }
                if (found != null) {
                    throw new ConfigurationException("both " + layer.describe(found.name()) + " and "
                            + layer.describe(alias.name()) + " are set; keep only " + key.name());
                }
                found = alias;
            }
            if (found != null) {
                Object raw = layer.values().get(found.name());
                T value;
                try {
                    value = found.parser().parse(raw);
                } catch (IllegalArgumentException | ArithmeticException e) {
                    throw new ConfigurationException("invalid " + layer.describe(found.name()) + ": " + e.getMessage(), e);
                }
                key.setter().accept(builder, value);
                return;
            }
        }
    }

    private Map<String, Object> environmentValues() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String name : ConfigKeys.allNames()) {
            String v = environment.get(ConfigNames.ENVIRONMENT_PREFIX + name.toUpperCase(Locale.ROOT));
            if (v != null && !v.isBlank()) {
                values.put(name, v);
            }
        }
        return values;
    }

    private Map<String, Object> systemPropertyValues() {
        Map<String, Object> values = new LinkedHashMap<>();
        Set<String> known = ConfigKeys.allNames();
        Set<String> unknown = new TreeSet<>();
        for (String property : systemProperties.stringPropertyNames()) {
            if (!property.startsWith(ConfigNames.SYSTEM_PROPERTY_PREFIX)) {
                continue;
            }
            String name = property.substring(ConfigNames.SYSTEM_PROPERTY_PREFIX.length());
            String v = systemProperties.getProperty(property);
            if (known.contains(name)) {
                if (v != null && !v.isBlank()) {
                    values.put(name, v);
                }
            } else if (!RESERVED_PROPERTIES.contains(name) && !ConfigKeys.IGNORED.contains(name)) {
                unknown.add(property);
            }
        }
        if (!unknown.isEmpty()) {
            warnings.add("Ignoring unknown system properties " + unknown + " (not configuration keys)");
        }
        return values;
    }

    private void reportUnknown(Map<String, Object> yaml, String source) {
        Set<String> known = ConfigKeys.allNames();
        Set<String> unknown = new TreeSet<>();
        Set<String> ignored = new TreeSet<>();
        for (String key : yaml.keySet()) {
            if (ConfigKeys.IGNORED.contains(key)) {
                ignored.add(key);
            } else if (!known.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            warnings.add("Ignoring unknown configuration keys " + unknown + " in " + source);
        }
        if (!ignored.isEmpty()) {
            LOG.info("Not applicable to Charybdis, ignored: {} in {}", ignored, source);
        }
    }

    private static Map<String, Object> nonBlank(Map<String, String> values) {
        Map<String, Object> result = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                result.put(k, v);
            }
        });
        return result;
    }

    static String typeName(Object o) {
        if (o instanceof Map) {
            return "a mapping";
        }
        if (o instanceof List) {
            return "a list";
        }
        return o.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + o;
    }

    private record Layer(String source, Kind kind, Map<String, Object> values) {
        enum Kind { YAML, ENVIRONMENT, SYSTEM_PROPERTY, COMMAND_LINE }

        String describe(String key) {
            return switch (kind) {
                case YAML -> key + " in " + source;
                case ENVIRONMENT -> "environment variable " + ConfigNames.ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT);
                case SYSTEM_PROPERTY -> "system property " + ConfigNames.SYSTEM_PROPERTY_PREFIX + key;
                case COMMAND_LINE -> "command-line --" + key;
            };
        }
    }
}
