package io.charybdis.node.describe;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.syntax.DescribeStatement;
import io.charybdis.node.schema.IndexMetadata;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaConstants;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.protocol.types.DataType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.UserType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.charybdis.node.cql.syntax.Identifiers.quoteIfNeeded;

/**
 * Executes DESCRIBE on the server, as Cassandra 5.0 does for cqlsh 6 and the drivers.
 *
 * <p>Listings (KEYSPACES, TABLES, TYPES, FUNCTIONS, AGGREGATES) return {@code keyspace_name, type, name}; element
 * descriptions return those plus {@code create_statement}; CLUSTER returns {@code cluster, partitioner, snitch}
 * and, when a non-system keyspace is in use, {@code range_ownership}. Names are quoted when CQL needs it.
 *
 * <p>Order, as Cassandra: keyspaces and the elements of each kind by name, ignoring case; inside a keyspace the
 * keyspace itself, its types (each after the types it uses), functions, aggregates, then each table followed by
 * its indexes. A listing covers only the keyspace in use when there is one.
 */
public final class Describer {
    private static final List<String> LIST_COLUMNS = List.of("keyspace_name", "type", "name");
    private static final List<String> ELEMENT_COLUMNS = List.of("keyspace_name", "type", "name", "create_statement");
    private static final DataType RANGE_OWNERSHIP = DataType.map(NativeType.TEXT, DataType.list(NativeType.TEXT));
    private static final Comparator<String> NAME_ORDER = String::compareToIgnoreCase;

    private Describer() {
    }

    /**
     * @param schema          the schema snapshot, system keyspaces included
     * @param currentKeyspace the session's keyspace ({@code USE}), or null
     * @param node            this node (for DESCRIBE CLUSTER)
     * @throws InvalidRequestException with Cassandra's message when the element does not exist
     */
    public static DescribeResult describe(Schema schema, String currentKeyspace, DescribeStatement stmt,
                                          NodeInfo node) {
        String ks = stmt.name() == null ? null : stmt.name().keyspace();
        String name = stmt.name() == null ? null : stmt.name().name();
        boolean internals = stmt.withInternals();
        return switch (stmt.kind()) {
            case CLUSTER -> cluster(currentKeyspace, node);
            case KEYSPACES -> listing(sorted(schema.keyspaces().values()).stream()
                    .map(k -> listRow(k.name(), "keyspace", k.name())).toList());
            case TABLES -> listing(listed(schema, currentKeyspace, k -> sortedNames(k.tables().keySet()), "table"));
            case TYPES -> listing(listed(schema, currentKeyspace, k -> sortedNames(k.types().keySet()), "type"));
            case FUNCTIONS, AGGREGATES -> listing(listed(schema, currentKeyspace, k -> List.of(), "function"));
            case SCHEMA, FULL_SCHEMA -> {
                List<List<ByteBuffer>> rows = new ArrayList<>();
                for (KeyspaceMetadata k : sorted(schema.keyspaces().values())) {
                    if (stmt.kind() == DescribeStatement.Kind.FULL_SCHEMA || !SchemaConstants.isSystemKeyspace(k.name())) {
                        keyspaceElements(k, false, internals, rows);
                    }
                }
                yield elements(rows);
            }
            case KEYSPACE -> {
                KeyspaceMetadata k = keyspace(schema, name != null ? name : required(currentKeyspace));
                List<List<ByteBuffer>> rows = new ArrayList<>();
                keyspaceElements(k, stmt.only(), internals, rows);
                yield elements(rows);
            }
            case TABLE -> elements(table(schema, in(ks, currentKeyspace), name, internals));
            case INDEX -> elements(index(schema, in(ks, currentKeyspace), name));
            case TYPE -> {
                KeyspaceMetadata k = keyspace(schema, in(ks, currentKeyspace));
                UserType t = k.types().get(name);
                if (t == null) {
                    throw new InvalidRequestException("User defined type '" + name + "' not found in '" + k.name()
                            + "'");
                }
                yield elements(List.of(elementRow(k.name(), "type", t.name(), SchemaCql.type(t))));
            }
            case MATERIALIZED_VIEW -> throw notFound(schema, ks, currentKeyspace, "Materialized view", name);
            case FUNCTION -> throw notFound(schema, ks, currentKeyspace, "User defined function", name);
            case AGGREGATE -> throw notFound(schema, ks, currentKeyspace, "User defined aggregate", name);
            case GENERIC -> generic(schema, ks, name, currentKeyspace, internals);
        };
    }

    private static DescribeResult generic(Schema schema, String ks, String name, String current, boolean internals) {
        if (ks == null) {
            if (schema.keyspace(name) != null) {
                List<List<ByteBuffer>> rows = new ArrayList<>();
                keyspaceElements(schema.keyspace(name), false, internals, rows);
                return elements(rows);
            }
            ks = current == null ? name : current;
        }
        KeyspaceMetadata k = keyspace(schema, ks);
        if (k.table(name) != null) {
            return elements(table(schema, ks, name, internals));
        }
        if (indexedTable(k, name) != null) {
            return elements(index(schema, ks, name));
        }
        throw new InvalidRequestException("'" + name + "' not found in keyspace '" + ks + "'");
    }

    private static InvalidRequestException notFound(Schema schema, String ks, String current, String what,
                                                    String name) {
        KeyspaceMetadata k = keyspace(schema, in(ks, current));
        return new InvalidRequestException(what + " '" + name + "' not found in '" + k.name() + "'");
    }

    private static String in(String ks, String current) {
        return ks != null ? ks : required(current);
    }

    private static String required(String current) {
        if (current == null) {
            throw new InvalidRequestException("No keyspace specified and no current keyspace");
        }
        return current;
    }

    private static KeyspaceMetadata keyspace(Schema schema, String name) {
        KeyspaceMetadata k = schema.keyspace(name);
        if (k == null) {
            throw new InvalidRequestException("'" + name + "' not found in keyspaces");
        }
        return k;
    }

    private static List<List<ByteBuffer>> table(Schema schema, String ks, String name, boolean internals) {
        KeyspaceMetadata k = keyspace(schema, ks);
        TableMetadata t = k.table(name);
        if (t == null) {
            throw new InvalidRequestException("Table '" + name + "' not found in keyspace '" + k.name() + "'");
        }
        List<List<ByteBuffer>> rows = new ArrayList<>();
        tableElements(k, t, internals, rows);
        return rows;
    }

    private static List<List<ByteBuffer>> index(Schema schema, String ks, String name) {
        KeyspaceMetadata k = keyspace(schema, ks);
        TableMetadata t = indexedTable(k, name);
        if (t == null) {
            throw new InvalidRequestException("Table for existing index '" + name + "' not found in '" + k.name()
                    + "'");
        }
        IndexMetadata i = t.indexes().get(name);
        return List.of(elementRow(k.name(), "index", i.name(), SchemaCql.index(t, i)));
    }

    private static TableMetadata indexedTable(KeyspaceMetadata k, String index) {
        for (TableMetadata t : k.tables().values()) {
            if (t.indexes().containsKey(index)) {
                return t;
            }
        }
        return null;
    }

    private static void keyspaceElements(KeyspaceMetadata k, boolean only, boolean internals,
                                         List<List<ByteBuffer>> rows) {
        rows.add(elementRow(k.name(), "keyspace", k.name(), SchemaCql.keyspace(k)));
        if (only) {
            return;
        }
        for (UserType t : TypeOrder.dependenciesFirst(k.types().values())) {
            rows.add(elementRow(k.name(), "type", t.name(), SchemaCql.type(t)));
        }
        for (String table : sortedNames(k.tables().keySet())) {
            tableElements(k, k.table(table), internals, rows);
        }
    }

    private static void tableElements(KeyspaceMetadata k, TableMetadata t, boolean internals,
                                      List<List<ByteBuffer>> rows) {
        rows.add(elementRow(k.name(), "table", t.name(), SchemaCql.table(k, t, internals)));
        for (String index : sortedNames(t.indexes().keySet())) {
            rows.add(elementRow(k.name(), "index", index, SchemaCql.index(t, t.indexes().get(index))));
        }
    }

    private static List<List<ByteBuffer>> listed(Schema schema, String current,
                                                 java.util.function.Function<KeyspaceMetadata, List<String>> names,
                                                 String type) {
        List<KeyspaceMetadata> keyspaces = current == null ? sorted(schema.keyspaces().values())
                : List.of(keyspace(schema, current));
        List<List<ByteBuffer>> rows = new ArrayList<>();
        for (KeyspaceMetadata k : keyspaces) {
            for (String n : names.apply(k)) {
                rows.add(listRow(k.name(), type, n));
            }
        }
        return rows;
    }

    private static DescribeResult cluster(String current, NodeInfo node) {
        List<ByteBuffer> row = new ArrayList<>(4);
        row.add(text(node.clusterName()));
        row.add(text(trimPrefix(node.partitioner(), "org.apache.cassandra.dht.")));
        row.add(text("DynamicEndpointSnitch"));
        if (current == null || SchemaConstants.isSystemKeyspace(current)) {
            return new DescribeResult(List.of("cluster", "partitioner", "snitch"),
                    List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT), List.of(row));
        }
        String endpoint = "/" + node.listenAddress().getHostAddress() + ":" + node.storagePort();
        Map<String, List<String>> ranges = new TreeMap<>();
        for (String token : node.tokens()) {
            ranges.put(token, List.of(endpoint));
        }
        row.add(RANGE_OWNERSHIP.decompose(ranges));
        return new DescribeResult(List.of("cluster", "partitioner", "snitch", "range_ownership"),
                List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT, RANGE_OWNERSHIP), List.of(row));
    }

    private static String trimPrefix(String s, String prefix) {
        return s.startsWith(prefix) ? s.substring(prefix.length()) : s;
    }

    private static List<KeyspaceMetadata> sorted(java.util.Collection<KeyspaceMetadata> keyspaces) {
        List<KeyspaceMetadata> out = new ArrayList<>(keyspaces);
        out.sort(Comparator.comparing(KeyspaceMetadata::name, NAME_ORDER));
        return out;
    }

    private static List<String> sortedNames(java.util.Collection<String> names) {
        List<String> out = new ArrayList<>(names);
        out.sort(NAME_ORDER);
        return out;
    }

    private static DescribeResult listing(List<List<ByteBuffer>> rows) {
        return new DescribeResult(LIST_COLUMNS, List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT), rows);
    }

    private static DescribeResult elements(List<List<ByteBuffer>> rows) {
        return new DescribeResult(ELEMENT_COLUMNS,
                List.of(NativeType.TEXT, NativeType.TEXT, NativeType.TEXT, NativeType.TEXT), rows);
    }

    private static List<ByteBuffer> listRow(String ks, String type, String name) {
        return Arrays.asList(text(quoteIfNeeded(ks)), text(type), text(quoteIfNeeded(name)));
    }

    private static List<ByteBuffer> elementRow(String ks, String type, String name, String cql) {
        return Arrays.asList(text(quoteIfNeeded(ks)), text(type), text(quoteIfNeeded(name)), text(cql));
    }

    private static ByteBuffer text(String s) {
        return NativeType.TEXT.decompose(s);
    }
}
