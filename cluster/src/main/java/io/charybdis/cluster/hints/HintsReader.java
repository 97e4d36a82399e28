package io.charybdis.cluster.hints;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * Reads the hints of one closed {@link HintsLayout} file in order, from a given record offset. A torn tail (a
 * record cut short, as a crash while appending leaves it) ends the file quietly; a record whose checksum fails
 * with more data after it throws {@link CorruptHintsException}.
 */
final class HintsReader implements AutoCloseable {
    /** One hint: where it starts, when it was written, how long it lives, the mutation's bytes. */
    record Hint(long offset, long createdMillis, int ttlSeconds, byte[] mutation) {
        long end() {
            return offset + HintsLayout.recordSize(mutation.length);
        }
    }

    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final ByteBuffer head = ByteBuffer.allocate(HintsLayout.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();
    private long position;

    HintsReader(Path path, long fromOffset) {
        this.path = path;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
            size = channel.size();
            checkHeader();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read hints file " + path, e);
        }
        position = Math.max(fromOffset, HintsLayout.HEADER_SIZE);
    }

    private void checkHeader() throws IOException {
        ByteBuffer h = ByteBuffer.allocate(HintsLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        if (size < HintsLayout.HEADER_SIZE || readFully(h, 0) < HintsLayout.HEADER_SIZE) {
            throw new CorruptHintsException(path, 0, "shorter than its header");
        }
        if (h.getInt(0) != HintsLayout.MAGIC) {
            throw new CorruptHintsException(path, 0, "not a hints file (magic=" + Integer.toHexString(h.getInt(0)) + ")");
        }
        crc.reset();
        crc.update(h.array(), 0, 32);
        if ((int) crc.getValue() != h.getInt(32)) {
            throw new CorruptHintsException(path, 0, "header checksum mismatch");
        }
        if (h.getInt(4) != HintsLayout.VERSION) {
            throw new CorruptHintsException(path, 4, "unknown format version=" + h.getInt(4));
        }
    }

    /** The next hint, or null at the end of the file (or of its complete records). */
    Hint next() {
        try {
            if (position + HintsLayout.RECORD_HEADER + HintsLayout.RECORD_TRAILER > size) {
                return null;
            }
            head.clear();
            readFully(head, position);
            int length = head.getInt(0);
            long end = position + HintsLayout.RECORD_HEADER + (long) length + HintsLayout.RECORD_TRAILER;
            if (length < 0 || end > size) {
                if (length >= 0 && end > size) {
                    return null; // torn tail
                }
                throw new CorruptHintsException(path, position, "record length=" + length);
            }
            ByteBuffer body = ByteBuffer.allocate(length + HintsLayout.RECORD_TRAILER).order(ByteOrder.LITTLE_ENDIAN);
            readFully(body, position + HintsLayout.RECORD_HEADER);
            crc.reset();
            crc.update(head.array(), 0, HintsLayout.RECORD_HEADER);
            crc.update(body.array(), 0, length);
            if ((int) crc.getValue() != body.getInt(length)) {
                if (end == size) {
                    return null; // the last record was being written when the node died
                }
                throw new CorruptHintsException(path, position, "record checksum mismatch");
            }
            byte[] mutation = new byte[length];
            System.arraycopy(body.array(), 0, mutation, 0, length);
            Hint hint = new Hint(position, head.getLong(4), head.getInt(12), mutation);
            position = end;
            return hint;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read hints file " + path, e);
        }
    }

    private int readFully(ByteBuffer b, long at) throws IOException {
        int total = 0;
        while (b.hasRemaining()) {
            int n = channel.read(b, at + total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
