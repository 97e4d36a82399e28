package io.charybdis.node.cql;

import io.charybdis.node.cql.statements.BatchExecution;
import io.charybdis.node.cql.statements.ModificationExecution;
import io.charybdis.node.cql.statements.SelectExecution;
import io.charybdis.node.metrics.ShardRequestMetrics;
import io.charybdis.protocol.request.QueryOptions;
import java.util.List;

/**
 * Counts a statement on its shard's {@link ShardRequestMetrics} as ScyllaDB counts CQL operations (reads, inserts,
 * updates, deletes with and without conditions, batches, unpaged, filtering and reversed selects, queries by
 * consistency level), and notes its kind for the latency histograms. Runs on the shard thread, allocates nothing.
 */
final class StatementMetrics {
    private StatementMetrics() {
    }

    static void started(ShardRequestMetrics m, CqlStatement stmt, QueryOptions options) {
        if (m == null) {
            return;
        }
        countConsistency(m, options);
        switch (stmt) {
            case SelectExecution s -> {
                m.increment(ShardRequestMetrics.CQL_READS);
                if (options == null || options.pageSize() <= 0) {
                    m.increment(ShardRequestMetrics.CQL_UNPAGED_SELECTS);
                }
                if (s.allowFiltering()) {
                    m.increment(ShardRequestMetrics.CQL_FILTERED_READS);
                }
                if (s.reversedOrder()) {
                    m.increment(ShardRequestMetrics.CQL_REVERSE_QUERIES);
                }
                m.started(s.singlePartitionRead() ? ShardRequestMetrics.KIND_READ : ShardRequestMetrics.KIND_RANGE_READ);
            }
            case ModificationExecution w -> {
                countWrite(m, w);
                m.started(ShardRequestMetrics.KIND_WRITE);
            }
            default -> m.started(ShardRequestMetrics.KIND_OTHER);
        }
    }

    static void batchStarted(ShardRequestMetrics m, List<BatchExecution.Child> children, QueryOptions options) {
        if (m == null) {
            return;
        }
        countConsistency(m, options);
        m.increment(ShardRequestMetrics.CQL_BATCHES);
        m.add(ShardRequestMetrics.CQL_STATEMENTS_IN_BATCHES, children.size());
        for (int i = 0; i < children.size(); i++) {
            countWrite(m, children.get(i).statement());
        }
        m.started(ShardRequestMetrics.KIND_WRITE);
    }

    private static void countWrite(ShardRequestMetrics m, ModificationExecution w) {
        int base = w.conditional() ? ShardRequestMetrics.CQL_INSERTS_CONDITIONAL : ShardRequestMetrics.CQL_INSERTS;
        m.increment(base + w.kindOrdinal());
    }

    private static void countConsistency(ShardRequestMetrics m, QueryOptions options) {
        if (options != null && options.consistency() != null) {
            int cl = options.consistency().ordinal();
            if (cl < ShardRequestMetrics.CONSISTENCY_LEVELS) {
                m.increment(ShardRequestMetrics.QUERIES_BY_CONSISTENCY + cl);
            }
        }
    }
}
