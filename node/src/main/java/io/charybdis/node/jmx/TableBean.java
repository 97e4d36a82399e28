package io.charybdis.node.jmx;

import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.TableId;
import io.charybdis.storage.TableStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

/**
 * One table's {@code ColumnFamilyStoreMBean} ({@code type=Tables} and {@code type=ColumnFamilies}). The schema is
 * read anew on each call, so ALTER TABLE shows at once.
 */
final class TableBean implements ColumnFamilyStoreMBean {
    private final NodeView node;
    private final String keyspace;
    private final String table;
    private final TableId id;

    TableBean(NodeView node, TableMetadata t) {
        this.node = node;
        this.keyspace = t.keyspace();
        this.table = t.name();
        this.id = new TableId(t.id());
    }

    private TableMetadata metadata() {
        TableMetadata t = node.schema.get().table(keyspace, table);
        if (t == null) {
            throw new IllegalStateException("table " + keyspace + "." + table + " was dropped");
        }
        return t;
    }

    private TableStats stats() {
        return node.stats(metadata());
    }

    @Override
    public String getColumnFamilyName() {
        return table;
    }

    @Override
    public String getTableName() {
        return table;
    }

    @Override
    public void forceMajorCompaction(boolean splitOutput) throws ExecutionException, InterruptedException {
        if (!node.hasStorage(metadata())) {
            return; // a computed system table: nothing to compact
        }
        NodeView.await(node.storage.forceMajorCompaction(id));
    }

    private String compactionOption(String key, String dflt) {
        return metadata().params().compaction().getOrDefault(key, dflt);
    }

    @Override
    public int getMinimumCompactionThreshold() {
        return Integer.parseInt(compactionOption("min_threshold", "4"));
    }

    @Override
    public int getMaximumCompactionThreshold() {
        return Integer.parseInt(compactionOption("max_threshold", "32"));
    }

    @Override
    public String getCompactionParametersJson() {
        return json(getCompactionParameters());
    }

    @Override
    public Map<String, String> getCompactionParameters() {
        return new LinkedHashMap<>(new TreeMap<>(metadata().params().compaction()));
    }

    @Override
    public Map<String, String> getCompressionParameters() {
        return new LinkedHashMap<>(new TreeMap<>(metadata().params().compression()));
    }

    @Override
    public String getCompressionParametersJson() {
        return json(getCompressionParameters());
    }

    private static String json(Map<String, String> m) {
        StringBuilder b = new StringBuilder("{");
        m.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append('"').append(k).append("\":\"")
                .append(v.replace("\\", "\\\\").replace("\"", "\\\"")).append('"'));
        return b.append('}').toString();
    }

    @Override
    public boolean isAutoCompactionDisabled() {
        // stored tables: the storage's switch (the 'enabled' option, or nodetool's since); others: the option
        return node.hasStorage(metadata()) ? node.storage.autoCompactionDisabled(id)
                : "false".equalsIgnoreCase(compactionOption("enabled", "true"));
    }

    /**
     * nodetool import: copies the SSTables of each directory into the table under new generation numbers. Of the
     * options only copyData means something here (keep the source files; without it they are deleted once copied):
     * levels, repaired state, verification and caches are what a Charybdis SSTable always gets (every file is
     * checksummed and checked when opened; the row cache forgets the table).
     */
    @Override
    public List<String> importNewSSTables(java.util.Set<String> srcPaths, boolean resetLevel, boolean clearRepaired,
                                          boolean verifySSTables, boolean verifyTokens, boolean invalidateCaches,
                                          boolean extendedVerify, boolean copyData, boolean failOnMissingIndex,
                                          boolean validateIndexChecksum) {
        if (!node.hasStorage(metadata())) {
            throw new IllegalArgumentException("table " + keyspace + "." + table + " is computed by the node: nothing to import");
        }
        if (srcPaths == null || srcPaths.isEmpty()) {
            throw new IllegalArgumentException("import needs at least one directory (nodetool refresh loads new "
                    + "SSTables from the table's own directory)");
        }
        List<java.nio.file.Path> dirs = new ArrayList<>();
        for (String p : srcPaths) {
            dirs.add(java.nio.file.Path.of(p));
        }
        try {
            return NodeView.await(node.storage.importSSTables(id, dirs, copyData));
        } catch (ExecutionException e) {
            throw new IllegalStateException("import failed: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    @Override
    public long estimateKeys() {
        return stats().partitionsEstimate();
    }

    @Override
    public List<String> getBuiltIndexes() {
        return new ArrayList<>(new TreeMap<>(metadata().indexes()).keySet());
    }

    @Override
    public int getUnleveledSSTables() {
        int[] levels = getSSTableCountPerLevel();
        return levels == null || levels.length == 0 ? 0 : levels[0];
    }

    /** SSTables per level under leveled compaction; null otherwise, as in Cassandra. */
    @Override
    public int[] getSSTableCountPerLevel() {
        if (!isLeveledCompaction()) {
            return null;
        }
        try {
            CompactionStatus s = NodeView.await(node.storage.compactionStatus());
            for (CompactionStatus.TableStatus t : s.tables()) {
                if (t.tableId().equals(id)) {
                    return t.sstablesPerLevel();
                }
            }
            return new int[] {0};
        } catch (ExecutionException e) {
            throw new IllegalStateException("compaction status unavailable: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** Not tracked per level yet. */
    @Override
    public long[] getPerLevelSizeBytes() {
        return null;
    }

    @Override
    public boolean isLeveledCompaction() {
        return compactionOption("class", "").endsWith("LeveledCompactionStrategy");
    }

    @Override
    public int[] getSSTableCountPerTWCSBucket() {
        return null;
    }

    @Override
    public int getLevelFanoutSize() {
        return Integer.parseInt(compactionOption("fanout_size", "10"));
    }

    @Override
    public double getDroppableTombstoneRatio() {
        return 0;
    }

    @Override
    public long trueSnapshotsSize() {
        return 0;
    }

    @Override
    public boolean isCompactionDiskSpaceCheckEnabled() {
        return false;
    }

    @Override
    public boolean getNeverPurgeTombstones() {
        return false;
    }

    @Override
    public boolean hasMisplacedSSTables() {
        return false;
    }

    @Override
    public List<String> getDataPaths() {
        return node.config.dataFileDirectories().stream().map(d -> d.toAbsolutePath().toString()).toList();
    }

    @Override
    public Map<String, Long> getTopSizePartitions() {
        return Map.of();
    }

    @Override
    public Long getTopSizePartitionsLastUpdate() {
        return null;
    }

    @Override
    public Map<String, Long> getTopTombstonePartitions() {
        return Map.of();
    }

    @Override
    public Long getTopTombstonePartitionsLastUpdate() {
        return null;
    }

    @Override
    public long getMaxSSTableSize() {
        return 0;
    }

    @Override
    public long getMaxSSTableDuration() {
        return 0;
    }
}
