package io.charybdis.node;

import io.charybdis.cluster.ClusterMetadata;
import io.charybdis.cluster.Coordinator;
import io.charybdis.cluster.Liveness;
import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.storage.Storage;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/** Builds the node's {@link Coordinator}: the schema tells it each table's replication. */
public final class NodeCoordinator {
    private NodeCoordinator() {
    }

    /** The coordinator of a node that is alone in its ring, owning {@code tokens}. */
    public static Coordinator singleNode(Storage storage, SchemaManager schemas, Endpoint self, List<Long> tokens) {
        return new Coordinator(storage, ClusterMetadata.singleNode(self, tokens), table -> {
            return replication(schemas, table);
        }, Liveness.ALL_ALIVE);
    }

    /** The coordinator of a cluster member: the ring of the metadata log, replicas on other nodes over messaging. */
    public static Coordinator clustered(Storage storage, SchemaManager schemas, io.charybdis.cluster.ClusterMetadata metadata,
                                        io.charybdis.cluster.replica.Replicas replicas, Liveness liveness,
                                        io.charybdis.cluster.hints.HintsService hints) {
        Coordinator c = new Coordinator(storage, metadata, table -> {
            return replication(schemas, table);
        }, liveness, replicas, Coordinator.DEFAULT_WRITE_TIMEOUT_MILLIS, Coordinator.DEFAULT_READ_TIMEOUT_MILLIS, hints);
        c.speculativeRetry(new SpeculativeRetryOfTable(schemas));
        return c;
    }

    /** Each table's speculative_retry option, from an index rebuilt when the schema changes (read on every read). */
    private static final class SpeculativeRetryOfTable
            implements java.util.function.Function<io.charybdis.storage.TableId, String> {
        private final SchemaManager schemas;
        private volatile io.charybdis.node.schema.Schema indexed;
        private volatile java.util.Map<UUID, String> byTable = java.util.Map.of();

        SpeculativeRetryOfTable(SchemaManager schemas) {
            this.schemas = schemas;
        }

        @Override
        public String apply(io.charybdis.storage.TableId table) {
            io.charybdis.node.schema.Schema schema = schemas.schema();
            if (schema != indexed) {
                java.util.Map<UUID, String> m = new java.util.HashMap<>();
                for (KeyspaceMetadata ks : schema.keyspaces().values()) {
                    for (io.charybdis.node.schema.TableMetadata t : ks.tables().values()) {
                        m.put(t.id(), t.params().speculativeRetry());
                    }
                }
                byTable = m;
                indexed = schema;
            }
            return byTable.get(table.uuid());
        }
    }

    /** A table's replication: its keyspace's; a native index's node-local table is LocalStrategy's. */
    private static java.util.Map<String, String> replication(SchemaManager schemas, io.charybdis.storage.TableId table) {
        io.charybdis.node.schema.Schema schema = schemas.schema();
        KeyspaceMetadata ks = schema.keyspaceOfTable(table.uuid());
        if (ks == null && schema.isIndexTable(table.uuid())) {
            return java.util.Map.of("class", io.charybdis.cluster.locator.ReplicationStrategy.LOCAL);
        }
        return ks == null ? null : ks.replication();
    }

    /** A single-node coordinator with a made-up identity (one token), for tests and benchmarks of one process. */
    public static Coordinator forTests(Storage storage, SchemaManager schemas) {
        return singleNode(storage, schemas, new Endpoint(UUID.randomUUID(), InetAddress.getLoopbackAddress(), 7000,
                "datacenter1", "rack1", storage.shardCount()), List.of(0L));
    }
}
