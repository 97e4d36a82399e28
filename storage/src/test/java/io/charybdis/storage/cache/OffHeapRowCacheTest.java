package io.charybdis.storage.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.charybdis.storage.TableId;
import io.charybdis.storage.memtable.ShardAllocator;
import io.charybdis.storage.mutation.PartitionView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The off-heap row cache against a LinkedHashMap (access order) model: contents, LRU eviction, accounting. */
@Timeout(60)
class OffHeapRowCacheTest {
    record Key(TableId table, long token, String key) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldMatchLruModel(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ShardAllocator allocator = new ShardAllocator(0);
        RowCache cache = new RowCache(allocator);
        TableId[] tables = {TableId.random(), TableId.random(), TableId.random()};
        LinkedHashMap<Key, Integer> model = new LinkedHashMap<>(16, 0.75f, true);
        ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(256);
        List<Key> universe = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            // few distinct tokens so that keys collide on token and the hash table on probes
            universe.add(new Key(tables[r.nextInt(3)], r.nextInt(200), "k" + r.nextInt(2000)));
        }
        for (int op = 0; op < 40_000; op++) {
            Key k = universe.get(r.nextInt(universe.size()));
            byte[] key = k.key().getBytes();
            int what = r.nextInt(100);
            if (what < 40) {
                int len = RowCache.writeEmpty(k.token(), key, scratch);
                assertThat(cache.put(k.table(), k.token(), key, scratch, 0, len, Long.MAX_VALUE)).isTrue();
                model.remove(k);
                model.put(k, len);
            } else if (what < 80) {
                PartitionView v = cache.get(k.table(), k.token(), key);
                Integer expected = model.get(k);
                assertThat(v != null).as("op=%d", op).isEqualTo(expected != null);
                if (v != null) {
                    assertThat(v.token()).isEqualTo(k.token());
                    byte[] got = new byte[v.keyLength()];
                    v.keyBuffer().getBytes(v.keyOffset(), got);
                    assertThat(got).isEqualTo(key);
                }
            } else if (what < 90) {
                cache.invalidate(k.table(), k.token(), key);
                model.remove(k);
            } else if (what < 97) {
                long target = cache.bytes() - r.nextInt(2000);
                cache.evictTo(target);
                assertThat(cache.bytes()).isLessThanOrEqualTo(Math.max(target, 0) + 64 * 1024);
                // the survivors are the most recently used suffix of the model's order
                List<Key> order = new ArrayList<>(model.keySet());
                int firstKept = 0;
                while (firstKept < order.size() && !cache.contains(order.get(firstKept).table(),
                        order.get(firstKept).token(), order.get(firstKept).key().getBytes())) {
                    firstKept++;
                }
                for (int i = 0; i < order.size(); i++) {
                    Key o = order.get(i);
                    assertThat(cache.contains(o.table(), o.token(), o.key().getBytes())).isEqualTo(i >= firstKept);
                    if (i < firstKept) {
                        model.remove(o);
                    }
                }
            } else if (what < 98) {
                TableId t = tables[r.nextInt(3)];
                cache.invalidateTable(t);
                model.keySet().removeIf(x -> x.table().equals(t));
                assertThat(cache.hasTable(t)).isFalse();
            } else {
                assertThat(cache.size()).isEqualTo(model.size());
                for (Map.Entry<Key, Integer> e : new ArrayList<>(model.entrySet())) {
                    assertThat(cache.contains(e.getKey().table(), e.getKey().token(), e.getKey().key().getBytes())).isTrue();
                }
            }
            assertThat(cache.size()).isEqualTo(model.size());
        }
        long expectedEntries = model.entrySet().stream()
                .mapToLong(e -> RowCacheLayout.E_RECORD + e.getValue()).sum();
        assertThat(cache.bytes()).isGreaterThanOrEqualTo(expectedEntries);
        assertThat(allocator.allocatedBytes()).isEqualTo(cache.bytes());
        cache.clear();
        assertThat(cache.size()).isZero();
        assertThat(allocator.allocatedBytes()).isZero();
        assertThat(allocator.liveAllocations()).isZero();
        assertThat(Arrays.stream(tables).noneMatch(cache::hasTable)).isTrue();
    }
}
