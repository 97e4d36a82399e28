package io.charybdis.node.jmx;

import java.util.Set;
import javax.management.openmbean.CompositeData;

/** {@code org.apache.cassandra.net:type=StreamManager}: the streams under way, for nodetool netstats. */
public interface StreamManagerMBean {
    Set<CompositeData> getCurrentStreams();

    boolean getStreamingStatsEnabled();

    void setStreamingStatsEnabled(boolean enabled);

    String getStreamingSlowEventsLogTimeout();

    void setStreamingSlowEventsLogTimeout(String timeout);
}
