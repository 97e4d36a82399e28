package io.charybdis.cluster.locator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplicationStrategyTest {
    static Endpoint node(int i, String dc, String rack) {
        try {
            return new Endpoint(new UUID(0, i), InetAddress.getByName("127.0.0." + i), 7000, dc, rack, 1);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldOwnTheRangeEndingAtTheFirstTokenAtOrAfterIt() {
        Endpoint a = node(1, "dc1", "r1");
        Endpoint b = node(2, "dc1", "r1");
        TokenRing ring = TokenRing.of(Map.of(a, List.of(-100L, 100L), b, List.of(0L)));
        assertThat(ring.primaryOwner(-100)).isEqualTo(a);
        assertThat(ring.primaryOwner(-99)).isEqualTo(b);
        assertThat(ring.primaryOwner(0)).isEqualTo(b);
        assertThat(ring.primaryOwner(1)).isEqualTo(a);
        assertThat(ring.primaryOwner(101)).isEqualTo(a); // wraps to the smallest token
        assertThat(ring.primaryOwner(Long.MIN_VALUE)).isEqualTo(a);
        assertThat(ring.tokensOf(a)).containsExactly(-100L, 100L);
        assertThat(ring.previousToken(ring.indexOf(0))).isEqualTo(-100L);
        assertThat(ring.previousToken(0)).isEqualTo(100L);
    }

    @Test
    void shouldRefuseATokenOwnedTwice() {
        assertThatThrownBy(() -> TokenRing.of(Map.of(node(1, "d", "r"), List.of(5L), node(2, "d", "r"), List.of(5L))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("token 5");
    }

    @Test
    void simpleStrategyWalksClockwiseOverDistinctEndpoints() {
        Endpoint a = node(1, "dc1", "r1");
        Endpoint b = node(2, "dc1", "r1");
        Endpoint c = node(3, "dc1", "r1");
        TokenRing ring = TokenRing.of(Map.of(a, List.of(0L, 10L), b, List.of(20L), c, List.of(30L)));
        ReplicationStrategy rf2 = ReplicationStrategy.of(Map.of("class", ReplicationStrategy.SIMPLE, "replication_factor", "2"));
        assertThat(rf2.replicas(5, ring, a)).containsExactly(a, b); // 10 (a), 20 (b)
        assertThat(rf2.replicas(-5, ring, a)).containsExactly(a, b); // 0 (a), 10 (a again: skipped), 20 (b)
        assertThat(rf2.replicas(25, ring, a)).containsExactly(c, a);
        ReplicationStrategy rf5 = ReplicationStrategy.of(Map.of("class", "SimpleStrategy", "replication_factor", "5"));
        assertThat(rf5.replicas(25, ring, a)).containsExactly(c, a, b); // no more than the ring has
        assertThat(rf5.replicationFactor()).isEqualTo(5);
    }

    @Test
    void localStrategyIsThisNodeOnly() {
        Endpoint a = node(1, "dc1", "r1");
        Endpoint b = node(2, "dc1", "r1");
        TokenRing ring = TokenRing.of(Map.of(a, List.of(0L), b, List.of(10L)));
        ReplicationStrategy local = ReplicationStrategy.of(Map.of("class", ReplicationStrategy.LOCAL));
        assertThat(local.replicas(5, ring, a)).containsExactly(a);
        assertThat(local.replicas(5, ring, b)).containsExactly(b);
    }

    @Test
    void networkTopologyPlacesPerDatacentreAndPrefersUnusedRacks() {
        Endpoint a1 = node(1, "dc1", "r1");
        Endpoint a2 = node(2, "dc1", "r1");
        Endpoint a3 = node(3, "dc1", "r2");
        Endpoint b1 = node(4, "dc2", "r1");
        Endpoint b2 = node(5, "dc2", "r1");
        Map<Endpoint, List<Long>> tokens = new LinkedHashMap<>();
        tokens.put(a1, List.of(0L));
        tokens.put(a2, List.of(10L));
        tokens.put(b1, List.of(20L));
        tokens.put(a3, List.of(30L));
        tokens.put(b2, List.of(40L));
        TokenRing ring = TokenRing.of(tokens);
        Map<String, String> repl = new LinkedHashMap<>();
        repl.put("class", ReplicationStrategy.NETWORK_TOPOLOGY);
        repl.put("dc1", "2");
        repl.put("dc2", "1");
        ReplicationStrategy nts = ReplicationStrategy.of(repl);
        // from token 0: a1 (r1), a2 (r1: skipped while r2 unseen), b1, a3 (r2): dc1 = a1, a3
        assertThat(nts.replicas(0, ring, a1)).containsExactly(a1, b1, a3);
        assertThat(nts.replicationFactor()).isEqualTo(3);
        assertThat(nts.replicationFactor("dc1")).isEqualTo(2);
        assertThat(nts.replicationFactor("nowhere")).isZero();

        repl.put("dc1", "3");
        // three replicas on two racks: one rack repeats; a skipped endpoint fills the last place
        assertThat(ReplicationStrategy.of(repl).replicas(0, ring, a1)).containsExactlyInAnyOrder(a1, a2, a3, b1);
        repl.put("dc1", "9");
        assertThat(ReplicationStrategy.of(repl).replicas(0, ring, a1)).hasSize(4); // all dc1 nodes and one of dc2
    }

    @Test
    void networkTopologyWithAnUnknownDatacentreHasNoReplicas() {
        Endpoint a = node(1, "datacenter1", "rack1");
        TokenRing ring = TokenRing.of(Map.of(a, List.of(0L)));
        ReplicationStrategy nts = ReplicationStrategy.of(Map.of("class", ReplicationStrategy.NETWORK_TOPOLOGY, "dc9", "3"));
        assertThat(nts.replicas(0, ring, a)).isEmpty();
    }
}
