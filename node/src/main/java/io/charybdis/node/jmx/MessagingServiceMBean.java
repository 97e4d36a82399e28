package io.charybdis.node.jmx;

import java.util.Map;

/** {@code org.apache.cassandra.net:type=MessagingService}: what nodetool netstats reads of internode traffic. */
public interface MessagingServiceMBean {
    Map<String, Integer> getLargeMessagePendingTasksWithPort();

    Map<String, Long> getLargeMessageCompletedTasksWithPort();

    Map<String, Long> getLargeMessageDroppedTasksWithPort();

    Map<String, Integer> getSmallMessagePendingTasksWithPort();

    Map<String, Long> getSmallMessageCompletedTasksWithPort();

    Map<String, Long> getSmallMessageDroppedTasksWithPort();

    Map<String, Integer> getGossipMessagePendingTasksWithPort();

    Map<String, Long> getGossipMessageCompletedTasksWithPort();

    Map<String, Long> getGossipMessageDroppedTasksWithPort();

    /** nodetool tpstats: requests this node sent that failed or timed out, by internode verb. */
    Map<String, Integer> getDroppedMessages();
}
