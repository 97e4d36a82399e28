package io.charybdis.storage.mutation;

/**
 * Which tombstones a merge may drop: those whose local deletion time is before {@code gcBefore}
 * (now - gc_grace_seconds) and whose timestamp is below {@code maxPurgeableTimestamp} (the smallest timestamp
 * of any data not taking part in the merge, so a purged tombstone cannot uncover older data elsewhere).
 * Expired cells and row markers count as tombstones whose deletion time is their expiration time.
 * {@code maxPurgeableTimestamp} {@link Long#MAX_VALUE} means no data is outside the merge: every gc-able tombstone
 * may go, those at {@link Long#MAX_VALUE} too (a deleted counter's, which wins over every clock).
 */
public record PurgePolicy(int nowInSeconds, int gcBefore, long maxPurgeableTimestamp) {
    public static final PurgePolicy NONE = new PurgePolicy(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE);

    public boolean purgeable(long timestamp, int localDeletionTime) {
        return localDeletionTime < gcBefore
                && (timestamp < maxPurgeableTimestamp || maxPurgeableTimestamp == Long.MAX_VALUE);
    }

    public boolean expired(int ttl, int localExpirationTime) {
        return ttl > 0 && localExpirationTime <= nowInSeconds;
    }
}
