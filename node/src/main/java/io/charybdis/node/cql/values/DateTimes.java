package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Cassandra's accepted textual forms of timestamp, date and time values, with its error messages.
 */
public final class DateTimes {
    /** Date-times with a time of day: a 'T' or a space between date and time, seconds optional. */
    private static final String[] DATE_TIME_PATTERNS = {"y-M-d'T'H:m[:s]", "y-M-d H:m[:s]"};
    /** Zone suffixes: short and long zone names or ids after a space, offsets with or without a space or colon. */
    private static final String[] ZONE_PATTERNS = {" z", " zzzz", " X", "X", "XXX"};
    /** The server's zone applies where a timestamp names none; Charybdis runs in UTC, as the reference node. */
    private static final ZoneId DEFAULT_ZONE = ZoneOffset.UTC;
    private static final List<DateTimeFormatter> TIMESTAMP_FORMATS = timestampFormats();
    private static final Pattern INTEGRAL = Pattern.compile("-?\\d+");
    private static final DateTimeFormatter DATE_FORMAT = DateTimeFormatter.ISO_LOCAL_DATE
            .withResolverStyle(ResolverStyle.STRICT);
    /** Dates are days from the epoch, shifted by 2^31: the first and last days a date can hold. */
    private static final long MIN_DAY = -(1L << 31);
    private static final long MAX_DAY = (1L << 31) - 1;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private DateTimes() {
    }

    private static List<DateTimeFormatter> timestampFormats() {
        List<DateTimeFormatter> out = new ArrayList<>();
        for (String dateTime : DATE_TIME_PATTERNS) {
            out.add(new DateTimeFormatterBuilder().appendPattern(dateTime)
                    .appendFraction(ChronoField.MILLI_OF_SECOND, 0, 9, true).toFormatter().withZone(DEFAULT_ZONE));
            for (String zone : ZONE_PATTERNS) {
                out.add(new DateTimeFormatterBuilder().appendPattern(dateTime)
                        .appendFraction(ChronoField.MILLI_OF_SECOND, 0, 9, true).appendPattern(zone).toFormatter());
            }
        }
        for (String zone : ZONE_PATTERNS) {
            out.add(new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd").appendPattern(zone)
                    .parseDefaulting(ChronoField.NANO_OF_DAY, 0).toFormatter());
        }
        out.add(new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_DATE)
                .parseDefaulting(ChronoField.NANO_OF_DAY, 0).toFormatter().withZone(DEFAULT_ZONE));
        return List.copyOf(out);
    }

    /**
     * A timestamp's text as Cassandra reads it: {@code now}, milliseconds since the epoch, or a date with an
     * optional time of day (fractions of a second to nanoseconds, kept to the millisecond) and zone.
     */
    public static long parseTimestampMillis(String text) {
        if (text.equalsIgnoreCase("now")) {
            return System.currentTimeMillis();
        }
        if (INTEGRAL.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Unable to make long (for date) from: '" + text + "'");
            }
        }
        for (DateTimeFormatter f : TIMESTAMP_FORMATS) {
            try {
                return ZonedDateTime.parse(text, f).toInstant().toEpochMilli();
            } catch (DateTimeException e) {
                // the next form
            }
        }
        throw new InvalidRequestException("Unable to parse a date/time from '" + text + "'");
    }

    /** Serialized date: days since the epoch, offset by 2^31 so the value sorts as an unsigned int. */
    public static int parseDate(String text) {
        if (INTEGRAL.matcher(text).matches()) {
            return dateFromUnsigned(text);
        }
        LocalDate d;
        try {
            d = LocalDate.parse(text, DATE_FORMAT);
        } catch (DateTimeException e) {
            throw new InvalidRequestException("Unable to coerce '" + text + "' to a formatted date (long)");
        }
        long day = d.toEpochDay();
        if (day < MIN_DAY) {
            throw new InvalidRequestException("Input date " + d + " is less than min supported date "
                    + LocalDate.ofEpochDay(MIN_DAY).atStartOfDay(ZoneOffset.UTC));
        }
        if (day > MAX_DAY) {
            throw new InvalidRequestException("Input date " + d + " is greater than max supported date "
                    + LocalDate.ofEpochDay(MAX_DAY).atStartOfDay(ZoneOffset.UTC));
        }
        return (int) (day + (1L << 31));
    }

    public static int dateFromUnsigned(String text) {
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v < 0 || v > 0xFFFFFFFFL) {
            throw new InvalidRequestException("Unable to make unsigned int (for date) from: '" + text + "'");
        }
        return (int) v;
    }

    public static LocalDate toLocalDate(int serialized) {
        return LocalDate.ofEpochDay((serialized & 0xFFFFFFFFL) - (1L << 31));
    }

    /**
     * A time of day as Cassandra reads it: nanoseconds of the day, or {@code h:m:s[.fffffffff]} (each part a
     * number in range, up to nine digits of fraction).
     */
    public static long parseTimeNanos(String text) {
        if (INTEGRAL.matcher(text).matches()) {
            long nanos;
            try {
                nanos = Long.parseLong(text);
            } catch (NumberFormatException e) {
                nanos = -1;
            }
            if (nanos < 0 || nanos >= NANOS_PER_DAY) {
                throw new InvalidRequestException("Unable to make long (for time) from: '" + text + "'");
            }
            return nanos;
        }
        try {
            return timeOfDay(text.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
        }
    }

    private static long timeOfDay(String s) {
        int c1 = s.indexOf(':');
        int c2 = c1 < 0 ? -1 : s.indexOf(':', c1 + 1);
        if (c1 <= 0 || c2 <= 0 || c2 >= s.length() - 1) {
            throw new IllegalArgumentException(s);
        }
        long hours = inRange(Integer.parseInt(s.substring(0, c1)), 24);
        long minutes = inRange(Integer.parseInt(s.substring(c1 + 1, c2)), 60);
        int dot = s.indexOf('.', c2 + 1);
        long seconds;
        long nanos = 0;
        if (dot > 0 && dot < s.length() - 1) {
            seconds = inRange(Integer.parseInt(s.substring(c2 + 1, dot)), 60);
            String fraction = s.substring(dot + 1);
            if (fraction.length() > 9 || !Character.isDigit(fraction.charAt(0))) {
                throw new IllegalArgumentException(s);
            }
            nanos = Integer.parseInt(fraction + "000000000".substring(fraction.length()));
        } else if (dot > 0) {
            throw new IllegalArgumentException(s);
        } else {
            seconds = inRange(Integer.parseInt(s.substring(c2 + 1)), 60);
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000L + nanos;
    }

    private static long inRange(int v, int bound) {
        if (v < 0 || v >= bound) {
            throw new IllegalArgumentException("out of bounds");
        }
        return v;
    }
}
