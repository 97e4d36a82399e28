package io.charybdis.cluster.repair;

import io.charybdis.cluster.streaming.TokenRange;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Merkle tree of one token range of one table on one replica, as repair compares them.
 *
 * <p>Implementation notes: the range is cut into {@code 2^depth} leaves of equal token width. A leaf's hash is the
 * XOR of the SHA-256 digests of its partitions (each digest over the partition as the replica holds it, whole and
 * unfiltered: key, cells with timestamps, tombstones), so it does not depend on the order partitions are added in
 * (a replica hashes its shards one after the other); an empty leaf hashes to zeros. An inner node is the SHA-256 of
 * its two children. Two replicas' trees are compared from the root down, and only the leaves under differing nodes
 * are reported: those token ranges are streamed both ways.
 */
public final class MerkleTree {
    static final int HASH = 32;
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private final TokenRange range;
    private final int depth;
    private final byte[] leaves;
    /** Offsets (from left + 1, unsigned) of each leaf's first token; leaf i holds [starts[i], starts[i+1]). */
    private final long[] starts;
    private final MessageDigest sha;

    public MerkleTree(TokenRange range, int depth) {
        this(range, depth, new byte[(1 << depth) * HASH]);
    }

    private MerkleTree(TokenRange range, int depth, byte[] leaves) {
        if (depth < 0 || depth > 20) {
            throw new IllegalArgumentException("depth=" + depth);
        }
        this.range = range;
        this.depth = depth;
        this.leaves = leaves;
        int n = 1 << depth;
        // width of (left, right]: right - left modulo 2^64, the whole ring when they are equal
        BigInteger width = BigInteger.valueOf(range.right()).subtract(BigInteger.valueOf(range.left())).mod(TWO_64);
        if (width.signum() == 0) {
            width = TWO_64;
        }
        if (width.compareTo(BigInteger.ONE.shiftLeft(depth)) < 0) {
            throw new IllegalArgumentException("range " + range + " is narrower than 2^" + depth + " tokens");
        }
        starts = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = width.multiply(BigInteger.valueOf(i)).shiftRight(depth).longValue();
        }
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The depth to use for a range: {@code max}, or less for a range narrower than {@code 2^max} tokens. */
    public static int depthFor(TokenRange range, int max) {
        BigInteger width = BigInteger.valueOf(range.right()).subtract(BigInteger.valueOf(range.left())).mod(TWO_64);
        if (width.signum() == 0) {
            return max;
        }
        return Math.min(max, width.bitLength() - 1);
    }

    /** A tree received from another replica. */
    public static MerkleTree of(TokenRange range, int depth, byte[] leaves) {
        if (leaves.length != (1 << depth) * HASH) {
            throw new IllegalArgumentException("expected " + (1 << depth) + " leaves, got " + leaves.length + " bytes");
        }
        return new MerkleTree(range, depth, leaves.clone());
    }

    public TokenRange range() {
        return range;
    }

    public int depth() {
        return depth;
    }

    public byte[] leafBytes() {
        return leaves.clone();
    }

    /** Adds a partition of {@code token} (in the range) whose whole content is {@code bytes}. */
    public void add(long token, byte[] bytes) {
        if (!range.contains(token)) {
            throw new IllegalArgumentException("token " + token + " is not in " + range);
        }
        byte[] digest = sha.digest(bytes);
        int leaf = leafOf(token);
        for (int i = 0; i < HASH; i++) {
            leaves[leaf * HASH + i] ^= digest[i];
        }
    }

    int leafOf(long token) {
        long offset = token - (range.left() + 1); // unsigned distance from the range's first token
        int lo = 0;
        int hi = starts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Long.compareUnsigned(starts[mid], offset) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The token range of leaf {@code i}: (last token of leaf i-1, last token of leaf i]. */
    public TokenRange leafRange(int i) {
        long first = range.left() + 1 + starts[i];
        long last = i + 1 < starts.length ? range.left() + starts[i + 1] : range.right();
        return new TokenRange(first - 1, last);
    }

    /** The hash of the node at {@code level} (0 = root) and {@code index}. */
    byte[] hash(int level, int index) {
        if (level == depth) {
            return Arrays.copyOfRange(leaves, index * HASH, index * HASH + HASH);
        }
        byte[] left = hash(level + 1, index * 2);
        byte[] right = hash(level + 1, index * 2 + 1);
        sha.update(left);
        return sha.digest(right);
    }

    public byte[] root() {
        return hash(0, 0);
    }

    /**
     * The token ranges where two trees of the same range and depth differ, adjacent differing leaves merged into one
     * range.
     */
    public static List<TokenRange> differences(MerkleTree a, MerkleTree b) {
        if (!a.range.equals(b.range) || a.depth != b.depth) {
            throw new IllegalArgumentException("trees of " + a.range + "/" + a.depth + " and " + b.range + "/" + b.depth);
        }
        List<Integer> leaves = new ArrayList<>();
        descend(a, b, 0, 0, leaves);
        List<TokenRange> out = new ArrayList<>();
        int i = 0;
        while (i < leaves.size()) {
            int j = i;
            while (j + 1 < leaves.size() && leaves.get(j + 1) == leaves.get(j) + 1) {
                j++;
            }
            out.add(new TokenRange(a.leafRange(leaves.get(i)).left(), a.leafRange(leaves.get(j)).right()));
            i = j + 1;
        }
        return out;
    }

    private static void descend(MerkleTree a, MerkleTree b, int level, int index, List<Integer> out) {
        if (Arrays.equals(a.hash(level, index), b.hash(level, index))) {
            return;
        }
        if (level == a.depth) {
            out.add(index);
            return;
        }
        descend(a, b, level + 1, index * 2, out);
        descend(a, b, level + 1, index * 2 + 1, out);
    }
}
