package io.charybdis.node.cql;

import io.charybdis.node.cql.values.TimeUuids;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One tracing session: what a traced request did, step by step, as Cassandra records it in
 * {@code system_traces.sessions} (one row) and {@code system_traces.events} (one row per {@link #trace} call).
 *
 * <p>Only traced requests have one (a request carrying the protocol's TRACING flag, or drawn by the node's trace
 * probability); every other request carries null, and the code that records steps tests for that first, so
 * tracing costs an untraced request one null check per step. Events are kept in memory and written to
 * {@code system_traces} once the response has gone out (see {@code io.charybdis.node.tracing.Tracing}). A request's
 * steps run on its home shard, but a step may complete on another shard, so adding an event is synchronized (it
 * never contends: the steps of one request follow each other).
 */
public final class TraceState {
    /** One event: its timeuuid, what happened, microseconds since the session began, and the thread it ran on. */
    public record Event(UUID id, String activity, int elapsedMicros, String thread) {
    }

    private final UUID sessionId;
    private final long startedAtMillis;
    private final long startNanos;
    private final InetAddress client;
    private final String request;
    private final Map<String, String> parameters = new LinkedHashMap<>();
    private final List<Event> events = new ArrayList<>();
    private volatile int durationMicros = -1;

    public TraceState(InetAddress client, String request) {
        this.sessionId = TimeUuids.now();
        this.startedAtMillis = System.currentTimeMillis();
        this.startNanos = System.nanoTime();
        this.client = client;
        this.request = request;
    }

    public UUID sessionId() {
        return sessionId;
    }

    public long startedAtMillis() {
        return startedAtMillis;
    }

    public InetAddress client() {
        return client;
    }

    /** What the request was, in Cassandra's words ("Execute CQL3 query", "Execute CQL3 prepared query", ...). */
    public String request() {
        return request;
    }

    /** The session's parameters (query, consistency_level, page_size, ...), in the order they were set. */
    public synchronized Map<String, String> parameters() {
        return new LinkedHashMap<>(parameters);
    }

    public synchronized TraceState parameter(String name, String value) {
        if (value != null) {
            parameters.put(name, value);
        }
        return this;
    }

    /** Records that {@code activity} happens now, on the current thread. */
    public void trace(String activity) {
        Event e = new Event(TimeUuids.now(), activity, elapsedMicros(), Thread.currentThread().getName());
        synchronized (this) {
            events.add(e);
        }
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    private int elapsedMicros() {
        return (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - startNanos) / 1000);
    }

    /** Marks the request complete: its duration is the time since the session began. */
    public void complete() {
        durationMicros = elapsedMicros();
    }

    /** The request's duration in microseconds, or -1 before {@link #complete}. */
    public int durationMicros() {
        return durationMicros;
    }
}
