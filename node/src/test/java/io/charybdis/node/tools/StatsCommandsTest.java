package io.charybdis.node.tools;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The arithmetic behind tablehistograms' partition-size and cell-count columns and tablestats' byte sizes, on
 * histograms the comparison with Apache's nodetool rarely reaches (overflow, empty buckets), and the order in which
 * keyspaces are listed.
 */
class StatsCommandsTest {

    @Test
    void bucketOffsetsGrowByOnePointTwoRounded() {
        StatsCommands.Buckets b = new StatsCommands.Buckets(new long[21]);
        assertThat(b.offsets).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, 20, 24, 29, 35, 42, 50, 60, 72);
    }

    @Test
    void percentilesMinAndMaxAreBucketBounds() {
        // offsets 1, 2, 3, 4, 5; two values in (1, 2], one in (3, 4], one in (4, 5]
        StatsCommands.Buckets b = new StatsCommands.Buckets(new long[] {0, 2, 0, 1, 1, 0});
        assertThat(b.overflowed()).isFalse();
        assertThat(b.percentile(0.5)).isEqualTo(2);
        assertThat(b.percentile(0.75)).isEqualTo(4);
        assertThat(b.percentile(0.99)).isEqualTo(5);
        assertThat(b.min()).isEqualTo(2);
        assertThat(b.max()).isEqualTo(5);
        assertThat(new StatsCommands.Buckets(new long[6]).percentile(0.5)).isZero();
    }

    @Test
    void anOverflowedHistogramSaysSo() {
        StatsCommands.Buckets b = new StatsCommands.Buckets(new long[] {1, 0, 0, 0, 0, 3});
        assertThat(b.overflowed()).isTrue();
        assertThat(b.largestOffset()).isEqualTo(5);
        assertThat(b.max()).isEqualTo(Long.MAX_VALUE);
        assertThat(b.min()).isZero();
    }

    @Test
    void keysOfOneHashBucketAreListedInTheOrderGuavasMultimapsAddThem() {
        // "cells" and "system" fall in one bucket of a 16-slot HashMap: Guava's put appends, computeIfAbsent prepends
        java.util.Map<String, java.util.List<String>> m = new java.util.HashMap<>(16);
        for (String ks : new String[] {"cells", "cmp", "system", "system_auth"}) {
            NodeTool.multimapValues(m, ks, java.util.ArrayList::new).add(ks);
        }
        NodeTool.multimapValues(m, "cells", java.util.ArrayList::new).add("again");
        assertThat(m.keySet()).containsExactly("cells", "system", "cmp", "system_auth");
        assertThat(m.get("cells")).containsExactly("cells", "again");
    }

    @Test
    void bytesWithABinaryPrefixAndNoSpace() {
        assertThat(StatsCommands.prettyMemory(0)).isEqualTo("0B");
        assertThat(StatsCommands.prettyMemory(1023)).isEqualTo("1023B");
        assertThat(StatsCommands.prettyMemory(6956)).isEqualTo(String.format("%.3fKiB", 6956 / 1024.0));
        assertThat(StatsCommands.prettyMemory(3L << 30)).isEqualTo(String.format("%.3fGiB", 3.0));
    }

    @Test
    void durationsInWordsLeaveOutLeadingAndTrailingZeroParts() {
        assertThat(StatsCommands.TableStats.durationWords(86_400_000L + 2 * 3_600_000L)).isEqualTo("1 day 2 hours");
        assertThat(StatsCommands.TableStats.durationWords(61_000L)).isEqualTo("1 minute 1 second");
        assertThat(StatsCommands.TableStats.durationWords(3_600_000L)).isEqualTo("1 hour");
    }
}
