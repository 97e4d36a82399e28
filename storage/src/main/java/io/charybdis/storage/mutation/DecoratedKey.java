package io.charybdis.storage.mutation;

import java.util.Arrays;
import org.agrona.DirectBuffer;

/** A partition position: token (signed order) then key bytes (unsigned order). */
public record DecoratedKey(long token, byte[] key) implements Comparable<DecoratedKey> {
    public static DecoratedKey of(long token, DirectBuffer b, int off, int len) {
        byte[] k = new byte[len];
        b.getBytes(off, k);
        return new DecoratedKey(token, k);
    }

    @Override
    public int compareTo(DecoratedKey o) {
        int c = Long.compare(token, o.token);
        return c != 0 ? c : Arrays.compareUnsigned(key, o.key);
    }

    public static int compare(long t1, byte[] k1, long t2, byte[] k2) {
        int c = Long.compare(t1, t2);
        return c != 0 ? c : Arrays.compareUnsigned(k1, k2);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecoratedKey d && d.token == token && Arrays.equals(d.key, key);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(token) * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "DecoratedKey{token=" + token + ", keyLength=" + key.length + "}";
    }
}
