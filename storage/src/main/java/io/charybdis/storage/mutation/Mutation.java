package io.charybdis.storage.mutation;

import static io.charybdis.storage.mutation.MutationLayout.*;

import io.charybdis.storage.TableId;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One partition update of one table, serialized in a single buffer ({@link MutationLayout}). Immutable once built.
 * Built by {@link MutationBuilder}; read through {@link #buffer()} with the layout offsets or {@link SerializedPartition}.
 */
public final class Mutation {
    private final UnsafeBuffer buffer;
    private final TableId table;

    Mutation(byte[] bytes) {
        this.buffer = new UnsafeBuffer(bytes);
        this.table = TableId.of(buffer.getLong(M_TABLE_MSB), buffer.getLong(M_TABLE_LSB));
    }

    /** Copies a serialized mutation (e.g. read back from the commit log); validates its framing. */
    public static Mutation copyOf(DirectBuffer src, int offset, int length) {
        if (length < M_PARTITION + P_KEY || src.getInt(offset + M_TOTAL_LENGTH) != length
                || src.getInt(offset + M_PARTITION + P_LENGTH) != length - M_PARTITION) {
            throw new IllegalArgumentException("malformed mutation length=" + length);
        }
        byte[] bytes = new byte[length];
        src.getBytes(offset, bytes);
        return new Mutation(bytes);
    }

    public TableId table() {
        return table;
    }

    public long token() {
        return buffer.getLong(M_PARTITION + P_TOKEN);
    }

    public int partitionKeyLength() {
        return buffer.getInt(M_PARTITION + P_KEY_LENGTH);
    }

    /** Offset of the partition key inside {@link #buffer()}. */
    public int partitionKeyOffset() {
        return M_PARTITION + P_KEY;
    }

    public byte[] partitionKey() {
        byte[] key = new byte[partitionKeyLength()];
        buffer.getBytes(partitionKeyOffset(), key);
        return key;
    }

    public int serializedSize() {
        return buffer.capacity();
    }

    /** The whole serialized mutation; do not modify. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** A read-only view of the serialized bytes (for writing to a channel). */
    public ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(buffer.byteArray()).asReadOnlyBuffer();
    }

    public int partitionOffset() {
        return M_PARTITION;
    }

    public int rowCount() {
        return buffer.getInt(M_PARTITION + P_ROW_COUNT);
    }

    /** A flyweight over the partition record of this mutation. Rows are in build order and may repeat. */
    public SerializedPartition partition() {
        return new SerializedPartition().wrap(buffer, M_PARTITION, false);
    }

    @Override
    public String toString() {
        return "Mutation{table=" + table + ", token=" + token() + ", keyLength=" + partitionKeyLength()
                + ", rows=" + rowCount() + ", size=" + serializedSize() + "}";
    }
}
