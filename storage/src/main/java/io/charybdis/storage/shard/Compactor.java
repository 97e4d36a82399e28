package io.charybdis.storage.shard;

import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.PartitionMerger;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.PurgePolicy;
import io.charybdis.storage.mutation.SerializedPartition;
import io.charybdis.storage.sstable.Compression;
import io.charybdis.storage.sstable.SSTableReader;
import io.charybdis.storage.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Merges SSTables into one, purging what {@link PurgePolicy} allows. Runs on an I/O thread. */
final class Compactor {
    private Compactor() {
    }

    /** @return the new SSTable, or null if nothing survived */
    static SSTableReader compact(List<SSTableReader> inputs, Path dir, long generation, Compression compression,
                                 int shardId, int shardCount, PurgePolicy purge) throws IOException {
        int k = inputs.size();
        SSTableReader.Scanner[] scanners = new SSTableReader.Scanner[k];
        boolean[] has = new boolean[k];
        long expected = 0;
        for (int i = 0; i < k; i++) {
            scanners[i] = inputs.get(i).scanner();
            has[i] = scanners[i].advance();
            expected += inputs.get(i).partitionCount();
        }
        SSTableWriter w = new SSTableWriter(dir, generation, compression, shardId, shardCount, expected);
        try {
            PartitionMerger merger = new PartitionMerger();
            ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
            PartitionView[] views = new PartitionView[k];
            SerializedPartition[] wrappers = new SerializedPartition[k];
            for (int i = 0; i < k; i++) {
                wrappers[i] = new SerializedPartition();
            }
            while (true) {
                int min = -1;
                for (int i = 0; i < k; i++) {
                    if (has[i] && (min < 0 || DecoratedKey.compare(scanners[i].token(), scanners[i].key(),
                            scanners[min].token(), scanners[min].key()) < 0)) {
                        min = i;
                    }
                }
                if (min < 0) {
                    break;
                }
                long token = scanners[min].token();
                byte[] key = scanners[min].key();
                int n = 0;
                for (int i = 0; i < k; i++) {
                    if (has[i] && DecoratedKey.compare(scanners[i].token(), scanners[i].key(), token, key) == 0) {
                        views[n++] = wrappers[i].wrap(new UnsafeBuffer(scanners[i].partition()), 0, false);
                        has[i] = scanners[i].advance();
                    }
                }
                if (merger.merge(views, n, null, null, purge, out, 0) > 0) {
                    w.append(out, 0);
                }
            }
            if (w.partitions() == 0) {
                w.abort();
                return null;
            }
            w.finish();
            return SSTableReader.open(dir, generation);
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
    }
}
