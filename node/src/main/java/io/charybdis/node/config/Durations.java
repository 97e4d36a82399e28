package io.charybdis.node.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written in configuration the way Cassandra 5.0's {@code DurationSpec} accepts them: a
 * non-negative integer followed by one of {@code d}, {@code h}, {@code m}, {@code s}, {@code ms},
 * {@code us} (or {@code µs}), {@code ns}, e.g. {@code 10000ms} or {@code 10s}. Whitespace between number
 * and unit is tolerated and unit case is ignored; a bare number is rejected (the legacy {@code *_in_ms} keys
 * exist for that).
 */
public final class Durations {

    private static final Pattern SPEC = Pattern.compile("^(\\d+)\\s*(d|h|m|s|ms|us|µs|ns)$");

    private Durations() {
    }

    public static Duration parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SPEC.matcher(trimmed);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; expected a whole number with one of"
                    + " the units d, h, m, s, ms, us (µs), ns, e.g. 10000ms or 10s");
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large", e);
        }
        ChronoUnit unit = switch (m.group(2)) {
            case "d" -> ChronoUnit.DAYS;
            case "h" -> ChronoUnit.HOURS;
            case "m" -> ChronoUnit.MINUTES;
            case "s" -> ChronoUnit.SECONDS;
            case "ms" -> ChronoUnit.MILLIS;
            case "us", "µs" -> ChronoUnit.MICROS;
            default -> ChronoUnit.NANOS;
        };
        try {
            return Duration.of(amount, unit);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too large", e);
        }
    }

    /** The largest unit that represents the duration exactly, in the same notation, e.g. {@code 10s}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0ms";
        }
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return d.toSeconds() + "s";
        }
        long[] factors = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        String[] units = {"d", "h", "m", "s", "ms", "us"};
        for (int i = 0; i < factors.length; i++) {
            if (nanos % factors[i] == 0) {
                return nanos / factors[i] + units[i];
            }
        }
        return nanos + "ns";
    }
}
