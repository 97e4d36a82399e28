package io.charybdis.node.jmx;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Part of Cassandra's {@code org.apache.cassandra.service.StorageProxyMBean} ({@code org.apache.cassandra.db:type=StorageProxy}). */
public interface StorageProxyMBean {
    long getTotalHints();

    boolean getHintedHandoffEnabled();

    Set<String> getHintedHandoffDisabledDCs();

    int getMaxHintWindow();

    int getHintsInProgress();

    Long getRpcTimeout();

    Long getReadRpcTimeout();

    Long getWriteRpcTimeout();

    Long getCounterWriteRpcTimeout();

    Long getCasContentionTimeout();

    Long getRangeRpcTimeout();

    Long getTruncateRpcTimeout();

    long getReadRepairAttempted();

    long getReadRepairRepairedBlocking();

    long getReadRepairRepairedBackground();

    long getReadRepairRepairTimedOut();

    Map<String, List<String>> getSchemaVersions();

    Map<String, List<String>> getSchemaVersionsWithPort();

    int getNumberOfTables();

    String getIdealConsistencyLevel();
}
