package io.charybdis.node.schema;

import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.UserType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The schema as a YAML-friendly document of maps and lists (see {@link SchemaStore}), and back. */
public final class SchemaCodec {
    private SchemaCodec() {
    }

    public static Map<String, Object> toDocument(Schema schema) {
        List<Object> keyspaces = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.keyspaces().values()) {
            if (ks.virtual()) {
                continue;
            }
            if (ks.isSystem()) {
                // a stored system keyspace (system_auth): its tables are built in, its replication is the user's
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("name", ks.name());
                k.put("system", true);
                k.put("durable_writes", ks.durableWrites());
                k.put("replication", new LinkedHashMap<>(ks.replication()));
                keyspaces.add(k);
                continue;
            }
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("name", ks.name());
            k.put("durable_writes", ks.durableWrites());
            k.put("replication", new LinkedHashMap<>(ks.replication()));
            List<Object> types = new ArrayList<>();
            for (UserType t : ks.types().values()) {
                Map<String, Object> tm = new LinkedHashMap<>();
                tm.put("name", t.name());
                List<Object> fields = new ArrayList<>();
                for (int i = 0; i < t.fieldNames().size(); i++) {
                    fields.add(List.of(t.fieldNames().get(i), t.fieldTypes().get(i).cqlName()));
                }
                tm.put("fields", fields);
                types.add(tm);
            }
            k.put("types", types);
            List<Object> tables = new ArrayList<>();
            for (TableMetadata t : ks.tables().values()) {
                tables.add(table(t));
            }
            k.put("tables", tables);
            keyspaces.add(k);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("keyspaces", keyspaces);
        return doc;
    }

    private static Map<String, Object> table(TableMetadata t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("id", t.id().toString());
        List<Object> cols = new ArrayList<>();
        for (ColumnMetadata c : t.allColumns()) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("name", c.name());
            cm.put("type", c.type().cqlName());
            cm.put("kind", c.kind().name());
            cm.put("position", c.position());
            cm.put("reversed", c.reversed());
            cm.put("cell_id", c.cellId());
            cols.add(cm);
        }
        m.put("columns", cols);
        m.put("next_cell_id", t.nextCellId());
        if (t.isCompactStorage()) {
            m.put("compact_storage", t.compactStorage().name());
        }
        Map<String, Object> params = new LinkedHashMap<>();
        t.params().asOptionMap().forEach((k, v) -> params.put(k, v instanceof Map<?, ?> mm ? new LinkedHashMap<>(mm) : v));
        m.put("params", params);
        List<Object> dropped = new ArrayList<>();
        for (TableMetadata.DroppedColumn d : t.droppedColumns().values()) {
            dropped.add(new LinkedHashMap<>(Map.of("name", d.name(), "type", d.type(), "kind", d.kind(),
                    "dropped_time", d.droppedTimeMicros(), "cell_id", d.cellId())));
        }
        m.put("dropped_columns", dropped);
        List<Object> indexes = new ArrayList<>();
        for (IndexMetadata i : t.indexes().values()) {
            indexes.add(new LinkedHashMap<>(Map.of("name", i.name(), "kind", i.kind(),
                    "options", new LinkedHashMap<>(i.options()))));
        }
        m.put("indexes", indexes);
        return m;
    }

    @SuppressWarnings("unchecked")
    public static Schema fromDocument(Map<String, Object> doc) {
        Schema schema = Schema.empty();
        for (Object o : (List<Object>) doc.getOrDefault("keyspaces", List.of())) {
            Map<String, Object> k = (Map<String, Object>) o;
            String name = (String) k.get("name");
            KeyspaceMetadata ks = new KeyspaceMetadata(name, (Boolean) k.get("durable_writes"),
                    (Map<String, String>) k.get("replication"), Map.of(), Map.of(), false);
            for (Object to : (List<Object>) k.getOrDefault("types", List.of())) {
                Map<String, Object> tm = (Map<String, Object>) to;
                List<String> names = new ArrayList<>();
                List<DataType> types = new ArrayList<>();
                for (Object f : (List<Object>) tm.get("fields")) {
                    List<Object> pair = (List<Object>) f;
                    names.add((String) pair.get(0));
                    types.add(TypeResolver.parse((String) pair.get(1), ks));
                }
                ks = ks.withType(new UserType(name, (String) tm.get("name"), names, types, false));
            }
            for (Object to : (List<Object>) k.getOrDefault("tables", List.of())) {
                ks = ks.withTable(table((Map<String, Object>) to, ks));
            }
            schema = schema.with(ks);
        }
        return schema;
    }

    @SuppressWarnings("unchecked")
    private static TableMetadata table(Map<String, Object> m, KeyspaceMetadata ks) {
        List<ColumnMetadata> cols = new ArrayList<>();
        for (Object o : (List<Object>) m.get("columns")) {
            Map<String, Object> c = (Map<String, Object>) o;
            cols.add(new ColumnMetadata((String) c.get("name"), TypeResolver.parse((String) c.get("type"), ks),
                    ColumnMetadata.Kind.valueOf((String) c.get("kind")), (Integer) c.get("position"),
                    (Boolean) c.get("reversed"), (Integer) c.get("cell_id")));
        }
        Map<String, Object> p = (Map<String, Object>) m.get("params");
        TableParams params = TableOptions.fromStoredMap(p);
        Map<String, TableMetadata.DroppedColumn> dropped = new LinkedHashMap<>();
        for (Object o : (List<Object>) m.getOrDefault("dropped_columns", List.of())) {
            Map<String, Object> d = (Map<String, Object>) o;
            dropped.put((String) d.get("name"), new TableMetadata.DroppedColumn((String) d.get("name"),
                    (String) d.get("type"), (String) d.get("kind"), ((Number) d.get("dropped_time")).longValue(),
                    ((Number) d.getOrDefault("cell_id", -1)).intValue()));
        }
        Map<String, IndexMetadata> indexes = new LinkedHashMap<>();
        for (Object o : (List<Object>) m.getOrDefault("indexes", List.of())) {
            Map<String, Object> d = (Map<String, Object>) o;
            indexes.put((String) d.get("name"), new IndexMetadata((String) d.get("name"), (String) d.get("kind"),
                    (Map<String, String>) d.get("options")));
        }
        return new TableMetadata(ks.name(), (String) m.get("name"), UUID.fromString((String) m.get("id")), cols,
                params, (Integer) m.get("next_cell_id"), dropped, indexes, false,
                CompactStorage.valueOf((String) m.getOrDefault("compact_storage", CompactStorage.NONE.name())));
    }
}
