package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.time.LocalTime;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol v3, which Cassandra 5.0 still serves and the real cassandra-stress 5.0 asks for with
 * {@code -mode native cql3 protocolVersion=3}: the driver negotiates it, prepares (no partition key indexes in v3),
 * sees the types v3 lacks (date, time, smallint, tinyint) as custom types by marshal class (as from Cassandra 5.0.6),
 * and gets no warnings.
 */
@Timeout(120)
class ProtocolV3Test {
    static TestNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    @ParameterizedTest(name = "compression {0}")
    @ValueSource(strings = {"none", "lz4"})
    void shouldServeADriverOnProtocolV3(String compression) {
        String ks = "v3_" + compression;
        try (CqlSession session = node.session(b -> b.withString(DefaultDriverOption.PROTOCOL_VERSION, "V3")
                .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression))) {
            assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V3);
            session.execute("CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy', "
                    + "'replication_factor': 1}");
            session.execute("CREATE TABLE " + ks + ".t (k int, c int, d date, tm time, s smallint, b tinyint, "
                    + "v blob, PRIMARY KEY (k, c))");
            // date, time, smallint and tinyint are newer than v3: the driver sees them as custom types
            PreparedStatement insert = session.prepare("INSERT INTO " + ks + ".t (k, c, d, tm, s, b, v) "
                    + "VALUES (?, ?, '2024-02-29', '12:30:00', 7, -3, ?)");
            for (int c = 0; c < 3; c++) {
                session.execute(insert.bind(1, c, ByteBuffer.wrap(new byte[] {(byte) c})));
            }
            // a LOGGED batch over batch_size_warn_threshold (5KiB): v4 clients get a warning, v3 clients cannot
            BatchStatement big = BatchStatement.builder(BatchType.LOGGED)
                    .addStatement(insert.bind(2, 0, ByteBuffer.wrap(new byte[6000])))
                    .build();
            ResultSet batch = session.execute(big);
            assertThat(batch.getExecutionInfo().getWarnings()).isEmpty();

            PreparedStatement select = session.prepare("SELECT d, tm, s, b, v FROM " + ks + ".t WHERE k = ?");
            assertThat(select.getVariableDefinitions().get(0).getType()).isEqualTo(DataTypes.INT);
            var rows = session.execute(select.bind(1)).all();
            assertThat(rows).hasSize(3);
            Row first = rows.get(0);
            assertThat(first.getColumnDefinitions().get("d").getType())
                    .isEqualTo(DataTypes.custom("org.apache.cassandra.db.marshal.SimpleDateType"));
            assertThat(first.getColumnDefinitions().get("tm").getType())
                    .isEqualTo(DataTypes.custom("org.apache.cassandra.db.marshal.TimeType"));
            assertThat(first.getColumnDefinitions().get("s").getType())
                    .isEqualTo(DataTypes.custom("org.apache.cassandra.db.marshal.ShortType"));
            assertThat(first.getColumnDefinitions().get("b").getType())
                    .isEqualTo(DataTypes.custom("org.apache.cassandra.db.marshal.ByteType"));
            // the values are the same bytes as in v4: 2024-02-29 is day 19782 after the epoch, offset by 2^31
            assertThat(first.getBytesUnsafe("d")).isEqualTo(ByteBuffer.allocate(4).putInt(0x80000000 + 19782).flip());
            assertThat(first.getBytesUnsafe("tm"))
                    .isEqualTo(ByteBuffer.allocate(8).putLong(LocalTime.of(12, 30).toNanoOfDay()).flip());
            assertThat(first.getBytesUnsafe("s")).isEqualTo(ByteBuffer.wrap(new byte[] {0, 7}));
            assertThat(first.getBytesUnsafe("b")).isEqualTo(ByteBuffer.wrap(new byte[] {-3}));
            assertThat(session.execute("SELECT count(*) FROM " + ks + ".t").one().getLong(0)).isEqualTo(4L);
        }
    }
}
