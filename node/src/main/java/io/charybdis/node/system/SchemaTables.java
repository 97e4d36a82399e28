package io.charybdis.node.system;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.CompactStorage;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TableParams;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.UserType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of {@code system_schema.*} and {@code system_virtual_schema.*}, computed from the live {@link Schema}
 * with the values Cassandra 5.0 stores.
 *
 * <p>Replicated keyspaces (user keyspaces and system, system_schema, system_auth, system_distributed,
 * system_traces) appear in {@code system_schema}; the virtual keyspaces (system_views, system_virtual_schema) in
 * {@code system_virtual_schema}. Like Cassandra, {@code system_schema.tables} writes {@code allow_auto_snapshot}
 * and {@code incremental_backups} only when false and {@code memtable} only when not {@code default}; {@code cdc}
 * stays null (Cassandra writes it only on nodes with CDC enabled, which Charybdis does not have).
 */
final class SchemaTables {
    private SchemaTables() {
    }

    static ComputedTable.Filler filler(String keyspace, String table) {
        if (keyspace.equals("system_virtual_schema")) {
            return switch (table) {
                case "keyspaces" -> (out, schema, node) -> virtualKeyspaces(out, schema);
                case "tables" -> (out, schema, node) -> virtualTables(out, schema);
                case "columns" -> (out, schema, node) -> columns(out, schema, true);
                default -> null;
            };
        }
        return switch (table) {
            case "keyspaces" -> (out, schema, node) -> keyspaces(out, schema);
            case "tables" -> (out, schema, node) -> tables(out, schema);
            case "columns" -> (out, schema, node) -> columns(out, schema, false);
            case "dropped_columns" -> (out, schema, node) -> droppedColumns(out, schema);
            case "types" -> (out, schema, node) -> types(out, schema);
            case "indexes" -> (out, schema, node) -> indexes(out, schema);
            default -> null; // functions, aggregates, views, triggers, column_masks: none on Charybdis
        };
    }

    private static List<KeyspaceMetadata> replicated(Schema schema) {
        List<KeyspaceMetadata> out = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.keyspaces().values()) {
            if (!SystemKeyspaces.isVirtualKeyspace(ks.name())) {
                out.add(ks);
            }
        }
        return out;
    }

    private static List<KeyspaceMetadata> virtual(Schema schema) {
        List<KeyspaceMetadata> out = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.keyspaces().values()) {
            if (SystemKeyspaces.isVirtualKeyspace(ks.name())) {
                out.add(ks);
            }
        }
        return out;
    }

    private static void keyspaces(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : replicated(schema)) {
            out.row().set("keyspace_name", ks.name())
                    .set("durable_writes", ks.durableWrites())
                    .set("replication", ks.replication());
        }
    }

    private static void tables(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : replicated(schema)) {
            for (TableMetadata t : ks.tables().values()) {
                TableParams p = t.params();
                Set<String> flags = new LinkedHashSet<>(t.compactStorage().flags(t));
                Map<String, ByteBuffer> extensions = new LinkedHashMap<>();
                p.extensions().forEach((k, v) -> extensions.put(k,
                        ByteBuffer.wrap(v.getBytes(StandardCharsets.UTF_8))));
                out.row().set("keyspace_name", ks.name())
                        .set("table_name", t.name())
                        .set("additional_write_policy", p.additionalWritePolicy())
                        .set("allow_auto_snapshot", p.allowAutoSnapshot() ? null : false)
                        .set("bloom_filter_fp_chance", p.bloomFilterFpChance())
                        .set("caching", p.caching())
                        .set("comment", p.comment())
                        .set("compaction", p.compaction())
                        .set("compression", p.compression())
                        .set("crc_check_chance", p.crcCheckChance())
                        .set("dclocal_read_repair_chance", 0.0)
                        .set("default_time_to_live", p.defaultTimeToLive())
                        .set("extensions", extensions)
                        .set("flags", flags)
                        .set("gc_grace_seconds", p.gcGraceSeconds())
                        .set("id", t.id())
                        .set("incremental_backups", p.incrementalBackups() ? null : false)
                        .set("max_index_interval", p.maxIndexInterval())
                        .set("memtable", "default".equals(p.memtable()) ? null : p.memtable())
                        .set("memtable_flush_period_in_ms", p.memtableFlushPeriodInMs())
                        .set("min_index_interval", p.minIndexInterval())
                        .set("read_repair", p.readRepair())
                        .set("read_repair_chance", 0.0)
                        .set("speculative_retry", p.speculativeRetry());
            }
        }
    }

    private static void columns(RowsBuilder out, Schema schema, boolean virtualKeyspaces) {
        for (KeyspaceMetadata ks : virtualKeyspaces ? virtual(schema) : replicated(schema)) {
            for (TableMetadata t : ks.tables().values()) {
                if (t.isCompactStorage()) {
                    for (CompactStorage.SchemaColumn c : t.compactStorage().schemaColumns(t)) {
                        out.row().set("keyspace_name", ks.name())
                                .set("table_name", t.name())
                                .set("column_name", c.name())
                                .set("clustering_order", c.clusteringOrder())
                                .set("column_name_bytes", ByteBuffer.wrap(c.name().getBytes(StandardCharsets.UTF_8)))
                                .set("kind", c.kind())
                                .set("position", c.position())
                                .set("type", c.type());
                    }
                    continue;
                }
                for (ColumnMetadata c : t.allColumns()) {
                    out.row().set("keyspace_name", ks.name())
                            .set("table_name", t.name())
                            .set("column_name", c.name())
                            .set("clustering_order", c.clusteringOrder())
                            .set("column_name_bytes", ByteBuffer.wrap(c.name().getBytes(StandardCharsets.UTF_8)))
                            .set("kind", c.kind().schemaName())
                            .set("position", c.isPrimaryKey() ? c.position() : -1)
                            .set("type", c.type().cqlName());
                }
            }
        }
    }

    private static void droppedColumns(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : replicated(schema)) {
            for (TableMetadata t : ks.tables().values()) {
                for (TableMetadata.DroppedColumn d : t.droppedColumns().values()) {
                    out.row().set("keyspace_name", ks.name())
                            .set("table_name", t.name())
                            .set("column_name", d.name())
                            .set("dropped_time", d.droppedTimeMicros() / 1000)
                            .set("kind", d.kind())
                            .set("type", SchemaDetails.droppedType(ks, d));
                }
            }
        }
    }

    private static void types(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : replicated(schema)) {
            for (UserType u : ks.types().values()) {
                List<String> fieldTypes = new ArrayList<>();
                for (DataType f : u.fieldTypes()) {
                    fieldTypes.add(f.cqlName());
                }
                out.row().set("keyspace_name", ks.name())
                        .set("type_name", u.name())
                        .set("field_names", u.fieldNames())
                        .set("field_types", fieldTypes);
            }
        }
    }

    private static void indexes(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : replicated(schema)) {
            for (TableMetadata t : ks.tables().values()) {
                for (IndexMetadata i : t.indexes().values()) {
                    out.row().set("keyspace_name", ks.name())
                            .set("table_name", t.name())
                            .set("index_name", i.name())
                            .set("kind", i.kind())
                            .set("options", SchemaDetails.indexOptions(t, i));
                }
            }
        }
    }

    private static void virtualKeyspaces(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : virtual(schema)) {
            out.row().set("keyspace_name", ks.name());
        }
    }

    private static void virtualTables(RowsBuilder out, Schema schema) {
        for (KeyspaceMetadata ks : virtual(schema)) {
            for (TableMetadata t : ks.tables().values()) {
                out.row().set("keyspace_name", ks.name())
                        .set("table_name", t.name())
                        .set("comment", t.params().comment());
            }
        }
    }
}
