package io.charybdis.storage;

/** A fault of the storage engine (I/O error, corruption, misuse), with a message naming what and where. */
public class StorageException extends RuntimeException {
    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
