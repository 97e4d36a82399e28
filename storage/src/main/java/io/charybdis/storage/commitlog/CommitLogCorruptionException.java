package io.charybdis.storage.commitlog;

import io.charybdis.storage.StorageException;
import java.nio.file.Path;

/** A commit log segment is corrupt before its tail; startup fails unless corruption is ignored. */
public final class CommitLogCorruptionException extends StorageException {
    private final Path path;

    public CommitLogCorruptionException(Path path, String detail) {
        super("corrupt commit log segment file=" + path + " detail=" + detail);
        this.path = path;
    }

    public Path path() {
        return path;
    }
}
