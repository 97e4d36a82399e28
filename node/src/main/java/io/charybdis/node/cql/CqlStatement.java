package io.charybdis.node.cql;

import io.charybdis.node.cql.values.BindVariable;
import io.charybdis.protocol.response.ResultMetadata;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A statement analyzed against a schema version, ready to execute any number of times with bound values. */
public interface CqlStatement {
    List<BindVariable> bindVariables();

    /** Indexes of the bind variables that give the partition key columns, in key order (for token-aware routing). */
    default List<Integer> partitionKeyBindIndexes() {
        return List.of();
    }

    /** The metadata of result rows (empty for statements that return none). */
    default ResultMetadata resultMetadata() {
        return ResultMetadata.EMPTY;
    }

    /** The keyspace and table the statement is about, for prepared metadata; nulls when none. */
    default String keyspace() {
        return null;
    }

    default String table() {
        return null;
    }

    CompletableFuture<ResultMessage> execute(QueryContext ctx);

    /** The request's own timeout for these values (ScyllaDB's {@code USING TIMEOUT}), null for none. */
    default java.time.Duration timeout(QueryContext ctx) {
        return null;
    }

    /** The error a request answers when it runs past {@link #timeout}. */
    default java.util.function.Supplier<io.charybdis.node.cql.exceptions.RequestTimeoutException> timeoutError(
            QueryContext ctx) {
        return io.charybdis.node.cql.statements.RequestTimeout.writeError(ctx,
                io.charybdis.protocol.response.WriteType.SIMPLE);
    }
}
