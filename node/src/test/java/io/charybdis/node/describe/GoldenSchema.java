package io.charybdis.node.describe;

import io.charybdis.node.cql.statements.SchemaStatements;
import io.charybdis.node.cql.syntax.CqlParser;
import io.charybdis.node.cql.syntax.SchemaStatement;
import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.SchemaManager;
import io.charybdis.node.schema.SchemaStore;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.system.NodeInfo;
import io.charybdis.node.system.SystemKeyspaces;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The schema of {@code golden/describe/schema.cql}, built through Charybdis' own DDL, with the table ids the
 * Cassandra reference node gave the same tables (so WITH INTERNALS output can be compared), and the reference
 * node's identity.
 */
public final class GoldenSchema {
    private GoldenSchema() {
    }

    public static String resource(String path) {
        try (InputStream in = GoldenSchema.class.getResourceAsStream("/golden/" + path)) {
            if (in == null) {
                throw new IllegalStateException("missing golden file " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON golden file (JSON is YAML). */
    public static Object json(String path) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(64 * 1024 * 1024);
        return new Yaml(new SafeConstructor(options)).load(resource(path));
    }

    public static SchemaManager manager(Path dir) {
        try {
            return new SchemaManager(new SchemaStore(dir), SystemKeyspaces.builtIn());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs every statement of schema.cql. */
    public static Schema build(Path dir) {
        SchemaManager manager = manager(dir);
        SchemaStatements ddl = new SchemaStatements(manager);
        for (String line : resource("describe/schema.cql").split("\n")) {
            if (!line.isBlank() && !line.startsWith("--")) {
                ddl.execute((SchemaStatement) CqlParser.parse(line), null);
            }
        }
        return withReferenceIds(manager.schema());
    }

    @SuppressWarnings("unchecked")
    private static Schema withReferenceIds(Schema schema) {
        Map<String, Object> rows = (Map<String, Object>) json("describe/system_schema.json");
        for (Object o : (List<Object>) rows.get("tables")) {
            Map<String, Object> r = (Map<String, Object>) o;
            KeyspaceMetadata ks = schema.keyspace((String) r.get("keyspace_name"));
            TableMetadata t = ks.table((String) r.get("table_name"));
            TableMetadata withId = new TableMetadata(t.keyspace(), t.name(), UUID.fromString((String) r.get("id")),
                    t.allColumns(), t.params(), t.nextCellId(), t.droppedColumns(), t.indexes(), t.isVirtual());
            schema = schema.with(ks.withTable(withId));
        }
        return schema;
    }

    /** The reference node: cluster "Anchor Cluster" on 127.0.0.2 with the tokens DESCRIBE CLUSTER showed. */
    public static NodeInfo node(List<String> tokens) {
        try {
            InetAddress address = InetAddress.getByName("127.0.0.2");
            return new NodeInfo("Anchor Cluster", UUID.fromString("fd00e641-961a-4660-86ac-6fc78b222c36"), address,
                    address, 9042, 7000, "datacenter1", "rack1", NodeInfo.RELEASE_VERSION, NodeInfo.CQL_VERSION, "5",
                    "org.apache.cassandra.dht.Murmur3Partitioner", new ArrayList<>(tokens), 2, 1_795_335_148_000L);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
