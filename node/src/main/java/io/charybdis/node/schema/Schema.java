package io.charybdis.node.schema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * An immutable snapshot of every keyspace. Readers take the current snapshot from {@link SchemaManager} and keep it
 * for the whole statement, so a concurrent DDL never shows them half a change.
 */
public final class Schema {
    private final Map<String, KeyspaceMetadata> keyspaces;
    /** Computed on first use: building a schema keyspace by keyspace (start-up) makes many never asked for. */
    private volatile UUID version;
    /** Keyspace of each table id, built on first use (the coordinator's replication lookup). */
    private volatile Map<UUID, KeyspaceMetadata> keyspaceOfTable;

    public Schema(Map<String, KeyspaceMetadata> keyspaces) {
        this.keyspaces = Collections.unmodifiableMap(new TreeMap<>(keyspaces));
    }

    public static Schema empty() {
        return new Schema(Map.of());
    }

    public Map<String, KeyspaceMetadata> keyspaces() {
        return keyspaces;
    }

    public KeyspaceMetadata keyspace(String name) {
        return keyspaces.get(name);
    }

    public TableMetadata table(String keyspace, String table) {
        KeyspaceMetadata ks = keyspaces.get(keyspace);
        return ks == null ? null : ks.table(table);
    }

    /** Whether {@code tableId} names the node-local table of a native index (see {@link IndexMetadata#tableId}). */
    public boolean isIndexTable(UUID tableId) {
        java.util.Set<UUID> s = indexTables;
        if (s == null) {
            s = new java.util.HashSet<>();
            for (KeyspaceMetadata ks : keyspaces.values()) {
                for (TableMetadata t : ks.tables().values()) {
                    for (IndexMetadata i : t.indexes().values()) {
                        s.add(i.tableId(t.id()));
                    }
                }
            }
            indexTables = s;
        }
        return s.contains(tableId);
    }

    private volatile java.util.Set<UUID> indexTables;

    /** The keyspace holding the table with this id, or null. */
    public KeyspaceMetadata keyspaceOfTable(UUID tableId) {
        Map<UUID, KeyspaceMetadata> m = keyspaceOfTable;
        if (m == null) {
            m = new java.util.HashMap<>();
            for (KeyspaceMetadata ks : keyspaces.values()) {
                for (TableMetadata t : ks.tables().values()) {
                    m.put(t.id(), ks);
                }
            }
            keyspaceOfTable = m;
        }
        return m.get(tableId);
    }

    public Schema with(KeyspaceMetadata ks) {
        Map<String, KeyspaceMetadata> m = new TreeMap<>(keyspaces);
        m.put(ks.name(), ks);
        return new Schema(m);
    }

    public Schema without(String keyspace) {
        Map<String, KeyspaceMetadata> m = new TreeMap<>(keyspaces);
        m.remove(keyspace);
        return new Schema(m);
    }

    /** The schema version drivers compare in system.local / system.peers: a digest of the user-visible schema. */
    public UUID version() {
        UUID v = version;
        if (v == null) {
            v = computeVersion(keyspaces); // a pure function of the immutable keyspaces: a race computes it twice
            version = v;
        }
        return v;
    }

    private static UUID computeVersion(Map<String, KeyspaceMetadata> keyspaces) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            for (KeyspaceMetadata ks : keyspaces.values()) {
                md.update(ks.name().getBytes(StandardCharsets.UTF_8));
                md.update(ks.replication().toString().getBytes(StandardCharsets.UTF_8));
                md.update((byte) (ks.durableWrites() ? 1 : 0));
                for (TableMetadata t : ks.tables().values()) {
                    // every change a prepared statement may depend on: an index created or dropped changes how a
                    // query runs (prepared statements are analyzed again when the version changes)
                    md.update(t.id().toString().getBytes(StandardCharsets.UTF_8));
                    md.update(t.name().getBytes(StandardCharsets.UTF_8));
                    md.update(t.allColumns().toString().getBytes(StandardCharsets.UTF_8));
                    md.update(t.params().toString().getBytes(StandardCharsets.UTF_8));
                    md.update(new java.util.TreeMap<>(t.droppedColumns()).toString().getBytes(StandardCharsets.UTF_8));
                    for (IndexMetadata i : new java.util.TreeMap<>(t.indexes()).values()) {
                        // (the options in name order: a Map.of's order differs from one JVM to the next)
                        md.update((i.name() + i.kind() + new java.util.TreeMap<>(i.options()))
                                .getBytes(StandardCharsets.UTF_8));
                    }
                    md.update(t.compactStorage().toString().getBytes(StandardCharsets.UTF_8));
                }
                for (io.charybdis.protocol.types.UserType u : ks.types().values()) {
                    // fields and their types: ALTER TYPE changes the columns (and statements) using the type
                    md.update(u.marshalName().getBytes(StandardCharsets.UTF_8));
                }
            }
            return UUID.nameUUIDFromBytes(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
