package io.charybdis.node.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The token ranges the size estimates are recorded for: this node's primary ranges, unwrapped as Cassandra does. */
class SizeEstimatesTest {
    private static NodeInfo node(List<String> tokens, List<NodeInfo.Peer> peers) throws Exception {
        InetAddress a = InetAddress.getByName("127.0.0.1");
        return new NodeInfo("c", UUID.randomUUID(), a, a, 9042, 7000, "dc1", "rack1", NodeInfo.RELEASE_VERSION,
                NodeInfo.CQL_VERSION, "5", "org.apache.cassandra.dht.Murmur3Partitioner", tokens, 2, 0L)
                .withPeers(peers);
    }

    private static NodeInfo.Peer peer(String dc, String... tokens) throws Exception {
        InetAddress a = InetAddress.getByName("127.0.0.9");
        return new NodeInfo.Peer(UUID.randomUUID(), a, 7000, a, 9042, dc, "rack1", NodeInfo.RELEASE_VERSION,
                List.of(tokens), UUID.randomUUID());
    }

    private static List<String> show(List<long[]> ranges) {
        return ranges.stream().map(r -> "(" + r[0] + "," + r[1] + "]").toList();
    }

    @Test
    void aNodeAloneOwnsTheWholeRingWithTheWrappingRangeSplitAtTheMinimumToken() throws Exception {
        NodeInfo n = node(List.of("10", "-20"), List.of());
        assertThat(show(SizeEstimates.ranges(n, false))).containsExactly(
                "(10,-9223372036854775808]", "(-9223372036854775808,-20]", "(-20,10]");
        assertThat(show(SizeEstimates.ranges(n, true))).isEqualTo(show(SizeEstimates.ranges(n, false)));
    }

    @Test
    void primaryRangesEndAtOwnTokensOnTheWholeRingOrOnTheLocalDataCentersRing() throws Exception {
        NodeInfo n = node(List.of("0", "100"), List.of(peer("dc1", "50"), peer("dc2", "-50", "80")));
        assertThat(show(SizeEstimates.ranges(n, false))).containsExactly("(-50,0]", "(80,100]");
        assertThat(show(SizeEstimates.ranges(n, true))).containsExactly(
                "(100,-9223372036854775808]", "(-9223372036854775808,0]", "(50,100]");
    }
}
