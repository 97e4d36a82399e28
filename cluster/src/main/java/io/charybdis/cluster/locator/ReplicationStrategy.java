package io.charybdis.cluster.locator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a keyspace's replicas of a token live: Cassandra's strategies, built from a keyspace's {@code replication}
 * map as the schema stores it ({@code class} with Cassandra's qualified names, and the strategy's options).
 */
public sealed interface ReplicationStrategy
        permits ReplicationStrategy.Local, ReplicationStrategy.Simple, NetworkTopologyStrategy {

    /** The replicas of {@code token}, primary first; {@code self} is this node (for node-local keyspaces). */
    List<Endpoint> replicas(long token, TokenRing ring, Endpoint self);

    /** Replicas in all data centres together. */
    int replicationFactor();

    /** Replicas in one data centre ({@link #replicationFactor()} when the strategy does not place by DC). */
    int replicationFactor(String datacenter);

    String LOCAL = "org.apache.cassandra.locator.LocalStrategy";
    String SIMPLE = "org.apache.cassandra.locator.SimpleStrategy";
    String NETWORK_TOPOLOGY = "org.apache.cassandra.locator.NetworkTopologyStrategy";

    /**
     * The strategy of a keyspace's replication map; the map has been validated when the keyspace was created, so
     * an unknown class here is a bug.
     */
    static ReplicationStrategy of(Map<String, String> replication) {
        String cls = replication.getOrDefault("class", SIMPLE);
        if (!cls.contains(".")) {
            cls = "org.apache.cassandra.locator." + cls;
        }
        return switch (cls) {
            case LOCAL -> Local.INSTANCE;
            case SIMPLE -> new Simple(Integer.parseInt(replication.getOrDefault("replication_factor", "1").trim()));
            case NETWORK_TOPOLOGY -> {
                Map<String, Integer> dcs = new LinkedHashMap<>();
                for (Map.Entry<String, String> e : replication.entrySet()) {
                    if (!e.getKey().equals("class")) {
                        dcs.put(e.getKey(), Integer.parseInt(e.getValue().trim()));
                    }
                }
                yield new NetworkTopologyStrategy(dcs);
            }
            default -> throw new IllegalArgumentException("unknown replication strategy class=" + cls);
        };
    }

    /** Node-local data (the {@code system} and {@code system_schema} keyspaces): this node only. */
    final class Local implements ReplicationStrategy {
        public static final Local INSTANCE = new Local();

        private Local() {
        }

        @Override
        public List<Endpoint> replicas(long token, TokenRing ring, Endpoint self) {
            return List.of(self);
        }

        @Override
        public int replicationFactor() {
            return 1;
        }

        @Override
        public int replicationFactor(String datacenter) {
            return 1;
        }

        @Override
        public String toString() {
            return "LocalStrategy";
        }
    }

    /** The next {@code rf} distinct endpoints clockwise from the token, racks and data centres ignored. */
    record Simple(int rf) implements ReplicationStrategy {
        @Override
        public List<Endpoint> replicas(long token, TokenRing ring, Endpoint self) {
            int wanted = Math.min(rf, ring.endpoints().size());
            if (wanted == 1 && ring.endpoints().size() == 1) {
                return ring.endpoints();
            }
            List<Endpoint> out = new ArrayList<>(wanted);
            int start = ring.indexOf(token);
            for (int i = 0; i < ring.size() && out.size() < wanted; i++) {
                Endpoint e = ring.owner((start + i) % ring.size());
                if (!out.contains(e)) {
                    out.add(e);
                }
            }
            return out;
        }

        @Override
        public int replicationFactor() {
            return rf;
        }

        @Override
        public int replicationFactor(String datacenter) {
            return rf;
        }
    }
}
