package io.charybdis.node.jmx;

import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

/** Part of Cassandra's {@code org.apache.cassandra.gms.GossiperMBean} ({@code org.apache.cassandra.net:type=Gossiper}). */
public interface GossiperMBean {
    long getEndpointDowntime(String address) throws UnknownHostException;

    int getCurrentGenerationNumber(String address) throws UnknownHostException;

    List<String> getSeeds();

    Map<String, List<String>> getReleaseVersionsWithPort();

    /** nodetool assassinate: a dead member leaves the ring, its data not re-replicated. */
    void assassinateEndpoint(String address) throws UnknownHostException;

    void unsafeAssassinateEndpoint(String address) throws UnknownHostException;
}
