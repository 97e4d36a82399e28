package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeConfigTest {

    private static final long GIB = DataSize.GIB;

    @Test
    void shouldDefaultTheMemoryBudgetToAQuarterOfPhysicalMemoryWithinDirectMemory() {
        assertThat(NodeConfig.defaultMemoryBudget(new Machine(8, 32 * GIB, 16 * GIB, GIB)))
                .isEqualTo(DataSize.ofGibibytes(8));
        assertThat(NodeConfig.defaultMemoryBudget(new Machine(8, 32 * GIB, 4 * GIB, GIB)))
                .isEqualTo(DataSize.ofGibibytes(3));
        assertThat(NodeConfig.defaultMemoryBudget(new Machine(1, 128L << 20, 64L << 20, 64L << 20)))
                .isEqualTo(DataSize.ofMebibytes(64));
    }

    @Test
    void shouldTakeMachineDependentDefaultsFromTheMachine() {
        NodeConfig c = NodeConfig.builder().machine(new Machine(6, 16 * GIB, 8 * GIB, 2 * GIB)).build();

        assertThat(c.smp()).isEqualTo(6);
        assertThat(c.memoryBudget()).isEqualTo(DataSize.ofGibibytes(4));
        assertThat(c.preparedStatementsCacheSize()).isEqualTo(DataSize.ofMebibytes(10));
        assertThat(c.nativeTransportMaxRequestDataInFlight().bytes()).isEqualTo(2 * GIB / 10);
        assertThat(c.nativeTransportMaxRequestDataInFlightPerIp().bytes()).isEqualTo(2 * GIB / 40);
    }

    @Test
    void shouldBuildConfigsForInProcessTestsWithoutFiles(@org.junit.jupiter.api.io.TempDir Path dir) {
        NodeConfig a = NodeConfig.builder().baseDirectory(dir.resolve("a")).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).smp(2).commitlogSync(CommitLogSync.BATCH).build();
        NodeConfig b = NodeConfig.builder().baseDirectory(dir.resolve("b")).nativeTransportPort(0)
                .nativeShardAwareTransportPort(0).smp(1).build();

        assertThat(a.dataFileDirectories()).containsExactly(dir.resolve("a/data"));
        assertThat(b.commitlogDirectory()).isEqualTo(dir.resolve("b/commitlog"));
        assertThat(a.smp()).isEqualTo(2);
        assertThat(a.commitlogSync()).isEqualTo(CommitLogSync.BATCH);
        assertThat(b.commitlogSync()).isEqualTo(CommitLogSync.PERIODIC);
    }

    @Test
    void shouldBeImmutable() {
        NodeConfig c = NodeConfig.builder().dataFileDirectories(List.of(Path.of("x"))).build();

        assertThatThrownBy(() -> c.dataFileDirectories().add(Path.of("y"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> c.seeds().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldRequireAPositiveWindowForTheChosenSyncMode() {
        assertThatThrownBy(() -> NodeConfig.builder().commitlogSync(CommitLogSync.GROUP)
                .commitlogSyncGroupWindow(Duration.ZERO).build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("commitlog_sync_group_window=0ms must be positive");
        assertThatThrownBy(() -> NodeConfig.builder().commitlogSyncPeriod(Duration.ZERO).build())
                .hasMessageContaining("commitlog_sync_period=0ms must be positive");
        assertThat(NodeConfig.builder().commitlogSync(CommitLogSync.BATCH).commitlogSyncPeriod(Duration.ZERO).build()
                .commitlogSync()).isEqualTo(CommitLogSync.BATCH);
    }

    @Test
    void shouldValidateSizes() {
        assertThatThrownBy(() -> NodeConfig.builder().nativeTransportMaxFrameSize(DataSize.ofGibibytes(1)).build())
                .hasMessageContaining("native_transport_max_frame_size=1GiB must be between 1KiB and 256MiB");
        assertThatThrownBy(() -> NodeConfig.builder().commitlogSegmentSize(DataSize.ofGibibytes(2)).build())
                .hasMessageContaining("commitlog_segment_size=2GiB");
        assertThatThrownBy(() -> NodeConfig.builder().memoryBudget(DataSize.ofMebibytes(1)).build())
                .hasMessageContaining("memory_budget=1MiB");
        assertThatThrownBy(() -> NodeConfig.builder().batchSizeFailThreshold(DataSize.ofKibibytes(1)).build())
                .hasMessageContaining("batch_size_fail_threshold=1KiB");
    }

    @Test
    void shouldNameAuthClassesAsCassandraDoes() {
        assertThat(AuthenticatorType.parse("AllowAllAuthenticator")).isEqualTo(AuthenticatorType.ALLOW_ALL);
        assertThat(AuthenticatorType.parse("org.apache.cassandra.auth.AllowAllAuthenticator"))
                .isEqualTo(AuthenticatorType.ALLOW_ALL);
        assertThat(AuthenticatorType.PASSWORD.qualifiedClassName())
                .isEqualTo("org.apache.cassandra.auth.PasswordAuthenticator");
        assertThat(AuthorizerType.parse("org.apache.cassandra.auth.CassandraAuthorizer")).isEqualTo(AuthorizerType.CASSANDRA);
    }
}
