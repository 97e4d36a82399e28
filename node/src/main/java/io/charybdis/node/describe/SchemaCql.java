package io.charybdis.node.describe;

import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.CompactStorage;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TableParams;
import io.charybdis.node.system.SchemaDetails;
import io.charybdis.node.system.SystemKeyspaces;
import io.charybdis.protocol.types.UserType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded;

/**
 * The CQL that recreates a schema element, formatted exactly as Cassandra 5.0's DESCRIBE prints it.
 *
 * <p>Formatting notes (checked against a Cassandra 5.0.6 node, see {@code src/test/resources/golden/describe}):
 * <ul>
 * <li>Keyspace: the strategy class without the {@code org.apache.cassandra.locator.} package, then its options;
 * two spaces before {@code AND durable_writes}.</li>
 * <li>Table columns: partition key, clustering, then static and then regular columns, each group with the
 * single-cell columns first, by name (UTF-8 bytes); a lone partition key column without clustering is written
 * {@code k int PRIMARY KEY}. Options follow in Cassandra's order (see {@link TableParams#asOptionMap()}), each
 * on its own line after {@code AND}; {@code WITH INTERNALS} adds {@code ID = ...} first, the dropped columns to
 * the column list and one {@code ALTER TABLE ... DROP ... USING TIMESTAMP} per dropped column.</li>
 * <li>Virtual keyspaces and their tables are printed inside a warning comment, since CQL cannot recreate them.</li>
 * </ul>
 */
public final class SchemaCql {
    private static final String LOCATOR = "org.apache.cassandra.locator.";
    private static final String INDENT = "    ";

    private SchemaCql() {
    }

    /** {@code CREATE KEYSPACE ...;} (a comment for a virtual keyspace). */
    public static String keyspace(KeyspaceMetadata ks) {
        String name = quoteIfNeeded(ks.name());
        if (SystemKeyspaces.isVirtualKeyspace(ks.name())) {
            return "/*\nWarning: Keyspace " + name + " is a virtual keyspace and cannot be recreated with CQL.\n"
                    + "Structure, for reference:\nVIRTUAL KEYSPACE " + name + ";\n*/";
        }
        StringBuilder sb = new StringBuilder("CREATE KEYSPACE ").append(name).append(" WITH replication = {");
        String cls = ks.replication().getOrDefault("class", "");
        sb.append("'class': ").append(literal(cls.startsWith(LOCATOR) ? cls.substring(LOCATOR.length()) : cls));
        for (Map.Entry<String, String> e : ks.replication().entrySet()) {
            if (!e.getKey().equals("class")) {
                sb.append(", ").append(literal(e.getKey())).append(": ").append(literal(e.getValue()));
            }
        }
        return sb.append("}  AND durable_writes = ").append(ks.durableWrites()).append(';').toString();
    }

    /** {@code CREATE TYPE ks.name (...);}. */
    public static String type(UserType type) {
        StringBuilder sb = new StringBuilder("CREATE TYPE ").append(quoteIfNeeded(type.keyspace())).append('.')
                .append(quoteIfNeeded(type.name())).append(" (\n");
        for (int i = 0; i < type.fieldNames().size(); i++) {
            sb.append(INDENT).append(quoteIfNeeded(type.fieldNames().get(i))).append(' ')
                    .append(type.fieldTypes().get(i).cqlName()).append(i + 1 < type.fieldNames().size() ? ",\n" : "\n");
        }
        return sb.append(");").toString();
    }

    /** {@code CREATE [CUSTOM] INDEX name ON ks.table (target) ...;}. */
    public static String index(TableMetadata table, IndexMetadata index) {
        String on = " ON " + qualified(table) + " (";
        if ("CUSTOM".equals(index.kind())) {
            StringBuilder sb = new StringBuilder("CREATE CUSTOM INDEX ").append(quoteIfNeeded(index.name())).append(on)
                    .append(index.options().getOrDefault("target", "")).append(") USING ")
                    .append(literal(index.options().getOrDefault("class_name", "")));
            Map<String, String> rest = new TreeMap<>(index.options());
            rest.remove("class_name");
            rest.remove("target");
            if (!rest.isEmpty()) {
                sb.append(" WITH OPTIONS = ").append(map(rest));
            }
            return sb.append(';').toString();
        }
        return "CREATE INDEX " + quoteIfNeeded(index.name()) + on + SchemaDetails.indexTarget(table, index) + ");";
    }

    /** {@code CREATE TABLE ...;} (a comment for a table of a virtual keyspace). */
    public static String table(KeyspaceMetadata ks, TableMetadata table, boolean withInternals) {
        boolean virtual = SystemKeyspaces.isVirtualKeyspace(table.keyspace());
        StringBuilder sb = new StringBuilder();
        boolean compact = table.isCompactStorage();
        if (virtual) {
            sb.append("/*\nWarning: Table ").append(qualified(table))
                    .append(" is a virtual table and cannot be recreated with CQL.\nStructure, for reference:\n")
                    .append("VIRTUAL TABLE ");
        } else if (compact) {
            sb.append("/*\nWarning: Table ").append(qualified(table))
                    .append(" omitted because it has constructs not compatible with CQL (was created via legacy API).\n")
                    .append("Approximate structure, for reference:\n(this should not be used to reproduce this schema)")
                    .append("\n\nCREATE TABLE ");
        } else {
            sb.append("CREATE TABLE ");
        }
        sb.append(qualified(table)).append(" (\n");
        List<TableMetadata.DroppedColumn> dropped = withInternals && !virtual ? dropped(table) : List.of();
        boolean shortKey = table.partitionKey().size() == 1 && table.clustering().isEmpty() && !compact;
        List<String> lines = new ArrayList<>();
        for (ColumnMetadata c : columnsInCreateOrder(table)) {
            String line = quoteIfNeeded(c.name()) + " " + c.type().cqlName();
            if (c.isStatic()) {
                line += " static";
            }
            if (shortKey && c.kind() == ColumnMetadata.Kind.PARTITION_KEY) {
                line += " PRIMARY KEY";
            }
            lines.add(line);
        }
        for (TableMetadata.DroppedColumn d : dropped) {
            if (table.column(d.name()) == null) {
                lines.add(quoteIfNeeded(d.name()) + " " + SchemaDetails.droppedType(ks, d)
                        + ("static".equals(d.kind()) ? " static" : ""));
            }
        }
        if (!shortKey) {
            lines.add(primaryKey(table));
        }
        for (int i = 0; i < lines.size(); i++) {
            sb.append(INDENT).append(lines.get(i)).append(i + 1 < lines.size() ? ",\n" : "\n");
        }
        sb.append(") WITH ");
        List<String> options = new ArrayList<>();
        if (withInternals) {
            options.add("ID = " + table.id());
        }
        if (compact) {
            options.add("COMPACT STORAGE");
        }
        if (!table.clustering().isEmpty()) {
            options.add(clusteringOrder(table));
        } else if (compact) {
            options.add("CLUSTERING ORDER BY (" + quoteIfNeeded(CompactStorage.hiddenClusteringName(table)) + " ASC)");
        }
        if (virtual) {
            options.add("comment = " + literal(table.params().comment()));
        } else {
            table.params().asOptionMap().forEach((k, v) -> options.add(k + " = "
                    + (k.equals("extensions") ? extensions(table.params().extensions()) : option(v))));
        }
        sb.append(String.join("\n" + INDENT + "AND ", options)).append(';');
        for (TableMetadata.DroppedColumn d : dropped) {
            sb.append("\nALTER TABLE ").append(qualified(table)).append(" DROP ").append(quoteIfNeeded(d.name()))
                    .append(" USING TIMESTAMP ").append(d.droppedTimeMicros()).append(';');
            ColumnMetadata now = table.column(d.name());
            if (now != null) {
                sb.append("\nALTER TABLE ").append(qualified(table)).append(" ADD ").append(quoteIfNeeded(now.name()))
                        .append(' ').append(now.type().cqlName()).append(now.isStatic() ? " static" : "").append(';');
            }
        }
        if (virtual || compact) {
            sb.append("\n*/");
        }
        return sb.toString();
    }

    /** Partition key, clustering, statics then regulars, each of the last two groups single-cell columns first. */
    static List<ColumnMetadata> columnsInCreateOrder(TableMetadata table) {
        List<ColumnMetadata> out = new ArrayList<>(table.partitionKey());
        out.addAll(table.clustering());
        Comparator<ColumnMetadata> order = Comparator.comparing((ColumnMetadata c) -> !c.isStatic())
                .thenComparing(ColumnMetadata::isMultiCell)
                .thenComparing((a, b) -> Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.UTF_8),
                        b.name().getBytes(StandardCharsets.UTF_8)));
        out.addAll(table.regularAndStatic().stream().sorted(order).toList());
        return out;
    }

    private static List<TableMetadata.DroppedColumn> dropped(TableMetadata table) {
        List<TableMetadata.DroppedColumn> out = new ArrayList<>(table.droppedColumns().values());
        out.sort(Comparator.comparing(TableMetadata.DroppedColumn::name));
        return out;
    }

    private static String primaryKey(TableMetadata table) {
        StringBuilder sb = new StringBuilder("PRIMARY KEY (");
        List<ColumnMetadata> pk = table.partitionKey();
        if (pk.size() == 1) {
            sb.append(quoteIfNeeded(pk.get(0).name()));
        } else {
            sb.append('(').append(names(pk)).append(')');
        }
        if (!table.clustering().isEmpty()) {
            sb.append(", ").append(names(table.clustering()));
        }
        return sb.append(')').toString();
    }

    private static String clusteringOrder(TableMetadata table) {
        StringBuilder sb = new StringBuilder("CLUSTERING ORDER BY (");
        List<ColumnMetadata> ck = table.clustering();
        for (int i = 0; i < ck.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(quoteIfNeeded(ck.get(i).name()))
                    .append(ck.get(i).reversed() ? " DESC" : " ASC");
        }
        return sb.append(')').toString();
    }

    private static String names(List<ColumnMetadata> columns) {
        StringBuilder sb = new StringBuilder();
        for (ColumnMetadata c : columns) {
            sb.append(sb.isEmpty() ? "" : ", ").append(quoteIfNeeded(c.name()));
        }
        return sb.toString();
    }

    static String qualified(TableMetadata table) {
        return quoteIfNeeded(table.keyspace()) + "." + quoteIfNeeded(table.name());
    }

    private static String option(Object v) {
        if (v instanceof String s) {
            return literal(s);
        }
        if (v instanceof Map<?, ?> m) {
            return map(m);
        }
        return String.valueOf(v);
    }

    private static String map(Map<?, ?> m) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<?, ?> e : m.entrySet()) {
            sb.append(sb.length() > 1 ? ", " : "").append(literal(String.valueOf(e.getKey()))).append(": ")
                    .append(literal(String.valueOf(e.getValue())));
        }
        return sb.append('}').toString();
    }

    /** A CQL string literal. */
    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** Table extensions: a map of names to blobs. */
    private static String extensions(Map<String, String> m) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, String> e : m.entrySet()) {
            sb.append(sb.length() > 1 ? ", " : "").append(literal(e.getKey())).append(": 0x")
                    .append(HexFormat.of().formatHex(e.getValue().getBytes(StandardCharsets.UTF_8)));
        }
        return sb.append('}').toString();
    }
}
