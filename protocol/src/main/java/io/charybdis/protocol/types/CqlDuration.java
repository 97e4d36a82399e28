package io.charybdis.protocol.types;

/**
 * A CQL duration: months, days and nanoseconds, kept apart because their lengths vary. All three have the same
 * sign. Serialized as three signed vints.
 */
public record CqlDuration(int months, int days, long nanoseconds) {
    static final long NANOS_PER_MICRO = 1000L;
    static final long NANOS_PER_MILLI = 1000 * NANOS_PER_MICRO;
    static final long NANOS_PER_SECOND = 1000 * NANOS_PER_MILLI;
    static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

    public CqlDuration {
        if (!sameSign(months, days, nanoseconds)) {
            throw new MarshalException("The duration months, days and nanoseconds must be all of the same sign ("
                    + months + ", " + days + ", " + nanoseconds + ")");
        }
    }

    static boolean sameSign(long months, long days, long nanos) {
        return (months >= 0 && days >= 0 && nanos >= 0) || (months <= 0 && days <= 0 && nanos <= 0);
    }

    /** Cassandra's text form, e.g. {@code 1y2mo3d4h5m6s7ms8us9ns}, {@code -3d}; zero is {@code 0s}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (months < 0 || days < 0 || nanoseconds < 0) {
            sb.append('-');
        }
        long m = Math.abs((long) months);
        long d = Math.abs((long) days);
        long n = Math.abs(nanoseconds);
        append(sb, m / 12, "y");
        append(sb, m % 12, "mo");
        append(sb, d, "d");
        if (n != 0) {
            n = appendUnit(sb, n, NANOS_PER_HOUR, "h");
            n = appendUnit(sb, n, NANOS_PER_MINUTE, "m");
            n = appendUnit(sb, n, NANOS_PER_SECOND, "s");
            n = appendUnit(sb, n, NANOS_PER_MILLI, "ms");
            n = appendUnit(sb, n, NANOS_PER_MICRO, "us");
            append(sb, n, "ns");
        }
        if (sb.length() == 0 || (sb.length() == 1 && sb.charAt(0) == '-')) {
            return "0s";
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, long v, String unit) {
        if (v != 0) {
            sb.append(v).append(unit);
        }
    }

    private static long appendUnit(StringBuilder sb, long n, long unit, String name) {
        append(sb, n / unit, name);
        return n % unit;
    }
}
