package io.charybdis.storage.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.TableId;
import io.charybdis.storage.mutation.Cells;
import io.charybdis.storage.mutation.DecoratedKey;
import io.charybdis.storage.mutation.MutationBuilder;
import io.charybdis.storage.mutation.PartitionView;
import io.charybdis.storage.mutation.RowMerger;
import io.charybdis.storage.mutation.Rows;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The off-heap memtable index (partition and row skip lists) against a TreeMap model: point lookups, forward and
 * reverse iteration by index, seeks, range iteration from a key, row merges, and the arena returning to zero.
 */
@Timeout(120)
class MemtableIndexTest {
    static final TableId TABLE = TableId.random();
    static final Comparator COMPARATOR = new Comparator();

    static final class Comparator implements java.util.Comparator<byte[]> {
        @Override
        public int compare(byte[] a, byte[] b) {
            return Arrays.compareUnsigned(a, b);
        }
    }

    static byte[] randomBytes(SplittableRandom r, int maxLen) {
        byte[] b = new byte[r.nextInt(maxLen + 1)];
        for (int i = 0; i < b.length; i++) {
            int pick = r.nextInt(4);
            b[i] = (byte) (pick == 0 ? 0 : pick == 1 ? 0xFF : pick == 2 ? 0x80 : r.nextInt(256));
        }
        return b;
    }

    @ParameterizedTest
    @CsvSource({"1, 300, 3000, 4", "2, 40, 6000, 6", "3, 3, 20000, 3", "4, 2000, 4000, 1"})
    void shouldMatchTreeMapModel(long seed, int partitions, int writes, int clusteringLength) {
        SplittableRandom r = new SplittableRandom(seed);
        ShardAllocator allocator = new ShardAllocator(0);
        Memtable m = new Memtable(allocator, new RowMerger(), new ExpandableArrayBuffer(1024));
        TreeMap<DecoratedKey, TreeMap<byte[], Long>> model = new TreeMap<>();
        List<DecoratedKey> keys = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            keys.add(new DecoratedKey(r.nextInt(Math.max(1, partitions / 3)) - partitions / 6, randomBytes(r, 5)));
        }
        MutationBuilder b = new MutationBuilder();
        long ts = 1;
        for (int w = 0; w < writes; w++) {
            DecoratedKey k = keys.get(r.nextInt(keys.size()));
            b.start(TABLE, k.token(), k.key());
            TreeMap<byte[], Long> rows = model.computeIfAbsent(k, x -> new TreeMap<>(COMPARATOR));
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                byte[] c = randomBytes(r, clusteringLength);
                long t = ts++;
                b.beginRow(c).cell(0, t, 0, Integer.MAX_VALUE, ByteBuffer.wrap(new byte[] {1})).endRow();
                rows.merge(c, t, Math::max);
            }
            m.apply(b.build(), -1);
            if (w % 997 == 0 || w == writes - 1) {
                check(r, m, model);
            }
        }
        assertThat(allocator.allocatedBytes()).isPositive();
        m.release();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThat(allocator.liveAllocations()).isZero();
    }

    private static void check(SplittableRandom r, Memtable m, TreeMap<DecoratedKey, TreeMap<byte[], Long>> model) {
        assertThat(m.partitionCount()).isEqualTo(model.size());
        Iterator<PartitionView> it = m.partitions().iterator();
        for (Map.Entry<DecoratedKey, TreeMap<byte[], Long>> e : model.entrySet()) {
            assertThat(it.hasNext()).isTrue();
            PartitionView p = it.next();
            assertThat(key(p)).isEqualTo(e.getKey());
            checkRows(r, p, e.getValue());
        }
        assertThat(it.hasNext()).isFalse();
        for (int i = 0; i < 20; i++) {
            DecoratedKey probe = new DecoratedKey(r.nextInt(200) - 100, randomBytes(r, 5));
            PartitionView p = m.get(probe);
            assertThat(p != null).isEqualTo(model.containsKey(probe));
            if (p != null) {
                checkRows(r, p, model.get(probe));
            }
            Iterator<DecoratedKey> expected = model.tailMap(probe, true).keySet().iterator();
            for (PartitionView v : m.from(probe)) {
                assertThat(key(v)).isEqualTo(expected.next());
            }
            assertThat(expected.hasNext()).isFalse();
        }
    }

    private static void checkRows(SplittableRandom r, PartitionView p, TreeMap<byte[], Long> rows) {
        int n = rows.size();
        assertThat(p.rowCount()).isEqualTo(n);
        List<Map.Entry<byte[], Long>> list = new ArrayList<>(rows.entrySet());
        for (int i = 0; i < n; i++) {
            assertRow(p, i, list.get(i));
        }
        for (int i = n - 1; i >= 0; i--) {
            assertRow(p, i, list.get(i));
        }
        for (int i = 0; i < Math.min(n, 10); i++) {
            int at = r.nextInt(n);
            assertRow(p, at, list.get(at));
        }
        for (int i = 0; i < 10; i++) {
            byte[] bound = randomBytes(r, 5);
            int lb = p.lowerBound(new UnsafeBuffer(bound), 0, bound.length);
            assertThat(lb).isEqualTo(rows.headMap(bound, false).size());
            if (lb < n) {
                assertRow(p, lb, list.get(lb));
            }
            if (lb > 0) {
                assertRow(p, lb - 1, list.get(lb - 1));
            }
        }
    }

    private static void assertRow(PartitionView p, int i, Map.Entry<byte[], Long> expected) {
        DirectBuffer b = p.rowBuffer(i);
        int o = p.rowOffset(i);
        byte[] c = new byte[Rows.clusteringLength(b, o)];
        b.getBytes(Rows.clusteringOffset(o), c);
        assertThat(c).as("row %d", i).isEqualTo(expected.getKey());
        assertThat(Rows.cellCount(b, o)).isEqualTo(1);
        assertThat(Cells.timestamp(b, Rows.firstCellOffset(b, o))).isEqualTo(expected.getValue());
    }

    private static DecoratedKey key(PartitionView p) {
        return DecoratedKey.of(p.token(), p.keyBuffer(), p.keyOffset(), p.keyLength());
    }
}
