package io.charybdis.node.schema;

import io.charybdis.protocol.types.UserType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** An immutable keyspace: replication, tables and user types, each sorted by name. */
public record KeyspaceMetadata(String name, boolean durableWrites, Map<String, String> replication,
                               Map<String, TableMetadata> tables, Map<String, UserType> types,
                               boolean virtual) {

    public KeyspaceMetadata {
        replication = Collections.unmodifiableMap(new TreeMap<>(replication));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
    }

    public KeyspaceMetadata withTable(TableMetadata t) {
        Map<String, TableMetadata> m = new TreeMap<>(tables);
        m.put(t.name(), t);
        return new KeyspaceMetadata(name, durableWrites, replication, m, types, virtual);
    }

    public KeyspaceMetadata withoutTable(String table) {
        Map<String, TableMetadata> m = new TreeMap<>(tables);
        m.remove(table);
        return new KeyspaceMetadata(name, durableWrites, replication, m, types, virtual);
    }

    public KeyspaceMetadata withType(UserType t) {
        Map<String, UserType> m = new LinkedHashMap<>(types);
        m.put(t.name(), t);
        return new KeyspaceMetadata(name, durableWrites, replication, tables, m, virtual);
    }

    public KeyspaceMetadata withoutType(String type) {
        Map<String, UserType> m = new LinkedHashMap<>(types);
        m.remove(type);
        return new KeyspaceMetadata(name, durableWrites, replication, tables, m, virtual);
    }

    public KeyspaceMetadata withParams(boolean newDurableWrites, Map<String, String> newReplication) {
        return new KeyspaceMetadata(name, newDurableWrites, newReplication, tables, types, virtual);
    }

    public TableMetadata table(String table) {
        return tables.get(table);
    }

    public boolean isSystem() {
        return SchemaConstants.isSystemKeyspace(name);
    }
}
