package io.charybdis.node.tracing;

import io.charybdis.node.auth.InternalQueries;
import io.charybdis.node.cql.TraceState;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.types.MapType;
import io.charybdis.protocol.types.NativeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Query tracing as Cassandra 5.0 has it: a request traced (the protocol's TRACING flag, or drawn with the node's
 * trace probability, {@code nodetool settraceprobability}) gets a {@link TraceState}; the steps it goes through
 * become rows of {@code system_traces.events} and the request itself a row of {@code system_traces.sessions}, both
 * with a TTL of one day (Cassandra's {@code trace_type_query_ttl}).
 *
 * <p>Cost: a request is traced only when its flag is set or {@link #sampled} says so, and {@code sampled} is one
 * read of a volatile double while the probability is zero. The rows are written after the response went out,
 * through the node's own statements (the same processor, coordinator and storage as a client's, replicated with
 * {@code system_traces}' replication), so a traced request's latency does not include them. The events are written
 * before the session row, in that order on the partition's shard, so a client that sees the session's duration
 * (which drivers poll for) sees every event too.
 */
public final class Tracing {
    private static final MapType TEXT_MAP = new MapType(NativeType.TEXT, NativeType.TEXT, false);
    private static final Logger log = LoggerFactory.getLogger(Tracing.class);
    /** Cassandra's default {@code trace_type_query_ttl}: one day. */
    public static final int TTL_SECONDS = 86_400;
    static final String INSERT_EVENT = "INSERT INTO system_traces.events (session_id, event_id, activity, source, "
            + "source_elapsed, source_port, thread) VALUES (?, ?, ?, ?, ?, ?, ?) USING TTL " + TTL_SECONDS;
    static final String INSERT_SESSION = "INSERT INTO system_traces.sessions (session_id, client, command, "
            + "coordinator, coordinator_port, duration, parameters, request, started_at) VALUES "
            + "(?, ?, ?, ?, ?, ?, ?, ?, ?) USING TTL " + TTL_SECONDS;

    private final InternalQueries queries;
    private final InetAddress source;
    private final int sourcePort;
    private volatile double probability;
    private final AtomicLong failures = new AtomicLong();

    /**
     * @param source     this node's address (the coordinator and source columns)
     * @param sourcePort its internode port (coordinator_port and source_port, as Cassandra 4+ records them)
     */
    public Tracing(InternalQueries queries, InetAddress source, int sourcePort) {
        this.queries = queries;
        this.source = source;
        this.sourcePort = sourcePort;
    }

    /** The probability that an untraced request is traced anyway (0 by default, as in Cassandra). */
    public double probability() {
        return probability;
    }

    /** Sets the trace probability; refused outside [0, 1] with Cassandra's message. */
    public void setProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("Trace probability must be between 0 and 1");
        }
        probability = p;
    }

    /** Whether a request the client did not ask to trace is traced: drawn with the trace probability. */
    public boolean sampled() {
        double p = probability;
        return p > 0 && (p >= 1 || ThreadLocalRandom.current().nextDouble() < p);
    }

    /** Trace sessions whose rows could not be written (logged once per ten). */
    public long failures() {
        return failures.get();
    }

    /**
     * Writes a completed session: its events, then its session row. Returns when both are written (tests wait for
     * it; the connection does not).
     */
    public CompletableFuture<Void> write(TraceState t) {
        if (t.durationMicros() < 0) {
            t.complete();
        }
        ByteBuffer session = uuid(t.sessionId());
        ByteBuffer src = inet(source);
        ByteBuffer port = int32(sourcePort);
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (TraceState.Event e : t.events()) {
            writes.add(queries.execute(INSERT_EVENT, Consistency.ONE, session.duplicate(), uuid(e.id()),
                    InternalQueries.text(e.activity()), src.duplicate(), int32(e.elapsedMicros()), port.duplicate(),
                    InternalQueries.text(e.thread())));
        }
        writes.add(queries.execute(INSERT_SESSION, Consistency.ONE, session.duplicate(),
                t.client() == null ? null : inet(t.client()), InternalQueries.text("QUERY"), src.duplicate(),
                port.duplicate(), int32(t.durationMicros()), TEXT_MAP.decompose(t.parameters()),
                InternalQueries.text(t.request()), int64(t.startedAtMillis())));
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).whenComplete((v, err) -> {
            if (err != null && failures.getAndIncrement() % 10 == 0) {
                log.warn("Could not write trace session {} to system_traces", t.sessionId(), err);
            }
        });
    }

    static ByteBuffer uuid(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits())
                .flip();
    }

    static ByteBuffer inet(InetAddress a) {
        return ByteBuffer.wrap(a.getAddress());
    }

    static ByteBuffer int32(int v) {
        return ByteBuffer.allocate(4).putInt(v).flip();
    }

    static ByteBuffer int64(long v) {
        return ByteBuffer.allocate(8).putLong(v).flip();
    }

}
