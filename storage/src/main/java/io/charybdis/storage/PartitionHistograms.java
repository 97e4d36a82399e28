package io.charybdis.storage;

import io.charybdis.storage.sstable.SSTableStats;
import io.charybdis.storage.util.EstimatedHistogram;
import java.util.List;

/**
 * One table's partition sizes (bytes) and cells per partition over its live SSTables on every shard, as the table
 * metrics of Cassandra 5.0 give them to nodetool: the SSTables' estimated histograms added bucket by bucket
 * ({@code EstimatedPartitionSizeHistogram}, {@code EstimatedColumnCountHistogram}; empty arrays without SSTables),
 * and the partition-size figures tablestats prints as "Compacted partition minimum/maximum/mean bytes", which
 * Cassandra takes SSTable by SSTable: the minimum of their minimums (where an SSTable with no partition counts 0),
 * the maximum of their maximums, and the mean of their rounded-up means weighted by their partition counts.
 */
public record PartitionHistograms(long[] partitionSizes, long[] cellCounts, long minPartitionSize,
                                  long maxPartitionSize, long meanPartitionSize) {

    public static PartitionHistograms empty() {
        return new PartitionHistograms(new long[0], new long[0], 0, 0, 0);
    }

    public static PartitionHistograms of(List<SSTableStats> sstables) {
        if (sstables.isEmpty()) {
            return empty();
        }
        long[] sizes = new long[0];
        long[] cells = new long[0];
        long min = 0;
        long max = 0;
        long weightedMeans = 0;
        long partitions = 0;
        for (SSTableStats s : sstables) {
            sizes = EstimatedHistogram.add(sizes, s.partitionSizes());
            cells = EstimatedHistogram.add(cells, s.cellCounts());
            long sstableMin = EstimatedHistogram.min(s.partitionSizes());
            if (min == 0 || sstableMin < min) {
                min = sstableMin;
            }
            max = Math.max(max, EstimatedHistogram.max(s.partitionSizes()));
            long n = EstimatedHistogram.count(s.partitionSizes());
            weightedMeans += EstimatedHistogram.mean(s.partitionSizes()) * n;
            partitions += n;
        }
        return new PartitionHistograms(sizes, cells, min, max, partitions > 0 ? weightedMeans / partitions : 0);
    }
}
