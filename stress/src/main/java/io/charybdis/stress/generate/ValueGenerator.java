package io.charybdis.stress.generate;

import io.charybdis.stress.dist.Distribution;
import io.charybdis.stress.dist.DistributionSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Sized values: {@code size} bytes (from a size distribution seeded with the value's seed, so that a seed always
 * gets the same size) filled from a SplitMix64 stream of the same seed. The predefined tables' columns take their
 * seed from the partition and column ({@link #value}); user-profile blob and text columns from the value's identity
 * ({@link #bytes}, {@link #text}). Not thread-safe.
 */
public final class ValueGenerator {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** The characters of generated text: letters, digits, '-' and '_' (64, one per 6 bits). */
    private static final byte[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".getBytes(StandardCharsets.US_ASCII);

    private final Distribution size;

    public ValueGenerator(DistributionSpec size) {
        this.size = size.create();
    }

    /** The value of column {@code column} of the predefined tables' partition {@code partitionSeed}. */
    public ByteBuffer value(long partitionSeed, int column) {
        return ByteBuffer.wrap(fill(mix(partitionSeed * 31 + column + GOLDEN)));
    }

    /** Bytes for {@code seed}: the same seed, the same bytes. */
    public ByteBuffer bytes(long seed) {
        return ByteBuffer.wrap(fill(mix(seed)));
    }

    /** Text for {@code seed}, of the size distribution's length, in {@link #ALPHABET}. */
    public String text(long seed) {
        byte[] b = fill(mix(seed));
        for (int i = 0; i < b.length; i++) {
            b[i] = ALPHABET[b[i] & 63];
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** A count for {@code seed} from the size distribution (collection sizes), at least 0. */
    public int size(long seed) {
        size.setSeed(mix(seed));
        return (int) Math.max(0, size.next());
    }

    private byte[] fill(long s) {
        size.setSeed(s);
        int n = (int) Math.max(0, size.next());
        byte[] out = new byte[n];
        long state = s;
        for (int i = 0; i < n; i += 8) {
            state += GOLDEN;
            long v = mix(state);
            for (int j = 0; j < 8 && i + j < n; j++) {
                out[i + j] = (byte) v;
                v >>>= 8;
            }
        }
        return out;
    }

    /** SplitMix64's finalizer: spreads a seed's bits (how every derived seed in the generators is made). */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
