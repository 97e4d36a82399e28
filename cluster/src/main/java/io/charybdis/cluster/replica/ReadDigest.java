package io.charybdis.cluster.replica;

import io.charybdis.storage.read.ReadResult;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The digest a replica answers a READ_DIGEST with: an MD5 (as Cassandra's digests; a checksum of agreement, not a
 * security measure) of what the read returns on that replica — the result's bytes in the {@code ResultWriter}
 * layout (partitions, rows with their timestamps and TTLs, live cells) and whether a limit stopped it. Two replicas
 * that would answer the same rows with the same write timestamps have the same digest; one that missed a write,
 * a deletion or a newer timestamp has another. Counters of work done (rows and tombstones scanned) are left out:
 * they differ between replicas holding the same data.
 */
public final class ReadDigest {
    public static final int LENGTH = 16;

    private ReadDigest() {
    }

    public static byte[] of(ReadResult r) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks MD5", e);
        }
        md.update(r.cursor().array(), 0, r.serializedSize());
        md.update((byte) (r.limitReached() ? 1 : 0));
        return md.digest();
    }
}
