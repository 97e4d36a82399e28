package io.charybdis.node.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.charybdis.node.config.DataSize;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * batch_size_warn_threshold and batch_size_fail_threshold as Cassandra applies them to batches spanning partition
 * keys, here with the thresholds lowered to 1 KiB and 4 KiB in the node's configuration (the conformance suite checks
 * the sizes and messages against Cassandra 5.0.6 at the default thresholds).
 */
@Timeout(120)
class BatchSizeThresholdTest {
    static TestNode node;
    static CqlSession session;
    static PreparedStatement insert;

    @BeforeAll
    static void start() throws Exception {
        node = new TestNode(b -> b.batchSizeWarnThreshold(DataSize.ofKibibytes(1))
                .batchSizeFailThreshold(DataSize.ofKibibytes(4)));
        session = node.session();
        session.execute("CREATE KEYSPACE bs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE bs.t (k int, c int, v blob, PRIMARY KEY (k, c))");
        insert = session.prepare("INSERT INTO bs.t (k, c, v) VALUES (?, ?, ?)");
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) {
            session.close();
        }
        node.close();
    }

    private static BatchStatement batch(int firstKey, int partitions, int valueBytes) {
        BatchStatement b = BatchStatement.newInstance(BatchType.LOGGED);
        for (int i = 0; i < partitions; i++) {
            b = b.add(insert.bind(firstKey + i, 1, java.nio.ByteBuffer.allocate(valueBytes)));
        }
        return b;
    }

    private static long count(int firstKey, int partitions) {
        long n = 0;
        for (int i = 0; i < partitions; i++) {
            n += session.execute("SELECT count(*) FROM bs.t WHERE k = " + (firstKey + i)).one().getLong(0);
        }
        return n;
    }

    @Test
    void batchAboveTheWarnThresholdIsAppliedWithCassandrasWarning() {
        // per partition: 29 (deletion, empty static row) + row 21 + clustering 4 + cell 20 + 700 = 774
        ResultSet rs = session.execute(batch(100, 2, 700));
        assertThat(rs.getExecutionInfo().getWarnings()).containsExactly(
                "Batch for [bs.t] is of size 1548, exceeding specified threshold of 1024 by 524.");
        assertThat(count(100, 2)).isEqualTo(2);
    }

    @Test
    void batchBelowTheWarnThresholdOrOnOnePartitionHasNoWarning() {
        assertThat(session.execute(batch(200, 2, 400)).getExecutionInfo().getWarnings()).isEmpty();
        BatchStatement onePartition = BatchStatement.newInstance(BatchType.LOGGED);
        for (int c = 0; c < 8; c++) {
            onePartition = onePartition.add(insert.bind(210, c, java.nio.ByteBuffer.allocate(1000)));
        }
        assertThat(session.execute(onePartition).getExecutionInfo().getWarnings()).isEmpty();
        assertThat(session.execute("SELECT count(*) FROM bs.t WHERE k = 210").one().getLong(0)).isEqualTo(8);
    }

    @Test
    void batchAboveTheFailThresholdIsRefusedAndAppliesNothing() {
        assertThatThrownBy(() -> session.execute(batch(300, 3, 1500)))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Batch too large");
        assertThatThrownBy(() -> session.execute("BEGIN UNLOGGED BATCH\n"
                + "INSERT INTO bs.t (k, c, v) VALUES (310, 1, 0x" + "ab".repeat(2500) + ");\n"
                + "INSERT INTO bs.t (k, c, v) VALUES (311, 1, 0x" + "cd".repeat(2500) + ");\n"
                + "APPLY BATCH"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("Batch too large");
        assertThat(count(300, 3) + count(310, 2)).isZero();
        // the connection keeps serving
        assertThat(session.execute(batch(320, 2, 10)).getExecutionInfo().getWarnings()).isEmpty();
        assertThat(count(320, 2)).isEqualTo(2);
    }
}
