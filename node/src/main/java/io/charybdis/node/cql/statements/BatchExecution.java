package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.storage.Storage;
import io.charybdis.storage.mutation.Mutation;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A BATCH of INSERT/UPDATE/DELETE statements. All statements share the batch timestamp and are durable (in the
 * commit log) before the batch is acknowledged. Each statement's mutation is applied atomically; a batch touching
 * one partition with several statements is not yet applied as a single isolated mutation.
 */
public final class BatchExecution implements CqlStatement {
    /** A statement of the batch with where its bind values come from. */
    public record Child(ModificationExecution statement, List<ByteBuffer> values) {
    }

    static final int UNLOGGED_PARTITIONS_WARN_THRESHOLD = 10;

    private final Storage storage;
    private final boolean logged;
    private final List<BindVariable> variables;

    public BatchExecution(Storage storage, boolean logged, List<BindVariable> variables) {
        this.storage = storage;
        this.logged = logged;
        this.variables = variables;
    }

    @Override
    public List<BindVariable> bindVariables() {
        return variables;
    }

    @Override
    public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
        throw new UnsupportedOperationException("use execute(ctx, children)");
    }

    public CompletableFuture<ResultMessage> execute(QueryContext ctx, List<Child> children) {
        for (Child c : children) {
            if (c.statement().conditional()) {
                throw new InvalidRequestException("Conditional statements in batches are not supported by Charybdis "
                        + "yet");
            }
        }
        boolean counters = false;
        boolean others = false;
        for (Child c : children) {
            counters |= c.statement().isCounterUpdate();
            others |= !c.statement().isCounterUpdate();
        }
        if (counters && others) {
            throw new InvalidRequestException("Counter and non-counter mutations cannot exist in the same batch");
        }
        if (counters) {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (Child c : children) {
                QueryContext sub = ctx.withValues(c.values());
                chain = chain.thenCompose(v -> c.statement().executeCounter(sub));
            }
            return chain.thenApply(v -> ResultMessage.VOID);
        }
        List<CompletableFuture<List<Mutation>>> parts = new ArrayList<>();
        Set<String> partitions = new HashSet<>();
        for (Child c : children) {
            QueryContext sub = ctx.withValues(c.values());
            for (Restrictions.PartitionKey k : c.statement().partitionKeys(sub)) {
                partitions.add(c.statement().tableMetadata().id() + ":" + k.token() + ":" + k.key());
            }
            parts.add(c.statement().mutationsWithRead(sub));
        }
        // Cassandra's unlogged_batch_across_partitions_warn_threshold (default 10)
        if (!logged && partitions.size() > UNLOGGED_PARTITIONS_WARN_THRESHOLD) {
            Set<String> names = tableNames(children);
            ctx.warn("Unlogged batch covering " + partitions.size() + " partitions detected against table"
                    + (names.size() > 1 ? "s" : "") + " [" + String.join(", ", names) + "]. You should use a logged "
                    + "batch for atomicity, or asynchronous writes for performance.");
        }
        return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).thenCompose(v -> {
            List<Mutation> all = new ArrayList<>();
            for (CompletableFuture<List<Mutation>> p : parts) {
                all.addAll(p.join());
            }
            return ModificationExecution.applyAll(storage, all);
        }).thenApply(v -> ResultMessage.VOID);
    }

    private static Set<String> tableNames(List<Child> children) {
        Set<String> names = new java.util.TreeSet<>();
        for (Child c : children) {
            names.add(c.statement().tableMetadata().toString());
        }
        return names;
    }
}
