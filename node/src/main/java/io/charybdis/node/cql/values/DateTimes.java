package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cassandra's accepted textual forms of timestamp, date and time values.
 * Timestamps: {@code yyyy-mm-dd[( |T)HH:MM[:SS[.fff]]][zone]} with zone {@code Z}, {@code +hhmm}, {@code +hh:mm},
 * or absent (UTC here; Cassandra uses the server's zone, which is UTC on the reference node).
 */
public final class DateTimes {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "(-?\\d{1,9})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?"
                    + "\\s*(Z|z|UTC|GMT|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");

    private DateTimes() {
    }

    public static long parseTimestampMillis(String text) {
        String s = text.trim();
        Matcher m = TIMESTAMP.matcher(s);
        if (!m.matches()) {
            throw new InvalidRequestException("Unable to parse a date/time from '" + text + "'");
        }
        try {
            int year = Integer.parseInt(m.group(1));
            int month = Integer.parseInt(m.group(2));
            int day = Integer.parseInt(m.group(3));
            int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            int nanos = m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "000000000").substring(0, 9));
            LocalDateTime ldt = LocalDateTime.of(year, month, day, hour, minute, second, nanos);
            ZoneOffset offset = ZoneOffset.UTC;
            String zone = m.group(8);
            if (zone != null && !zone.equalsIgnoreCase("Z") && !zone.equals("UTC") && !zone.equals("GMT")) {
                String z = zone.replace(":", "");
                offset = ZoneOffset.ofHoursMinutes(Integer.parseInt(z.substring(0, 3)),
                        (z.charAt(0) == '-' ? -1 : 1) * Integer.parseInt(z.substring(3)));
            }
            return ldt.toInstant(offset).toEpochMilli();
        } catch (RuntimeException e) {
            throw new InvalidRequestException("Unable to parse a date/time from '" + text + "'");
        }
    }

    /** Serialized date: days since the epoch, offset by 2^31 so the value sorts as an unsigned int. */
    public static int parseDate(String text) {
        try {
            LocalDate d = LocalDate.parse(text.trim());
            return (int) (d.toEpochDay() + (1L << 31));
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException("Unable to coerce '" + text + "' to a formatted date (long)");
        }
    }

    public static int dateFromUnsigned(String text) {
        long v = Long.parseLong(text);
        if (v < 0 || v > 0xFFFFFFFFL) {
            throw new InvalidRequestException("Unable to make unsigned int (for date) from: '" + text + "'");
        }
        return (int) v;
    }

    public static LocalDate toLocalDate(int serialized) {
        return LocalDate.ofEpochDay((serialized & 0xFFFFFFFFL) - (1L << 31));
    }

    public static long parseTimeNanos(String text) {
        Matcher m = TIME.matcher(text.trim());
        if (!m.matches()) {
            throw new InvalidRequestException("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
        }
        int h = Integer.parseInt(m.group(1));
        int min = Integer.parseInt(m.group(2));
        int sec = Integer.parseInt(m.group(3));
        long nanos = m.group(4) == null ? 0 : Long.parseLong((m.group(4) + "000000000").substring(0, 9));
        if (h > 23 || min > 59 || sec > 59) {
            throw new InvalidRequestException("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
        }
        return LocalTime.of(h, min, sec).toNanoOfDay() + nanos;
    }
}
