package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Counter columns: increments and decrements are exact under concurrency, counter batches, Cassandra's rules. */
@Timeout(120)
class CounterTest {
    static TestNode node;
    static CqlSession session;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode();
        session = node.session();
        session.execute("CREATE KEYSPACE cnt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE cnt.hits (page text, day int, views counter, clicks counter, "
                + "PRIMARY KEY (page, day))");
    }

    @AfterAll
    static void stop() throws Exception {
        session.close();
        node.close();
    }

    @Test
    void shouldCountConcurrentIncrementsExactly() {
        PreparedStatement inc = session.prepare("UPDATE cnt.hits SET views = views + ?, clicks = clicks - 1 "
                + "WHERE page = ? AND day = ?");
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            all.add(session.executeAsync(inc.bind(2L, "home", 1)).toCompletableFuture());
            if (all.size() == 200) {
                all.forEach(CompletableFuture::join);
                all.clear();
            }
        }
        all.forEach(CompletableFuture::join);
        Row r = session.execute("SELECT views, clicks FROM cnt.hits WHERE page = 'home' AND day = 1").one();
        assertThat(r.getLong("views")).isEqualTo(4000L);
        assertThat(r.getLong("clicks")).isEqualTo(-2000L);
    }

    @Test
    void shouldApplyCounterBatches() {
        session.execute(BatchStatement.builder(BatchType.COUNTER)
                .addStatement(SimpleStatement.newInstance("UPDATE cnt.hits SET views = views + 5 WHERE page = 'b' "
                        + "AND day = 1"))
                .addStatement(SimpleStatement.newInstance("UPDATE cnt.hits SET views = views + 7 WHERE page = 'b' "
                        + "AND day = 2"))
                .build());
        assertThat(session.execute("SELECT sum(views) FROM cnt.hits WHERE page = 'b'").one().getLong(0))
                .isEqualTo(12L);
    }

    @Test
    void shouldRejectWhatCassandraRejects() {
        assertThatThrownBy(() -> session.execute("INSERT INTO cnt.hits (page, day, views) VALUES ('x', 1, 1)"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("INSERT statements are not allowed");
        assertThatThrownBy(() -> session.execute("UPDATE cnt.hits SET views = 3 WHERE page = 'x' AND day = 1"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("Cannot set the value of counter");
        assertThatThrownBy(() -> session.execute("UPDATE cnt.hits USING TTL 10 SET views = views + 1 WHERE "
                + "page = 'x' AND day = 1")).isInstanceOf(InvalidQueryException.class);
        assertThatThrownBy(() -> session.execute("CREATE TABLE cnt.mixed (k int PRIMARY KEY, c counter, v int)"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("Cannot mix counter and non counter");
    }

    /**
     * Versions before counters had shards kept a counter as one cell holding its total: such a cell is read as one
     * more shard, so data written by them keeps its value, further updates add to it and a deletion removes it.
     */
    @Test
    void shouldKeepCountersWrittenBeforeShardsAndAddToThem() {
        session.execute("CREATE TABLE cnt.legacy (k int PRIMARY KEY, n counter, m counter)");
        io.charybdis.node.schema.TableMetadata t = node.node.schemas().schema().table("cnt", "legacy");
        io.charybdis.storage.TableId id = new io.charybdis.storage.TableId(t.id());
        byte[] key = java.nio.ByteBuffer.allocate(4).putInt(0, 1).array();
        long token = io.charybdis.node.cql.keys.Murmur3.token(key);
        long ts = System.currentTimeMillis() * 1000 - 1_000_000;
        node.node.storage().apply(new io.charybdis.storage.mutation.MutationBuilder().start(id, token, key)
                .beginRow(io.charybdis.node.cql.keys.ClusteringCodec.NO_CLUSTERING_ROW)
                .cell(t.column("n").cellId(), ts, 0, 0, java.nio.ByteBuffer.allocate(8).putLong(0, 7))
                .cell(t.column("m").cellId(), ts, 0, 0, java.nio.ByteBuffer.allocate(8).putLong(0, -2))
                .endRow().build()).join();
        Row r = session.execute("SELECT n, m FROM cnt.legacy WHERE k = 1").one();
        assertThat(r.getLong("n")).isEqualTo(7L);
        assertThat(r.getLong("m")).isEqualTo(-2L);
        session.execute("UPDATE cnt.legacy SET n = n + 3, m = m + 2 WHERE k = 1");
        r = session.execute("SELECT n, m FROM cnt.legacy WHERE k = 1").one();
        assertThat(r.getLong("n")).isEqualTo(10L);
        assertThat(r.getLong("m")).isEqualTo(0L);
        session.execute("DELETE n FROM cnt.legacy WHERE k = 1");
        r = session.execute("SELECT n, m FROM cnt.legacy WHERE k = 1").one();
        assertThat(r.isNull("n")).isTrue();
        assertThat(r.getLong("m")).isEqualTo(0L);
    }

    @Test
    void shouldCountStaticCountersApartFromTheRows() {
        session.execute("CREATE TABLE cnt.sct (k int, c int, s counter static, v counter, PRIMARY KEY (k, c))");
        for (int i = 0; i < 3; i++) {
            session.execute("UPDATE cnt.sct SET s = s + 5 WHERE k = 1");
            session.execute("UPDATE cnt.sct SET v = v + 2 WHERE k = 1 AND c = " + i);
            session.execute("UPDATE cnt.sct SET v = v - 1 WHERE k = 1 AND c IN (0, 1)");
        }
        List<Row> rows = session.execute("SELECT c, s, v FROM cnt.sct WHERE k = 1").all();
        assertThat(rows.stream().map(r -> r.getInt("c") + ":" + r.getLong("s") + ":" + r.getLong("v")).toList())
                .containsExactly("0:15:-1", "1:15:-1", "2:15:2");
    }
}
