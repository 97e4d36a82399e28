package io.charybdis.storage.memtable;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The one owner of a shard's off-heap memory. Every direct allocation of the shard's memtables and cache goes
 * through here and is counted, so tests can assert that {@link #allocatedBytes()} returns to zero after close.
 * Allocation and release happen on the shard thread; the counters may be read from any thread.
 */
public final class ShardAllocator {
    private final int shardId;
    private final AtomicLong allocated = new AtomicLong();
    private final AtomicLong allocations = new AtomicLong();

    public ShardAllocator(int shardId) {
        this.shardId = shardId;
    }

    public UnsafeBuffer allocate(int size) {
        ByteBuffer bb = ByteBuffer.allocateDirect(size);
        allocated.addAndGet(size);
        allocations.incrementAndGet();
        return new UnsafeBuffer(bb);
    }

    /**
     * Allocates {@code size} bytes of raw native memory (contents undefined) and returns its address; for
     * structures that must not cost a Java object per allocation (row cache entries). Give it back with
     * {@link #freeMemory} and the same size.
     */
    public long allocateMemory(long size) {
        long address = UnsafeApi.allocateMemory(size);
        allocated.addAndGet(size);
        allocations.incrementAndGet();
        return address;
    }

    public void freeMemory(long address, long size) {
        if (address == 0) {
            throw new IllegalArgumentException("null address: shard=" + shardId);
        }
        UnsafeApi.freeMemory(address);
        allocated.addAndGet(-size);
        allocations.decrementAndGet();
    }

    public void free(UnsafeBuffer buffer) {
        ByteBuffer bb = buffer.byteBuffer();
        if (bb == null) {
            throw new IllegalArgumentException("not allocated here: shard=" + shardId);
        }
        allocated.addAndGet(-buffer.capacity());
        allocations.decrementAndGet();
        buffer.wrap(new byte[0]);
        BufferUtil.free(bb);
    }

    public long allocatedBytes() {
        return allocated.get();
    }

    public long liveAllocations() {
        return allocations.get();
    }

    public int shardId() {
        return shardId;
    }
}
