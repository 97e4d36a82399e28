package io.charybdis.node.schema;

import java.util.Set;

public final class SchemaConstants {
    public static final String SYSTEM = "system";
    public static final String SYSTEM_SCHEMA = "system_schema";
    public static final String SYSTEM_AUTH = "system_auth";
    public static final String SYSTEM_DISTRIBUTED = "system_distributed";
    public static final String SYSTEM_TRACES = "system_traces";
    public static final String SYSTEM_VIEWS = "system_views";
    public static final String SYSTEM_VIRTUAL_SCHEMA = "system_virtual_schema";

    public static final Set<String> SYSTEM_KEYSPACES = Set.of(SYSTEM, SYSTEM_SCHEMA, SYSTEM_AUTH, SYSTEM_DISTRIBUTED,
            SYSTEM_TRACES, SYSTEM_VIEWS, SYSTEM_VIRTUAL_SCHEMA);

    /** Cassandra's limit on keyspace names (and, before 5.0, table names). */
    public static final int NAME_LENGTH = 48;

    /** Cassandra 5.0's limit on table names: with "-" and the 32 hex digits of the id, a 255-character file name. */
    public static final int TABLE_NAME_LENGTH = 222;

    private SchemaConstants() {
    }

    public static boolean isSystemKeyspace(String name) {
        return SYSTEM_KEYSPACES.contains(name);
    }

    public static boolean isValidName(String name) {
        if (name.isEmpty() || name.length() > NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }
}
