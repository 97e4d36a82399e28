package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.protocol.types.NativeType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cassandra 5.0's floor functions on timestamps, dates, timeuuids and times. */
class TimeFloorTest {
    private static final Functions FUNCTIONS = new Functions();
    private static final BindContext CTX = new BindContext(List.of(), 0, 0);

    private static ByteBuffer call(List<NativeType> types, Object... args) {
        for (NativeFunction f : FUNCTIONS.overloads("floor")) {
            if (f.argTypes().equals(types)) {
                List<ByteBuffer> values = new java.util.ArrayList<>();
                for (int i = 0; i < args.length; i++) {
                    values.add(args[i] instanceof String d && types.get(i) == NativeType.DURATION
                            ? Durations.parse(d) : types.get(i).decompose(args[i]));
                }
                return f.execute(values, CTX);
            }
        }
        throw new AssertionError("no floor" + types);
    }

    private static Instant ts(String iso) {
        return Instant.parse(iso);
    }

    private static Object timestamp(ByteBuffer v) {
        return NativeType.TIMESTAMP.compose(v);
    }

    @Test
    void shouldFloorTimestampsByDurationsWithoutMonths() {
        List<NativeType> sig = List.of(NativeType.TIMESTAMP, NativeType.DURATION);
        assertThat(timestamp(call(sig, ts("2016-02-10T16:05:40.123Z"), "5m"))).isEqualTo(ts("2016-02-10T16:05:00Z"));
        assertThat(timestamp(call(sig, ts("2016-02-10T16:05:40.123Z"), "2d"))).isEqualTo(ts("2016-02-09T00:00:00Z"));
        assertThat(timestamp(call(sig, ts("2016-02-10T16:05:40.123Z"), "10ms")))
                .isEqualTo(ts("2016-02-10T16:05:40.120Z"));
        assertThat(timestamp(call(sig, ts("2016-02-10T16:05:40.123Z"), "0s")))
                .isEqualTo(ts("2016-02-10T16:05:40.123Z"));
        List<NativeType> from = List.of(NativeType.TIMESTAMP, NativeType.DURATION, NativeType.TIMESTAMP);
        assertThat(timestamp(call(from, ts("2016-02-10T16:05:40Z"), "1h", ts("2016-02-10T15:30:00Z"))))
                .isEqualTo(ts("2016-02-10T15:30:00Z"));
    }

    @Test
    void shouldFloorByMonthsOnTheCalendar() {
        List<NativeType> from = List.of(NativeType.TIMESTAMP, NativeType.DURATION, NativeType.TIMESTAMP);
        assertThat(timestamp(call(from, ts("2016-05-10T16:05:40Z"), "2mo", ts("2016-01-01T00:00:00Z"))))
                .isEqualTo(ts("2016-05-01T00:00:00Z"));
        assertThat(timestamp(call(from, ts("2016-05-10T16:05:40Z"), "1mo10d", ts("2016-01-15T00:00:00Z"))))
                .isEqualTo(ts("2016-04-04T00:00:00Z"));
        assertThat(timestamp(call(List.of(NativeType.TIMESTAMP, NativeType.DURATION), ts("2016-05-10T16:05:40Z"),
                "1y"))).isEqualTo(ts("2016-01-01T00:00:00Z"));
    }

    @Test
    void shouldFloorDatesTimeuuidsAndTimes() {
        assertThat(NativeType.DATE.compose(call(List.of(NativeType.DATE, NativeType.DURATION),
                LocalDate.parse("2016-02-10"), "1w"))).isEqualTo(LocalDate.parse("2016-02-04"));
        assertThat(NativeType.DATE.compose(call(List.of(NativeType.DATE, NativeType.DURATION, NativeType.DATE),
                LocalDate.parse("2016-02-10"), "3d", LocalDate.parse("2016-02-01")))).isEqualTo(LocalDate.parse("2016-02-10"));
        java.util.UUID u = TimeUuids.min(ts("2016-02-10T16:05:40.123Z").toEpochMilli());
        ByteBuffer r = call(List.of(NativeType.TIMEUUID, NativeType.DURATION), u, "1h");
        assertThat(timestamp(r)).isEqualTo(ts("2016-02-10T16:00:00Z"));
        ByteBuffer time = call(List.of(NativeType.TIME, NativeType.DURATION), LocalTime.parse("16:05:40.123456789"),
                "15m");
        assertThat(time.getLong(time.position())).isEqualTo(LocalTime.parse("16:00:00").toNanoOfDay());
    }

    @Test
    void shouldRefuseWhatCassandraRefuses() {
        List<NativeType> from = List.of(NativeType.TIMESTAMP, NativeType.DURATION, NativeType.TIMESTAMP);
        assertThatThrownBy(() -> call(from, ts("2016-02-10T16:05:40Z"), "1h", ts("2017-01-01T00:00:00Z")))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("The floor function starting time is greater than the provided time");
        // without a starting time, the epoch is the start
        assertThatThrownBy(() -> call(List.of(NativeType.TIMESTAMP, NativeType.DURATION), ts("1969-12-31T23:59:59Z"),
                "1s")).hasMessage("The floor function starting time is greater than the provided time");
        assertThatThrownBy(() -> call(List.of(NativeType.TIMESTAMP, NativeType.DURATION), ts("2016-02-10T16:05:40Z"),
                "1us")).hasMessage("The floor cannot be computed for the 1us duration as precision is below 1 "
                + "millisecond");
        assertThatThrownBy(() -> call(List.of(NativeType.DATE, NativeType.DURATION), LocalDate.parse("2016-02-10"),
                "1h")).hasMessage("The floor on date values cannot be computed for the 1h duration as precision is "
                + "below 1 day");
        assertThatThrownBy(() -> call(List.of(NativeType.TIME, NativeType.DURATION), LocalTime.parse("16:05:40"),
                "1d")).hasMessage("For time values, the floor can only be computed for durations smaller that a day");
        assertThatThrownBy(() -> call(List.of(NativeType.TIMESTAMP, NativeType.DURATION), ts("2016-02-10T16:05:40Z"),
                "-1h")).hasMessage("Negative durations are not supported by the floor function");
    }
}
