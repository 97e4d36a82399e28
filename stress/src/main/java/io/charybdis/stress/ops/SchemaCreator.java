package io.charybdis.stress.ops;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.charybdis.stress.settings.SchemaSettings;
import io.charybdis.stress.settings.StressSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Creates cassandra-stress's default schema when missing: the keyspace with the {@code -schema} replication, and
 * {@code standard1 (key blob PRIMARY KEY, "C0" blob, ...)} and {@code counter1 (key blob PRIMARY KEY, "C0" counter,
 * ...)} with the {@code -schema} compaction and compression (compression off unless given).
 */
final class SchemaCreator {

    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

    private final StressSettings settings;

    SchemaCreator(StressSettings settings) {
        this.settings = settings;
    }

    boolean create(CqlSession session, List<String> columns) {
        SchemaSettings s = settings.schema();
        boolean created = false;
        String ks = PredefinedWorkload.quote(s.keyspace());
        if (session.getMetadata().getKeyspace(s.keyspace()).isEmpty()) {
            execute(session, keyspaceCql(s));
            created = true;
        }
        var keyspace = session.getMetadata().getKeyspace(s.keyspace());
        for (String table : List.of("standard1", "counter1")) {
            boolean exists = keyspace.isPresent() && keyspace.get().getTable(table).isPresent();
            if (!exists) {
                execute(session, tableCql(ks, table, columns, table.equals("counter1") ? "counter" : "blob", s));
                created = true;
            }
        }
        return created;
    }

    /** Runs a schema statement with a timeout long enough for schema changes. */
    static void execute(CqlSession session, String cql) {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
    }

    static String keyspaceCql(SchemaSettings s) {
        StringBuilder sb = new StringBuilder("CREATE KEYSPACE IF NOT EXISTS ").append(PredefinedWorkload.quote(s.keyspace()))
                .append(" WITH replication = {'class': '").append(s.replicationStrategy()).append('\'');
        for (Map.Entry<String, String> e : s.replicationOptions().entrySet()) {
            sb.append(", '").append(e.getKey()).append("': '").append(e.getValue()).append('\'');
        }
        return sb.append("} AND durable_writes = true").toString();
    }

    static String tableCql(String ks, String table, List<String> columns, String type, SchemaSettings s) {
        StringBuilder sb = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(ks).append('.')
                .append(PredefinedWorkload.quote(table)).append(" (key blob PRIMARY KEY");
        for (String c : columns) {
            sb.append(", ").append(PredefinedWorkload.quote(c)).append(' ').append(type);
        }
        sb.append(") WITH compression = ");
        if (s.compression() == null) {
            sb.append("{'enabled': 'false'}");
        } else {
            sb.append("{'class': '").append(s.compression()).append("'}");
        }
        if (s.compactionStrategy() != null) {
            sb.append(" AND compaction = {'class': '").append(s.compactionStrategy()).append('\'');
            for (Map.Entry<String, String> e : s.compactionOptions().entrySet()) {
                sb.append(", '").append(e.getKey()).append("': '").append(e.getValue()).append('\'');
            }
            sb.append('}');
        }
        return sb.toString();
    }
}
