package io.charybdis.storage.read;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.ExpandableArrayBuffer;

/**
 * The buffers {@link ResultWriter} builds read results in, kept for reuse once a consumer
 * {@linkplain ReadResult#release() releases} its result, so that a read does not allocate in proportion to the rows
 * it returns. A fixed set of slots, taken and given back with atomic swaps (no allocation, any thread); a buffer
 * that finds no free slot, or grew beyond {@link #MAX_POOLED_BYTES}, is left to the garbage collector. At most
 * {@link #SLOTS} &times; {@link #MAX_POOLED_BYTES} of heap stays held, usually far less.
 *
 * <p>With assertions enabled (the tests) a released buffer is filled with garbage first, so that whatever still
 * reads a released result sees it at once.
 */
final class ResultBuffers {
    static final int SLOTS = 32;
    static final int MAX_POOLED_BYTES = 1 << 20;
    static final int INITIAL_BYTES = 256;
    private static final byte POISON = (byte) 0xEE;

    private static final AtomicReferenceArray<ExpandableArrayBuffer> FREE = new AtomicReferenceArray<>(SLOTS);

    private ResultBuffers() {
    }

    /** A buffer to build a result in: a released one if any, else a new one. */
    static ExpandableArrayBuffer acquire() {
        int start = (int) (Thread.currentThread().threadId() & (SLOTS - 1));
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (FREE.getPlain(slot) != null) {
                ExpandableArrayBuffer b = FREE.getAndSet(slot, null);
                if (b != null) {
                    return b;
                }
            }
        }
        return new ExpandableArrayBuffer(INITIAL_BYTES);
    }

    /** Gives a buffer back; its content must no longer be read by anyone. */
    static void release(ExpandableArrayBuffer b) {
        if (b.capacity() > MAX_POOLED_BYTES) {
            return;
        }
        assert poison(b);
        int start = (int) (Thread.currentThread().threadId() & (SLOTS - 1));
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (FREE.getPlain(slot) == null && FREE.compareAndSet(slot, null, b)) {
                return;
            }
        }
    }

    private static boolean poison(ExpandableArrayBuffer b) {
        Arrays.fill(b.byteArray(), POISON);
        return true;
    }
}
