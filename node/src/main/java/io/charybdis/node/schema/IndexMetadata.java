package io.charybdis.node.schema;

import java.util.Map;

/** A secondary index: {@code system_schema.indexes} row. */
public record IndexMetadata(String name, String kind, Map<String, String> options) {
    /** The id of the node-local table that holds this index of the table {@code baseTable} (stable, name-based). */
    public java.util.UUID tableId(java.util.UUID baseTable) {
        return java.util.UUID.nameUUIDFromBytes(("index:" + baseTable + ":" + name)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The indexed column name (the {@code target} option, without keys()/values()/entries()/full()). */
    public String targetColumn() {
        String t = options.getOrDefault("target", "");
        int open = t.indexOf('(');
        if (open >= 0 && t.endsWith(")")) {
            t = t.substring(open + 1, t.length() - 1);
        }
        if (t.startsWith("\"") && t.endsWith("\"") && t.length() >= 2) {
            t = t.substring(1, t.length() - 1).replace("\"\"", "\"");
        }
        return t;
    }

    /** values, keys, entries or full; regular columns index their values. */
    public String targetKind() {
        String t = options.getOrDefault("target", "");
        int open = t.indexOf('(');
        return open > 0 && t.endsWith(")") ? t.substring(0, open) : "values";
    }
}
