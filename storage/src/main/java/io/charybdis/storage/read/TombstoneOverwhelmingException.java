package io.charybdis.storage.read;

import io.charybdis.storage.StorageException;

/**
 * A read scanned more tombstones than its {@link ReadCommand#tombstoneFailureThreshold()} allows and was aborted
 * (Cassandra's TombstoneOverwhelmingException): the data it would return is buried under deletions that compaction
 * has not purged yet.
 */
public final class TombstoneOverwhelmingException extends StorageException {
    private final int tombstones;
    private final long token;

    public TombstoneOverwhelmingException(int tombstones, long token) {
        super("Scanned over " + tombstones + " tombstones; query aborted (last scanned row token was " + token + ")");
        this.tombstones = tombstones;
        this.token = token;
    }

    public int tombstones() {
        return tombstones;
    }

    public long token() {
        return token;
    }
}
