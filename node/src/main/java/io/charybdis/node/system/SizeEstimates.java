package io.charybdis.node.system;

import io.charybdis.node.schema.KeyspaceMetadata;
import io.charybdis.node.schema.Schema;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cassandra's size estimates recorder: what {@code system.size_estimates} and {@code system.table_estimates} hold.
 * For every table of the keyspaces that are not local (system_auth, system_distributed, system_traces and the
 * users'), and every token range this node is primary for, the estimated number of partitions in the table's SSTables
 * (memtables are not counted, as in Cassandra) and their mean size, from {@link Storage#partitionEstimates}. As in
 * Cassandra the figures are recorded, not computed on read: every five minutes (the first time half a minute after
 * start) and at once on {@code nodetool refreshsizeestimates}; a table dropped since is left out.
 *
 * <p>Ranges: {@code table_estimates} has them twice, {@code primary} (this node's tokens on the whole ring) and
 * {@code local_primary} (on the ring of its data center's nodes, what {@code size_estimates} shows); a range that
 * wraps around the ring is split at its minimum token, as Cassandra unwraps it.
 */
public final class SizeEstimates implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SizeEstimates.class);
    private static final long INTERVAL_SECONDS = 300;
    private static final long FIRST_DELAY_SECONDS = 30;

    /** One recorded row: a table's estimate for one range of one type. */
    record Estimate(String keyspace, String table, Object tableId, String rangeType, String rangeStart,
                    String rangeEnd, long meanPartitionSize, long partitionsCount) {
    }

    private final Storage storage;
    private final Supplier<Schema> schema;
    private volatile List<Estimate> recorded = List.of();
    private ScheduledExecutorService timer;

    public SizeEstimates(Storage storage, Supplier<Schema> schema) {
        this.storage = storage;
        this.schema = schema;
    }

    /** Starts the periodic recording; {@code node} gives this node's tokens and its peers' at each run. */
    public synchronized void start(Supplier<NodeInfo> node) {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "charybdis-size-estimates");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                refresh(node.get()).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.warn("Could not record the size estimates", e);
            }
        }, FIRST_DELAY_SECONDS, INTERVAL_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** Records the estimates of every table now (nodetool refreshsizeestimates). */
    public CompletableFuture<Void> refresh(NodeInfo node) {
        List<long[]> primary = ranges(node, false);
        List<long[]> localPrimary = ranges(node, true);
        long[] starts = new long[primary.size() + localPrimary.size()];
        long[] ends = new long[starts.length];
        for (int i = 0; i < starts.length; i++) {
            long[] r = i < primary.size() ? primary.get(i) : localPrimary.get(i - primary.size());
            starts[i] = r[0];
            // an unwrapped range that ends at the minimum token runs to the end of the ring
            ends[i] = r[1] == Long.MIN_VALUE ? Long.MAX_VALUE : r[1];
        }
        List<TableMetadata> tables = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.get().keyspaces().values()) {
            if (ks.virtual() || ks.replication().getOrDefault("class", "").endsWith("LocalStrategy")) {
                continue;
            }
            tables.addAll(ks.tables().values());
        }
        List<CompletableFuture<List<Estimate>>> futures = new ArrayList<>();
        for (TableMetadata t : tables) {
            // a table Charybdis serves without storage (system_distributed's) holds nothing: zero, as Cassandra's
            CompletableFuture<double[][]> estimates = t.isVirtual()
                    ? CompletableFuture.completedFuture(new double[starts.length][2])
                    : storage.partitionEstimates(new TableId(t.id()), starts, ends);
            futures.add(estimates.handle((est, err) -> {
                if (err != null) {
                    return List.<Estimate>of(); // dropped meanwhile
                }
                List<Estimate> rows = new ArrayList<>(starts.length);
                for (int i = 0; i < starts.length; i++) {
                    long[] r = i < primary.size() ? primary.get(i) : localPrimary.get(i - primary.size());
                    rows.add(new Estimate(t.keyspace(), t.name(), t.id(), i < primary.size() ? "primary" : "local_primary",
                            Long.toString(r[0]), Long.toString(r[1]),
                            Math.round(est[i][0]) > 0 ? Math.round(est[i][1]) : 0, Math.round(est[i][0])));
                }
                return rows;
            }));
        }
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).thenAccept(v -> {
            List<Estimate> all = new ArrayList<>();
            for (CompletableFuture<List<Estimate>> f : futures) {
                all.addAll(f.join());
            }
            recorded = List.copyOf(all);
        });
    }

    /**
     * This node's primary ranges, (previous token, own token], on the whole ring or on its data center's; the one
     * that wraps around split at the minimum token.
     */
    static List<long[]> ranges(NodeInfo node, boolean localDc) {
        TreeSet<Long> ring = new TreeSet<>();
        TreeSet<Long> own = new TreeSet<>();
        for (String t : node.tokens()) {
            own.add(Long.parseLong(t));
        }
        ring.addAll(own);
        for (NodeInfo.Peer p : node.peers()) {
            if (!localDc || p.dataCenter().equals(node.dataCenter())) {
                for (String t : p.tokens()) {
                    ring.add(Long.parseLong(t));
                }
            }
        }
        List<long[]> out = new ArrayList<>();
        for (long t : own) {
            Long previous = ring.lower(t);
            if (previous != null) {
                out.add(new long[] {previous, t});
            } else {
                long last = ring.last();
                if (last != Long.MIN_VALUE) {
                    out.add(new long[] {last, Long.MIN_VALUE});
                }
                if (t != Long.MIN_VALUE) {
                    out.add(new long[] {Long.MIN_VALUE, t});
                }
            }
        }
        return out;
    }

    /** The rows of system.size_estimates (local primary ranges only) or system.table_estimates. */
    void fill(RowsBuilder out, Schema now, boolean withRangeType) {
        Map<String, Boolean> exists = new TreeMap<>();
        for (Estimate e : recorded) {
            if (!withRangeType && !e.rangeType().equals("local_primary")) {
                continue;
            }
            boolean live = exists.computeIfAbsent(e.keyspace() + "." + e.table(), k -> {
                KeyspaceMetadata ks = now.keyspace(e.keyspace());
                TableMetadata t = ks == null ? null : ks.tables().get(e.table());
                return t != null && t.id().equals(e.tableId()); // not a table of that name made since
            });
            if (!live) {
                continue;
            }
            out.row().set("keyspace_name", e.keyspace()).set("table_name", e.table())
                    .set("range_start", e.rangeStart()).set("range_end", e.rangeEnd())
                    .set("mean_partition_size", e.meanPartitionSize()).set("partitions_count", e.partitionsCount());
            if (withRangeType) {
                out.set("range_type", e.rangeType());
            }
        }
    }
}
