package io.charybdis.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ConsistencyLevelTest {
    private static final ReplicationStrategy RF3 = ReplicationStrategy.of(Map.of("class", "SimpleStrategy",
            "replication_factor", "3"));
    private static final ReplicationStrategy NTS = ReplicationStrategy.of(Map.of("class", "NetworkTopologyStrategy",
            "dc1", "3", "dc2", "5"));

    @Test
    void blockForComesFromTheReplicationFactor() {
        assertThat(ConsistencyLevel.ONE.blockFor(RF3, "dc1")).isEqualTo(1);
        assertThat(ConsistencyLevel.QUORUM.blockFor(RF3, "dc1")).isEqualTo(2);
        assertThat(ConsistencyLevel.SERIAL.blockFor(RF3, "dc1")).isEqualTo(2);
        assertThat(ConsistencyLevel.ALL.blockFor(RF3, "dc1")).isEqualTo(3);
        assertThat(ConsistencyLevel.LOCAL_QUORUM.blockFor(RF3, "dc1")).isEqualTo(2);
        assertThat(ConsistencyLevel.EACH_QUORUM.blockFor(RF3, "dc1")).isEqualTo(2);
        assertThat(ConsistencyLevel.QUORUM.blockFor(NTS, "dc1")).isEqualTo(5); // 8 / 2 + 1
        assertThat(ConsistencyLevel.LOCAL_QUORUM.blockFor(NTS, "dc1")).isEqualTo(2);
        assertThat(ConsistencyLevel.LOCAL_QUORUM.blockFor(NTS, "dc2")).isEqualTo(3);
        assertThat(ConsistencyLevel.EACH_QUORUM.blockFor(NTS, "dc1")).isEqualTo(5); // 2 + 3
        assertThat(ConsistencyLevel.ALL.blockFor(NTS, "dc1")).isEqualTo(8);
    }

    @Test
    void planIsUnavailableWhenTooFewReplicasAreAlive() throws Exception {
        Endpoint a = new Endpoint(new UUID(0, 1), InetAddress.getByName("127.0.0.1"), 7000, "dc1", "r1", 1);
        Endpoint b = new Endpoint(new UUID(0, 2), InetAddress.getByName("127.0.0.2"), 7000, "dc1", "r1", 1);
        Endpoint c = new Endpoint(new UUID(0, 3), InetAddress.getByName("127.0.0.3"), 7000, "dc2", "r1", 1);
        List<Endpoint> replicas = List.of(a, b, c);
        Liveness bDown = e -> !e.equals(b);
        assertThat(ReplicaPlan.of(replicas, RF3, ConsistencyLevel.QUORUM, a, bDown, true).live()).containsExactly(a, c);
        assertThatThrownBy(() -> ReplicaPlan.of(replicas, RF3, ConsistencyLevel.ALL, a, bDown, true))
                .isInstanceOfSatisfying(UnavailableException.class, e -> {
                    assertThat(e.required()).isEqualTo(3);
                    assertThat(e.alive()).isEqualTo(2);
                    assertThat(e).hasMessage("Cannot achieve consistency level ALL");
                });
        // LOCAL_QUORUM counts only this data centre: a alone is up in dc1
        assertThatThrownBy(() -> ReplicaPlan.of(replicas, RF3, ConsistencyLevel.LOCAL_QUORUM, a, bDown, false))
                .isInstanceOfSatisfying(UnavailableException.class, e -> assertThat(e.alive()).isEqualTo(1));
        // ANY writes need no live replica (a hint holds the write)
        assertThat(ReplicaPlan.of(replicas, RF3, ConsistencyLevel.ANY, a, e -> false, true).blockFor()).isEqualTo(1);
    }
}
