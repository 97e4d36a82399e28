package io.charybdis.cluster.locator;

import java.net.InetAddress;
import java.util.Objects;
import java.util.UUID;

/**
 * A node of the ring as the coordinator sees it: its host id (stable across restarts and address changes), the
 * address other nodes reach it on, and its data centre and rack (from the snitch).
 */
public record Endpoint(UUID hostId, InetAddress address, int storagePort, String datacenter, String rack) {
    public Endpoint {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(datacenter, "datacenter");
        Objects.requireNonNull(rack, "rack");
    }

    @Override
    public String toString() {
        return address.getHostAddress() + ":" + storagePort + "(" + datacenter + "/" + rack + ")";
    }
}
