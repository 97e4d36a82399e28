package io.charybdis.cluster.locator;

import java.net.InetAddress;
import java.util.Objects;
import java.util.UUID;

/**
 * A node of the ring as the coordinator sees it: its host id (stable across restarts and address changes), the
 * address other nodes reach it on, its data centre and rack (from the snitch), and its shard count (a replica's
 * work is addressed to the shard owning the token: {@code ShardRouting.shardOf(token, shards)}).
 */
public record Endpoint(UUID hostId, InetAddress address, int storagePort, String datacenter, String rack, int shards) {
    public Endpoint {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(datacenter, "datacenter");
        Objects.requireNonNull(rack, "rack");
        if (shards < 1) {
            throw new IllegalArgumentException("shards=" + shards);
        }
    }

    public java.net.InetSocketAddress storageAddress() {
        return new java.net.InetSocketAddress(address, storagePort);
    }

    @Override
    public String toString() {
        return address.getHostAddress() + ":" + storagePort + "(" + datacenter + "/" + rack + ")";
    }
}
