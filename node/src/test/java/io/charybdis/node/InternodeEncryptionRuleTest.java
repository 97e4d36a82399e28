package io.charybdis.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.cluster.metadata.NodeRecord;
import io.charybdis.node.config.EncryptionOptions.InternodeEncryption;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Cassandra's {@code internode_encryption} rule: which outbound connections are encrypted. */
class InternodeEncryptionRuleTest {
    static NodeRecord member(String address, String dc, String rack) throws Exception {
        return new NodeRecord(UUID.randomUUID(), InetAddress.getByName(address), 7000, InetAddress.getByName(address),
                9042, dc, rack, 2, "5.0.6", List.of(1L));
    }

    @Test
    void shouldEncryptByDatacenterAndRack() throws Exception {
        List<NodeRecord> members = List.of(member("10.0.0.1", "dc1", "r1"), member("10.0.0.2", "dc1", "r2"),
                member("10.0.0.3", "dc2", "r1"));
        InetSocketAddress sameRack = new InetSocketAddress("10.0.0.1", 7000);
        InetSocketAddress otherRack = new InetSocketAddress("10.0.0.2", 7000);
        InetSocketAddress otherDc = new InetSocketAddress("10.0.0.3", 7000);
        InetSocketAddress unknown = new InetSocketAddress("10.0.0.9", 7000);
        for (InetSocketAddress peer : List.of(sameRack, otherRack, otherDc, unknown)) {
            assertThat(ClusterMember.encrypt(InternodeEncryption.ALL, members, peer, "dc1", "r1")).isTrue();
            assertThat(ClusterMember.encrypt(InternodeEncryption.NONE, members, peer, "dc1", "r1")).isFalse();
        }
        assertThat(ClusterMember.encrypt(InternodeEncryption.DC, members, sameRack, "dc1", "r1")).isFalse();
        assertThat(ClusterMember.encrypt(InternodeEncryption.DC, members, otherRack, "dc1", "r1")).isFalse();
        assertThat(ClusterMember.encrypt(InternodeEncryption.DC, members, otherDc, "dc1", "r1")).isTrue();
        assertThat(ClusterMember.encrypt(InternodeEncryption.DC, members, unknown, "dc1", "r1")).isTrue();
        assertThat(ClusterMember.encrypt(InternodeEncryption.RACK, members, sameRack, "dc1", "r1")).isFalse();
        assertThat(ClusterMember.encrypt(InternodeEncryption.RACK, members, otherRack, "dc1", "r1")).isTrue();
        assertThat(ClusterMember.encrypt(InternodeEncryption.RACK, members, otherDc, "dc1", "r1")).isTrue();
        assertThat(ClusterMember.encrypt(InternodeEncryption.RACK, members, unknown, "dc1", "r1")).isTrue();
    }
}
