package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.QueryContext;
import io.charybdis.node.cql.ResultMessage;
import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.exceptions.RequestTimeoutException;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.cql.values.BoundValue;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.values.Values;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.response.WriteType;
import io.charybdis.protocol.types.NativeType;
import io.charybdis.protocol.types.VInt;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A statement's own timeout, ScyllaDB's {@code USING TIMEOUT d} (a duration literal or a bind marker named
 * {@code [timeout]}), which ScyllaDB's drivers append to the statements they send. The request answers a read or
 * write timeout error once it has run that long; the work it started is not undone (as with Cassandra's own request
 * timeouts, a write may still be applied).
 */
public final class RequestTimeout {
    private final BoundValue value;

    private RequestTimeout(BoundValue value) {
        this.value = value;
    }

    /** The timeout of {@code term} (null: none), its bind marker recorded by {@code binder}. */
    public static RequestTimeout of(Term term, TermBinder binder) {
        return term == null ? null : new RequestTimeout(binder.bind(term, "[timeout]", NativeType.DURATION));
    }

    /** This execution's timeout, or null when its bind marker is unset; ScyllaDB's checks and messages. */
    public Duration resolve(QueryContext ctx) {
        ByteBuffer v = value.bind(ctx.bind());
        if (v == Values.UNSET) {
            return null;
        }
        if (v == null) {
            throw new InvalidRequestException("Timeout value cannot be null");
        }
        ByteBuffer b = v.duplicate();
        long months;
        long days;
        long nanos;
        try {
            months = VInt.readSigned(b);
            days = VInt.readSigned(b);
            nanos = VInt.readSigned(b);
        } catch (RuntimeException e) {
            throw new InvalidRequestException("Invalid timeout value: " + e.getMessage());
        }
        if (months != 0 || days != 0) {
            throw new InvalidRequestException("Timeout values cannot be expressed in days/months");
        }
        if (nanos % 1_000_000 != 0) {
            throw new InvalidRequestException("Timeout values cannot have granularity finer than milliseconds");
        }
        if (nanos < 0) {
            throw new InvalidRequestException("Timeout values must be non-negative");
        }
        return Duration.ofNanos(nanos);
    }

    /** A read's timeout error at the request's consistency level (one replica: this node). */
    public static Supplier<RequestTimeoutException> readError(QueryContext ctx) {
        Consistency cl = consistency(ctx);
        return () -> RequestTimeoutException.read(cl, 1);
    }

    /** A write's timeout error at the request's consistency level (one replica: this node). */
    public static Supplier<RequestTimeoutException> writeError(QueryContext ctx, WriteType type) {
        Consistency cl = consistency(ctx);
        return () -> RequestTimeoutException.write(cl, 1, type);
    }

    private static ResultMessage unwrap(ResultMessage r) {
        return r instanceof ResultMessage.Warned w ? w.inner() : r;
    }

    private static Consistency consistency(QueryContext ctx) {
        return ctx.options() == null || ctx.options().consistency() == null ? Consistency.ONE
                : ctx.options().consistency();
    }

    /**
     * {@code result}, or the timeout error if it is not complete within {@code timeout}. The rows of a result that
     * comes too late are released.
     */
    public static CompletableFuture<ResultMessage> within(CompletableFuture<ResultMessage> result, Duration timeout,
                                                          Supplier<RequestTimeoutException> error) {
        if (timeout == null || result.isDone()) {
            return result;
        }
        CompletableFuture<ResultMessage> out = new CompletableFuture<>();
        result.whenComplete((r, e) -> {
            boolean taken = e != null ? out.completeExceptionally(e) : out.complete(r);
            if (!taken && unwrap(r) instanceof ResultMessage.Rows rows) {
                rows.writer().abort();
            }
        });
        CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .execute(() -> out.completeExceptionally(error.get()));
        return out;
    }
}
