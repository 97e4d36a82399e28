package io.charybdis.cluster.streaming;

import java.util.List;

/**
 * A range of the ring as Cassandra writes it, {@code (left, right]}: the tokens after {@code left} up to and including
 * {@code right}, wrapping past the largest token when {@code left >= right} ({@code left == right}: the whole ring).
 */
public record TokenRange(long left, long right) {

    /** A non-wrapping piece of a range: tokens in {@code [start, end]}, both inclusive. */
    public record Piece(long start, long end) {
    }

    /** The range as at most two non-wrapping pieces, in token order. */
    public List<Piece> pieces() {
        if (left < right) {
            return List.of(new Piece(left + 1, right));
        }
        if (left == Long.MAX_VALUE) {
            return List.of(new Piece(Long.MIN_VALUE, right));
        }
        if (left == right) {
            return List.of(new Piece(Long.MIN_VALUE, Long.MAX_VALUE));
        }
        return List.of(new Piece(Long.MIN_VALUE, right), new Piece(left + 1, Long.MAX_VALUE));
    }

    public boolean contains(long token) {
        if (left < right) {
            return token > left && token <= right;
        }
        return left == right || token > left || token <= right;
    }

    @Override
    public String toString() {
        return "(" + left + "," + right + "]";
    }
}
