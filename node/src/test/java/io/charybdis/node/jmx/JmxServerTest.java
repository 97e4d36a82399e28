package io.charybdis.node.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.charybdis.node.CharybdisNode;
import io.charybdis.node.config.NodeConfig;
import java.lang.management.MemoryUsage;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JMX surface nodetool uses, read with a plain JMX client (javax.management.remote) against a node started in
 * this JVM, with Cassandra's ObjectNames, attribute and operation names and signatures.
 */
@Timeout(120)
class JmxServerTest {
    private static final String SS = "org.apache.cassandra.db:type=StorageService";
    private static final String TABLE_METRIC = "org.apache.cassandra.metrics:type=Table,keyspace=ks,scope=t,name=";
    private static Path dir;
    private static CharybdisNode node;
    private static CqlSession session;
    private static JMXConnector jmx;
    private static MBeanServerConnection conn;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("charybdis-jmx");
        node = CharybdisNode.start(NodeConfig.builder().baseDirectory(dir).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).jmxPort(0).smp(2).build());
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
                .withLocalDatacenter("datacenter1").withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .build()).build();
        session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
        PreparedStatement insert = session.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
        for (int i = 0; i < 100; i++) {
            session.execute(insert.bind(i, "value " + i));
        }
        PreparedStatement select = session.prepare("SELECT v FROM ks.t WHERE k = ?");
        for (int i = 0; i < 30; i++) {
            session.execute(select.bind(i));
        }
        assertThat(node.jmx()).isNotNull();
        jmx = JMXConnectorFactory.connect(new JMXServiceURL(node.jmx().serviceUrl()));
        conn = jmx.getMBeanServerConnection();
    }

    @AfterAll
    static void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (session != null) {
            session.close();
        }
        if (node != null) {
            node.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static Object attr(String bean, String attribute) throws Exception {
        return conn.getAttribute(new ObjectName(bean), attribute);
    }

    private static Object invoke(String bean, String op, Object[] args, String[] signature) throws Exception {
        return conn.invoke(new ObjectName(bean), op, args, signature);
    }

    private String self() {
        return node.info().listenAddress().getHostAddress() + ":" + node.info().storagePort();
    }

    @Test
    void storageServiceDescribesThisNode() throws Exception {
        assertThat(attr(SS, "ReleaseVersion")).isEqualTo("5.0.6");
        assertThat(attr(SS, "LocalHostId")).isEqualTo(node.info().hostId().toString());
        assertThat(attr(SS, "ClusterName")).isEqualTo("Test Cluster");
        assertThat(attr(SS, "PartitionerName")).isEqualTo("org.apache.cassandra.dht.Murmur3Partitioner");
        assertThat(attr(SS, "LiveNodesWithPort")).isEqualTo(List.of(self()));
        assertThat(attr(SS, "UnreachableNodesWithPort")).isEqualTo(List.of());
        assertThat(attr(SS, "JoiningNodesWithPort")).isEqualTo(List.of());
        assertThat(attr(SS, "EndpointWithPortToHostId")).isEqualTo(Map.of(self(), node.info().hostId().toString()));
        @SuppressWarnings("unchecked")
        Map<String, String> tokens = (Map<String, String>) attr(SS, "TokenToEndpointWithPortMap");
        assertThat(tokens).hasSize(node.info().tokens().size()).containsValue(self());
        assertThat(tokens.keySet()).containsExactlyInAnyOrderElementsOf(node.info().tokens());
        @SuppressWarnings("unchecked")
        List<String> keyspaces = (List<String>) attr(SS, "Keyspaces");
        assertThat(keyspaces).contains("ks", "system", "system_schema").doesNotContain("system_views");
        assertThat(attr(SS, "NonSystemKeyspaces")).isEqualTo(List.of("ks"));
        assertThat(invoke(SS, "effectiveOwnershipWithPort", new Object[] {"ks"}, new String[] {"java.lang.String"}))
                .isEqualTo(Map.of(self(), 1.0f));
        assertThat(invoke(SS, "getKeyspaceReplicationInfo", new Object[] {"ks"}, new String[] {"java.lang.String"}))
                .isEqualTo("SimpleStrategy {replication_factor=1}");
        assertThat(attr(SS, "Joined")).isEqualTo(true);
        assertThat(attr(SS, "NativeTransportRunning")).isEqualTo(true);
        assertThat(attr(SS, "ReadRpcTimeout")).isEqualTo(5000L);
        assertThat(attr(SS, "CompactionThroughtputMibPerSecAsDouble")).isEqualTo(0.0);
        assertThat(attr(SS, "ConcurrentCompactors")).isEqualTo(2);
        assertThat(attr("org.apache.cassandra.db:type=EndpointSnitchInfo", "Datacenter")).isEqualTo("datacenter1");
        assertThat(invoke("org.apache.cassandra.db:type=EndpointSnitchInfo", "getRack", new Object[] {self()},
                new String[] {"java.lang.String"})).isEqualTo("rack1");
        assertThat(attr("org.apache.cassandra.net:type=Gossiper", "ReleaseVersionsWithPort"))
                .isEqualTo(Map.of("5.0.6", List.of(self())));
    }

    @Test
    void platformBeansAreServed() throws Exception {
        CompositeData heap = (CompositeData) attr("java.lang:type=Memory", "HeapMemoryUsage");
        assertThat(MemoryUsage.from(heap).getUsed()).isPositive();
        assertThat((Long) attr("java.lang:type=Runtime", "Uptime")).isPositive();
    }

    @Test
    void flushThroughStorageServiceWritesSSTablesSeenByTheMetrics() throws Exception {
        invoke(SS, "forceKeyspaceFlush", new Object[] {"ks", new String[] {"t"}},
                new String[] {"java.lang.String", "[Ljava.lang.String;"});
        assertThat((Integer) attr(TABLE_METRIC + "LiveSSTableCount", "Value")).isPositive();
        long live = (Long) attr(TABLE_METRIC + "LiveDiskSpaceUsed", "Count");
        assertThat(live).isPositive();
        assertThat(attr(SS, "LoadString")).asString().matches("[0-9.]+ (bytes|KiB|MiB)");
        assertThat((Long) attr(TABLE_METRIC + "EstimatedPartitionCount", "Value")).isGreaterThanOrEqualTo(100);
        assertPartitionHistograms();
        assertThat((Long) attr("org.apache.cassandra.metrics:type=Storage,name=Load", "Count"))
                .isGreaterThanOrEqualTo(live);
        // a major compaction through the table bean, then figures from the compaction metrics
        invoke("org.apache.cassandra.db:type=Tables,keyspace=ks,table=t", "forceMajorCompaction",
                new Object[] {false}, new String[] {"boolean"});
        assertThat(attr("org.apache.cassandra.metrics:type=Compaction,name=PendingTasks", "Value")).isEqualTo(0);
        assertThat(attr("org.apache.cassandra.db:type=CompactionManager", "Compactions")).isEqualTo(List.of());
        invoke("org.apache.cassandra.db:type=CompactionManager", "stopCompaction", new Object[] {"COMPACTION"},
                new String[] {"java.lang.String"});
        assertPartitionHistograms(); // the compaction's output records the same partitions
    }

    /**
     * The 100 partitions of ks.t (one row, one cell each) in the SSTables' histograms as Cassandra's table metrics
     * hand them to nodetool: bucket counts (155 + 1 and 118 + 1) and the partition-size figures drawn from them.
     */
    private static void assertPartitionHistograms() throws Exception {
        long[] sizes = (long[]) attr(TABLE_METRIC + "EstimatedPartitionSizeHistogram", "Value");
        long[] cells = (long[]) attr(TABLE_METRIC + "EstimatedColumnCountHistogram", "Value");
        assertThat(sizes).hasSize(156);
        assertThat(java.util.Arrays.stream(sizes).sum()).isEqualTo(100);
        assertThat(cells).hasSize(119);
        assertThat(cells[0]).isEqualTo(100); // one cell each: the first bucket (up to 1)
        assertThat(java.util.Arrays.stream(cells).sum()).isEqualTo(100);
        long min = (Long) attr(TABLE_METRIC + "MinPartitionSize", "Value");
        long max = (Long) attr(TABLE_METRIC + "MaxPartitionSize", "Value");
        long mean = (Long) attr(TABLE_METRIC + "MeanPartitionSize", "Value");
        // records of (k int, v 'value N'): about a hundred bytes each, no overflow
        assertThat(min).isBetween(50L, 150L);
        assertThat(max).isBetween(min, 150L);
        assertThat(mean).isBetween(min, max);
        assertThat(sizes[sizes.length - 1]).isZero();
    }

    @Test
    void tableMetricsCountLocalReadsAndWrites() throws Exception {
        assertThat(attr(TABLE_METRIC + "WriteLatency", "Count")).isEqualTo(100L);
        assertThat(attr(TABLE_METRIC + "ReadLatency", "Count")).isEqualTo(30L);
        assertThat((Double) attr(TABLE_METRIC + "WriteLatency", "Mean")).isPositive();
        assertThat((Double) attr(TABLE_METRIC + "ReadLatency", "99thPercentile")).isPositive();
        assertThat(attr(TABLE_METRIC + "WriteLatency", "DurationUnit")).isEqualTo("microseconds");
        assertThat(attr(TABLE_METRIC + "SSTablesPerReadHistogram", "Count")).isEqualTo(30L);
        assertThat((Long) attr(TABLE_METRIC + "WriteTotalLatency", "Count")).isPositive();
        assertThat(invoke(TABLE_METRIC + "ReadLatency", "objectName", new Object[0], new String[0]))
                .isEqualTo(new ObjectName(TABLE_METRIC + "ReadLatency"));
        assertThat(attr("org.apache.cassandra.db:type=ColumnFamilies,keyspace=ks,columnfamily=t", "TableName"))
                .isEqualTo("t");
        assertThat(attr("org.apache.cassandra.db:type=Tables,keyspace=ks,table=t", "SSTableCountPerLevel")).isNull();
        assertThat(conn.queryNames(new ObjectName("org.apache.cassandra.db:type=ColumnFamilies,*"), null))
                .contains(new ObjectName("org.apache.cassandra.db:type=ColumnFamilies,keyspace=ks,columnfamily=t"));
    }

    @Test
    void tableBeansFollowTheSchema() throws Exception {
        ObjectName bean = new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=ks,table=later");
        assertThat(conn.isRegistered(bean)).isFalse();
        session.execute("CREATE TABLE ks.later (k int PRIMARY KEY)");
        assertThat(conn.isRegistered(bean)).isTrue();
        assertThat(conn.isRegistered(new ObjectName(
                "org.apache.cassandra.metrics:type=Table,keyspace=ks,scope=later,name=ReadLatency"))).isTrue();
        // DROP TABLE through CQL is avoided here: on a shard thread it waits on the shards (a deadlock outside JMX);
        // the same schema change made from this thread, then the sync the schema listener runs
        node.schemas().update(s -> s.with(s.keyspace("ks").withoutTable("later")), new java.util.ArrayList<>());
        node.jmx().syncTables();
        assertThat(conn.isRegistered(bean)).isFalse();
        assertThatThrownBy(() -> conn.getAttribute(bean, "TableName")).isInstanceOf(InstanceNotFoundException.class);
    }

    @Test
    void unknownKeyspaceIsAnErrorTheClientCanRead() {
        assertThatThrownBy(() -> invoke(SS, "forceKeyspaceFlush", new Object[] {"nope", new String[0]},
                new String[] {"java.lang.String", "[Ljava.lang.String;"}))
                .hasStackTraceContaining("Unknown keyspace nope");
    }

    @Test
    void compactionThroughputIsACapNodetoolCanSetAndRemove() throws Exception {
        assertThat(attr(SS, "CompactionThroughputMbPerSec")).isEqualTo(0);
        try {
            conn.setAttribute(new ObjectName(SS), new Attribute("CompactionThroughputMbPerSec", 8));
            assertThat(attr(SS, "CompactionThroughputMbPerSec")).isEqualTo(8);
            assertThat(attr(SS, "CompactionThroughtputMibPerSecAsDouble")).isEqualTo(8.0);
            assertThat(node.storage().compactionThroughputCap()).isEqualTo(8L << 20);
        } finally {
            conn.setAttribute(new ObjectName(SS), new Attribute("CompactionThroughputMbPerSec", 0));
        }
        assertThat(node.storage().compactionThroughputCap()).isZero();
    }

    @Test
    void attributesAreReadOnly() {
        assertThatThrownBy(() -> conn.setAttribute(new ObjectName(SS), new Attribute("ReleaseVersion", "x")))
                .isNotNull();
    }

    @Test
    void twoNodesInOneJvmKeepTheirOwnBeans() throws Exception {
        Path other = Files.createTempDirectory("charybdis-jmx-2");
        try (CharybdisNode second = CharybdisNode.start(NodeConfig.builder().baseDirectory(other)
                .nativeTransportPort(0).nativeShardAwareTransportPort(0).jmxPort(0).smp(1).build());
             JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(second.jmx().serviceUrl()))) {
            assertThat(second.jmx().port()).isNotEqualTo(node.jmx().port());
            assertThat(c.getMBeanServerConnection().getAttribute(new ObjectName(SS), "LocalHostId"))
                    .isEqualTo(second.info().hostId().toString());
            assertThat(attr(SS, "LocalHostId")).isEqualTo(node.info().hostId().toString());
            assertThat(c.getMBeanServerConnection().isRegistered(
                    new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=ks,table=t"))).isFalse();
        } finally {
            try (Stream<Path> s = Files.walk(other)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
