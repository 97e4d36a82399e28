package io.charybdis.cluster.replica;

import io.charybdis.storage.TableId;
import io.charybdis.storage.read.ReadCommand;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ReadCommand} on the wire (the READ verb's request payload): every field, in declaration order; byte
 * arrays as i32 length (-1 = null) and bytes.
 */
public final class ReadCommandWire {
    private ReadCommandWire() {
    }

    public static void write(ReadCommand c, ByteBuf out) {
        out.writeLong(c.table().msb()).writeLong(c.table().lsb()).writeLong(c.token());
        bytes(out, c.key());
        bound(out, c.start());
        bound(out, c.end());
        out.writeInt(c.slices().size());
        for (ReadCommand.Slice s : c.slices()) {
            bytes(out, s.start());
            bytes(out, s.end());
        }
        out.writeBoolean(c.reversed()).writeInt(c.rowLimit()).writeInt(c.perPartitionLimit())
                .writeInt(c.partitionLimit()).writeInt(c.nowInSeconds());
        ReadCommand.ResumePoint r = c.startAfter();
        out.writeBoolean(r != null);
        if (r != null) {
            out.writeLong(r.token());
            bytes(out, r.key());
            bytes(out, r.clustering());
        }
        int[] columns = c.columns();
        out.writeInt(columns == null ? -1 : columns.length);
        if (columns != null) {
            for (int col : columns) {
                out.writeInt(col);
            }
        }
        out.writeInt(c.tombstoneFailureThreshold());
    }

    public static ReadCommand read(ByteBuf in) {
        TableId table = TableId.of(in.readLong(), in.readLong());
        long token = in.readLong();
        byte[] key = bytes(in);
        ReadCommand.KeyBound start = bound(in);
        ReadCommand.KeyBound end = bound(in);
        int n = in.readInt();
        List<ReadCommand.Slice> slices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            slices.add(new ReadCommand.Slice(bytes(in), bytes(in)));
        }
        boolean reversed = in.readBoolean();
        int rowLimit = in.readInt();
        int perPartitionLimit = in.readInt();
        int partitionLimit = in.readInt();
        int now = in.readInt();
        ReadCommand.ResumePoint after = in.readBoolean() ? new ReadCommand.ResumePoint(in.readLong(), bytes(in), bytes(in))
                : null;
        int cn = in.readInt();
        int[] columns = null;
        if (cn >= 0) {
            columns = new int[cn];
            for (int i = 0; i < cn; i++) {
                columns[i] = in.readInt();
            }
        }
        int tombstones = in.readInt();
        return new ReadCommand(table, token, key, start, end, slices, reversed, rowLimit, perPartitionLimit,
                partitionLimit, now, after, columns, tombstones);
    }

    private static void bound(ByteBuf out, ReadCommand.KeyBound b) {
        out.writeBoolean(b != null);
        if (b != null) {
            out.writeLong(b.token());
            bytes(out, b.key());
            out.writeBoolean(b.inclusive());
        }
    }

    private static ReadCommand.KeyBound bound(ByteBuf in) {
        if (!in.readBoolean()) {
            return null;
        }
        return new ReadCommand.KeyBound(in.readLong(), bytes(in), in.readBoolean());
    }

    private static void bytes(ByteBuf out, byte[] b) {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length).writeBytes(b);
        }
    }

    private static byte[] bytes(ByteBuf in) {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readBytes(b);
        return b;
    }
}
