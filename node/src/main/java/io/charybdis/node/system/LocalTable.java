package io.charybdis.node.system;

import io.charybdis.node.schema.TableMetadata;

import java.util.LinkedHashSet;

/**
 * {@code system.local}: the one row that tells a driver who this node is. Drivers read it on every control
 * connection ({@code SELECT * FROM system.local WHERE key='local'}) and compare {@code schema_version} with the
 * peers' to decide when schema agreement is reached.
 */
final class LocalTable {
    private LocalTable() {
    }

    static ComputedTable create(TableMetadata metadata) {
        return new ComputedTable(metadata, (out, schema, node) -> out.row()
                .set("key", "local")
                .set("bootstrapped", "COMPLETED")
                .set("broadcast_address", node.listenAddress())
                .set("broadcast_port", node.storagePort())
                .set("cluster_name", node.clusterName())
                .set("cql_version", node.cqlVersion())
                .set("data_center", node.dataCenter())
                .set("gossip_generation", (int) (node.startedAtMillis() / 1000))
                .set("host_id", node.hostId())
                .set("listen_address", node.listenAddress())
                .set("listen_port", node.storagePort())
                .set("native_protocol_version", node.nativeProtocolVersion())
                .set("partitioner", node.partitioner())
                .set("rack", node.rack())
                .set("release_version", node.releaseVersion())
                .set("rpc_address", node.rpcAddress())
                .set("rpc_port", node.nativePort())
                .set("schema_version", schema.version())
                .set("tokens", new LinkedHashSet<>(node.tokens())));
    }
}
