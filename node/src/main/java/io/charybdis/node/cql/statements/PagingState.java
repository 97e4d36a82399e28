package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;

import java.nio.ByteBuffer;

/**
 * Where the next page of a SELECT starts. Opaque to drivers, self-contained, so a page can be fetched on any
 * connection.
 *
 * <pre>
 *  byte    version (1)
 *  int     rows still allowed by LIMIT
 *  int     index of the current partition among the statement's partition keys (IN), or -1 for a range scan
 *  long    token of the last row's partition
 *  int     key length, key bytes
 *  int     clustering length (-1: after the whole partition), clustering bytes
 *  int     rows still allowed in that partition by PER PARTITION LIMIT
 * </pre>
 */
record PagingState(int remaining, int partitionIndex, long token, byte[] key, byte[] clustering,
                   int remainingInPartition) {
    private static final byte VERSION = 1;

    byte[] encode() {
        int size = 1 + 4 + 4 + 8 + 4 + key.length + 4 + (clustering == null ? 0 : clustering.length) + 4;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(VERSION).putInt(remaining).putInt(partitionIndex).putLong(token).putInt(key.length).put(key);
        if (clustering == null) {
            b.putInt(-1);
        } else {
            b.putInt(clustering.length).put(clustering);
        }
        b.putInt(remainingInPartition);
        return b.array();
    }

    static PagingState decode(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != VERSION) {
                throw new InvalidRequestException("Invalid value for the paging state");
            }
            int remaining = b.getInt();
            int partitionIndex = b.getInt();
            long token = b.getLong();
            byte[] key = new byte[b.getInt()];
            b.get(key);
            int cl = b.getInt();
            byte[] clustering = null;
            if (cl >= 0) {
                clustering = new byte[cl];
                b.get(clustering);
            }
            int rip = b.getInt();
            if (b.hasRemaining()) {
                throw new InvalidRequestException("Invalid value for the paging state");
            }
            return new PagingState(remaining, partitionIndex, token, key, clustering, rip);
        } catch (RuntimeException e) {
            if (e instanceof InvalidRequestException ire) {
                throw ire;
            }
            throw new InvalidRequestException("Invalid value for the paging state");
        }
    }
}
