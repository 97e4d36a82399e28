package io.charybdis.storage.memtable;

import static io.charybdis.storage.memtable.MemtableLayout.*;

import io.charybdis.storage.util.ByteComparables;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** A {@link SkipList} cursor over the partition list, keyed by (token signed, key bytes unsigned). */
final class PartitionSearch extends SkipList {
    private long token;
    private DirectBuffer key;
    private int keyOffset;
    private int keyLength;

    PartitionSearch(MemtableArena arena, long seed) {
        super(arena, seed);
    }

    PartitionSearch key(long token, DirectBuffer key, int offset, int length) {
        this.token = token;
        this.key = key;
        this.keyOffset = offset;
        this.keyLength = length;
        return this;
    }

    @Override
    long keyPrefix() {
        return token;
    }

    @Override
    int comparePrefix(long nodePrefix) {
        return Long.compare(nodePrefix, token);
    }

    @Override
    int compareNode(UnsafeBuffer b, int node) {
        int p = payload(b, node);
        int c = Long.compare(b.getLong(p + PP_TOKEN), token);
        return c != 0 ? c : ByteComparables.compare(b, p + PP_KEY, b.getInt(node + N_AUX), key, keyOffset, keyLength);
    }
}
