package io.charybdis.cluster.hints;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hints of this node on disk: per target host, files of {@link HintsLayout} in {@code hints_directory}, one of
 * them open for appending, the others closed and waiting for delivery.
 *
 * <p>Implementation notes:
 * <ul>
 *   <li><b>One writer thread owns every file and every host's bookkeeping.</b> Shards hand it hints through a
 *       bounded queue ({@link #append} fails at once when it is full: back-pressure as a value, the hint is not
 *       written and the coordinator treats it as any other lost hint); delivery threads ask it, through the same
 *       queue, to close a host's open file ({@link #closeForDelivery}) and to delete a delivered one.</li>
 *   <li><b>Durability.</b> A hint is written to the file (the page cache) before it is acknowledged, and the open
 *       files are forced to disk every {@code hints_flush_period}, as Cassandra's hints buffer is flushed.</li>
 *   <li><b>Bounded.</b> The heap holds only the queued hints (at most {@link #QUEUE_CAPACITY}) and a few numbers per
 *       host and file; the hints themselves are on disk, capped per host by {@code max_hints_size_per_host}.</li>
 *   <li>Closed files never change: delivery threads read them without the writer's help.</li>
 * </ul>
 */
final class HintsStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HintsStore.class);
    static final int QUEUE_CAPACITY = 8192;

    /** A closed hints file: its path, size and the creation time of its first hint. */
    record HintsFile(Path path, long bytes, long oldestMillis) {
    }

    /** One target host's files; fields written by the writer thread only, the volatile ones read anywhere. */
    private static final class Host {
        final UUID id;
        final ArrayDeque<HintsFile> closed = new ArrayDeque<>();
        FileChannel open;
        Path openPath;
        long openBytes;
        long openOldest;
        boolean unsynced;
        volatile long bytes;
        volatile long oldestMillis = Long.MAX_VALUE;
        volatile long files;

        Host(UUID id) {
            this.id = id;
        }

        void refresh() {
            long oldest = open != null && openBytes > HintsLayout.HEADER_SIZE ? openOldest : Long.MAX_VALUE;
            long total = open != null ? openBytes : 0;
            for (HintsFile f : closed) {
                oldest = Math.min(oldest, f.oldestMillis());
                total += f.bytes();
            }
            oldestMillis = oldest;
            bytes = total;
            files = closed.size() + (open != null ? 1 : 0);
        }
    }

    private final HintsConfig config;
    private final Map<UUID, Host> hosts = new ConcurrentHashMap<>();
    private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread writer;
    private final ByteBuffer header = ByteBuffer.allocate(HintsLayout.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();
    private long nextSequence;
    private volatile boolean closed;

    HintsStore(HintsConfig config) throws IOException {
        this.config = config;
        Files.createDirectories(config.directory());
        loadExisting();
        writer = new Thread(this::run, "hints-writer");
        writer.setDaemon(true);
        writer.start();
    }

    private void loadExisting() throws IOException {
        List<Path> paths;
        try (Stream<Path> s = Files.list(config.directory())) {
            paths = s.filter(p -> HintsLayout.sequence(p.getFileName().toString()) >= 0)
                    .sorted(Comparator.comparingLong(p -> HintsLayout.sequence(p.getFileName().toString()))).toList();
        }
        for (Path p : paths) {
            String name = p.getFileName().toString();
            nextSequence = Math.max(nextSequence, HintsLayout.sequence(name) + 1);
            long size = Files.size(p);
            long oldest;
            try (HintsReader r = new HintsReader(p, HintsLayout.HEADER_SIZE)) {
                HintsReader.Hint first = r.next();
                oldest = first == null ? Long.MAX_VALUE : first.createdMillis();
            } catch (CorruptHintsException e) {
                LOG.error("hints file unreadable, deleted: {}", e.getMessage());
                Files.deleteIfExists(p);
                continue;
            }
            if (oldest == Long.MAX_VALUE) {
                Files.deleteIfExists(p); // no complete hint in it (a crash right after it was begun)
                continue;
            }
            Host h = hosts.computeIfAbsent(HintsLayout.host(name), Host::new);
            h.closed.add(new HintsFile(p, size, oldest));
            h.refresh();
        }
        nextSequence = Math.max(nextSequence, System.currentTimeMillis() * 1000);
    }

    // ------------------------------------------------------------------ any thread

    /** Bytes of hints held for {@code host} (0 if none). */
    long bytes(UUID host) {
        Host h = hosts.get(host);
        return h == null ? 0 : h.bytes;
    }

    /** Creation time of the oldest hint held for {@code host}, {@link Long#MAX_VALUE} if none. */
    long oldestMillis(UUID host) {
        Host h = hosts.get(host);
        return h == null ? Long.MAX_VALUE : h.oldestMillis;
    }

    /** Number of files held for {@code host}. */
    long files(UUID host) {
        Host h = hosts.get(host);
        return h == null ? 0 : h.files;
    }

    /** The hosts this node holds hints for. */
    List<UUID> hostsWithHints() {
        List<UUID> out = new ArrayList<>();
        for (Host h : hosts.values()) {
            if (h.bytes > 0) {
                out.add(h.id);
            }
        }
        return out;
    }

    /**
     * Appends a hint; completes once it is in the host's file (false: not written, because the queue is full or
     * the host's hints passed {@code max_hints_size_per_host}).
     */
    CompletableFuture<Boolean> append(UUID host, long createdMillis, int ttlSeconds, byte[] mutation) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        if (closed || !queue.offer(() -> done.complete(write(host, createdMillis, ttlSeconds, mutation)))) {
            done.complete(false);
        }
        return done;
    }

    /** Closes the host's open file (if it holds hints) and returns its closed files, oldest first. */
    CompletableFuture<List<HintsFile>> closeForDelivery(UUID host) {
        return control(() -> {
            Host h = hosts.get(host);
            if (h == null) {
                return List.of();
            }
            if (h.open != null && h.openBytes > HintsLayout.HEADER_SIZE) {
                closeOpen(h);
            }
            return List.copyOf(h.closed);
        });
    }

    /** Deletes a delivered (or unwanted) file of the host. */
    CompletableFuture<Void> delete(UUID host, HintsFile file) {
        return control(() -> {
            Host h = hosts.get(host);
            if (h != null) {
                h.closed.remove(file);
                h.refresh();
            }
            Files.deleteIfExists(file.path());
            return null;
        });
    }

    /** Deletes every hint held for the host (a node that left the ring). */
    CompletableFuture<Void> deleteAll(UUID host) {
        return control(() -> {
            Host h = hosts.remove(host);
            if (h != null) {
                if (h.open != null) {
                    h.open.close();
                    Files.deleteIfExists(h.openPath);
                }
                for (HintsFile f : h.closed) {
                    Files.deleteIfExists(f.path());
                }
            }
            return null;
        });
    }

    @FunctionalInterface
    private interface Io<T> {
        T run() throws IOException;
    }

    /** Work for the writer thread from a thread that may wait (delivery, tests): queued even when the queue is full. */
    private <T> CompletableFuture<T> control(Io<T> work) {
        CompletableFuture<T> done = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                done.complete(work.run());
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        };
        try {
            while (!closed && !queue.offer(task, 100, TimeUnit.MILLISECONDS)) {
                // the writer is busy with a burst of hints: wait for room
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.completeExceptionally(e);
        }
        if (closed) {
            done.completeExceptionally(new IllegalStateException("hints store closed"));
        }
        return done;
    }

    // ------------------------------------------------------------------ the writer thread

    private void run() {
        long nextFlush = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.flushPeriodMillis());
        while (!closed) {
            try {
                long wait = nextFlush - System.nanoTime();
                Runnable task = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : null;
                if (task != null) {
                    task.run();
                }
                if (System.nanoTime() - nextFlush >= 0) {
                    sync();
                    nextFlush = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.flushPeriodMillis());
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.error("hints writer failed a task; it keeps running", e);
            }
        }
        Runnable task;
        while ((task = queue.poll()) != null) {
            task.run();
        }
        sync();
        for (Host h : hosts.values()) {
            try {
                if (h.open != null) {
                    h.open.close();
                }
            } catch (IOException e) {
                LOG.warn("could not close hints file {}", h.openPath, e);
            }
        }
    }

    private boolean write(UUID host, long createdMillis, int ttlSeconds, byte[] mutation) {
        Host h = hosts.computeIfAbsent(host, Host::new);
        int size = HintsLayout.recordSize(mutation.length);
        if (config.maxSizePerHostBytes() > 0 && h.bytes + size > config.maxSizePerHostBytes()) {
            return false;
        }
        try {
            if (h.open != null && h.openBytes + size > config.maxFileSizeBytes()
                    && h.openBytes > HintsLayout.HEADER_SIZE) {
                closeOpen(h);
            }
            if (h.open == null) {
                begin(h);
            }
            ByteBuffer record = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt(mutation.length).putLong(createdMillis).putInt(ttlSeconds).put(mutation);
            crc.reset();
            crc.update(record.array(), 0, HintsLayout.RECORD_HEADER + mutation.length);
            record.putInt((int) crc.getValue()).flip();
            while (record.hasRemaining()) {
                h.open.write(record);
            }
            if (h.openBytes == HintsLayout.HEADER_SIZE) {
                h.openOldest = createdMillis;
            }
            h.openBytes += size;
            h.unsynced = true;
            h.refresh();
            return true;
        } catch (IOException e) {
            LOG.error("could not write a hint for host={} in {}", host, config.directory(), e);
            return false;
        }
    }

    private void begin(Host h) throws IOException {
        long sequence = nextSequence++;
        Path p = config.directory().resolve(HintsLayout.fileName(h.id, sequence));
        FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        header.clear();
        header.putInt(HintsLayout.MAGIC).putInt(HintsLayout.VERSION).putLong(h.id.getMostSignificantBits())
                .putLong(h.id.getLeastSignificantBits()).putLong(sequence);
        crc.reset();
        crc.update(header.array(), 0, 32);
        header.putInt((int) crc.getValue()).flip();
        while (header.hasRemaining()) {
            ch.write(header);
        }
        h.open = ch;
        h.openPath = p;
        h.openBytes = HintsLayout.HEADER_SIZE;
    }

    private void closeOpen(Host h) throws IOException {
        h.open.force(false);
        h.open.close();
        h.closed.add(new HintsFile(h.openPath, h.openBytes, h.openOldest));
        h.open = null;
        h.openPath = null;
        h.unsynced = false;
        h.refresh();
    }

    private void sync() {
        for (Host h : hosts.values()) {
            if (h.open != null && h.unsynced) {
                try {
                    h.open.force(false);
                    h.unsynced = false;
                } catch (IOException e) {
                    LOG.error("could not sync hints file {}", h.openPath, e);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        queue.offer(() -> {
        }); // wakes the writer (a full queue means it is awake already); no interrupt: it would close the files
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
