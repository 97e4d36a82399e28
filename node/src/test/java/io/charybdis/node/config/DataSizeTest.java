package io.charybdis.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DataSizeTest {

    @ParameterizedTest
    @CsvSource({
            "0B, 0",
            "7B, 7",
            "1KiB, 1024",
            "16MiB, 16777216",
            "2GiB, 2147483648",
            "16mib, 16777216",
            "' 16 MiB ', 16777216",
    })
    void shouldParseCassandraUnits(String text, long bytes) {
        assertThat(DataSize.parse(text).bytes()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"16", "16MB", "16 M", "-1MiB", "1.5GiB", "MiB", "", "16TiB"})
    void shouldRejectTextThatIsNotADataSize(String text) {
        assertThatThrownBy(() -> DataSize.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("B, KiB, MiB, GiB");
    }

    @Test
    void shouldRejectOverflow() {
        assertThatThrownBy(() -> DataSize.parse("9223372036854775807GiB")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too large");
        assertThatThrownBy(() -> DataSize.parse("99999999999999999999B")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldPrintInTheLargestExactUnit() {
        assertThat(DataSize.ofMebibytes(16)).hasToString("16MiB");
        assertThat(DataSize.ofKibibytes(1536)).hasToString("1536KiB");
        assertThat(DataSize.ofGibibytes(8)).hasToString("8GiB");
        assertThat(DataSize.ofBytes(1000)).hasToString("1000B");
        assertThat(DataSize.ofBytes(0)).hasToString("0B");
    }

    @Test
    void shouldRoundTripThroughText() {
        for (long bytes : new long[] {0, 1, 1023, 1024, 5 * 1024, 16L << 20, 3L << 30, (3L << 30) + 1}) {
            DataSize size = DataSize.ofBytes(bytes);
            assertThat(DataSize.parse(size.toString())).isEqualTo(size);
        }
    }
}
