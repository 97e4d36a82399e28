package io.charybdis.node.jmx;

import io.charybdis.storage.CompactionStatus;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;

/** The small node-wide beans: snitch, storage proxy, compaction manager, failure detector, gossiper, caches. */
final class SmallBeans {
    private SmallBeans() {
    }

    /** {@code org.apache.cassandra.db:type=EndpointSnitchInfo}: this node's data center and rack, from its snitch. */
    static final class EndpointSnitchInfo implements EndpointSnitchInfoMBean {
        private final NodeView node;

        EndpointSnitchInfo(NodeView node) {
            this.node = node;
        }

        @Override
        public String getRack(String host) throws UnknownHostException {
            ClusterOps.Member m = node.cluster == null ? null : ClusterViews.find(node.cluster, host);
            if (m != null) {
                return m.rack();
            }
            return node.info.rack();
        }

        @Override
        public String getDatacenter(String host) throws UnknownHostException {
            ClusterOps.Member m = node.cluster == null ? null : ClusterViews.find(node.cluster, host);
            if (m != null) {
                return m.datacenter();
            }
            return node.info.dataCenter();
        }

        @Override
        public String getRack() {
            return node.info.rack();
        }

        @Override
        public String getDatacenter() {
            return node.info.dataCenter();
        }

        @Override
        public String getSnitchName() {
            return io.charybdis.node.config.Snitch.of(node.config).className();
        }
    }

    /** {@code org.apache.cassandra.db:type=StorageProxy}: no hints or read repair exist yet on a single node. */
    static final class StorageProxy implements StorageProxyMBean {
        private final NodeView node;

        StorageProxy(NodeView node) {
            this.node = node;
        }

        @Override
        public long getTotalHints() {
            return 0;
        }

        @Override
        public boolean getHintedHandoffEnabled() {
            return false;
        }

        @Override
        public Set<String> getHintedHandoffDisabledDCs() {
            return Set.of();
        }

        @Override
        public int getMaxHintWindow() {
            return 10_800_000;
        }

        @Override
        public int getHintsInProgress() {
            return 0;
        }

        @Override
        public Long getRpcTimeout() {
            return node.config.requestTimeout().toMillis();
        }

        @Override
        public Long getReadRpcTimeout() {
            return node.config.readRequestTimeout().toMillis();
        }

        @Override
        public Long getWriteRpcTimeout() {
            return node.config.writeRequestTimeout().toMillis();
        }

        @Override
        public Long getCounterWriteRpcTimeout() {
            return node.config.counterWriteRequestTimeout().toMillis();
        }

        @Override
        public Long getCasContentionTimeout() {
            return node.config.casContentionTimeout().toMillis();
        }

        @Override
        public Long getRangeRpcTimeout() {
            return node.config.rangeRequestTimeout().toMillis();
        }

        @Override
        public Long getTruncateRpcTimeout() {
            return node.config.truncateRequestTimeout().toMillis();
        }

        @Override
        public long getReadRepairAttempted() {
            return 0;
        }

        @Override
        public long getReadRepairRepairedBlocking() {
            return 0;
        }

        @Override
        public long getReadRepairRepairedBackground() {
            return 0;
        }

        @Override
        public long getReadRepairRepairTimedOut() {
            return 0;
        }

        @Override
        public Map<String, List<String>> getSchemaVersions() {
            if (node.cluster != null) {
                // every member installs the schema of the metadata log: one version, the members that answer
                Map<String, List<String>> versions = new java.util.LinkedHashMap<>();
                versions.put(node.schema.get().version().toString(), ClusterViews.live(node.cluster, false));
                List<String> down = ClusterViews.unreachable(node.cluster, false);
                if (!down.isEmpty()) {
                    versions.put("UNREACHABLE", down);
                }
                return versions;
            }
            return Map.of(node.schema.get().version().toString(), List.of(node.endpoint()));
        }

        @Override
        public Map<String, List<String>> getSchemaVersionsWithPort() {
            if (node.cluster != null) {
                // every member installs the schema of the metadata log: one version, the members that answer
                Map<String, List<String>> versions = new java.util.LinkedHashMap<>();
                versions.put(node.schema.get().version().toString(), ClusterViews.live(node.cluster, true));
                List<String> down = ClusterViews.unreachable(node.cluster, true);
                if (!down.isEmpty()) {
                    versions.put("UNREACHABLE", down);
                }
                return versions;
            }
            return Map.of(node.schema.get().version().toString(), List.of(node.endpointWithPort()));
        }

        @Override
        public int getNumberOfTables() {
            return node.allTables().size();
        }

        @Override
        public String getIdealConsistencyLevel() {
            return "";
        }
    }

    /** {@code org.apache.cassandra.db:type=CompactionManager}, from the storage engine's compaction status. */
    static final class CompactionManager implements CompactionManagerMBean {
        /** Cassandra's OperationType names that stopCompaction accepts. */
        private static final Set<String> OPERATION_TYPES = Set.of("P0", "ANTICOMPACTION", "CLEANUP", "COMPACTION",
                "COUNTER_CACHE_SAVE", "FLUSH", "GARBAGE_COLLECT", "INDEX_BUILD", "INDEX_SUMMARY", "KEY_CACHE_SAVE",
                "MAJOR_COMPACTION", "RELOCATE", "ROW_CACHE_SAVE", "SCRUB", "STREAM", "TOMBSTONE_COMPACTION",
                "UNKNOWN", "UPGRADE_SSTABLES", "USER_DEFINED_COMPACTION", "VALIDATION", "VERIFY", "VIEW_BUILD",
                "WRITE");
        private static final Set<String> COMPACTION_TYPES = Set.of("COMPACTION", "MAJOR_COMPACTION",
                "TOMBSTONE_COMPACTION");
        private final NodeView node;

        CompactionManager(NodeView node) {
            this.node = node;
        }

        private CompactionStatus status() {
            try {
                return NodeView.await(node.storage.compactionStatus());
            } catch (ExecutionException e) {
                throw new IllegalStateException("compaction status unavailable: " + e.getCause().getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }

        /** Cassandra's CompactionInfo.asMap() for each running compaction. */
        @Override
        public List<Map<String, String>> getCompactions() {
            List<Map<String, String>> r = new ArrayList<>();
            for (CompactionStatus.Running c : status().running()) {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("id", c.tableId().toString());
                m.put("keyspace", c.keyspace());
                m.put("columnfamily", c.table());
                m.put("completed", Long.toString(c.completedBytes()));
                m.put("total", Long.toString(c.totalBytes()));
                m.put("taskType", c.taskType());
                m.put("unit", c.unit());
                m.put("compactionId", c.id().toString());
                m.put("sstables", "");
                m.put("targetDirectory", "");
                r.add(m);
            }
            return r;
        }

        @Override
        public List<String> getCompactionSummary() {
            List<String> r = new ArrayList<>();
            for (CompactionStatus.Running c : status().running()) {
                r.add(String.format("%s(%s, %s / %s)%s", c.taskType(), c.id(), c.completedBytes(), c.totalBytes(),
                        c.unit()));
            }
            return r;
        }

        /** The rows of system.compaction_history (a week of finished compactions), as Cassandra's bean returns them. */
        @Override
        public TabularData getCompactionHistory() {
            try {
                String[] names = {"id", "keyspace_name", "columnfamily_name", "compacted_at", "bytes_in", "bytes_out",
                        "rows_merged", "compaction_properties"};
                String[] descriptions = {"time uuid", "keyspace name", "column family name", "compaction finished at",
                        "total bytes in", "total bytes out", "total rows merged", "compaction properties"};
                OpenType<?>[] types = {SimpleType.STRING, SimpleType.STRING, SimpleType.STRING, SimpleType.LONG,
                        SimpleType.LONG, SimpleType.LONG, SimpleType.STRING, SimpleType.STRING};
                CompositeType row = new CompositeType("CompactionHistory", "CompactionHistory", names, descriptions,
                        types);
                TabularDataSupport table = new TabularDataSupport(new TabularType("CompactionHistory",
                        "CompactionHistory", row, names));
                List<io.charybdis.storage.CompactionHistory.Entry> rows;
                try {
                    rows = node.compactionHistory().read().get(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                         | InterruptedException e) {
                    Throwable cause = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
                    throw new IllegalStateException("Could not read system.compaction_history: " + cause, cause);
                }
                for (io.charybdis.storage.CompactionHistory.Entry e : rows) {
                    table.put(new javax.management.openmbean.CompositeDataSupport(row, names, new Object[] {
                            e.id().toString(), e.keyspace(), e.table(), e.compactedAtMillis(), e.bytesIn(), e.bytesOut(),
                            braces(e.rowsMerged()), braces(e.properties())}));
                }
                return table;
            } catch (OpenDataException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Cassandra's "{k:v, k:v}" form of a map in compaction_history. */
        private static String braces(Map<?, ?> m) {
            StringBuilder b = new StringBuilder("{");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (b.length() > 1) {
                    b.append(", ");
                }
                b.append(e.getKey()).append(':').append(e.getValue());
            }
            return b.append('}').toString();
        }

        @Override
        public void stopCompaction(String type) {
            if (!OPERATION_TYPES.contains(type)) {
                throw new IllegalArgumentException(
                        "No enum constant org.apache.cassandra.db.compaction.OperationType." + type);
            }
            if (COMPACTION_TYPES.contains(type)) {
                node.storage.stopCompactions().join();
            }
            // other operation types (validation, cleanup, scrub...) never run here: nothing to stop
        }

        @Override
        public void stopCompactionById(String compactionId) {
            List<CompactionStatus.Running> running = status().running();
            boolean found = running.stream().anyMatch(c -> c.id().toString().equals(compactionId));
            if (!found) {
                return; // as in Cassandra: an unknown id stops nothing
            }
            if (running.size() > 1) {
                throw new UnsupportedOperationException(
                        "stopping one compaction while others run is not supported yet; use nodetool stop COMPACTION");
            }
            node.storage.stopCompactions().join();
        }

        @Override
        public int getCoreCompactorThreads() {
            return node.storage.shardCount();
        }

        @Override
        public int getMaximumCompactorThreads() {
            return node.storage.shardCount();
        }

        @Override
        public int getCoreValidationThreads() {
            return 0;
        }

        @Override
        public int getMaximumValidatorThreads() {
            return 0;
        }

        @Override
        public boolean getAutomaticSSTableUpgradeEnabled() {
            return false;
        }

        @Override
        public int getMaxConcurrentAutoUpgradeTasks() {
            return 0;
        }
    }

    /** {@code org.apache.cassandra.net:type=FailureDetector}: this node, always up. */
    static final class FailureDetector implements FailureDetectorMBean {
        private final NodeView node;

        FailureDetector(NodeView node) {
            this.node = node;
        }

        @Override
        public double getPhiConvictThreshold() {
            return 8.0;
        }

        private String state(boolean withPort) {
            return (withPort ? "/" + node.endpointWithPort() : "/" + node.endpoint()) + "\n"
                    + "  generation:" + node.info.startedAtMillis() / 1000 + "\n"
                    + "  STATUS:NORMAL," + node.info.tokens().get(0) + "\n"
                    + "  DC:" + node.info.dataCenter() + "\n"
                    + "  RACK:" + node.info.rack() + "\n"
                    + "  RELEASE_VERSION:" + node.info.releaseVersion() + "\n"
                    + "  HOST_ID:" + node.info.hostId() + "\n"
                    + "  RPC_ADDRESS:" + node.info.rpcAddress().getHostAddress() + "\n"
                    + "  NATIVE_ADDRESS_AND_PORT:" + node.info.rpcAddress().getHostAddress() + ":"
                    + node.info.nativePort() + "\n"
                    + "  SCHEMA:" + node.schema.get().version() + "\n";
        }

        @Override
        public String getAllEndpointStates() {
            if (node.cluster != null) {
                return ClusterViews.endpointStates(node.cluster, false, node.schema.get().version().toString(), node.info.startedAtMillis() / 1000);
            }
            return state(false);
        }

        @Override
        public String getAllEndpointStatesWithPort() {
            if (node.cluster != null) {
                return ClusterViews.endpointStates(node.cluster, true, node.schema.get().version().toString(), node.info.startedAtMillis() / 1000);
            }
            return state(true);
        }

        @Override
        public String getEndpointState(String address) throws UnknownHostException {
            return node.isLocal(address) ? state(false) : "";
        }

        @Override
        public Map<String, String> getSimpleStates() {
            if (node.cluster != null) {
                return ClusterViews.simpleStates(node.cluster, false);
            }
            return Map.of("/" + node.endpoint(), "UP");
        }

        @Override
        public Map<String, String> getSimpleStatesWithPort() {
            if (node.cluster != null) {
                return ClusterViews.simpleStates(node.cluster, true);
            }
            return Map.of("/" + node.endpointWithPort(), "UP");
        }

        @Override
        public int getDownEndpointCount() {
            if (node.cluster != null) {
                return ClusterViews.unreachable(node.cluster, true).size();
            }
            return 0;
        }

        @Override
        public int getUpEndpointCount() {
            if (node.cluster != null) {
                return ClusterViews.live(node.cluster, true).size();
            }
            return 1;
        }
    }

    /** {@code org.apache.cassandra.net:type=Gossiper}. */
    static final class Gossiper implements GossiperMBean {
        private final NodeView node;

        Gossiper(NodeView node) {
            this.node = node;
        }

        @Override
        public long getEndpointDowntime(String address) throws UnknownHostException {
            return 0;
        }

        @Override
        public int getCurrentGenerationNumber(String address) throws UnknownHostException {
            return (int) (node.info.startedAtMillis() / 1000);
        }

        @Override
        public List<String> getSeeds() {
            return List.of(node.endpointWithPort());
        }

        @Override
        public Map<String, List<String>> getReleaseVersionsWithPort() {
            return Map.of(node.info.releaseVersion(), List.of(node.endpointWithPort()));
        }

        @Override
        public void assassinateEndpoint(String address) throws UnknownHostException {
            if (node.cluster == null) {
                throw new UnsupportedOperationException("No other member to assassinate: this node runs alone");
            }
            node.cluster.assassinate(java.net.InetAddress.getByName(address).getHostAddress());
        }

        @Override
        public void unsafeAssassinateEndpoint(String address) throws UnknownHostException {
            assassinateEndpoint(address);
        }
    }

    /** {@code org.apache.cassandra.db:type=Caches}: nothing is saved to disk (save periods 0). */
    static final class CacheService implements CacheServiceMBean {
        @Override
        public int getRowCacheSavePeriodInSeconds() {
            return 0;
        }

        @Override
        public int getKeyCacheSavePeriodInSeconds() {
            return 0;
        }

        @Override
        public int getCounterCacheSavePeriodInSeconds() {
            return 0;
        }

        @Override
        public int getRowCacheKeysToSave() {
            return 0;
        }

        @Override
        public int getKeyCacheKeysToSave() {
            return 0;
        }

        @Override
        public int getCounterCacheKeysToSave() {
            return 0;
        }
    }
}
