package io.charybdis.node.jmx;

import java.util.List;
import java.util.Map;
import javax.management.openmbean.TabularData;

/** Part of Cassandra's {@code org.apache.cassandra.db.compaction.CompactionManagerMBean} ({@code org.apache.cassandra.db:type=CompactionManager}). */
public interface CompactionManagerMBean {
    List<Map<String, String>> getCompactions();

    List<String> getCompactionSummary();

    TabularData getCompactionHistory();

    void stopCompaction(String type);

    void stopCompactionById(String compactionId);

    int getCoreCompactorThreads();

    int getMaximumCompactorThreads();

    int getCoreValidationThreads();

    int getMaximumValidatorThreads();

    boolean getAutomaticSSTableUpgradeEnabled();

    int getMaxConcurrentAutoUpgradeTasks();
}
