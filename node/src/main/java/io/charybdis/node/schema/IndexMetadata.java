package io.charybdis.node.schema;

import java.util.Map;

/** A secondary index: {@code system_schema.indexes} row. */
public record IndexMetadata(String name, String kind, Map<String, String> options) {
    /** The id of the node-local table that holds this index of the table {@code baseTable} (stable, name-based). */
    public java.util.UUID tableId(java.util.UUID baseTable) {
        return java.util.UUID.nameUUIDFromBytes(("index:" + baseTable + ":" + name)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * The indexed column name: the {@code target} option without keys()/values()/entries()/full(), unquoted. The
     * target names the column as Cassandra stores it: quoted (with doubled quotes) when it needs quotes, so a column
     * named {@code keys(m)} is {@code "keys(m)"} and not the keys of {@code m}.
     */
    public String targetColumn() {
        String t = options.getOrDefault("target", "");
        if (t.startsWith("\"")) {
            return unquote(t);
        }
        String kind = kindPrefix(t);
        if (kind != null) {
            String inner = t.substring(kind.length() + 1, t.length() - 1);
            return inner.startsWith("\"") ? unquote(inner) : inner;
        }
        return t;
    }

    /** values, keys, entries or full; regular columns index their values. */
    public String targetKind() {
        String t = options.getOrDefault("target", "");
        String kind = t.startsWith("\"") ? null : kindPrefix(t);
        return kind == null ? "values" : kind;
    }

    private static String kindPrefix(String t) {
        int open = t.indexOf('(');
        if (open <= 0 || !t.endsWith(")")) {
            return null;
        }
        String kind = t.substring(0, open);
        return switch (kind) {
            case "keys", "values", "entries", "full" -> kind;
            default -> null;
        };
    }

    private static String unquote(String t) {
        if (t.length() >= 2 && t.endsWith("\"")) {
            return t.substring(1, t.length() - 1).replace("\"\"", "\"");
        }
        return t;
    }
}
