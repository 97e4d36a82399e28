package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;
import io.charybdis.cluster.locator.TokenRing;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the coordinator routes by, as of one metadata epoch: the token ring and this node's place in it. Immutable:
 * a change of membership or token ownership makes a new snapshot with a higher epoch, swapped in whole, so a
 * request sees one consistent ring from start to end. {@code pendingRing} (null when no node joins or leaves) is
 * the ring being moved to: its replicas that the current ring lacks receive writes as well (pending ranges).
 */
public record ClusterMetadata(long epoch, TokenRing ring, Endpoint self, TokenRing pendingRing) {
    public ClusterMetadata {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(self, "self");
        if (!ring.endpoints().contains(self)) {
            throw new IllegalArgumentException("this node " + self + " owns no token in the ring");
        }
    }

    /** A ring with no join or leave under way. */
    public ClusterMetadata(long epoch, TokenRing ring, Endpoint self) {
        this(epoch, ring, self, null);
    }

    /** The ring of a node alone: it owns its tokens and every range (what {@code bin/charybdis} starts with). */
    public static ClusterMetadata singleNode(Endpoint self, List<Long> tokens) {
        return new ClusterMetadata(1, TokenRing.of(Map.of(self, tokens)), self);
    }

    /** True when this node is the only one: every replica of every token is local. */
    public boolean isSingleNode() {
        return ring.endpoints().size() == 1;
    }
}
