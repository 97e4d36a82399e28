package io.charybdis.node.jmx;

import java.net.UnknownHostException;
import java.util.Map;

/** Part of Cassandra's {@code org.apache.cassandra.gms.FailureDetectorMBean} ({@code org.apache.cassandra.net:type=FailureDetector}). */
public interface FailureDetectorMBean {
    double getPhiConvictThreshold();

    String getAllEndpointStates();

    String getAllEndpointStatesWithPort();

    String getEndpointState(String address) throws UnknownHostException;

    Map<String, String> getSimpleStates();

    Map<String, String> getSimpleStatesWithPort();

    int getDownEndpointCount();

    int getUpEndpointCount();
}
