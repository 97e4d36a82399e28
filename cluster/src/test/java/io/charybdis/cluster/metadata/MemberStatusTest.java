package io.charybdis.cluster.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.cluster.ClusterMetadata;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** JOINING, NORMAL and LEAVING in the metadata log, and the rings the coordinator routes by in each. */
class MemberStatusTest {
    static NodeRecord record(int i, long token, NodeRecord.Status status) {
        return new NodeRecord(new UUID(9, i), InetAddress.getLoopbackAddress(), 7000 + i, InetAddress.getLoopbackAddress(),
                9042, "dc1", "r1", 2, "5.0.6", List.of(token), status);
    }

    static MetadataState apply(MetadataState s, byte[] command) {
        MetadataState.Applied a = s.apply(s.epoch() + 1, command);
        assertThat(a.rejection()).isNull();
        return a.state();
    }

    @Test
    void aJoiningMemberIsPendingUntilNormalAndALeavingOneOwnsUntilItLeaves() {
        MetadataState s = MetadataState.EMPTY;
        s = apply(s, MetadataState.join(record(1, 0, NodeRecord.Status.NORMAL)));
        s = apply(s, MetadataState.join(record(2, 1000, NodeRecord.Status.NORMAL)));
        assertThat(s.pendingRing()).isNull();

        s = apply(s, MetadataState.join(record(3, 500, NodeRecord.Status.JOINING)));
        assertThat(s.members().get(new UUID(9, 3)).status()).isEqualTo(NodeRecord.Status.JOINING);
        assertThat(s.ring().endpoints()).hasSize(2); // reads stay on the owners
        assertThat(s.pendingRing().endpoints()).hasSize(3); // writes go to the joining node too
        assertThat(s.clusterMetadata(new UUID(9, 3))).isNull(); // it coordinates nothing yet
        ClusterMetadata md = s.clusterMetadata(new UUID(9, 1));
        assertThat(md.pendingRing()).isNotNull();

        s = apply(s, MetadataState.setStatus(new UUID(9, 3), NodeRecord.Status.NORMAL));
        assertThat(s.ring().endpoints()).hasSize(3);
        assertThat(s.pendingRing()).isNull();

        s = apply(s, MetadataState.setStatus(new UUID(9, 2), NodeRecord.Status.LEAVING));
        assertThat(s.ring().endpoints()).hasSize(3);
        assertThat(s.pendingRing().endpoints()).hasSize(2).doesNotContain(s.members().get(new UUID(9, 2)).endpoint());
        s = apply(s, MetadataState.leave(new UUID(9, 2)));
        assertThat(s.members()).hasSize(2);
        assertThat(s.pendingRing()).isNull();

        // the status survives a snapshot
        MetadataState joining = apply(s, MetadataState.join(record(4, 700, NodeRecord.Status.JOINING)));
        try {
            assertThat(MetadataState.fromSnapshot(joining.snapshot()).members().get(new UUID(9, 4)).status())
                    .isEqualTo(NodeRecord.Status.JOINING);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(s.apply(s.epoch() + 1, MetadataState.setStatus(new UUID(9, 77), NodeRecord.Status.NORMAL))
                .rejection()).contains("no member");
    }
}
