package io.charybdis.storage.util;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/** Unsigned lexicographic comparison of byte ranges, the order of every key and clustering in storage. */
public final class ByteComparables {
    private ByteComparables() {
    }

    public static int compare(DirectBuffer a, int aOff, int aLen, DirectBuffer b, int bOff, int bLen) {
        int min = Math.min(aLen, bLen);
        int i = 0;
        for (; i + 8 <= min; i += 8) {
            long x = a.getLong(aOff + i, ByteOrder.BIG_ENDIAN);
            long y = b.getLong(bOff + i, ByteOrder.BIG_ENDIAN);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < min; i++) {
            int x = a.getByte(aOff + i) & 0xFF;
            int y = b.getByte(bOff + i) & 0xFF;
            if (x != y) {
                return x - y;
            }
        }
        return Integer.compare(aLen, bLen);
    }

    public static int compare(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    public static int compare(DirectBuffer a, int aOff, int aLen, byte[] b) {
        int min = Math.min(aLen, b.length);
        for (int i = 0; i < min; i++) {
            int x = a.getByte(aOff + i) & 0xFF;
            int y = b[i] & 0xFF;
            if (x != y) {
                return x - y;
            }
        }
        return Integer.compare(aLen, b.length);
    }
}
