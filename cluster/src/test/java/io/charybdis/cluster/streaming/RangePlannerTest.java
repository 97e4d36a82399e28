package io.charybdis.cluster.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.ReplicationStrategy;
import io.charybdis.cluster.locator.TokenRing;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RangePlannerTest {
    static Endpoint node(int i) {
        return new Endpoint(new UUID(0, i), InetAddress.getLoopbackAddress(), 7000 + i, "dc1", "r1", 2);
    }

    static TokenRing ring(Map<Endpoint, List<Long>> tokens) {
        return TokenRing.of(tokens);
    }

    @Test
    void pieceSplitsAWrappingRangeAtTheEndOfTheRing() {
        assertThat(new TokenRange(10, 20).pieces()).containsExactly(new TokenRange.Piece(11, 20));
        assertThat(new TokenRange(20, 10).pieces()).containsExactly(new TokenRange.Piece(Long.MIN_VALUE, 10),
                new TokenRange.Piece(21, Long.MAX_VALUE));
        assertThat(new TokenRange(5, 5).pieces()).containsExactly(new TokenRange.Piece(Long.MIN_VALUE, Long.MAX_VALUE));
        assertThat(new TokenRange(Long.MAX_VALUE, 3).pieces()).containsExactly(new TokenRange.Piece(Long.MIN_VALUE, 3));
        assertThat(new TokenRange(20, 10).contains(25)).isTrue();
        assertThat(new TokenRange(20, 10).contains(10)).isTrue();
        assertThat(new TokenRange(20, 10).contains(20)).isFalse();
        assertThat(new TokenRange(20, 10).contains(15)).isFalse();
    }

    @Test
    void aJoiningNodeGainsTheRangesItWillReplicateFromTheirCurrentReplicas() {
        Map<Endpoint, List<Long>> before = new LinkedHashMap<>();
        before.put(node(1), List.of(0L));
        before.put(node(2), List.of(1000L));
        before.put(node(3), List.of(2000L));
        Map<Endpoint, List<Long>> after = new LinkedHashMap<>(before);
        after.put(node(4), List.of(1500L));
        var transfers = RangePlanner.transfers(ring(before), ring(after), new ReplicationStrategy.Simple(2), node(1));
        // node 4 takes (1000, 1500] as primary and (0, 1000] as second replica
        assertThat(transfers).allMatch(t -> t.target().equals(node(4)));
        assertThat(transfers).extracting(RangePlanner.Transfer::range)
                .containsExactlyInAnyOrder(new TokenRange(0, 1000), new TokenRange(1000, 1500));
        for (RangePlanner.Transfer t : transfers) {
            if (t.range().equals(new TokenRange(1000, 1500))) {
                assertThat(t.sources()).containsExactly(node(3), node(1)); // (1000, 2000] was on 3 and 1
            } else {
                assertThat(t.sources()).containsExactly(node(2), node(3));
            }
        }
    }

    @Test
    void aLeavingNodesRangesGoToTheNodesThatBecomeTheirReplicas() {
        Map<Endpoint, List<Long>> before = new LinkedHashMap<>();
        before.put(node(1), List.of(0L));
        before.put(node(2), List.of(1000L));
        before.put(node(3), List.of(2000L));
        before.put(node(4), List.of(1500L));
        Map<Endpoint, List<Long>> after = new LinkedHashMap<>(before);
        after.remove(node(4));
        var transfers = RangePlanner.transfers(ring(before), ring(after), new ReplicationStrategy.Simple(2), node(1));
        assertThat(transfers).extracting(t -> t.target().hostId() + "" + t.range()).containsExactlyInAnyOrder(
                node(1).hostId() + "" + new TokenRange(1000, 1500), // 1 becomes second replica of (1000, 2000]
                node(3).hostId() + "" + new TokenRange(0, 1000)); // 3 becomes second replica of (0, 1000]
        assertThat(RangePlanner.rangesOf(node(2), ring(after), new ReplicationStrategy.Simple(2)).keySet())
                .containsExactlyInAnyOrder(new TokenRange(0, 1000), new TokenRange(2000, 0));
    }
}
