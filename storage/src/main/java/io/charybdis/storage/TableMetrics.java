package io.charybdis.storage;

/**
 * A table's compaction and read metrics, summed over shards.
 *
 * @param bytesCompacted       uncompressed bytes of the inputs of completed compactions
 * @param compactionsCompleted compactions completed
 * @param backlogBytes         the table's compaction backlog at the last controller period
 * @param sstablesPerRead      how many SSTables single-partition reads consulted, since start (row cache hits,
 *                             which read none, are not counted, as in Cassandra)
 * @param recentSSTablesPerRead the same for the reads of the last one to two minutes: what percentiles are taken
 *                             from, as Cassandra's decaying histograms show recent behaviour in nodetool
 */
public record TableMetrics(long bytesCompacted, long compactionsCompleted, double backlogBytes,
                           Histogram sstablesPerRead, Histogram recentSSTablesPerRead) {

    /** No reads, no compactions. */
    public static TableMetrics none() {
        Histogram empty = new Histogram(new long[1]);
        return new TableMetrics(0, 0, 0, empty, empty);
    }

    /**
     * Exact counts per value: {@code counts[n]} reads consulted n SSTables, the last slot counting that many or more.
     */
    public record Histogram(long[] counts) {
        public Histogram {
            counts = counts.clone();
        }

        public long count() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        /** The smallest value v such that at least {@code p} (0..1) of the recorded values are <= v; 0 if empty. */
        public long percentile(double p) {
            long total = count();
            if (total == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(p * total));
            long seen = 0;
            for (int v = 0; v < counts.length; v++) {
                seen += counts[v];
                if (seen >= rank) {
                    return v;
                }
            }
            return counts.length - 1;
        }

        public double mean() {
            long total = count();
            if (total == 0) {
                return 0;
            }
            double sum = 0;
            for (int v = 0; v < counts.length; v++) {
                sum += (double) v * counts[v];
            }
            return sum / total;
        }

        public long max() {
            for (int v = counts.length - 1; v >= 0; v--) {
                if (counts[v] > 0) {
                    return v;
                }
            }
            return 0;
        }
    }
}
