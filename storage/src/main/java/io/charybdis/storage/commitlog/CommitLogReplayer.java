package io.charybdis.storage.commitlog;

import static io.charybdis.storage.commitlog.CommitLogLayout.*;

import io.charybdis.storage.mutation.Mutation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads commit log segments back for replay; see {@link CommitLogLayout} for torn tail vs corruption. */
public final class CommitLogReplayer {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogReplayer.class);

    private CommitLogReplayer() {
    }

    /** Segment files in the directory, oldest first. */
    public static List<Path> segments(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> segmentId(p.getFileName().toString()) >= 0).forEach(out::add);
        }
        out.sort((a, b) -> Long.compare(segmentId(a.getFileName().toString()), segmentId(b.getFileName().toString())));
        return out;
    }

    /**
     * Reads every intact entry of a segment into {@code sink}.
     *
     * @return the number of mutations read
     * @throws CommitLogCorruptionException on corruption before the tail, unless {@code ignoreCorruption}
     */
    public static int replay(Path file, boolean ignoreCorruption, Consumer<Mutation> sink) throws IOException {
        byte[] all = Files.readAllBytes(file);
        UnsafeBuffer b = new UnsafeBuffer(all);
        int size = all.length;
        if (size < HEADER_SIZE) {
            LOG.warn("commit log segment file={} shorter than its header ({} bytes): torn, skipped", file, size);
            return 0;
        }
        CRC32 crc = new CRC32();
        crc.update(all, 0, 20);
        if (b.getInt(0) != MAGIC || b.getInt(4) != VERSION || b.getInt(20) != (int) crc.getValue()) {
            return corrupt(file, "bad segment header", ignoreCorruption, 0);
        }
        int pos = HEADER_SIZE;
        int count = 0;
        while (pos < size) {
            if (size - pos < ENTRY_HEADER) {
                return tornTail(file, pos, count);
            }
            int len = b.getInt(pos);
            if (len == 0 && allZero(all, pos, size)) {
                return tornTail(file, pos, count);
            }
            if (len <= 0 || (long) pos + ENTRY_HEADER + len > size) {
                if (len > 0 || allZero(all, pos, size)) {
                    return tornTail(file, pos, count);
                }
                return corrupt(file, "bad entry length=" + len + " at offset=" + pos, ignoreCorruption, count);
            }
            crc.reset();
            crc.update(all, pos, 4);
            crc.update(all, pos + ENTRY_HEADER, len);
            if ((int) crc.getValue() != b.getInt(pos + 4)) {
                if (pos + ENTRY_HEADER + len == size) {
                    return tornTail(file, pos, count);
                }
                return corrupt(file, "entry checksum mismatch at offset=" + pos, ignoreCorruption, count);
            }
            Mutation m;
            try {
                m = Mutation.copyOf(b, pos + ENTRY_HEADER, len);
            } catch (IllegalArgumentException e) {
                return corrupt(file, "malformed mutation at offset=" + pos + ": " + e.getMessage(), ignoreCorruption, count);
            }
            sink.accept(m);
            count++;
            pos += ENTRY_HEADER + len;
        }
        return count;
    }

    private static boolean allZero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static int tornTail(Path file, int pos, int count) {
        LOG.warn("commit log segment file={} has a torn tail at offset={}: replayed {} entries, ignoring the rest",
                file, pos, count);
        return count;
    }

    private static int corrupt(Path file, String detail, boolean ignore, int count) {
        if (!ignore) {
            throw new CommitLogCorruptionException(file, detail);
        }
        LOG.error("commit log segment file={} corrupt ({}), skipping the rest of it (ignoreCommitLogCorruption)", file, detail);
        return count;
    }
}
