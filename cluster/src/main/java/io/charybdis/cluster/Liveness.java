package io.charybdis.cluster;

import io.charybdis.cluster.locator.Endpoint;

/** Whether the coordinator believes a replica is up (the failure detector's view). */
@FunctionalInterface
public interface Liveness {
    boolean isAlive(Endpoint endpoint);

    /** No failure detection: every endpoint is up (a node alone knows it is up). */
    Liveness ALL_ALIVE = e -> true;
}
