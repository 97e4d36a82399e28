package io.charybdis.cluster.replica;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The replica's check of the metadata epoch a request carries: a coordinator whose epoch is older than the epoch at
 * which this replica last saw token placement change routed by a ring that may no longer be right (a node joined,
 * left or took over ranges since), so its data request is refused rather than served by what may be the wrong
 * replicas. A request with epoch 0 (a sender without cluster metadata, e.g. a test) is not checked.
 */
public final class EpochGate {
    private volatile LongSupplier placementEpoch = () -> 0;

    /** Where the replica's placement epoch comes from (the node's coordinator). */
    public void placementEpoch(LongSupplier s) {
        this.placementEpoch = s;
    }

    /** A failed answer for a stale coordinator's request, or null to serve it. */
    public CompletableFuture<ByteBuf> refuse(long requestEpoch) {
        if (requestEpoch <= 0) {
            return null;
        }
        long placement = placementEpoch.getAsLong();
        if (requestEpoch >= placement) {
            return null;
        }
        return CompletableFuture.failedFuture(new StaleEpochException(requestEpoch, placement));
    }

    /** A coordinator routed by an epoch older than the last change of token placement this replica knows. */
    public static final class StaleEpochException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StaleEpochException(long request, long placement) {
            super("stale metadata epoch: the coordinator routed by epoch " + request + ", token placement changed at "
                    + "epoch " + placement);
        }
    }
}
