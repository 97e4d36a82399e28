package io.charybdis.node.cql;

import io.charybdis.node.cql.values.BindContext;
import io.charybdis.protocol.ProtocolVersion;
import io.charybdis.protocol.request.QueryOptions;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** One execution of a statement: its options, bound values, client, and the warnings it raises. */
public final class QueryContext {
    private final ByteBufAllocator alloc;
    private final ProtocolVersion version;
    private final QueryOptions options;
    private final ClientState client;
    private final BindContext bind;
    private final long timestamp;
    private List<String> warnings;

    public QueryContext(ByteBufAllocator alloc, ProtocolVersion version, QueryOptions options, ClientState client,
                        List<ByteBuffer> values, long nowMicros, int nowInSeconds) {
        this.alloc = alloc;
        this.version = version;
        this.options = options;
        this.client = client;
        this.bind = new BindContext(values, nowMicros, nowInSeconds);
        this.timestamp = options != null && options.hasDefaultTimestamp() ? options.defaultTimestamp() : nowMicros;
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

    /** A context for a sub-statement of a batch, sharing client, timestamp and warnings. */
    public QueryContext withValues(List<ByteBuffer> values) {
        QueryContext c = new QueryContext(alloc, version, options, client, values, bind.nowMicros(),
                bind.nowInSeconds());
        c.warnings = this.warnings;
        return c;
    }
}
