package io.charybdis.storage.shard;

import io.charybdis.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Size-tiered selection (Cassandra's STCS defaults): SSTables sorted by size are grouped into buckets whose
 * members are within [0.5, 1.5] of the bucket's average size, all SSTables under 50 MiB sharing one bucket. The
 * most interesting bucket with at least {@code min} members (smallest average size first) is compacted, at most
 * {@code max} of its smallest members.
 */
final class SizeTiered {
    static final long MIN_SSTABLE_SIZE = 50L << 20;
    static final double BUCKET_LOW = 0.5;
    static final double BUCKET_HIGH = 1.5;

    private SizeTiered() {
    }

    static List<SSTableReader> pick(List<SSTableReader> sstables, int min, int max) {
        List<SSTableReader> sorted = new ArrayList<>(sstables);
        sorted.sort(Comparator.comparingLong(SSTableReader::onDiskBytes));
        List<List<SSTableReader>> buckets = new ArrayList<>();
        List<Double> averages = new ArrayList<>();
        for (SSTableReader r : sorted) {
            long size = r.onDiskBytes();
            boolean placed = false;
            for (int i = 0; i < buckets.size() && !placed; i++) {
                double avg = averages.get(i);
                if ((size > avg * BUCKET_LOW && size < avg * BUCKET_HIGH) || (size < MIN_SSTABLE_SIZE && avg < MIN_SSTABLE_SIZE)) {
                    List<SSTableReader> b = buckets.get(i);
                    b.add(r);
                    averages.set(i, (avg * (b.size() - 1) + size) / b.size());
                    placed = true;
                }
            }
            if (!placed) {
                List<SSTableReader> b = new ArrayList<>();
                b.add(r);
                buckets.add(b);
                averages.add((double) size);
            }
        }
        for (List<SSTableReader> b : buckets) {
            if (b.size() >= min) {
                return new ArrayList<>(b.subList(0, Math.min(max, b.size())));
            }
        }
        return List.of();
    }
}
