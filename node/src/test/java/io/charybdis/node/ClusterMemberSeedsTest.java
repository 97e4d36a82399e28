package io.charybdis.node;

import io.charybdis.node.config.NodeConfig;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How a node reads its seeds: which make it a cluster member, and seed names that do not resolve yet. */
class ClusterMemberSeedsTest {

    private static NodeConfig config(String... seeds) {
        return NodeConfig.builder().listenAddress("127.0.0.1").storagePort(7000).seeds(List.of(seeds)).build();
    }

    @Test
    void shouldStayASingleNodeWhenItsOnlySeedIsItself() throws Exception {
        assertThat(ClusterMember.otherSeeds(config("127.0.0.1"))).isEmpty();
        assertThat(ClusterMember.otherSeeds(config("127.0.0.1:7000"))).isEmpty();
    }

    @Test
    void shouldCountAnotherNodeOnTheSameAddressButAnotherPort() throws Exception {
        assertThat(ClusterMember.otherSeeds(config("127.0.0.1", "127.0.0.1:7001")))
                .containsExactly(new InetSocketAddress("127.0.0.1", 7001));
    }

    @Test
    void shouldKeepASeedNameThatDoesNotResolveYetAsAnotherNode() throws Exception {
        // the first node of a compose file starts before the second node's name exists
        List<InetSocketAddress> others = ClusterMember.otherSeeds(config("127.0.0.1", "charybdis-2.invalid"));
        assertThat(others).hasSize(1);
        assertThat(others.get(0).isUnresolved()).isTrue();
        assertThat(others.get(0).getHostString()).isEqualTo("charybdis-2.invalid");
        assertThat(others.get(0).getPort()).isEqualTo(7000);
        assertThat(ClusterMember.seeds(config("127.0.0.1", "charybdis-2.invalid:7001")).get(1).getPort())
                .isEqualTo(7001);
    }
}
