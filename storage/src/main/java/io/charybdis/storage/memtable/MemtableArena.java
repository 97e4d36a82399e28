package io.charybdis.storage.memtable;

import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Bump allocator of one memtable over slabs from the {@link ShardAllocator}; everything is released at once
 * when the memtable is discarded after its flush. A pointer is {@code (slabIndex + 1) << 32 | offset}, so 0 is never one
 * ({@link MemtableLayout#NIL}); slabs come zeroed.
 * Records larger than a slab get a slab of their own. Overwritten rows are not reclaimed (counted as waste).
 */
public final class MemtableArena {
    public static final int SLAB_SIZE = 64 * 1024;

    private final ShardAllocator allocator;
    private final List<UnsafeBuffer> slabs = new ArrayList<>();
    private UnsafeBuffer current;
    private int currentIndex = -1;
    private int position;
    private long allocatedBytes;
    private long usedBytes;

    public MemtableArena(ShardAllocator allocator) {
        this.allocator = allocator;
    }

    public long allocate(int length) {
        usedBytes += length;
        if (length > SLAB_SIZE / 4) {
            UnsafeBuffer big = allocator.allocate(length);
            allocatedBytes += length;
            slabs.add(big);
            return ((long) slabs.size() << 32);
        }
        if (current == null || position + length > current.capacity()) {
            current = allocator.allocate(SLAB_SIZE);
            allocatedBytes += SLAB_SIZE;
            slabs.add(current);
            currentIndex = slabs.size() - 1;
            position = 0;
        }
        long ptr = ((long) (currentIndex + 1) << 32) | position;
        position += length;
        return ptr;
    }

    public UnsafeBuffer buffer(long ptr) {
        return slabs.get((int) (ptr >>> 32) - 1);
    }

    public static int offset(long ptr) {
        return (int) ptr;
    }

    /** Allocates and copies {@code length} bytes. */
    public long copy(DirectBuffer src, int offset, int length) {
        long ptr = allocate(length);
        buffer(ptr).putBytes(offset(ptr), src, offset, length);
        return ptr;
    }

    public long allocatedBytes() {
        return allocatedBytes;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public void free() {
        for (UnsafeBuffer slab : slabs) {
            allocator.free(slab);
        }
        slabs.clear();
        current = null;
        currentIndex = -1;
        allocatedBytes = 0;
    }
}
