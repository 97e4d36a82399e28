package io.charybdis.storage.shard;

import io.charybdis.storage.schedule.BacklogController;
import io.charybdis.storage.schedule.ShardScheduler;

/**
 * The shard's two backlog controllers (ARCHITECTURE.md, decision 7): each period, compaction backlog → compaction
 * shares and memtable dirtiness → flush shares, applied to the shard's {@link ShardScheduler}; and the node's
 * compaction_throughput cap, this shard's equal part of it.
 *
 * <p>Implementation notes: the compaction backlog is the sum of the tables' backlogs (bytes × rewrites, see
 * {@code BacklogTracker}) normalized by the shard's memory budget, plus, per running user compaction, the backlog
 * that the controller maps to {@link Compactor#USER_COMPACTION_SHARES}, so a user compaction never runs below
 * those shares. Dirtiness is memtable bytes over the hard limit. The ticks come from the storage timer through the
 * shard's executor; the figures they leave are published for the compaction status. Shard thread only.
 */
final class ShardControllers {
    private final Shard shard;
    private final BacklogController compaction = BacklogController.compaction();
    private final BacklogController flush = BacklogController.flush(BacklogController.DEFAULT_SOFT_LIMIT);
    private volatile double compactionBacklog;
    private volatile double dirtyRatio;

    ShardControllers(Shard shard) {
        this.shard = shard;
    }

    /** Compaction controller period: backlog → compaction shares; also starts compactions that became due. */
    void adjustCompactionShares() {
        long budget = shard.memory.shardBudget;
        double total = 0;
        for (TableShard ts : shard.tables.all()) {
            shard.compactor.maybeCompact(ts);
            double b = shard.compactor.backlog(ts);
            for (CompactionTask t : ts.running) {
                if (t.userInitiated) {
                    b += compaction.backlogOfShares(Compactor.USER_COMPACTION_SHARES) * budget;
                }
            }
            ts.statBacklog = b;
            total += b;
        }
        double normalized = total / budget;
        compactionBacklog = normalized;
        shard.scheduler.setShares(ShardScheduler.Group.COMPACTION, compaction.sharesFor(normalized));
        applyThroughputCap();
    }

    /** The node's compaction_throughput cap, this shard's part of it (0 = none). */
    void applyThroughputCap() {
        long cap = shard.ctx.compactionThroughputCap().get();
        int shards = shard.ctx.shardCount();
        shard.scheduler.setThroughputCap(ShardScheduler.Group.COMPACTION, cap == 0 ? 0 : Math.max(1, cap / shards));
    }

    /** Flush controller period: dirty memory → flush shares; releases writes memory now allows. */
    void adjustFlushShares() {
        double ratio = (double) shard.memory.memtableBytes() / shard.memory.hardLimit;
        dirtyRatio = ratio;
        shard.scheduler.setShares(ShardScheduler.Group.FLUSH, flush.sharesFor(ratio));
        shard.writes.drainBlocked();
    }

    double compactionBacklog() {
        return compactionBacklog;
    }

    double dirtyRatio() {
        return dirtyRatio;
    }
}
