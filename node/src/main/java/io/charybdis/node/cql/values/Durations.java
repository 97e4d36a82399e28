package io.charybdis.node.cql.values;

import io.charybdis.node.cql.exceptions.InvalidRequestException;

import java.nio.ByteBuffer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CQL duration constants: {@code 1y2mo3w4d5h6m7s8ms9us10ns}, ISO 8601 {@code P1Y2M3DT4H5M6S} / {@code P2W}, and the
 * alternative ISO form {@code P0001-02-03T04:05:06}; optionally negative. Serialized as three signed vints:
 * months, days, nanoseconds.
 */
public final class Durations {
    private static final Pattern UNIT = Pattern.compile("(\\d+)(y|mo|w|d|h|s|ms|us|µs|ns|m)", Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO = Pattern.compile(
            "P(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+)S)?)?");
    private static final Pattern ISO_WEEK = Pattern.compile("P(\\d+)W");
    private static final Pattern ISO_ALT = Pattern.compile("P(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})");
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;

    private Durations() {
    }

    public static ByteBuffer parse(String text) {
        String s = text.trim();
        boolean negative = s.startsWith("-");
        if (negative) {
            s = s.substring(1);
        }
        long months = 0;
        long days = 0;
        long nanos = 0;
        Matcher m;
        String upper = s.toUpperCase(java.util.Locale.ROOT);
        if ((m = ISO_WEEK.matcher(upper)).matches()) {
            days = 7 * Long.parseLong(m.group(1));
        } else if ((m = ISO_ALT.matcher(upper)).matches()) {
            months = 12 * Long.parseLong(m.group(1)) + Long.parseLong(m.group(2));
            days = Long.parseLong(m.group(3));
            nanos = Long.parseLong(m.group(4)) * NANOS_PER_HOUR + Long.parseLong(m.group(5)) * 60_000_000_000L
                    + Long.parseLong(m.group(6)) * 1_000_000_000L;
        } else if (upper.startsWith("P") && (m = ISO.matcher(upper)).matches() && upper.length() > 1) {
            months = 12 * num(m.group(1)) + num(m.group(2));
            days = num(m.group(3));
            nanos = num(m.group(4)) * NANOS_PER_HOUR + num(m.group(5)) * 60_000_000_000L + num(m.group(6)) * 1_000_000_000L;
        } else {
            m = UNIT.matcher(s);
            int pos = 0;
            int lastUnit = -1;
            while (m.find()) {
                if (m.start() != pos) {
                    throw invalid(text);
                }
                pos = m.end();
                long v = Long.parseLong(m.group(1));
                String unit = m.group(2).toLowerCase(java.util.Locale.ROOT);
                int order = unitOrder(unit);
                if (order == lastUnit) {
                    throw new InvalidRequestException("Invalid duration. The " + UNIT_NAMES[order]
                            + " are specified multiple times");
                }
                if (order < lastUnit) {
                    throw new InvalidRequestException("Invalid duration. The " + UNIT_NAMES[lastUnit]
                            + " should be after " + UNIT_NAMES[order]);
                }
                lastUnit = order;
                switch (unit) {
                    case "y" -> months += 12 * v;
                    case "mo" -> months += v;
                    case "w" -> days += 7 * v;
                    case "d" -> days += v;
                    case "h" -> nanos += v * NANOS_PER_HOUR;
                    case "m" -> nanos += v * 60_000_000_000L;
                    case "s" -> nanos += v * 1_000_000_000L;
                    case "ms" -> nanos += v * 1_000_000L;
                    case "us", "µs" -> nanos += v * 1_000L;
                    case "ns" -> nanos += v;
                    default -> throw invalid(text);
                }
            }
            if (pos != s.length() || pos == 0) {
                throw invalid(text);
            }
        }
        if (negative) {
            months = -months;
            days = -days;
            nanos = -nanos;
        }
        if (months > Integer.MAX_VALUE) {
            throw new InvalidRequestException("Invalid duration. The total number of months must be less or equal to "
                    + Integer.MAX_VALUE);
        }
        if (days > Integer.MAX_VALUE) {
            throw new InvalidRequestException("Invalid duration. The total number of days must be less or equal to "
                    + Integer.MAX_VALUE);
        }
        if (months > Integer.MAX_VALUE || months < Integer.MIN_VALUE || days > Integer.MAX_VALUE
                || days < Integer.MIN_VALUE) {
            throw invalid(text);
        }
        return encode((int) months, (int) days, nanos);
    }

    /** The units of the standard form, in the one order they may be written in. */
    private static final String[] UNIT_NAMES = {"years", "months", "weeks", "days", "hours", "minutes", "seconds",
            "milliseconds", "microseconds", "nanoseconds"};

    private static int unitOrder(String unit) {
        return switch (unit) {
            case "y" -> 0;
            case "mo" -> 1;
            case "w" -> 2;
            case "d" -> 3;
            case "h" -> 4;
            case "m" -> 5;
            case "s" -> 6;
            case "ms" -> 7;
            case "us", "µs" -> 8;
            default -> 9;
        };
    }

    private static long num(String g) {
        return g == null ? 0 : Long.parseLong(g);
    }

    private static InvalidRequestException invalid(String text) {
        return new InvalidRequestException("Unable to convert '" + text + "' to a duration");
    }

    public static ByteBuffer encode(int months, int days, long nanos) {
        ByteBuffer buf = ByteBuffer.allocate(3 * io.charybdis.protocol.types.VInt.MAX_SIZE);
        io.charybdis.protocol.types.VInt.writeSigned(buf, months);
        io.charybdis.protocol.types.VInt.writeSigned(buf, days);
        io.charybdis.protocol.types.VInt.writeSigned(buf, nanos);
        return buf.flip();
    }
}
