package io.charybdis.storage;

/**
 * One scheduling group of one shard now, as {@code nodetool tpstats} shows it (one pool per group and shard).
 *
 * <ul>
 *   <li>{@code statement}: the shard's request work. Pending: requests waiting in its bounded queue; completed:
 *       writes and reads it ran; blocked: writes waiting for memtable memory now; all-time blocked: requests
 *       refused because the queue was full. Active is not tracked (-1): a shard runs requests one at a time on its
 *       own thread, between network events.</li>
 *   <li>{@code memtable} (flushes) and {@code compaction}: the shard's background scheduler. Active: 1 while a chunk
 *       of the group's task runs; pending: tasks waiting for their next chunk; completed: tasks finished. Nothing
 *       ever blocks on these queues.</li>
 * </ul>
 */
public record SchedulingGroupStats(int shard, String group, int active, int pending, long completed, long blocked,
                                   long totalBlocked) {
    public static final String STATEMENT = "statement";
    public static final String MEMTABLE = "memtable";
    public static final String COMPACTION = "compaction";
}
