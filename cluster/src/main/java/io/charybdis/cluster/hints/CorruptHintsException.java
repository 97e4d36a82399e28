package io.charybdis.cluster.hints;

import java.nio.file.Path;

/** A hints file whose header or a record fails its checksum or names another version: says which file and where. */
public final class CorruptHintsException extends RuntimeException {
    public CorruptHintsException(Path file, long offset, String what) {
        super("corrupt hints file=" + file + " offset=" + offset + ": " + what);
    }
}
