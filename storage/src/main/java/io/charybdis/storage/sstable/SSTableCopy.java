package io.charybdis.storage.sstable;

import static io.charybdis.storage.sstable.SSTableFormat.COMPONENTS;
import static io.charybdis.storage.sstable.SSTableFormat.FOOTER_MAGIC;
import static io.charybdis.storage.sstable.SSTableFormat.HEADER_SIZE;
import static io.charybdis.storage.sstable.SSTableFormat.MAGIC;
import static io.charybdis.storage.sstable.SSTableFormat.TMP_PREFIX;

import io.charybdis.storage.util.Crc;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Copies an SSTable under another generation number (nodetool import): every binary file names its generation in
 * its header ({@link SSTableFormat}), so each is copied with the header's generation replaced; the small files whose
 * footer checksums the whole file (Filter, Statistics) get their checksum recomputed. Data and Index checksum their
 * chunks, blocks and trailers, never the header, so the rest of their bytes is copied as it is. Copies, never edits
 * in place: the source may be a hard link of a live SSTable (a snapshot). Files are written under {@code tmp-}
 * names, fsynced and renamed, the TOC last, as a flush writes them.
 */
public final class SSTableCopy {
    private SSTableCopy() {
    }

    /** The generations of the complete SSTables (a TOC present) in {@code dir}, ascending. */
    public static java.util.List<Long> generations(Path dir) throws IOException {
        java.util.List<Long> r = new java.util.ArrayList<>();
        try (var s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (n.startsWith(SSTableFormat.PREFIX) && n.endsWith("-" + COMPONENTS[4])) {
                    try {
                        r.add(Long.parseLong(n.substring(SSTableFormat.PREFIX.length(), n.length() - COMPONENTS[4].length() - 1)));
                    } catch (NumberFormatException e) {
                        // not ours
                    }
                }
            }
        }
        r.sort(null);
        return r;
    }

    /** Copies generation {@code from} of {@code srcDir} to generation {@code to} of {@code dstDir}. */
    public static void copy(Path srcDir, long from, Path dstDir, long to) throws IOException {
        for (int i = 0; i < COMPONENTS.length; i++) {
            String component = COMPONENTS[i];
            Path src = srcDir.resolve(SSTableFormat.fileName(from, component));
            Path tmp = dstDir.resolve(TMP_PREFIX + SSTableFormat.fileName(to, component));
            if (i == 4) {
                Files.copy(src, tmp, StandardCopyOption.REPLACE_EXISTING);
            } else if (i == 2 || i == 3) {
                rewriteSmall(src, tmp, from, to);
            } else {
                copyWithHeader(src, tmp, from, to);
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
        for (String component : COMPONENTS) { // TOC last: its presence marks the SSTable complete
            Files.move(dstDir.resolve(TMP_PREFIX + SSTableFormat.fileName(to, component)),
                    dstDir.resolve(SSTableFormat.fileName(to, component)), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Deletes every file of generation {@code g} in {@code dir} (the TOC first). */
    public static void delete(Path dir, long g) throws IOException {
        for (int i = COMPONENTS.length - 1; i >= 0; i--) {
            Files.deleteIfExists(dir.resolve(SSTableFormat.fileName(g, COMPONENTS[i])));
        }
    }

    private static ByteBuffer header(byte[] h, Path src, long from, long to) {
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        if (h.length < HEADER_SIZE || b.getInt(0) != MAGIC || b.getLong(12) != from) {
            throw new CorruptSSTableException(src, "header does not name generation=" + from);
        }
        b.putLong(12, to);
        return b;
    }

    private static void copyWithHeader(Path src, Path dst, long from, long to) throws IOException {
        try (InputStream in = Files.newInputStream(src);
             OutputStream out = Files.newOutputStream(dst, StandardOpenOption.CREATE,
                     StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            byte[] h = in.readNBytes(HEADER_SIZE);
            header(h, src, from, to);
            out.write(h);
            in.transferTo(out);
        }
    }

    private static void rewriteSmall(Path src, Path dst, long from, long to) throws IOException {
        byte[] all = Files.readAllBytes(src);
        int n = all.length;
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (n < HEADER_SIZE + 8 || b.getInt(n - 4) != FOOTER_MAGIC || b.getInt(n - 8) != Crc.crc32(all, 0, n - 8)) {
            throw new CorruptSSTableException(src, "footer checksum mismatch");
        }
        header(all, src, from, to);
        b.putInt(n - 8, Crc.crc32(all, 0, n - 8));
        Files.write(dst, all);
    }
}
