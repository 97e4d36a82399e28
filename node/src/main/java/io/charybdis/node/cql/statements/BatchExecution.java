package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.CqlStatement;
import io.charybdis.node.cql.Guardrails;
import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.cluster.Coordinator;
import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Mutation;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A BATCH of INSERT/UPDATE/DELETE statements. All statements share the batch timestamp and are durable (in the
 * commit log) before the batch is acknowledged. The updates of all statements to one partition of a table are
 * combined into one mutation: one commit log record and one memtable apply, so that a reader sees all of them or
 * none. A batch with conditions is a lightweight transaction on one partition of one table ({@link
 * ConditionalWrite}).
 */
public final class BatchExecution implements CqlStatement {
    /** A statement of the batch with where its bind values come from. */
    public record Child(ModificationExecution statement, List<ByteBuffer> values) {
    }

    static final int UNLOGGED_PARTITIONS_WARN_THRESHOLD = 10;

    private static final Logger log = LoggerFactory.getLogger(BatchExecution.class);

    private final Coordinator coordinator;
    private final boolean logged;
    private final Guardrails guardrails;
    private final List<BindVariable> variables;

    public BatchExecution(Coordinator coordinator, boolean logged, List<BindVariable> variables, Guardrails guardrails) {
        this.coordinator = coordinator;
        this.logged = logged;
        this.variables = variables;
        this.guardrails = guardrails;
    }

    @Override
    public List<BindVariable> bindVariables() {
        return variables;
    }

    @Override
    public CompletableFuture<ResultMessage> execute(QueryContext ctx) {
        throw new UnsupportedOperationException("use execute(ctx, children)");
    }

    /**
     * Cassandra's checks of the statements' kinds against the batch's type (a BEGIN ... BATCH or a protocol BATCH
     * message alike): counter and non-counter statements never mix, a COUNTER batch holds only counter updates and
     * a LOGGED batch none.
     */
    public static void validateType(io.charybdis.node.cql.syntax.BatchStatement.Type type,
                                    List<ModificationExecution> statements) {
        boolean counters = false;
        boolean others = false;
        for (ModificationExecution m : statements) {
            counters |= m.isCounterUpdate();
            others |= !m.isCounterUpdate();
        }
        if (type == io.charybdis.node.cql.syntax.BatchStatement.Type.COUNTER && others) {
            throw new InvalidRequestException("Cannot include non-counter statement in a counter batch");
        }
        if (counters && others) {
            throw new InvalidRequestException("Counter and non-counter mutations cannot exist in the same batch");
        }
        if (type == io.charybdis.node.cql.syntax.BatchStatement.Type.LOGGED && counters) {
            throw new InvalidRequestException("Cannot include a counter statement in a logged batch");
        }
    }

    /**
     * The checks Cassandra makes of a batch with conditions when it is prepared: no USING TIMESTAMP on the batch (its
     * statements may have their own), one table. {@code batchTimestamp}: the batch has USING TIMESTAMP.
     */
    public static void validateConditions(List<ModificationExecution> statements, boolean batchTimestamp) {
        boolean conditional = false;
        for (ModificationExecution m : statements) {
            conditional |= m.conditional();
        }
        if (!conditional) {
            return;
        }
        if (batchTimestamp) {
            throw new InvalidRequestException("Cannot provide custom timestamp for conditional BATCH");
        }
        ModificationExecution first = statements.get(0);
        for (ModificationExecution m : statements) {
            if (!m.tableMetadata().keyspace().equals(first.tableMetadata().keyspace())
                    || !m.tableMetadata().name().equals(first.tableMetadata().name())) {
                throw new InvalidRequestException("Batch with conditions cannot span multiple tables");
            }
        }
    }

    public CompletableFuture<ResultMessage> execute(QueryContext ctx, List<Child> children) {
        boolean counters = false;
        boolean others = false;
        for (Child c : children) {
            counters |= c.statement().isCounterUpdate();
            others |= !c.statement().isCounterUpdate();
        }
        if (counters && others) {
            throw new InvalidRequestException("Counter and non-counter mutations cannot exist in the same batch");
        }
        boolean conditional = false;
        for (Child c : children) {
            conditional |= c.statement().conditional();
        }
        if (conditional) {
            return executeConditional(ctx, children);
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
        return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).thenCompose(v -> {
            List<Mutation> all = new ArrayList<>();
            for (CompletableFuture<List<Mutation>> p : parts) {
                all.addAll(p.join());
            }
            List<Mutation> merged = byPartition(all);
            verifySize(ctx, merged, children);
            // Cassandra's unlogged_batch_across_partitions_warn_threshold (default 10), checked after the size
            if (!logged && partitions.size() > UNLOGGED_PARTITIONS_WARN_THRESHOLD) {
                Set<String> names = tableNames(children);
                ctx.warn("Unlogged batch covering " + partitions.size() + " partitions detected against table"
                        + (names.size() > 1 ? "s" : "") + " [" + String.join(", ", names) + "]. You should use a "
                        + "logged batch for atomicity, or asynchronous writes for performance.");
            }
            ctx.trace(logged && merged.size() > 1 ? "Determining replicas for atomic batch"
                    : "Determining replicas for mutation");
            return logged ? coordinator.writeLogged(merged, ctx.consistency(), ctx.home(), ctx.traceSink())
                    : coordinator.write(merged, ctx.consistency(), ctx.home(), ctx.traceSink());
        }).thenApply(v -> ResultMessage.VOID);
    }

    /**
     * Cassandra's check of a batch that spans more than one partition key: above batch_size_warn_threshold a warning
     * to the client, above batch_size_fail_threshold an Invalid "Batch too large" (nothing applied). Sizes as
     * {@link BatchSize}.
     */
    private void verifySize(QueryContext ctx, List<Mutation> mutations, List<Child> children) {
        if (mutations.size() < 2) {
            return;
        }
        Map<TableId, TableMetadata> tables = new HashMap<>();
        for (Child c : children) {
            tables.put(new TableId(c.statement().tableMetadata().id()), c.statement().tableMetadata());
        }
        Set<String> keys = new HashSet<>();
        long size = 0;
        for (Mutation m : mutations) {
            TableMetadata t = tables.get(m.table());
            keys.add(t.keyspace() + ":" + m.token() + ":" + ByteBuffer.wrap(m.partitionKey()));
            size += BatchSize.dataSize(m, t);
        }
        long sizeWarnThreshold = guardrails.batchSizeWarnBytes();
        long sizeFailThreshold = guardrails.batchSizeFailBytes();
        if (keys.size() < 2 || size <= sizeWarnThreshold) {
            return;
        }
        if (size > sizeFailThreshold) {
            log.error("Batch for {} is of size {}, exceeding specified threshold of {} by {}. (see "
                    + "batch_size_fail_threshold)", tableNames(children), size, sizeFailThreshold,
                    size - sizeFailThreshold);
            throw new InvalidRequestException("Batch too large");
        }
        String message = "Batch for " + tableNames(children) + " is of size " + size
                + ", exceeding specified threshold of " + sizeWarnThreshold + " by " + (size - sizeWarnThreshold) + ".";
        log.warn(message);
        ctx.warn(message);
    }

    /** The mutations with those of the same partition of the same table merged into one, in first-seen order. */
    static List<Mutation> byPartition(List<Mutation> mutations) {
        if (mutations.size() < 2) {
            return mutations;
        }
        Map<PartitionOf, List<Mutation>> groups = new LinkedHashMap<>();
        for (Mutation m : mutations) {
            groups.computeIfAbsent(new PartitionOf(m.table(), m.token(), ByteBuffer.wrap(m.partitionKey())),
                    k -> new ArrayList<>(2)).add(m);
        }
        if (groups.size() == mutations.size()) {
            return mutations;
        }
        List<Mutation> out = new ArrayList<>(groups.size());
        for (List<Mutation> g : groups.values()) {
            out.add(Mutation.merge(g));
        }
        return out;
    }

    private record PartitionOf(TableId table, long token, ByteBuffer key) {
    }

    private CompletableFuture<ResultMessage> executeConditional(QueryContext ctx, List<Child> children) {
        List<ModificationExecution> statements = new ArrayList<>();
        for (Child c : children) {
            statements.add(c.statement());
        }
        validateConditions(statements, false);
        Restrictions.PartitionKey key = null;
        List<ConditionalWrite.Entry> entries = new ArrayList<>();
        for (Child c : children) {
            QueryContext sub = ctx.withValues(c.values());
            List<Restrictions.PartitionKey> keys = c.statement().partitionKeys(sub);
            if (keys.size() != 1) {
                throw new InvalidRequestException("Batch with conditions cannot span multiple partitions (you cannot "
                        + "use IN on the partition key)");
            }
            Restrictions.PartitionKey k = keys.get(0);
            if (key == null) {
                key = k;
            } else if (key.token() != k.token() || !key.key().equals(k.key())) {
                throw new InvalidRequestException("Batch with conditions cannot span multiple partitions");
            }
            entries.add(new ConditionalWrite.Entry(c.statement(), sub));
        }
        return new ConditionalWrite(coordinator, statements.get(0).tableMetadata(), key, true).execute(ctx, entries);
    }

    private static Set<String> tableNames(List<Child> children) {
        Set<String> names = new java.util.TreeSet<>();
        for (Child c : children) {
            names.add(c.statement().tableMetadata().toString());
        }
        return names;
    }
}
