package io.charybdis.node.metrics;

import io.charybdis.storage.CompactionStatus;
import io.charybdis.storage.ShardSnapshot;
import io.charybdis.storage.Storage;
import io.charybdis.storage.TableId;
import io.charybdis.storage.schedule.BacklogController;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The node's metrics in ScyllaDB's names and units, collected at each scrape into the Prometheus Java client's
 * snapshots (which the client's text writer exposes): every {@code scylla_*} series carries {@code instance} (the
 * node's address) and {@code shard}, latencies are in microseconds, as the ScyllaDB Monitoring Stack expects.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>Nothing on the data path.</b> Request counters and latency histograms are the shards' own
 *       {@link ShardRequestMetrics}, read here with opaque loads; storage figures (memory, cache, commit log,
 *       scheduler, compaction) are taken by a message to each shard ({@link Storage#shardSnapshots},
 *       {@link Storage#compactionStatus}), never by reading a shard's state from this thread.</li>
 *   <li><b>Counters without {@code _total}.</b> ScyllaDB names its counters without the suffix
 *       ({@code scylla_cql_reads}); the client's text format always appends {@code _total} to a counter, so counters
 *       are exposed untyped under ScyllaDB's exact names (PromQL's {@code rate} works on them the same).</li>
 *   <li><b>Summaries.</b> {@code *_latency_summary} quantiles are taken from the histogram buckets filled since the
 *       previous scrape (ScyllaDB's summaries are recent too); the value of a quantile is the upper bound of its
 *       bucket.</li>
 *   <li><b>Reactor utilization</b> is the shard thread's CPU time over wall time since the previous scrape.</li>
 * </ul>
 */
public final class ScyllaMetrics implements MultiCollector {
    /** ScyllaDB's node operation modes (storage_service::mode): 3 is NORMAL, 2 JOINING, above 3 leaving or down. */
    public static final int MODE_STARTING = 1, MODE_JOINING = 2, MODE_NORMAL = 3, MODE_DRAINING = 6, MODE_DRAINED = 7;
    static final String STATEMENT_GROUP = "sl:default";
    private static final double[] QUANTILES = {0.5, 0.95, 0.99};
    private static final String[] CONSISTENCY = {"ANY", "ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_QUORUM",
            "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL", "LOCAL_ONE"};
    private static final long SCRAPE_WAIT_SECONDS = 10;

    private final String instance;
    private final Storage storage;
    private final List<ShardRequestMetrics> requests;
    private final long[] shardThreadIds;
    private final IntSupplier operationMode;
    private final Supplier<Map<TableId, String[]>> tables;
    private final long memoryBudget;
    private final String version;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    // scraper-owned state (collect is synchronized)
    private final long[] lastCpuNanos;
    private final long[] lastWallNanos;
    private final double[] utilization;
    private final Map<String, long[]> lastBuckets = new LinkedHashMap<>();

    /**
     * @param shardThreadIds the shard threads, in shard order
     * @param tables         the stored tables by id: {keyspace, table}
     */
    public ScyllaMetrics(String instance, Storage storage, List<ShardRequestMetrics> requests, long[] shardThreadIds,
                         IntSupplier operationMode, Supplier<Map<TableId, String[]>> tables, long memoryBudget,
                         String version) {
        this.instance = instance;
        this.storage = storage;
        this.requests = requests;
        this.shardThreadIds = shardThreadIds.clone();
        this.operationMode = operationMode;
        this.tables = tables;
        this.memoryBudget = memoryBudget;
        this.version = version;
        this.lastCpuNanos = new long[shardThreadIds.length];
        this.lastWallNanos = new long[shardThreadIds.length];
        this.utilization = new double[shardThreadIds.length];
        long now = System.nanoTime();
        for (int i = 0; i < shardThreadIds.length; i++) {
            lastCpuNanos[i] = cpuNanos(i);
            lastWallNanos[i] = now;
        }
    }

    private long cpuNanos(int shard) {
        long t = threads.isThreadCpuTimeSupported() ? threads.getThreadCpuTime(shardThreadIds[shard]) : -1;
        return Math.max(0, t);
    }

    private Labels shard(int shard) {
        return Labels.of("instance", instance, "shard", Integer.toString(shard));
    }

    @Override
    public synchronized MetricSnapshots collect() {
        List<ShardSnapshot> snaps;
        CompactionStatus compaction;
        try {
            snaps = storage.shardSnapshots().get(SCRAPE_WAIT_SECONDS, TimeUnit.SECONDS);
            compaction = storage.compactionStatus().get(SCRAPE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the shards did not report their figures: " + e, e);
        }
        List<MetricSnapshot> out = new ArrayList<>();
        requestFamilies(out);
        reactorFamilies(out);
        storageFamilies(out, snaps, compaction);
        nodeFamilies(out);
        return new MetricSnapshots(out);
    }

    // ------------------------------------------------------------------ requests (per shard, from the shards' counters)

    private void requestFamilies(List<MetricSnapshot> out) {
        counter(out, "scylla_cql_reads", "Counts the CQL SELECT requests.", ShardRequestMetrics.CQL_READS);
        conditional(out, "scylla_cql_inserts", "Counts the CQL INSERT requests with/without conditions.",
                ShardRequestMetrics.CQL_INSERTS, ShardRequestMetrics.CQL_INSERTS_CONDITIONAL);
        conditional(out, "scylla_cql_updates", "Counts the CQL UPDATE requests with/without conditions.",
                ShardRequestMetrics.CQL_UPDATES, ShardRequestMetrics.CQL_UPDATES_CONDITIONAL);
        conditional(out, "scylla_cql_deletes", "Counts the CQL DELETE requests with/without conditions.",
                ShardRequestMetrics.CQL_DELETES, ShardRequestMetrics.CQL_DELETES_CONDITIONAL);
        counter(out, "scylla_cql_batches", "Counts the CQL BATCH requests.", ShardRequestMetrics.CQL_BATCHES);
        counter(out, "scylla_cql_statements_in_batches", "Counts the statements in CQL BATCH requests.",
                ShardRequestMetrics.CQL_STATEMENTS_IN_BATCHES);
        counter(out, "scylla_cql_unpaged_select_queries", "Counts the SELECT requests without paging.",
                ShardRequestMetrics.CQL_UNPAGED_SELECTS);
        counter(out, "scylla_cql_filtered_read_requests", "Counts the SELECT requests with ALLOW FILTERING.",
                ShardRequestMetrics.CQL_FILTERED_READS);
        counter(out, "scylla_cql_reverse_queries", "Counts the SELECT requests in reversed clustering order.",
                ShardRequestMetrics.CQL_REVERSE_QUERIES);
        counter(out, "scylla_query_processor_statements_prepared",
                "Counts the CQL statements parsed (QUERY requests: each is parsed).",
                ShardRequestMetrics.STATEMENTS_PARSED);
        UnknownSnapshot.Builder byCl = UnknownSnapshot.builder().name("scylla_query_processor_queries")
                .help("Counts the queries by consistency level.");
        for (ShardRequestMetrics m : requests) {
            for (int cl = 0; cl < CONSISTENCY.length; cl++) {
                byCl.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
                        .labels(shard(m.shard()).add("consistency_level", CONSISTENCY[cl]))
                        .value(m.counter(ShardRequestMetrics.QUERIES_BY_CONSISTENCY + cl)).build());
            }
        }
        out.add(byCl.build());
        counter(out, "scylla_transport_requests_served", "Counts the CQL requests answered.",
                ShardRequestMetrics.REQUESTS_SERVED);
        counter(out, "scylla_transport_requests_shed",
                "Counts the CQL requests refused with OVERLOADED (the node was over a limit).",
                ShardRequestMetrics.REQUESTS_SHED);
        String sp = "scylla_storage_proxy_coordinator_";
        counter(out, sp + "read_timeouts", "Counts the single-partition reads that timed out.",
                ShardRequestMetrics.READ_TIMEOUTS);
        counter(out, sp + "write_timeouts", "Counts the writes that timed out.", ShardRequestMetrics.WRITE_TIMEOUTS);
        counter(out, sp + "range_timeouts", "Counts the range reads that timed out.",
                ShardRequestMetrics.RANGE_TIMEOUTS);
        counter(out, sp + "read_unavailable", "Counts the single-partition reads refused as unavailable.",
                ShardRequestMetrics.READ_UNAVAILABLE);
        counter(out, sp + "write_unavailable", "Counts the writes refused as unavailable.",
                ShardRequestMetrics.WRITE_UNAVAILABLE);
        counter(out, sp + "range_unavailable", "Counts the range reads refused as unavailable.",
                ShardRequestMetrics.RANGE_UNAVAILABLE);
        latency(out, sp + "read_latency", "Coordinator latency of single-partition reads, microseconds.",
                ShardRequestMetrics.KIND_READ);
        latency(out, sp + "write_latency", "Coordinator latency of writes, microseconds.",
                ShardRequestMetrics.KIND_WRITE);
        latency(out, sp + "range_latency", "Coordinator latency of range reads, microseconds.",
                ShardRequestMetrics.KIND_RANGE_READ);
    }

    private void counter(List<MetricSnapshot> out, String name, String help, int slot) {
        UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(help);
        for (ShardRequestMetrics m : requests) {
            b.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(shard(m.shard()))
                    .value(m.counter(slot)).build());
        }
        out.add(b.build());
    }

    private void conditional(List<MetricSnapshot> out, String name, String help, int plain, int conditional) {
        UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(help);
        for (ShardRequestMetrics m : requests) {
            b.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
                    .labels(shard(m.shard()).add("conditional", "no")).value(m.counter(plain)).build());
            b.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
                    .labels(shard(m.shard()).add("conditional", "yes")).value(m.counter(conditional)).build());
        }
        out.add(b.build());
    }

    private void latency(List<MetricSnapshot> out, String name, String help, int kind) {
        HistogramSnapshot.Builder hist = HistogramSnapshot.builder().name(name).help(help);
        SummarySnapshot.Builder summary = SummarySnapshot.builder().name(name + "_summary")
                .help(help + " Quantiles over the interval since the previous scrape.");
        int n = ShardRequestMetrics.LATENCY_BUCKETS;
        double[] bounds = new double[n];
        for (int i = 0; i < n; i++) {
            bounds[i] = ShardRequestMetrics.bucketBound(i);
        }
        for (ShardRequestMetrics m : requests) {
            long[] h = m.latency(kind);
            long[] counts = java.util.Arrays.copyOf(h, n);
            long count = 0;
            for (long c : counts) {
                count += c;
            }
            Labels labels = shard(m.shard()).add("scheduling_group_name", STATEMENT_GROUP);
            hist.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts)).sum(h[n]).build());
            String key = name + "/" + m.shard();
            long[] previous = lastBuckets.getOrDefault(key, new long[n]);
            long[] interval = new long[n];
            long intervalCount = 0;
            for (int i = 0; i < n; i++) {
                interval[i] = Math.max(0, counts[i] - previous[i]);
                intervalCount += interval[i];
            }
            lastBuckets.put(key, counts);
            Quantiles.Builder qs = Quantiles.builder();
            for (double q : QUANTILES) {
                qs.quantile(new Quantile(q, quantile(interval, intervalCount, q, bounds)));
            }
            summary.dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().labels(labels).count(count)
                    .sum(h[n]).quantiles(qs.build()).build());
        }
        out.add(hist.build());
        out.add(summary.build());
    }

    /** The upper bound of the bucket holding quantile q (the last finite bound for the open bucket); 0 if empty. */
    static double quantile(long[] counts, long total, double q, double[] bounds) {
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Double.isInfinite(bounds[i]) ? bounds[i - 1] : bounds[i];
            }
        }
        return bounds[bounds.length - 2];
    }

    // ------------------------------------------------------------------ reactor and scheduler

    private void reactorFamilies(List<MetricSnapshot> out) {
        GaugeSnapshot.Builder util = GaugeSnapshot.builder().name("scylla_reactor_utilization")
                .help("CPU utilization of the shard thread since the previous scrape, percent.");
        UnknownSnapshot.Builder busy = UnknownSnapshot.builder().name("scylla_reactor_cpu_busy_ms")
                .help("CPU time the shard thread used, milliseconds.");
        long now = System.nanoTime();
        long[] cpu = new long[shardThreadIds.length];
        for (int i = 0; i < shardThreadIds.length; i++) {
            cpu[i] = cpuNanos(i);
            long wall = now - lastWallNanos[i];
            if (wall >= TimeUnit.MILLISECONDS.toNanos(100)) { // too short an interval says nothing
                utilization[i] = Math.min(100.0, 100.0 * (cpu[i] - lastCpuNanos[i]) / wall);
                lastCpuNanos[i] = cpu[i];
                lastWallNanos[i] = now;
            }
            util.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(shard(i)).value(utilization[i])
                    .build());
            busy.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(shard(i))
                    .value(TimeUnit.NANOSECONDS.toMillis(cpu[i])).build());
        }
        out.add(util.build());
        out.add(busy.build());
    }

    // ------------------------------------------------------------------ storage (per shard, by message)

    private void storageFamilies(List<MetricSnapshot> out, List<ShardSnapshot> snaps, CompactionStatus compaction) {
        gauge(out, snaps, "scylla_memory_total_memory", "The shard's part of memory_budget, bytes.",
                s -> s.memoryBudgetBytes());
        gauge(out, snaps, "scylla_memory_dirty_bytes", "Off-heap bytes of memtables (writable and flushing).",
                s -> s.memtableBytes());
        gauge(out, snaps, "scylla_lsa_total_space_bytes", "Off-heap bytes of memtables and the row cache.",
                s -> s.memtableBytes() + s.cacheBytes());
        gauge(out, snaps, "scylla_cache_bytes_used", "Off-heap bytes of the row cache.", s -> s.cacheBytes());
        gauge(out, snaps, "scylla_cache_bytes_total", "What the row cache may hold now: the shard's budget less memtables.",
                s -> Math.max(0, s.memoryBudgetBytes() - s.memtableBytes()));
        gauge(out, snaps, "scylla_cache_partitions", "Partitions in the row cache.", s -> s.cacheEntries());
        // the cache holds whole partitions: a row read is a partition lookup, so row and partition hits are one
        untyped(out, snaps, "scylla_cache_row_hits", "Reads served from the row cache (whole partitions are cached).",
                s -> s.cacheHits());
        untyped(out, snaps, "scylla_cache_row_misses", "Reads the row cache could not serve.", s -> s.cacheMisses());
        untyped(out, snaps, "scylla_cache_partition_hits", "Partition lookups the row cache served.",
                s -> s.cacheHits());
        untyped(out, snaps, "scylla_cache_partition_misses", "Partition lookups the row cache missed.",
                s -> s.cacheMisses());
        untyped(out, snaps, "scylla_cache_partition_evictions", "Partitions evicted from the row cache.",
                s -> s.cacheEvictions());
        untyped(out, snaps, "scylla_cache_partition_removals", "Partitions removed from the row cache by writes.",
                s -> s.cacheInvalidations());
        gauge(out, snaps, "scylla_commitlog_segments", "Commit log segments the shard still needs.",
                s -> s.commitLogSegments());
        gauge(out, snaps, "scylla_database_requests_blocked_memory_current",
                "Writes waiting for memtable memory now.", s -> s.blockedWrites());

        GaugeSnapshot.Builder shares = GaugeSnapshot.builder().name("scylla_scheduler_shares")
                .help("Shares of each scheduling group.");
        UnknownSnapshot.Builder runtime = UnknownSnapshot.builder().name("scylla_scheduler_runtime_ms")
                .help("CPU time each scheduling group used, milliseconds.");
        for (ShardSnapshot s : snaps) {
            Labels l = shard(s.shard());
            shares.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l.add("group", STATEMENT_GROUP))
                    .value(BacklogController.STATEMENT_SHARES).build());
            shares.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l.add("group", "compaction"))
                    .value(s.compactionShares()).build());
            shares.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l.add("group", "memtable"))
                    .value(s.flushShares()).build());
            long statementCpu = s.shard() < shardThreadIds.length ? cpuNanos(s.shard()) : 0;
            runtime.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(l.add("group", STATEMENT_GROUP))
                    .value(TimeUnit.NANOSECONDS.toMillis(statementCpu)).build());
            runtime.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(l.add("group", "compaction"))
                    .value(TimeUnit.NANOSECONDS.toMillis(s.compactionBusyNanos())).build());
            runtime.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(l.add("group", "memtable"))
                    .value(TimeUnit.NANOSECONDS.toMillis(s.flushBusyNanos())).build());
        }
        out.add(shares.build());
        out.add(runtime.build());

        GaugeSnapshot.Builder running = GaugeSnapshot.builder().name("scylla_compaction_manager_compactions")
                .help("Compactions running now.");
        GaugeSnapshot.Builder pending = GaugeSnapshot.builder().name("scylla_compaction_manager_pending_compactions")
                .help("Compactions the strategies estimate are still needed.");
        GaugeSnapshot.Builder backlog = GaugeSnapshot.builder().name("scylla_compaction_manager_backlog")
                .help("Compaction backlog: bytes times the rewrites still owed.");
        GaugeSnapshot.Builder normalized = GaugeSnapshot.builder()
                .name("scylla_compaction_manager_normalized_backlog")
                .help("Compaction backlog over the shard's memory (the compaction controller's input).");
        for (CompactionStatus.ShardStatus s : compaction.shards()) {
            int p = 0;
            double b = 0;
            for (CompactionStatus.TableStatus t : s.tables()) {
                p += t.pendingTasks();
                b += t.backlogBytes();
            }
            Labels l = shard(s.shard());
            running.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(s.running().size()).build());
            pending.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(p).build());
            backlog.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(b).build());
            normalized.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(l).value(s.normalizedBacklog())
                    .build());
        }
        out.add(running.build());
        out.add(pending.build());
        out.add(backlog.build());
        out.add(normalized.build());

        sstablesPerRead(out);
    }

    /** Per table and shard: single-partition reads by SSTables consulted (ScyllaDB's per-table histogram). */
    private void sstablesPerRead(List<MetricSnapshot> out) {
        int slots = Storage.sstablesPerReadSlots();
        double[] bounds = new double[slots];
        for (int i = 0; i < slots - 1; i++) {
            bounds[i] = i;
        }
        bounds[slots - 1] = Double.POSITIVE_INFINITY;
        HistogramSnapshot.Builder b = HistogramSnapshot.builder()
                .name("scylla_column_family_sstables_per_read_histogram")
                .help("Single-partition reads by the number of SSTables they consulted.");
        for (Map.Entry<TableId, String[]> t : tables.get().entrySet()) {
            for (int s = 0; s < storage.shardCount(); s++) {
                long[] counts;
                try {
                    counts = storage.sstablesPerRead(t.getKey(), s);
                } catch (RuntimeException e) {
                    continue; // dropped meanwhile
                }
                double sum = 0;
                for (int i = 0; i < slots - 1; i++) {
                    sum += (double) i * counts[i];
                }
                sum += (double) (slots - 1) * counts[slots - 1];
                b.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                        .labels(shard(s).add("ks", t.getValue()[0]).add("cf", t.getValue()[1]))
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts)).sum(sum).build());
            }
        }
        out.add(b.build());
    }

    private interface Figure {
        double of(ShardSnapshot s);
    }

    private void gauge(List<MetricSnapshot> out, List<ShardSnapshot> snaps, String name, String help, Figure f) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        for (ShardSnapshot s : snaps) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(shard(s.shard())).value(f.of(s)).build());
        }
        out.add(b.build());
    }

    private void untyped(List<MetricSnapshot> out, List<ShardSnapshot> snaps, String name, String help, Figure f) {
        UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(help);
        for (ShardSnapshot s : snaps) {
            b.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(shard(s.shard())).value(f.of(s))
                    .build());
        }
        out.add(b.build());
    }

    // ------------------------------------------------------------------ node

    private void nodeFamilies(List<MetricSnapshot> out) {
        Labels shard0 = shard(0);
        out.add(GaugeSnapshot.builder().name("scylla_node_operation_mode")
                .help("The node's operation mode: 1 starting, 2 joining, 3 normal, 6 draining, 7 drained.")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(shard0)
                        .value(operationMode.getAsInt()).build()).build());
        out.add(GaugeSnapshot.builder().name("scylla_scylladb_current_version")
                .help("The Cassandra release this node answers as (Charybdis).")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(shard0.add("version", version)).value(1).build()).build());
        // how memory_budget is split now, and the heap beside it (node-wide, no shard)
        long memtables = 0, cache = 0;
        // from the allocators' totals: memtables and cache share one accounted allocator per shard
        long offHeap = storage.allocatedOffHeapBytes();
        io.charybdis.storage.RowCacheStats rc = storage.rowCacheStats();
        cache = rc.bytes();
        memtables = Math.max(0, offHeap - cache);
        Labels node = Labels.of("instance", instance);
        out.add(GaugeSnapshot.builder().name("charybdis_memory_budget_bytes")
                .help("memory_budget: the off-heap memory memtables and the row cache share.")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node).value(memoryBudget).build())
                .build());
        out.add(GaugeSnapshot.builder().name("charybdis_memory_used_bytes")
                .help("Off-heap memory in use by part: memtables and row cache (within memory_budget), and the "
                        + "SSTables' index structures (Bloom filters, index summaries, chunk offsets; beside it).")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node.add("part", "memtables"))
                        .value(memtables).build())
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node.add("part", "row_cache"))
                        .value(cache).build())
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node.add("part", "index"))
                        .value(storage.sstableOffHeapBytes()).build())
                .build());
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        out.add(GaugeSnapshot.builder().name("charybdis_heap_bytes").help("The Java heap: used and maximum.")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node.add("kind", "used"))
                        .value(heap.getUsed()).build())
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(node.add("kind", "max"))
                        .value(heap.getMax()).build())
                .build());
    }
}
