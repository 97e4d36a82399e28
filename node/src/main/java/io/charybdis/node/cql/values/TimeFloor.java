package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.protocol.types.CqlDuration;
import io.charybdis.protocol.types.NativeType;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Cassandra 5.0's {@code floor} functions: a timestamp, date, timeuuid or time rounded down to a multiple of a
 * duration, counted from a starting time (the epoch unless given). Durations without months are exact multiples of
 * milliseconds; with months, the calendar (UTC) gives the largest multiple not after the time.
 */
final class TimeFloor {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_DAY = MILLIS_PER_DAY * NANOS_PER_MILLI;

    private TimeFloor() {
    }

    static CqlDuration duration(ByteBuffer v) {
        return (CqlDuration) NativeType.DURATION.compose(v.duplicate());
    }

    private static boolean negative(CqlDuration d) {
        return d.months() < 0 || d.days() < 0 || d.nanoseconds() < 0;
    }

    /** Milliseconds from a timestamp value. */
    static long timestampMillis(ByteBuffer v) {
        return v.getLong(v.position());
    }

    /** Milliseconds (at midnight UTC) from a date value. */
    static long dateMillis(ByteBuffer v) {
        return ((v.getInt(v.position()) & 0xFFFFFFFFL) - (1L << 31)) * MILLIS_PER_DAY;
    }

    /** Milliseconds from a timeuuid value. */
    static long timeuuidMillis(ByteBuffer v) {
        return TimeUuids.unixMillis(Values.toUuid(v));
    }

    static ByteBuffer date(long millis) {
        return Values.int32((int) (Math.floorDiv(millis, MILLIS_PER_DAY) + (1L << 31)));
    }

    /** Checks a duration for timestamps: nothing finer than a millisecond. */
    static CqlDuration forTimestamp(ByteBuffer v) {
        CqlDuration d = duration(v);
        if (d.nanoseconds() % NANOS_PER_MILLI != 0) {
            throw new InvalidRequestException("The floor cannot be computed for the " + d + " duration as precision "
                    + "is below 1 millisecond");
        }
        return d;
    }

    /** Checks a duration for dates: whole days. */
    static CqlDuration forDate(ByteBuffer v) {
        CqlDuration d = duration(v);
        if (d.nanoseconds() != 0) {
            throw new InvalidRequestException("The floor on date values cannot be computed for the " + d
                    + " duration as precision is below 1 day");
        }
        return d;
    }

    /** The largest {@code start + n * duration} (n a whole number) that is not after {@code time}. */
    static long floor(long time, CqlDuration d, long start) {
        if (start > time) {
            throw new InvalidRequestException("The floor function starting time is greater than the provided time");
        }
        if (negative(d)) {
            throw new InvalidRequestException("Negative durations are not supported by the floor function");
        }
        if (d.months() == 0) {
            long step = d.days() * MILLIS_PER_DAY + d.nanoseconds() / NANOS_PER_MILLI;
            if (step == 0) {
                return time;
            }
            return time - Math.floorMod(time - start, step);
        }
        ZonedDateTime from = Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC);
        ZonedDateTime at = Instant.ofEpochMilli(time).atZone(ZoneOffset.UTC);
        long months = (at.getYear() - from.getYear()) * 12L + (at.getMonthValue() - from.getMonthValue());
        long n = months / d.months();
        long floor = plus(from, d, n);
        while (floor > time) {
            n--;
            floor = plus(from, d, n);
        }
        return floor;
    }

    private static long plus(ZonedDateTime from, CqlDuration d, long n) {
        return from.plusMonths(n * d.months()).plusDays(n * d.days()).plusNanos(n * d.nanoseconds()).toInstant()
                .toEpochMilli();
    }

    /** The floor of a time of day (nanoseconds since midnight), by a duration shorter than a day. */
    static long floorTime(long nanos, CqlDuration d) {
        if (negative(d)) {
            throw new InvalidRequestException("Negative durations are not supported by the floor function");
        }
        if (d.months() != 0 || d.days() != 0 || d.nanoseconds() > NANOS_PER_DAY - 1) {
            throw new InvalidRequestException("For time values, the floor can only be computed for durations smaller "
                    + "that a day");
        }
        if (d.nanoseconds() == 0) {
            return nanos;
        }
        return nanos - nanos % d.nanoseconds();
    }
}
