package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
            "10000ms, 10000000000",
            "10s, 10000000000",
            "2m, 120000000000",
            "1h, 3600000000000",
            "1d, 86400000000000",
            "15us, 15000",
            "15µs, 15000",
            "7ns, 7",
            "10MS, 10000000",
            "'10 s', 10000000000",
            "0ms, 0",
    })
    void shouldParseCassandraUnits(String text, long nanos) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10000", "10 seconds", "1.5s", "-1s", "s", "", "10sec", "1w"})
    void shouldRejectTextThatIsNotADuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10000ms");
    }

    @Test
    void shouldFormatInTheLargestExactUnit() {
        assertThat(Durations.format(Duration.ofMillis(10000))).isEqualTo("10s");
        assertThat(Durations.format(Duration.ofMillis(2500))).isEqualTo("2500ms");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Durations.format(Duration.ofDays(2))).isEqualTo("2d");
        assertThat(Durations.format(Duration.ofNanos(1500))).isEqualTo("1500ns");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ms");
    }

    @Test
    void shouldRoundTripThroughText() {
        for (Duration d : new Duration[] {Duration.ZERO, Duration.ofMillis(15), Duration.ofSeconds(10), Duration.ofNanos(3),
                Duration.ofHours(5), Duration.ofMillis(1001)}) {
            assertThat(Durations.parse(Durations.format(d))).isEqualTo(d);
        }
    }
}
