package io.charybdis.storage.shard;

import io.charybdis.storage.StorageException;
import io.charybdis.storage.TableId;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The shard's state of each registered table ({@link TableShard}), made when the table is registered.
 *
 * <p>Implementation notes: {@code Storage.registerTable} (any thread) hands each shard a {@link #register} message;
 * requests reach the shard through other doors (inline, the bounded request queue), so one may overtake that
 * message. {@link #get} therefore makes the state itself from the same registry entry when it finds none; making it
 * is idempotent (whoever comes first makes it, the other finds it), so a request never sees a registered table
 * without its state, and the state is made once. A table that is not in the registry is an error. Shard thread
 * only.
 */
final class ShardTables {
    private final Shard shard;
    private final Map<TableId, TableShard> byId = new HashMap<>();

    ShardTables(Shard shard) {
        this.shard = shard;
    }

    /** Makes the table's state on this shard unless it exists or the table is no longer registered. */
    void register(TableEntry e) {
        TableId tid = e.descriptor().id();
        if (!byId.containsKey(tid) && shard.ctx.tables().get(tid) == e) {
            create(e);
        }
    }

    /** The table's state; made now if its registration message has not arrived yet. */
    TableShard get(TableId tid) {
        TableShard ts = byId.get(tid);
        if (ts == null) {
            TableEntry e = shard.ctx.tables().get(tid);
            if (e == null) {
                throw new StorageException("unknown table id=" + tid);
            }
            ts = create(e);
        }
        return ts;
    }

    /** The table's state if this shard has it, else null. */
    TableShard find(TableId tid) {
        return byId.get(tid);
    }

    boolean isRegistered(TableId tid) {
        return shard.ctx.tables().containsKey(tid);
    }

    Collection<TableShard> all() {
        return byId.values();
    }

    void remove(TableId tid) {
        byId.remove(tid);
    }

    void clear() {
        byId.clear();
    }

    private TableShard create(TableEntry e) {
        TableShard ts = new TableShard(e, shard.memory.newMemtable());
        ts.sstables.addAll(e.takeInitial(shard.id));
        shard.compactor.strategy(ts);
        ts.publishStats();
        e.publish(shard.id, ts);
        byId.put(e.descriptor().id(), ts);
        return ts;
    }
}
