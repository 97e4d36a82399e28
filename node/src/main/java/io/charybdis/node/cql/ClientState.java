package io.charybdis.node.cql;

/**
 * Per-connection state: the current keyspace ({@code USE}) and the authenticated role. Owned by the connection's
 * event loop; statements read it, only USE and login change it.
 */
public final class ClientState {
    private volatile String keyspace;
    private volatile String user;
    private final boolean internal;
    /** The counters of the shard this connection lives on; null for work no client connection started. */
    private io.charybdis.node.metrics.ShardRequestMetrics metrics;

    public ClientState(String user) {
        this(user, false);
    }

    private ClientState(String user, boolean internal) {
        this.user = user;
        this.internal = internal;
    }

    /** The node's own statements (system_auth upkeep): no permission applies to them. */
    public static ClientState internal() {
        return new ClientState("system", true);
    }

    public boolean isInternal() {
        return internal;
    }

    /** Counts this client's statements on its shard's counters (set once, by the connection). */
    public void countOn(io.charybdis.node.metrics.ShardRequestMetrics metrics) {
        this.metrics = metrics;
    }

    public io.charybdis.node.metrics.ShardRequestMetrics metrics() {
        return metrics;
    }

    public String keyspace() {
        return keyspace;
    }

    public void setKeyspace(String keyspace) {
        this.keyspace = keyspace;
    }

    public String user() {
        return user;
    }

    public void login(String role) {
        this.user = role;
    }

    public boolean isLoggedIn() {
        return user != null;
    }
}
