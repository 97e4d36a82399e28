package io.charybdis.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.charybdis.storage.memtable.ShardAllocator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An SSTable's partitions per token range, estimated from its index summary (the size estimates' source). */
class PartitionEstimatesTest {

    @Test
    void tokensOfABlockAreTakenAsEvenlySpread() {
        assertThat(SSTableReader.share(0, 100, 0, 50)).isEqualTo(0.5);
        assertThat(SSTableReader.share(0, 100, -10, 200)).isEqualTo(1.0);
        assertThat(SSTableReader.share(0, 100, 100, 200)).isZero();
        assertThat(SSTableReader.share(7, 7, 6, 7)).isEqualTo(1.0); // one token: in the range or not
        assertThat(SSTableReader.share(7, 7, 7, 9)).isZero();
        assertThat(SSTableReader.share(Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE))
                .isEqualTo(1.0);
    }

    @Test
    void rangesCoveringTheRingAddUpToThePartitionCount(@TempDir Path dir) throws Exception {
        SampleSSTable.write(dir, 1);
        SSTableReader r = SSTableReader.open(dir, 1, new ShardAllocator(0));
        try {
            assertThat(r.partitionCount()).isEqualTo(5);
            long[] bounds = {Long.MIN_VALUE, -1000, -50, 3, 12, 1000, Long.MAX_VALUE};
            double sum = 0;
            for (int i = 0; i + 1 < bounds.length; i++) {
                double n = r.estimatedPartitions(bounds[i], bounds[i + 1]);
                assertThat(n).isBetween(0.0, 5.0);
                sum += n;
            }
            assertThat(sum).isCloseTo(5.0, within(1e-9));
            assertThat(r.estimatedPartitions(1000, Long.MAX_VALUE)).isZero(); // past the last token
            assertThat(r.estimatedPartitions(Long.MIN_VALUE, -1000)).isZero(); // before the first
        } finally {
            r.release();
        }
    }
}
