package io.charybdis.node.schema;

import io.charybdis.node.cql.exceptions.ServerErrorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Owns the node's schema. Readers take {@link #schema()} (an immutable snapshot); DDL goes through
 * {@link #update}, which runs one change at a time: compute the new schema, make it durable, tell the storage
 * engine which tables appeared, changed or went away, publish it, then notify listeners.
 *
 * <p>DDL is rare and never on the data path, so a monitor serialising changes is the simple, correct choice.
 */
public final class SchemaManager {
    private static final Logger log = LoggerFactory.getLogger(SchemaManager.class);

    private final SchemaStore store;
    private final Map<String, KeyspaceMetadata> builtIn;
    private final List<SchemaListener> listeners = new CopyOnWriteArrayList<>();
    private volatile TableLifecycle lifecycle = TableLifecycle.NONE;
    private volatile Schema current;
    private volatile Committer committer;

    /**
     * Where a cluster commits schema changes: the change computed here is proposed to the cluster's metadata log,
     * and installed on every member (this one included) through {@link #install} when the log applies it.
     */
    public interface Committer {
        /** @return false when another change was committed first (the change is computed again and retried) */
        boolean commit(Schema before, Schema after, List<SchemaChange> events);

        /** Installs here every change the cluster has committed so far (so that a change is computed from them). */
        void catchUp();
    }

    /**
     * Makes sure this node has installed every schema change the cluster has acknowledged, when it belongs to one
     * (a table created through another node may not be installed here yet); returns whether it had to look.
     */
    public boolean catchUp() {
        Committer c = committer;
        if (c == null) {
            return false;
        }
        c.catchUp();
        return true;
    }

    /** From now on, changes are committed through the cluster's log instead of being applied here directly. */
    public void setCommitter(Committer committer) {
        this.committer = committer;
    }

    /**
     * @param builtIn the system keyspaces (virtual, never stored)
     */
    public SchemaManager(SchemaStore store, Map<String, KeyspaceMetadata> builtIn) throws IOException {
        this.store = store;
        this.builtIn = Map.copyOf(builtIn);
        Map<String, Object> doc = store.load();
        Schema loaded = doc == null ? Schema.empty() : SchemaCodec.fromDocument(doc);
        this.current = withBuiltIn(loaded);
    }

    public Schema schema() {
        return current;
    }

    /**
     * {@code s} with every built-in keyspace; a stored system keyspace (system_auth) keeps the replication
     * {@code s} gives it (ALTER KEYSPACE system_auth), its tables always the built-in ones.
     */
    private Schema withBuiltIn(Schema s) {
        for (KeyspaceMetadata ks : builtIn.values()) {
            KeyspaceMetadata given = s.keyspace(ks.name());
            s = s.with(given == null || ks.virtual() ? ks
                    : ks.withParams(given.durableWrites(), given.replication()));
        }
        return s;
    }

    public void setLifecycle(TableLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    public void addListener(SchemaListener l) {
        listeners.add(l);
    }

    /**
     * Applies a change. {@code change} returns the new schema, or the same instance when nothing changes (for
     * IF [NOT] EXISTS); it throws the user's error otherwise.
     */
    public Schema update(UnaryOperator<Schema> change, List<SchemaChange> events) {
        Committer c = committer;
        if (c == null) {
            return updateHere(change, events);
        }
        c.catchUp();
        for (int attempt = 1; ; attempt++) {
            Schema before = current;
            events.clear();
            Schema after = change.apply(before);
            if (after == before) {
                return before;
            }
            if (c.commit(before, after, List.copyOf(events))) {
                return current;
            }
            if (attempt == 20) {
                throw new ServerErrorException("Schema change kept conflicting with concurrent changes; try again", null);
            }
        }
    }

    /**
     * Installs a schema committed by the cluster (every member runs this for every change, in log order):
     * persists it, registers, alters and drops tables, and tells listeners (drivers' SCHEMA_CHANGE events).
     */
    public synchronized void install(Schema userSchema, List<SchemaChange> events) {
        Schema fixed = withBuiltIn(userSchema);
        updateHere(before -> fixed, events);
    }

    private synchronized Schema updateHere(UnaryOperator<Schema> change, List<SchemaChange> events) {
        Schema before = current;
        Schema after = change.apply(before);
        if (after == before) {
            return before;
        }
        try {
            store.store(SchemaCodec.toDocument(after));
        } catch (IOException e) {
            throw new ServerErrorException("Could not persist schema to " + store.file() + ": " + e.getMessage(), e);
        }
        applyToStorage(before, after);
        current = after;
        for (SchemaChange ev : events) {
            for (SchemaListener l : listeners) {
                try {
                    l.onSchemaChange(ev);
                } catch (RuntimeException e) {
                    log.warn("Schema listener failed for {}", ev, e);
                }
            }
        }
        return after;
    }

    private void applyToStorage(Schema before, Schema after) {
        List<TableMetadata> dropped = new ArrayList<>();
        for (KeyspaceMetadata ks : before.keyspaces().values()) {
            if (ks.virtual()) {
                continue;
            }
            KeyspaceMetadata now = after.keyspace(ks.name());
            for (TableMetadata t : ks.tables().values()) {
                TableMetadata n = now == null ? null : now.table(t.name());
                if (n == null || !n.id().equals(t.id())) {
                    dropped.add(t);
                } else if (n != t) {
                    lifecycle.altered(t, n);
                }
            }
        }
        for (TableMetadata t : dropped) {
            lifecycle.dropped(t);
        }
        for (KeyspaceMetadata ks : after.keyspaces().values()) {
            if (ks.virtual()) {
                continue;
            }
            KeyspaceMetadata old = before.keyspace(ks.name());
            for (TableMetadata t : ks.tables().values()) {
                TableMetadata o = old == null ? null : old.table(t.name());
                if (o == null || !o.id().equals(t.id())) {
                    lifecycle.created(t);
                }
            }
        }
    }

    public Map<String, KeyspaceMetadata> builtIn() {
        return builtIn;
    }
}
