package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.SchemaChangeListener;
import com.datastax.oss.driver.api.core.metadata.schema.SchemaChangeListenerBase;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Apache Cassandra Java driver 4.x against an in-process node, as an application uses it: protocol v5 and v4,
 * with and without LZ4.
 */
@Timeout(180)
class DriverRoundTripTest {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of("V5", "none"), Arguments.of("V5", "lz4"), Arguments.of("V4", "none"),
                Arguments.of("V4", "lz4"));
    }

    private static CqlSession session(String version, String compression) {
        return node.session(b -> b.withString(DefaultDriverOption.PROTOCOL_VERSION, version)
                .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression));
    }

    @ParameterizedTest(name = "protocol {0}, compression {1}")
    @MethodSource("modes")
    void shouldRoundTripThroughEveryStatementKind(String version, String compression) throws Exception {
        String ks = "ks_" + version.toLowerCase() + "_" + compression;
        try (CqlSession session = session(version, compression)) {
            assertThat(session.getContext().getProtocolVersion())
                    .isEqualTo(DefaultProtocolVersion.valueOf(version));
            session.execute("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': 1}");
            session.execute("CREATE TABLE " + ks + ".events (sensor text, day int, at timestamp, reading double, "
                    + "tags set<text>, PRIMARY KEY ((sensor, day), at)) WITH CLUSTERING ORDER BY (at DESC)");

            // simple statements
            session.execute("INSERT INTO " + ks + ".events (sensor, day, at, reading, tags) VALUES ('s1', 1, "
                    + "'2024-01-01 00:00:00+0000', 1.5, {'a', 'b'})");
            // prepared, positional markers
            PreparedStatement insert = session.prepare("INSERT INTO " + ks + ".events (sensor, day, at, reading) "
                    + "VALUES (?, ?, ?, ?)");
            assertThat(insert.getPartitionKeyIndices()).containsExactly(0, 1);
            for (int i = 1; i <= 5; i++) {
                session.execute(insert.bind("s1", 1, java.time.Instant.ofEpochSecond(1704067200L + i * 60L), i * 1.0));
            }
            // prepared, named markers
            PreparedStatement named = session.prepare("SELECT reading FROM " + ks + ".events WHERE sensor = :s AND "
                    + "day = :d AND at = :t");
            Row one = session.execute(named.bind().setString("s", "s1").setInt("d", 1)
                    .setInstant("t", java.time.Instant.ofEpochSecond(1704067200L + 180))).one();
            assertThat(one.getDouble("reading")).isEqualTo(3.0);
            // batch
            BatchStatement batch = BatchStatement.builder(BatchType.LOGGED)
                    .addStatement(insert.bind("s2", 1, java.time.Instant.ofEpochSecond(1), 7.0))
                    .addStatement(SimpleStatement.newInstance("INSERT INTO " + ks + ".events (sensor, day, at, "
                            + "reading) VALUES ('s2', 1, '1970-01-01 00:00:02+0000', 8.0)"))
                    .build();
            session.execute(batch);

            List<Row> rows = session.execute("SELECT * FROM " + ks + ".events WHERE sensor = 's1' AND day = 1")
                    .all();
            assertThat(rows).hasSize(6);
            assertThat(rows.get(0).getInstant("at")).isAfter(rows.get(1).getInstant("at"));
            assertThat(rows.get(5).getSet("tags", String.class)).containsExactlyInAnyOrder("a", "b");
            assertThat(session.execute("SELECT count(*) FROM " + ks + ".events WHERE sensor = 's2' AND day = 1")
                    .one().getLong(0)).isEqualTo(2L);

            // metadata
            KeyspaceMetadata meta = session.refreshSchema().getKeyspace(ks).orElseThrow();
            TableMetadata table = meta.getTable("events").orElseThrow();
            assertThat(table.getPartitionKey()).extracting(c -> c.getName().asInternal())
                    .containsExactly("sensor", "day");
            assertThat(table.getClusteringColumns().keySet()).extracting(c -> c.getName().asInternal())
                    .containsExactly("at");
            ColumnMetadata tags = table.getColumn("tags").orElseThrow();
            assertThat(tags.getType()).isEqualTo(DataTypes.setOf(DataTypes.TEXT));
            assertThat(table.getColumn("reading").orElseThrow().getType()).isEqualTo(DataTypes.DOUBLE);
        }
    }

    @ParameterizedTest(name = "protocol {0}, compression {1}")
    @MethodSource("modes")
    void shouldPageThroughTenThousandRows(String version, String compression) {
        String ks = "paging_" + version.toLowerCase() + "_" + compression;
        try (CqlSession session = session(version, compression)) {
            session.execute("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': 1}");
            session.execute("CREATE TABLE " + ks + ".kv (p int, c int, v text, PRIMARY KEY (p, c))");
            PreparedStatement insert = session.prepare("INSERT INTO " + ks + ".kv (p, c, v) VALUES (?, ?, ?)");
            List<java.util.concurrent.CompletionStage<?>> pending = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                pending.add(session.executeAsync(insert.bind(i % 10, i, "value-" + i)));
                if (pending.size() == 256) {
                    pending.forEach(f -> f.toCompletableFuture().join());
                    pending.clear();
                }
            }
            pending.forEach(f -> f.toCompletableFuture().join());

            ResultSet all = session.execute(SimpleStatement.newInstance("SELECT * FROM " + ks + ".kv")
                    .setPageSize(100));
            int count = 0;
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (Row r : all) {
                seen.add(r.getInt("c"));
                count++;
            }
            assertThat(count).isEqualTo(10_000);
            assertThat(seen).hasSize(10_000);

            ResultSet one = session.execute(SimpleStatement.newInstance("SELECT c FROM " + ks + ".kv WHERE p = 3")
                    .setPageSize(100));
            int previous = -1;
            int n = 0;
            for (Row r : one) {
                assertThat(r.getInt(0)).isGreaterThan(previous);
                previous = r.getInt(0);
                n++;
            }
            assertThat(n).isEqualTo(1000);
        }
    }

    @org.junit.jupiter.api.Test
    void shouldDeliverSchemaChangeEvents() throws Exception {
        CountDownLatch created = new CountDownLatch(1);
        SchemaChangeListener listener = new SchemaChangeListenerBase() {
            @Override
            public void onTableCreated(TableMetadata table) {
                if (table.getName().asInternal().equals("announced")) {
                    created.countDown();
                }
            }
        };
        try (CqlSession watcher = com.datastax.oss.driver.api.core.CqlSession.builder()
                .addContactPoint(new java.net.InetSocketAddress("127.0.0.1", node.node.nativePort()))
                .withLocalDatacenter("datacenter1").withSchemaChangeListener(listener).build();
             CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS evks WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': 1}");
            session.execute("CREATE TABLE evks.announced (k int PRIMARY KEY, v int)");
            assertThat(created.await(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
