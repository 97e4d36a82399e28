package io.charybdis.testcontainers;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Testcontainers' own CassandraContainerTest (modules/cassandra, org.testcontainers.cassandra, 2.x), with
 * {@code CassandraContainer} renamed {@code CharybdisContainer} and the image name changed; its resources
 * (initial.cql, initial-with-error.cql, the cassandra.yaml of cassandra-test-configuration-example) are copied as
 * they are. JUnit 5 instead of 4; the tests of other Cassandra versions (3.0.15, 2.2.11) are left out; performQuery
 * takes {@code getContactPoint()} (public in both classes) where the original reads
 * {@code getMappedPort(CassandraContainer.CQL_PORT)}, a constant private to its package, and because engines
 * without a bridge network (as here) map no ports.
 */
@Timeout(300)
class CassandraContainerDropInTest {

    private static DockerImageName CASSANDRA_IMAGE;

    private static final String TEST_CLUSTER_NAME_IN_CONF = "Test Cluster Integration Test";

    private static final String BASIC_QUERY = "SELECT release_version FROM system.local";

    @BeforeEach // not @BeforeAll: without an engine each test then shows as skipped, with the reason
    void image() {
        CASSANDRA_IMAGE = DockerImageName.parse(LocalImage.get());
    }

    @Test
    void testSimple() {
        try (CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)) {
            cassandraContainer.start();
            ResultSet resultSet = performQuery(cassandraContainer, BASIC_QUERY);
            assertThat(resultSet.wasApplied()).as("Query was applied").isTrue();
            assertThat(resultSet.one().getString(0)).as("Result set has release_version").isNotNull();
        }
    }

    @Test
    void testConfigurationOverride() {
        try (
            CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)
                .withConfigurationOverride("cassandra-test-configuration-example")
        ) {
            cassandraContainer.start();
            ResultSet resultSet = performQuery(cassandraContainer, "SELECT cluster_name FROM system.local");
            assertThat(resultSet.wasApplied()).as("Query was applied").isTrue();
            assertThat(resultSet.one().getString(0))
                .as("Cassandra configuration is overridden")
                .isEqualTo(TEST_CLUSTER_NAME_IN_CONF);
        }
    }

    @Test
    void testEmptyConfigurationOverride() {
        assertThatThrownBy(() -> {
            try (
                CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)
                    .withConfigurationOverride("cassandra-empty-configuration")
            ) {
                cassandraContainer.start();
            }
        }).isInstanceOf(ContainerLaunchException.class);
    }

    @Test
    void testInitScript() {
        try (
            CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)
                .withInitScript("initial.cql")
        ) {
            cassandraContainer.start();
            testInitScript(cassandraContainer);
        }
    }

    @Test
    void testInitScriptWithError() {
        assertThatThrownBy(() -> {
            try (
                CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)
                    .withInitScript("initial-with-error.cql")
            ) {
                cassandraContainer.start();
            }
        }).isInstanceOf(ContainerLaunchException.class);
    }

    @Test
    void testCassandraQueryWaitStrategy() {
        try (
            CharybdisContainer cassandraContainer = new CharybdisContainer(CASSANDRA_IMAGE)
                .waitingFor(new CharybdisQueryWaitStrategy())
        ) {
            cassandraContainer.start();
            ResultSet resultSet = performQuery(cassandraContainer, BASIC_QUERY);
            assertThat(resultSet.wasApplied()).as("Query was applied").isTrue();
        }
    }

    private void testInitScript(CharybdisContainer cassandraContainer) {
        ResultSet resultSet = performQuery(cassandraContainer, "SELECT * FROM keySpaceTest.catalog_category");
        assertThat(resultSet.wasApplied()).as("Query was applied").isTrue();
        Row row = resultSet.one();
        assertThat(row.getLong(0)).as("Inserted row is in expected state").isEqualTo(1);
        assertThat(row.getString(1)).as("Inserted row is in expected state").isEqualTo("test_category");
    }

    private ResultSet performQuery(CharybdisContainer cassandraContainer, String cql) {
        final CqlSession cqlSession = CqlSession
            .builder()
            .addContactPoint(cassandraContainer.getContactPoint())
            .withLocalDatacenter(cassandraContainer.getLocalDatacenter())
            .build();
        return performQuery(cqlSession, cql);
    }

    private ResultSet performQuery(CqlSession session, String cql) {
        final ResultSet rs = session.execute(cql);
        session.close();
        return rs;
    }
}
