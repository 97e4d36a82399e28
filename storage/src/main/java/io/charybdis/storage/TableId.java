package io.charybdis.storage;

import java.util.Objects;
import java.util.UUID;

/** Identity of a table: the CQL table id (a UUID). */
public record TableId(UUID uuid) {
    public TableId {
        Objects.requireNonNull(uuid, "uuid");
    }

    public static TableId of(UUID uuid) {
        return new TableId(uuid);
    }

    public static TableId of(long msb, long lsb) {
        return new TableId(new UUID(msb, lsb));
    }

    public static TableId random() {
        return new TableId(UUID.randomUUID());
    }

    public long msb() {
        return uuid.getMostSignificantBits();
    }

    public long lsb() {
        return uuid.getLeastSignificantBits();
    }

    /** 32 hex digits without dashes, as in Cassandra's table directory names. */
    public String toHexString() {
        return uuid.toString().replace("-", "");
    }

    @Override
    public String toString() {
        return uuid.toString();
    }
}
