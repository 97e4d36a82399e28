package io.charybdis.storage.sstable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/** Buffered, checksumming sequential writer of one file. */
final class FileOutput implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();
    private long position;

    FileOutput(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    Path path() {
        return path;
    }

    long position() {
        return position;
    }

    private void ensure(int n) throws IOException {
        if (buffer.remaining() < n) {
            drain();
        }
    }

    private void drain() throws IOException {
        buffer.flip();
        crc.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    void writeInt(int v) throws IOException {
        ensure(4);
        buffer.putInt(v);
        position += 4;
    }

    void writeLong(long v) throws IOException {
        ensure(8);
        buffer.putLong(v);
        position += 8;
    }

    void writeByte(byte v) throws IOException {
        ensure(1);
        buffer.put(v);
        position += 1;
    }

    void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
            position += n;
        }
    }

    void writeHeader(int component, long generation) throws IOException {
        writeInt(SSTableFormat.MAGIC);
        writeInt(SSTableFormat.version(component));
        writeInt(component);
        writeLong(generation);
    }

    /** CRC32 of everything written so far. */
    int crcSoFar() throws IOException {
        drain();
        return (int) crc.getValue();
    }

    void finish() throws IOException {
        drain();
        channel.force(true);
        channel.close();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
