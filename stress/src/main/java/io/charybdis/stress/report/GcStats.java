package io.charybdis.stress.report;

/**
 * Garbage collection on the cluster over an interval, as Cassandra's GCInspector reports it over JMX: the number
 * of collections, the longest and total pause in ms, the sum of squared pauses (for the standard deviation), and
 * the bytes reclaimed.
 */
public record GcStats(long count, double maxMs, double sumMs, double sumSquaresMs, double bytes) {

    public static final GcStats NONE = new GcStats(0, 0, 0, 0, 0);

    public GcStats plus(GcStats o) {
        return new GcStats(count + o.count, Math.max(maxMs, o.maxMs), sumMs + o.sumMs, sumSquaresMs + o.sumSquaresMs,
                bytes + o.bytes);
    }

    public double stdevMs() {
        if (count == 0) {
            return 0;
        }
        double mean = sumMs / count;
        return Math.sqrt(Math.max(0, sumSquaresMs / count - mean * mean));
    }

    public double megabytes() {
        return bytes / (1024d * 1024d);
    }
}
