package io.charybdis.storage.sstable;

import io.charybdis.storage.StorageException;
import java.nio.file.Path;

/** Data read from an SSTable component failed a check; names the file. Reads touching it fail with this. */
public final class CorruptSSTableException extends StorageException {
    private final Path path;

    public CorruptSSTableException(Path path, String detail) {
        super("corrupt sstable file=" + path + " detail=" + detail);
        this.path = path;
    }

    public CorruptSSTableException(Path path, String detail, Throwable cause) {
        super("corrupt sstable file=" + path + " detail=" + detail, cause);
        this.path = path;
    }

    public Path path() {
        return path;
    }
}
