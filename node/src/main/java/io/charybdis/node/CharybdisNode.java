package io.charybdis.node;

import io.charybdis.node.config.NodeConfig;

/**
 * Placeholder so Main compiles until the real node (CQL server, storage) lands: the lead replaces this file.
 * The API Main codes against: {@link #start(NodeConfig)}, {@link #describeListening()}, {@link #close()}.
 */
public final class CharybdisNode implements AutoCloseable {

    private CharybdisNode() {
    }

    /** Starts storage and the CQL ports; returns once clients can connect. */
    public static CharybdisNode start(NodeConfig config) throws Exception {
        throw new UnsupportedOperationException("CQL server not built yet");
    }

    /**
     * What Main logs after "Charybdis &lt;version&gt; ", e.g. "listening for CQL clients on 127.0.0.1:9042
     * (shard-aware port 19042), 2 shards, data in /var/lib/charybdis/data".
     */
    public String describeListening() {
        return "not listening";
    }

    /** Idempotent: stops the ports, syncs the commit log, flushes or leaves it replayable. */
    @Override
    public void close() {
    }
}
