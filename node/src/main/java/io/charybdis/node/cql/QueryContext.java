package io.charybdis.node.cql;

import io.charybdis.cluster.ConsistencyLevel;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.protocol.Consistency;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.request.QueryOptions;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One execution of a statement: its options, bound values, client, the warnings it raises, and its home — the shard
 * event loop the request arrived on (the connection's shard), where the coordinator's answers resume so that
 * filtering, aggregation, paging and encoding run on the connection's shard. A context made on a thread that is no
 * event loop (internal work, tests) has no home, and continuations run wherever the data was.
 */
public final class QueryContext {
    private static final ConsistencyLevel[] LEVELS = levels();

    private final ByteBufAllocator alloc;
    private final ProtocolVersion version;
    private final QueryOptions options;
    private final ClientState client;
    private final BindContext bind;
    private final long timestamp;
    private final EventExecutor home;
    private List<String> warnings;
    /** The request's tracing session; null (nearly always) when it is not traced. */
    private TraceState trace;

    public QueryContext(ByteBufAllocator alloc, ProtocolVersion version, QueryOptions options, ClientState client,
                        List<ByteBuffer> values, long nowMicros, int nowInSeconds) {
        this.alloc = alloc;
        this.version = version;
        this.options = options;
        this.client = client;
        this.bind = new BindContext(values, nowMicros, nowInSeconds);
        this.timestamp = options != null && options.hasDefaultTimestamp() ? options.defaultTimestamp() : nowMicros;
        this.home = ThreadExecutorMap.currentExecutor();
    }

    private QueryContext(QueryContext o, long timestamp) {
        this.alloc = o.alloc;
        this.version = o.version;
        this.options = o.options;
        this.client = o.client;
        this.bind = o.bind;
        this.timestamp = timestamp;
        this.home = o.home;
        this.warnings = o.warnings;
        this.trace = o.trace;
    }

    /** The same request writing at {@code timestamp} (a lightweight transaction's ballot time). */
    public QueryContext atTimestamp(long timestamp) {
        return new QueryContext(this, timestamp);
    }

    /** The shard event loop the request arrived on, or null for work not started by a client connection. */
    public EventExecutor home() {
        return home;
    }

    /** The request's consistency level (ONE when the request carries none, e.g. internal statements). */
    public ConsistencyLevel consistency() {
        return options == null || options.consistency() == null ? ConsistencyLevel.ONE
                : LEVELS[options.consistency().ordinal()];
    }

    /** The request's serial consistency level for conditional statements (SERIAL when it names none). */
    public ConsistencyLevel serialConsistency() {
        return options == null ? ConsistencyLevel.SERIAL : LEVELS[options.serialConsistencyOrDefault().ordinal()];
    }

    private static ConsistencyLevel[] levels() {
        Consistency[] wire = Consistency.values();
        ConsistencyLevel[] out = new ConsistencyLevel[wire.length];
        for (Consistency c : wire) {
            out[c.ordinal()] = ConsistencyLevel.valueOf(c.name());
        }
        return out;
    }

    public ByteBufAllocator alloc() {
        return alloc;
    }

    public ProtocolVersion version() {
        return version;
    }

    public QueryOptions options() {
        return options;
    }

    public ClientState client() {
        return client;
    }

    public BindContext bind() {
        return bind;
    }

    /** The write timestamp when the statement gives none: the client's default timestamp, else the server's. */
    public long timestamp() {
        return timestamp;
    }

    public int nowInSeconds() {
        return bind.nowInSeconds();
    }

    public void warn(String warning) {
        if (warnings == null) {
            warnings = new ArrayList<>(2);
        }
        warnings.add(warning);
    }

    public List<String> warnings() {
        return warnings;
    }

    /** The tracing session of this request, or null when it is not traced. */
    public TraceState trace() {
        return trace;
    }

    /** Attaches the request's tracing session (null: not traced). */
    public QueryContext traced(TraceState trace) {
        this.trace = trace;
        return this;
    }

    /** Where the coordinator records its steps for a traced request; null when the request is not traced. */
    public java.util.function.Consumer<String> traceSink() {
        TraceState t = trace;
        return t == null ? null : t::trace;
    }

    /** Records a tracing event when the request is traced; nothing else when it is not. */
    public void trace(String activity) {
        TraceState t = trace;
        if (t != null) {
            t.trace(activity);
        }
    }

    /** A context for a sub-statement of a batch, sharing client, timestamp and warnings. */
    public QueryContext withValues(List<ByteBuffer> values) {
        QueryContext c = new QueryContext(alloc, version, options, client, values, bind.nowMicros(),
                bind.nowInSeconds());
        c.warnings = this.warnings;
        c.trace = this.trace;
        return c;
    }
}
