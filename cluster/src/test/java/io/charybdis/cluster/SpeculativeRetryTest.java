package io.charybdis.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The speculative_retry forms and the thresholds they give; the recent percentile of a table's read latency. */
class SpeculativeRetryTest {
    static final java.util.function.DoubleToLongFunction P = p -> (long) (p * 1000); // 99p -> 99 000 µs

    @Test
    void shouldParseEveryFormTheSchemaKeeps() {
        assertThat(SpeculativeRetry.parse("NONE").thresholdMicros(P)).isEqualTo(Long.MAX_VALUE);
        assertThat(SpeculativeRetry.parse("NEVER").thresholdMicros(P)).isEqualTo(Long.MAX_VALUE);
        assertThat(SpeculativeRetry.parse("100p").thresholdMicros(P)).isEqualTo(100_000); // 99.99999p shown rounded
        assertThat(SpeculativeRetry.parse("ALWAYS").thresholdMicros(P)).isZero();
        assertThat(SpeculativeRetry.parse("50ms").thresholdMicros(P)).isEqualTo(50_000);
        assertThat(SpeculativeRetry.parse("2.5MS").thresholdMicros(P)).isEqualTo(2_500);
        assertThat(SpeculativeRetry.parse("99p").thresholdMicros(P)).isEqualTo(99_000);
        assertThat(SpeculativeRetry.parse("95PERCENTILE").thresholdMicros(P)).isEqualTo(95_000);
        assertThat(SpeculativeRetry.parse("99.5p").percentile()).isEqualTo(99.5);
        assertThat(SpeculativeRetry.parse("MIN(99p,50ms)").thresholdMicros(P)).isEqualTo(50_000);
        assertThat(SpeculativeRetry.parse("max(50ms, 99p)").thresholdMicros(P)).isEqualTo(99_000);
        assertThat(SpeculativeRetry.parse(null)).isEqualTo(SpeculativeRetry.DEFAULT);
    }

    @Test
    void shouldRejectWhatIsNotAThreshold() {
        for (String bad : new String[] {"fast", "101p", "-1ms", "MIN(99p,95p)", "MAX(10ms,20ms)", "12"}) {
            assertThatThrownBy(() -> SpeculativeRetry.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Invalid value " + bad + " for option 'speculative_retry'");
        }
    }

    @Test
    void thePercentileStartsAtHalfTheTimeoutAndThenFollowsRecentReads() throws Exception {
        ReadLatencies l = new ReadLatencies(500);
        assertThat(l.percentileMicros(99)).isEqualTo(250_000);
        for (int i = 0; i < ReadLatencies.MIN_SAMPLES; i++) {
            l.recordNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ReadLatencies.UPDATE_INTERVAL_NANOS) + 10);
        long twoMillis = l.percentileMicros(99);
        assertThat(twoMillis).isBetween(2_000L, 2_500L); // the bucket holding 2 ms
        for (int i = 0; i < ReadLatencies.MIN_SAMPLES; i++) {
            l.recordNanos(TimeUnit.MILLISECONDS.toNanos(40));
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ReadLatencies.UPDATE_INTERVAL_NANOS) + 10);
        assertThat(l.percentileMicros(99)).isBetween(40_000L, 48_000L); // the older, faster reads are left behind
    }
}
