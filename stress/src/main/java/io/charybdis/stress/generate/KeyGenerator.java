package io.charybdis.stress.generate;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Partition keys of the predefined tables, byte for byte as cassandra-stress makes them, so that data written by
 * either tool is read by the other.
 *
 * <p>Implementation notes: a key is a pure function of its seed (the population value). A {@link Random} is
 * seeded with {@code seed ^ salt}, where salt is the first half of MurmurHash3-x64-128 of "randomstrkey"; each
 * draw is a uniform value in [1, 100 billion] computed as {@code (long) (u * (max + 1) + (1 - u) * min)} from
 * {@code u = nextDouble()}. The first draw is spent (it would choose a variable key size); then each draw supplies
 * 16 characters, one per nibble from the lowest up, a nibble v printed as {@code '0' + v} below 10 and
 * {@code 'A' + v} from 10 (so 'K' to 'P' stand for 10 to 15).
 */
public final class KeyGenerator {

    static final long SALT = MurmurHash3.hash64("randomstrkey".getBytes(StandardCharsets.UTF_8), 0);
    private static final double MIN = 1;
    private static final double MAX_PLUS_ONE = 100_000_000_001d;

    private final int size;
    private final Random random = new Random();

    public KeyGenerator(int size) {
        this.size = size;
    }

    public int size() {
        return size;
    }

    /** The key for {@code seed}; not thread-safe (each load thread owns a generator). */
    public byte[] key(long seed) {
        random.setSeed(seed ^ SALT);
        draw();
        byte[] out = new byte[size];
        for (int i = 0; i < size; i += 16) {
            long value = draw();
            for (int j = 0; j < 16 && i + j < size; j++) {
                int v = (int) (value & 15);
                out[i + j] = (byte) ((v < 10 ? '0' : 'A') + v);
                value >>>= 4;
            }
        }
        return out;
    }

    private long draw() {
        double u = random.nextDouble();
        return (long) (u * MAX_PLUS_ONE + (1 - u) * MIN);
    }
}
