package io.charybdis.storage.compaction;

import io.charybdis.storage.sstable.SSTableFormat;
import io.charybdis.storage.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction log of one compaction, so that a crash at any point leaves each piece of data in exactly one
 * live set of SSTables: {@code txn-<id>.log} in the table directory, one line per record, each line
 * {@code <record>|<crc32 hex of record>}, fsynced as written:
 * <pre>
 *   remove:&lt;generation&gt;   one per input, written when the compaction starts
 *   add:&lt;generation&gt;      before each output SSTable is started
 *   commit                the outputs are complete: the inputs are obsolete
 * </pre>
 * At startup ({@link #recover}), before SSTables are loaded: a committed log deletes what remains of its inputs; an
 * uncommitted one (or one with a torn last line) deletes its outputs; then the log goes. Once committed, the log
 * is deleted when the last input's files are gone ({@link #inputDeleted}).
 */
public final class CompactionLog {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionLog.class);
    public static final String PREFIX = "txn-";
    public static final String SUFFIX = ".log";

    private final Path file;
    private final FileChannel channel;
    private final AtomicInteger inputsLeft;
    private boolean committed;

    private CompactionLog(Path file, FileChannel channel, int inputs) {
        this.file = file;
        this.channel = channel;
        this.inputsLeft = new AtomicInteger(inputs);
    }

    public static CompactionLog begin(Path dir, UUID id, List<Long> inputGenerations) throws IOException {
        Path file = dir.resolve(PREFIX + id + SUFFIX);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        CompactionLog log = new CompactionLog(file, ch, inputGenerations.size());
        StringBuilder sb = new StringBuilder();
        for (long g : inputGenerations) {
            sb.append(line("remove:" + g));
        }
        log.write(sb.toString());
        SSTableWriter.syncDirectory(dir);
        return log;
    }

    private static String line(String record) {
        CRC32 crc = new CRC32();
        crc.update(record.getBytes(StandardCharsets.UTF_8));
        return record + "|" + Long.toHexString(crc.getValue()) + "\n";
    }

    private void write(String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            channel.write(b);
        }
        channel.force(false);
    }

    public void added(long generation) throws IOException {
        write(line("add:" + generation));
    }

    public void commit() throws IOException {
        write(line("commit"));
        channel.close();
        committed = true;
    }

    /** Abandons an uncommitted compaction whose outputs the caller has already removed. */
    public void abort() {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("could not remove compaction log file={}: {}", file, e.toString());
        }
    }

    /** Removes the log without waiting for the inputs (they were discarded by truncate or drop). */
    public void discard() {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("could not remove compaction log file={}: {}", file, e.toString());
        }
    }

    public boolean committed() {
        return committed;
    }

    /** One input's files were deleted; the last one removes the log. Any thread. */
    public void inputDeleted() {
        if (inputsLeft.decrementAndGet() == 0) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("could not remove compaction log file={}: {}", file, e.toString());
            }
        }
    }

    public Path file() {
        return file;
    }

    /** Completes or rolls back the compactions a crash interrupted in {@code dir}; returns the logs handled. */
    public static int recover(Path dir) throws IOException {
        return recover(List.of(dir));
    }

    /**
     * Completes or rolls back the compactions a crash interrupted in a table kept in several directories (one per
     * data directory): a log found in any of them names generations that may lie in any of them.
     */
    public static int recover(List<Path> dirs) throws IOException {
        List<Path> logs = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (var s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().startsWith(PREFIX)
                        && p.getFileName().toString().endsWith(SUFFIX)).forEach(logs::add);
            }
        }
        for (Path log : logs) {
            List<Long> removes = new ArrayList<>();
            List<Long> adds = new ArrayList<>();
            boolean commit = false;
            for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                int bar = l.lastIndexOf('|');
                if (bar < 0 || !line(l.substring(0, bar)).equals(l + "\n")) {
                    LOG.warn("compaction log file={} has a torn or corrupt record, ignoring it and what follows", log);
                    break;
                }
                String r = l.substring(0, bar);
                if (r.equals("commit")) {
                    commit = true;
                } else if (r.startsWith("remove:")) {
                    removes.add(Long.parseLong(r.substring(7)));
                } else if (r.startsWith("add:")) {
                    adds.add(Long.parseLong(r.substring(4)));
                }
            }
            List<Long> obsolete = commit ? removes : adds;
            LOG.info("compaction log file={} {}: removing sstables generations={}", log,
                    commit ? "committed" : "not committed", obsolete);
            for (Path dir : dirs) {
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                for (long g : obsolete) {
                    deleteSSTable(dir, g);
                }
                SSTableWriter.syncDirectory(dir);
            }
            Files.deleteIfExists(log);
        }
        return logs.size();
    }

    /** Deletes an SSTable's files, TOC first (a crash midway leaves no TOC, and startup removes the rest). */
    public static void deleteSSTable(Path dir, long generation) throws IOException {
        String[] c = SSTableFormat.COMPONENTS;
        for (int i = c.length - 1; i >= 0; i--) {
            Files.deleteIfExists(dir.resolve(SSTableFormat.fileName(generation, c[i])));
            Files.deleteIfExists(dir.resolve(SSTableFormat.TMP_PREFIX + SSTableFormat.fileName(generation, c[i])));
        }
    }
}
