package io.charybdis.node.jmx;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * Part of Cassandra's {@code org.apache.cassandra.db.ColumnFamilyStoreMBean}, registered for every table as
 * {@code org.apache.cassandra.db:type=Tables,keyspace=K,table=T} and
 * {@code org.apache.cassandra.db:type=ColumnFamilies,keyspace=K,columnfamily=T}.
 */
public interface ColumnFamilyStoreMBean {
    String getColumnFamilyName();

    String getTableName();

    void forceMajorCompaction(boolean splitOutput) throws ExecutionException, InterruptedException;

    int getMinimumCompactionThreshold();

    int getMaximumCompactionThreshold();

    String getCompactionParametersJson();

    Map<String, String> getCompactionParameters();

    Map<String, String> getCompressionParameters();

    String getCompressionParametersJson();

    boolean isAutoCompactionDisabled();

    List<String> importNewSSTables(java.util.Set<String> srcPaths, boolean resetLevel, boolean clearRepaired,
                                   boolean verifySSTables, boolean verifyTokens, boolean invalidateCaches,
                                   boolean extendedVerify, boolean copyData, boolean failOnMissingIndex,
                                   boolean validateIndexChecksum);

    long estimateKeys();

    List<String> getBuiltIndexes();

    int getUnleveledSSTables();

    int[] getSSTableCountPerLevel();

    long[] getPerLevelSizeBytes();

    boolean isLeveledCompaction();

    int[] getSSTableCountPerTWCSBucket();

    int getLevelFanoutSize();

    double getDroppableTombstoneRatio();

    long trueSnapshotsSize();

    boolean isCompactionDiskSpaceCheckEnabled();

    boolean getNeverPurgeTombstones();

    boolean hasMisplacedSSTables();

    List<String> getDataPaths();

    Map<String, Long> getTopSizePartitions();

    Long getTopSizePartitionsLastUpdate();

    Map<String, Long> getTopTombstonePartitions();

    Long getTopTombstonePartitionsLastUpdate();

    long getMaxSSTableSize();

    long getMaxSSTableDuration();
}
