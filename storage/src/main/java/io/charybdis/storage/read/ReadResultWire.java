package io.charybdis.storage.read;

import java.nio.ByteBuffer;

/**
 * A {@link ReadResult} as bytes, for a replica's answer to a remote coordinator.
 *
 * <pre>
 *  i32 partitionCount | i32 rowCount | u8 limitReached | i64 lastToken | i32 liveRowsScanned
 *  | i32 tombstonesScanned | i64 lastScannedToken | i32 n, lastKey (n = -1: none) | i32 n, lastClustering
 *  | i32 n, result bytes (the {@link ResultWriter} layout)
 * </pre>
 */
public final class ReadResultWire {
    private ReadResultWire() {
    }

    public static byte[] encode(ReadResult r) {
        byte[] lastKey = r.lastKey();
        byte[] lastClustering = r.lastClustering();
        int n = r.serializedSize();
        ByteBuffer b = ByteBuffer.allocate(41 + 12 + len(lastKey) + len(lastClustering) + n);
        b.putInt(r.partitionCount()).putInt(r.rowCount()).put((byte) (r.limitReached() ? 1 : 0)).putLong(r.lastToken())
                .putInt(r.liveRowsScanned()).putInt(r.tombstonesScanned()).putLong(r.lastScannedToken());
        put(b, lastKey);
        put(b, lastClustering);
        b.putInt(n);
        r.copyBytes(b.array(), b.position());
        return b.array();
    }

    public static ReadResult decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int partitions = b.getInt();
        int rows = b.getInt();
        boolean limitReached = b.get() != 0;
        long lastToken = b.getLong();
        int liveScanned = b.getInt();
        int tombstonesScanned = b.getInt();
        long lastScannedToken = b.getLong();
        byte[] lastKey = get(b);
        byte[] lastClustering = get(b);
        byte[] data = new byte[b.getInt()];
        b.get(data);
        ReadResult r = new ReadResult(data, partitions, rows, limitReached, lastToken, lastKey, lastClustering);
        r.scanned(liveScanned, tombstonesScanned, lastScannedToken);
        return r;
    }

    private static int len(byte[] a) {
        return a == null ? 0 : a.length;
    }

    private static void put(ByteBuffer b, byte[] a) {
        if (a == null) {
            b.putInt(-1);
        } else {
            b.putInt(a.length).put(a);
        }
    }

    private static byte[] get(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0) {
            return null;
        }
        byte[] a = new byte[n];
        b.get(a);
        return a;
    }
}
