package io.charybdis.node.system;

import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Cassandra 5.0's system keyspaces, as drivers and cqlsh expect them, and the virtual tables that serve them.
 *
 * <p>Every table of {@code system}, {@code system_schema}, {@code system_auth}, {@code system_distributed},
 * {@code system_traces}, {@code system_views} and {@code system_virtual_schema} exists with Cassandra's columns,
 * ids and options (see {@link SystemTableDefinitions}). Those of {@code system_auth} and {@code system_traces} are
 * stored tables (roles and permissions, trace sessions and events, written through the coordinator), and so is
 * {@code system.compaction_history} (see {@link CompactionHistoryTable}); all others are virtual (computed on read,
 * never stored). The
 * ones clients read have rows: {@code system.local}, {@code system.peers(_v2)}, {@code system_schema.*},
 * {@code system_virtual_schema.*}; the others answer with no rows.
 *
 * <p>Both maps are immutable and built once per JVM.
 */
public final class SystemKeyspaces {
    /** The keyspaces Cassandra lists in {@code system_virtual_schema} rather than {@code system_schema}. */
    public static final Set<String> VIRTUAL_KEYSPACES = Set.of("system_views", "system_virtual_schema");

    private SystemKeyspaces() {
    }

    private static final class Holder {
        static final Map<String, KeyspaceMetadata> BUILT_IN =
                Collections.unmodifiableMap(SystemTableDefinitions.load());
        static final Map<String, Map<String, VirtualTable>> TABLES = tables(BUILT_IN);
    }

    /** Every system keyspace with its tables, keyed by name; {@code virtual()} is true for all of them. */
    public static Map<String, KeyspaceMetadata> builtIn() {
        return Holder.BUILT_IN;
    }

    /** Whether the keyspace is one of Cassandra's virtual keyspaces (system_views, system_virtual_schema). */
    public static boolean isVirtualKeyspace(String keyspace) {
        return VIRTUAL_KEYSPACES.contains(keyspace);
    }

    /** The virtual table serving {@code keyspace.table}, or null when it is not a system table. */
    public static VirtualTable find(String keyspace, String table) {
        Map<String, VirtualTable> ks = Holder.TABLES.get(keyspace);
        return ks == null ? null : ks.get(table);
    }

    /** Every virtual table. */
    public static Collection<VirtualTable> all() {
        return Holder.TABLES.values().stream().flatMap(m -> m.values().stream()).toList();
    }

    private static Map<String, Map<String, VirtualTable>> tables(Map<String, KeyspaceMetadata> builtIn) {
        Map<String, Map<String, VirtualTable>> out = new LinkedHashMap<>();
        for (KeyspaceMetadata ks : builtIn.values()) {
            Map<String, VirtualTable> tables = new LinkedHashMap<>();
            for (TableMetadata t : ks.tables().values()) {
                if (t.isVirtual()) {
                    tables.put(t.name(), create(t));
                }
            }
            out.put(ks.name(), Collections.unmodifiableMap(tables));
        }
        return Collections.unmodifiableMap(out);
    }

    private static VirtualTable create(TableMetadata t) {
        if (t.keyspace().equals("system") && t.name().equals("local")) {
            return LocalTable.create(t);
        }
        if (t.keyspace().equals("system") && t.name().equals("peers")) {
            return new ComputedTable(t, (out, schema, node) -> {
                for (NodeInfo.Peer p : node.peers()) {
                    out.row().set("peer", p.address()).set("data_center", p.dataCenter()).set("host_id", p.hostId())
                            .set("preferred_ip", p.address()).set("rack", p.rack())
                            .set("release_version", p.releaseVersion()).set("rpc_address", p.rpcAddress())
                            .set("schema_version", p.schemaVersion())
                            .set("tokens", new java.util.LinkedHashSet<>(p.tokens()));
                }
            });
        }
        if (t.keyspace().equals("system") && t.name().equals("peers_v2")) {
            return new ComputedTable(t, (out, schema, node) -> {
                for (NodeInfo.Peer p : node.peers()) {
                    out.row().set("peer", p.address()).set("peer_port", p.storagePort())
                            .set("data_center", p.dataCenter()).set("host_id", p.hostId())
                            .set("native_address", p.rpcAddress()).set("native_port", p.nativePort())
                            .set("preferred_ip", p.address()).set("preferred_port", p.storagePort())
                            .set("rack", p.rack()).set("release_version", p.releaseVersion())
                            .set("schema_version", p.schemaVersion())
                            .set("tokens", new java.util.LinkedHashSet<>(p.tokens()));
                }
            });
        }
        if (t.keyspace().equals("system") && (t.name().equals("size_estimates")
                || t.name().equals("table_estimates"))) {
            boolean withRangeType = t.name().equals("table_estimates");
            return new ComputedTable(t, (out, schema, node) -> {
                if (node != null && node.sizeEstimates() != null) {
                    node.sizeEstimates().fill(out, schema, withRangeType);
                }
            });
        }
        if (t.keyspace().equals("system") && t.name().equals("IndexInfo")) {
            // the native indexes this node has built, by keyspace (Cassandra's table_name column holds the keyspace)
            return new ComputedTable(t, (out, schema, node) -> {
                for (var ks : new java.util.TreeMap<>(schema.keyspaces()).values()) {
                    java.util.TreeMap<String, Boolean> names = new java.util.TreeMap<>();
                    for (TableMetadata table : ks.tables().values()) {
                        for (var idx : table.indexes().values()) {
                            if (node != null && node.indexes().isBuilt(table, idx)) {
                                names.put(idx.name(), true);
                            }
                        }
                    }
                    for (String n : names.keySet()) {
                        out.row().set("table_name", ks.name()).set("index_name", n);
                    }
                }
            });
        }
        if (t.keyspace().equals("system_schema") || t.keyspace().equals("system_virtual_schema")) {
            ComputedTable.Filler f = SchemaTables.filler(t.keyspace(), t.name());
            if (f != null) {
                return new ComputedTable(t, f);
            }
        }
        return ComputedTable.empty(t);
    }
}
