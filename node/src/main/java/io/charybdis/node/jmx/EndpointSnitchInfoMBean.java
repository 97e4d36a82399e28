package io.charybdis.node.jmx;

import java.net.UnknownHostException;

/** Cassandra's {@code org.apache.cassandra.locator.EndpointSnitchInfoMBean} ({@code org.apache.cassandra.db:type=EndpointSnitchInfo}). */
public interface EndpointSnitchInfoMBean {
    String getRack(String host) throws UnknownHostException;

    String getDatacenter(String host) throws UnknownHostException;

    String getRack();

    String getDatacenter();

    String getSnitchName();
}
