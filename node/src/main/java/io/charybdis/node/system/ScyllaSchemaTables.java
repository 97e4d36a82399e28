package io.charybdis.node.system;

import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * ScyllaDB's {@code system_schema.scylla_keyspaces} and {@code system_schema.scylla_tables}, which ScyllaDB's drivers
 * read at schema time once a node advertises ScyllaDB's protocol extension (as Charybdis does, for shard awareness).
 * They answer queries with what ScyllaDB would store for Charybdis's keyspaces and tables, but are not listed in
 * {@code system_schema.tables} (a Cassandra 5.0 node lists no such tables, and Cassandra wins where the two differ).
 *
 * <p>Contents, as ScyllaDB writes them: {@code scylla_keyspaces} has a row only for a keyspace with tablets, a
 * non-local storage or a consistency option, so none here (every keyspace uses vnodes and local storage);
 * {@code scylla_tables} has a row per table of the replicated keyspaces with its schema {@code version} and no
 * {@code partitioner} (the default, Murmur3), {@code cdc}, {@code tablets} or other option.
 */
public final class ScyllaSchemaTables {
    private ScyllaSchemaTables() {
    }

    private static final class Holder {
        static final Map<String, VirtualTable> TABLES = tables();
    }

    /** The table serving {@code keyspace.table}, or null when it is not one of these. */
    public static VirtualTable find(String keyspace, String table) {
        return keyspace.equals("system_schema") ? Holder.TABLES.get(table) : null;
    }

    private static Map<String, VirtualTable> tables() {
        KeyspaceMetadata ks = SystemTableDefinitions.load("scylla_tables.tsv").get("system_schema");
        Map<String, VirtualTable> out = new LinkedHashMap<>();
        for (TableMetadata t : ks.tables().values()) {
            ComputedTable.Filler filler = switch (t.name()) {
                case "scylla_tables" -> (rows, schema, node) -> {
                    for (KeyspaceMetadata k : schema.keyspaces().values()) {
                        if (SystemKeyspaces.isVirtualKeyspace(k.name())) {
                            continue;
                        }
                        for (TableMetadata table : k.tables().values()) {
                            rows.row().set("keyspace_name", k.name()).set("table_name", table.name())
                                    .set("version", version(table));
                        }
                    }
                };
                default -> (rows, schema, node) -> {
                };
            };
            out.put(t.name(), new ComputedTable(t, filler));
        }
        return Collections.unmodifiableMap(out);
    }

    /** A table's schema version: changes with its columns and options, the same on every node. */
    static UUID version(TableMetadata t) {
        String definition = t.id() + "|" + t.allColumns() + "|" + t.params() + "|" + t.droppedColumns().keySet();
        return UUID.nameUUIDFromBytes(definition.getBytes(StandardCharsets.UTF_8));
    }
}
