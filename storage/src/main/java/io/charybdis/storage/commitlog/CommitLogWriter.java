package io.charybdis.storage.commitlog;

import static io.charybdis.storage.commitlog.CommitLogLayout.*;

import io.charybdis.storage.CommitLogSync;
import io.charybdis.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O thread of one shard's commit log: writes entries, rolls segments, fsyncs, deletes clean segments, so
 * the shard thread never blocks on the disk. Group commit: each wake-up drains everything queued, writes it in
 * one go and (BATCH/GROUP) covers it with one fsync; GROUP first waits up to the group window for more writes.
 * Completions are callbacks run on this thread; the shard hands in callbacks that hop back to the shard.
 */
final class CommitLogWriter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogWriter.class);

    sealed interface Op permits Append, Sync, Delete, Close {
    }

    record Append(long segmentId, byte[] bytes, Consumer<Throwable> done) implements Op {
    }

    record Sync(Runnable done) implements Op {
    }

    record Delete(long segmentId) implements Op {
    }

    record Close(Runnable done) implements Op {
    }

    private final Path dir;
    private final int shardId;
    private final CommitLogSync mode;
    private final long groupWindowNanos;
    private final LinkedBlockingQueue<Op> queue = new LinkedBlockingQueue<>();
    private final ByteBuffer out = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();
    private final ByteBuffer lenBytes = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    private FileChannel channel;
    private long currentSegment = -1;
    private volatile IOException failure;

    CommitLogWriter(Path dir, int shardId, CommitLogSync mode, long groupWindowMillis) {
        this.dir = dir;
        this.shardId = shardId;
        this.mode = mode;
        this.groupWindowNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, groupWindowMillis));
    }

    void submit(Op op) {
        queue.add(op);
    }

    @Override
    public void run() {
        List<Op> batch = new ArrayList<>();
        List<Runnable> completions = new ArrayList<>();
        boolean running = true;
        while (running) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch);
                if (mode == CommitLogSync.GROUP && groupWindowNanos > 0) {
                    long deadline = System.nanoTime() + groupWindowNanos;
                    long left;
                    while ((left = deadline - System.nanoTime()) > 0) {
                        Op o = queue.poll(left, TimeUnit.NANOSECONDS);
                        if (o == null) {
                            break;
                        }
                        batch.add(o);
                        queue.drainTo(batch);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
            boolean sync = false;
            boolean appended = false;
            List<Consumer<Throwable>> acks = new ArrayList<>();
            IOException error = failure;
            for (Op op : batch) {
                try {
                    switch (op) {
                        case Append a -> {
                            if (error == null) {
                                write(a);
                            }
                            appended = true;
                            acks.add(a.done());
                        }
                        case Sync s -> {
                            sync = true;
                            completions.add(s.done());
                        }
                        case Delete d -> delete(d.segmentId());
                        case Close c -> {
                            sync = true;
                            running = false;
                            completions.add(c.done());
                        }
                    }
                } catch (IOException e) {
                    LOG.error("commit log write failed shard={} segment={}: {}", shardId, currentSegment, e.toString());
                    error = e;
                    failure = e;
                }
            }
            try {
                flushBuffer();
                if (channel != null && (sync || (appended && mode != CommitLogSync.PERIODIC))) {
                    channel.force(false);
                }
                if (!running && channel != null) {
                    channel.close();
                    channel = null;
                }
            } catch (IOException e) {
                LOG.error("commit log sync failed shard={} segment={}: {}", shardId, currentSegment, e.toString());
                error = e;
                failure = e;
            }
            Throwable t = error == null ? null : new StorageException("commit log write failed shard=" + shardId, error);
            for (Consumer<Throwable> ack : acks) {
                ack.accept(t);
            }
            for (Runnable r : completions) {
                if (r != null) {
                    r.run();
                }
            }
            batch.clear();
            completions.clear();
        }
    }

    private void write(Append a) throws IOException {
        if (a.segmentId() != currentSegment) {
            roll(a.segmentId());
        }
        byte[] b = a.bytes();
        lenBytes.putInt(0, b.length);
        crc.reset();
        crc.update(lenBytes.array(), 0, 4);
        crc.update(b, 0, b.length);
        if (out.remaining() < ENTRY_HEADER + b.length) {
            flushBuffer();
        }
        if (out.remaining() < ENTRY_HEADER + b.length) {
            ByteBuffer big = ByteBuffer.allocate(ENTRY_HEADER + b.length).order(ByteOrder.LITTLE_ENDIAN);
            big.putInt(b.length).putInt((int) crc.getValue()).put(b).flip();
            while (big.hasRemaining()) {
                channel.write(big);
            }
            return;
        }
        out.putInt(b.length).putInt((int) crc.getValue()).put(b);
    }

    private void flushBuffer() throws IOException {
        if (out.position() == 0) {
            return;
        }
        out.flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
        out.clear();
    }

    private void roll(long segmentId) throws IOException {
        flushBuffer();
        if (channel != null) {
            channel.force(false);
            channel.close();
        }
        Path p = dir.resolve(fileName(segmentId));
        channel = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(MAGIC).putInt(VERSION).putLong(segmentId).putInt(shardId);
        CRC32 c = new CRC32();
        c.update(h.array(), 0, 20);
        h.putInt((int) c.getValue()).flip();
        while (h.hasRemaining()) {
            channel.write(h);
        }
        currentSegment = segmentId;
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // directory fsync unsupported
        }
    }

    private void delete(long segmentId) throws IOException {
        if (segmentId == currentSegment) {
            return;
        }
        Files.deleteIfExists(dir.resolve(fileName(segmentId)));
    }
}
