package io.charybdis.stress.settings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code -schema}: the keyspace to create (if missing) and its replication, and the tables' compaction and
 * compression. {@code replicationOptions} holds {@code replication_factor} (from {@code factor=}) and any per-DC
 * counts given for NetworkTopologyStrategy.
 */
public record SchemaSettings(String keyspace, String replicationStrategy, Map<String, String> replicationOptions,
                             String compression, String compactionStrategy, Map<String, String> compactionOptions) {

    public static final String SIMPLE_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";

    static SchemaSettings parse(List<String> items) {
        Params p = new Params("-schema", items == null ? List.of() : items);
        Map<String, String> replication = p.call("replication");
        String keyspace = p.value("keyspace=");
        Map<String, String> compaction = p.call("compaction");
        String compression = p.value("compression=");
        p.finish();

        String strategy = SIMPLE_STRATEGY;
        Map<String, String> replicationOptions = new LinkedHashMap<>();
        if (replication != null) {
            for (Map.Entry<String, String> e : replication.entrySet()) {
                switch (e.getKey().toLowerCase(java.util.Locale.ROOT)) {
                    case "strategy" -> strategy = e.getValue();
                    case "factor" -> {
                        if (!e.getValue().matches("[0-9]+")) {
                            throw new SettingsException("Invalid value " + e.getValue() + "; must match pattern [0-9]+");
                        }
                        replicationOptions.put("replication_factor", e.getValue());
                    }
                    default -> replicationOptions.put(e.getKey(), e.getValue());
                }
            }
        }
        if (!replicationOptions.containsKey("replication_factor") && isSimple(strategy)) {
            replicationOptions.put("replication_factor", "1");
        }
        String compactionStrategy = null;
        Map<String, String> compactionOptions = new LinkedHashMap<>();
        if (compaction != null) {
            for (Map.Entry<String, String> e : compaction.entrySet()) {
                if (e.getKey().equalsIgnoreCase("strategy")) {
                    compactionStrategy = e.getValue();
                } else {
                    compactionOptions.put(e.getKey(), e.getValue());
                }
            }
        }
        return new SchemaSettings(keyspace == null ? "keyspace1" : keyspace, strategy,
                Collections.unmodifiableMap(replicationOptions), compression, compactionStrategy,
                Collections.unmodifiableMap(compactionOptions));
    }

    private static boolean isSimple(String strategy) {
        return strategy.equals(SIMPLE_STRATEGY) || strategy.equals("SimpleStrategy");
    }
}
