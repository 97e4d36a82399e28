package io.charybdis.storage;

/**
 * A shard's request queue was full: the request was not queued and nothing of it ran. Back-pressure returned as a
 * value (the request's future fails with it; no thread waits); the CQL layer answers it with the Overloaded error
 * (0x1001), on which drivers retry elsewhere or back off.
 */
public final class ShardOverloadedException extends StorageException {
    private final int shard;
    private final int capacity;

    public ShardOverloadedException(int shard, int capacity) {
        super("shard=" + shard + " is overloaded: its request queue is full capacity=" + capacity);
        this.shard = shard;
        this.capacity = capacity;
    }

    public int shard() {
        return shard;
    }

    public int capacity() {
        return capacity;
    }
}
