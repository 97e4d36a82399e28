package io.charybdis.storage.schedule;

import java.util.List;

/**
 * A piecewise-linear proportional controller from a normalized backlog to scheduling shares, after ScyllaDB's
 * {@code backlog_controller} (see REFERENCES.md B1, and Glauber Costa, "Taming the Beast", 2018).
 *
 * <p>The control points are (input, output) pairs with increasing inputs. {@link #sharesFor} interpolates
 * linearly between the two points around the backlog; at or beyond the last input it answers the last output;
 * below the first input, the first output. {@link #backlogOfShares} is the inverse, used to force a minimum rate
 * (an explicitly requested flush, a user-initiated compaction). Immutable and thread-safe.
 *
 * <ul>
 *   <li>{@link #compaction()}: input = the shard's compaction backlog (bytes) / the shard's memory; points
 *       (0 → 50), (1.5 → 100), (30 → 1000); re-evaluated every {@value #COMPACTION_PERIOD_MILLIS} ms. The first
 *       output is the floor that keeps compaction moving.</li>
 *   <li>{@link #flush(double)}: input = dirty memtable memory / the hard (throttle) limit; points (0 → 0),
 *       (soft → 10), (soft + (1 − soft)/2 → 200), (1 → 1000) with soft = {@value #DEFAULT_SOFT_LIMIT}:
 *       sluggish below the soft limit, a normal slope in the first half of the dirty region, aggressive near
 *       the hard limit; re-evaluated every {@value #FLUSH_PERIOD_MILLIS} ms.</li>
 * </ul>
 */
public final class BacklogController {
    public static final long COMPACTION_PERIOD_MILLIS = 250;
    public static final long FLUSH_PERIOD_MILLIS = 50;
    public static final double DEFAULT_SOFT_LIMIT = 0.6;
    /** The statements (foreground) group's fixed shares, as in ScyllaDB. */
    public static final double STATEMENT_SHARES = 1000;

    public record Point(double input, double output) {
    }

    private final double[] in;
    private final double[] out;

    public BacklogController(List<Point> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a controller needs at least one point");
        }
        in = new double[points.size()];
        out = new double[points.size()];
        for (int i = 0; i < in.length; i++) {
            in[i] = points.get(i).input();
            out[i] = points.get(i).output();
            if (i > 0 && (in[i] <= in[i - 1] || out[i] < out[i - 1])) {
                throw new IllegalArgumentException("control points must increase: " + points);
            }
        }
    }

    public static BacklogController compaction() {
        return new BacklogController(List.of(new Point(0, 50), new Point(1.5, 100), new Point(30, 1000)));
    }

    public static BacklogController flush(double soft) {
        if (!(soft > 0 && soft < 1)) {
            throw new IllegalArgumentException("soft limit=" + soft + " must be in (0, 1)");
        }
        return new BacklogController(List.of(new Point(0, 0), new Point(soft, 10),
                new Point(soft + (1 - soft) / 2, 200), new Point(1, 1000)));
    }

    /** The shares for a normalized backlog (NaN or infinite: the maximum). */
    public double sharesFor(double backlog) {
        if (Double.isNaN(backlog) || backlog >= in[in.length - 1]) {
            return out[out.length - 1];
        }
        if (backlog <= in[0]) {
            return out[0];
        }
        int i = 1;
        while (in[i] < backlog) {
            i++;
        }
        double f = (backlog - in[i - 1]) / (in[i] - in[i - 1]);
        return out[i - 1] + f * (out[i] - out[i - 1]);
    }

    /** The smallest normalized backlog that yields {@code shares} (the inverse of {@link #sharesFor}). */
    public double backlogOfShares(double shares) {
        if (shares <= out[0]) {
            return in[0];
        }
        for (int i = 1; i < in.length; i++) {
            if (shares <= out[i]) {
                if (out[i] == out[i - 1]) {
                    return in[i - 1];
                }
                return in[i - 1] + (shares - out[i - 1]) / (out[i] - out[i - 1]) * (in[i] - in[i - 1]);
            }
        }
        return in[in.length - 1];
    }

    public double maxShares() {
        return out[out.length - 1];
    }
}
