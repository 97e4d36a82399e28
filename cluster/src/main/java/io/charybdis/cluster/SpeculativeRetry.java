package io.charybdis.cluster;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table's {@code speculative_retry} option as the coordinator applies it to single-partition reads: how long to
 * wait for the replicas first asked before asking one more.
 *
 * <ul>
 *   <li>{@code NEVER} (as the schema stores {@code NONE}), {@code NONE}: never ask another replica.</li>
 *   <li>{@code ALWAYS}: ask one more replica than the level needs from the start (two of them for the data).</li>
 *   <li>{@code Xms}: after X milliseconds.</li>
 *   <li>{@code Xp} (also {@code XPERCENTILE}): after the X-th percentile of the table's recent coordinator read
 *       latency (Cassandra's default is {@code 99p}).</li>
 *   <li>{@code MIN(Xp,Yms)}, {@code MAX(Xp,Yms)}: the smaller or larger of the two thresholds.</li>
 * </ul>
 */
record SpeculativeRetry(Kind kind, double percentile, long fixedMicros) {
    enum Kind { NONE, ALWAYS, FIXED, PERCENTILE, MIN, MAX }

    static final SpeculativeRetry DEFAULT = new SpeculativeRetry(Kind.PERCENTILE, 99, 0);
    static final SpeculativeRetry NONE = new SpeculativeRetry(Kind.NONE, 0, 0);

    private static final Pattern HYBRID = Pattern.compile("^(MIN|MAX)\\((.+),(.+)\\)$");

    /**
     * Parses the option as the schema keeps it (the schema validated it as Cassandra does; this also takes the
     * percentiles it shows rounded to {@code 0p} and {@code 100p}); null or empty is Cassandra's default, 99p.
     */
    static SpeculativeRetry parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        String u = text.replace(" ", "").toUpperCase(Locale.ROOT);
        switch (u) {
            case "NONE", "NEVER":
                return NONE;
            case "ALWAYS":
                return new SpeculativeRetry(Kind.ALWAYS, 0, 0);
            default:
                break;
        }
        Matcher m = HYBRID.matcher(u);
        if (m.matches()) {
            SpeculativeRetry a = parse(m.group(2));
            SpeculativeRetry b = parse(m.group(3));
            SpeculativeRetry p = a.kind == Kind.PERCENTILE ? a : b;
            SpeculativeRetry f = a.kind == Kind.FIXED ? a : b;
            if (p.kind != Kind.PERCENTILE || f.kind != Kind.FIXED) {
                throw invalid(text);
            }
            return new SpeculativeRetry(m.group(1).equals("MIN") ? Kind.MIN : Kind.MAX, p.percentile, f.fixedMicros);
        }
        try {
            if (u.endsWith("PERCENTILE")) {
                return percentile(Double.parseDouble(u.substring(0, u.length() - "PERCENTILE".length())), text);
            }
            if (u.endsWith("P")) {
                return percentile(Double.parseDouble(u.substring(0, u.length() - 1)), text);
            }
            if (u.endsWith("MS")) {
                double ms = Double.parseDouble(u.substring(0, u.length() - 2));
                if (ms < 0) {
                    throw invalid(text);
                }
                return new SpeculativeRetry(Kind.FIXED, 0, Math.round(ms * 1000));
            }
        } catch (NumberFormatException e) {
            throw invalid(text);
        }
        throw invalid(text);
    }

    private static SpeculativeRetry percentile(double p, String text) {
        if (!(p >= 0 && p <= 100)) {
            throw invalid(text);
        }
        return new SpeculativeRetry(Kind.PERCENTILE, p, 0);
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("Invalid value " + text + " for option 'speculative_retry'");
    }

    /**
     * How long to wait before asking one more replica, in microseconds, given the table's current latency
     * percentile; {@code Long.MAX_VALUE} for NONE, 0 for ALWAYS.
     */
    long thresholdMicros(java.util.function.DoubleToLongFunction percentileMicros) {
        return switch (kind) {
            case NONE -> Long.MAX_VALUE;
            case ALWAYS -> 0;
            case FIXED -> fixedMicros;
            case PERCENTILE -> percentileMicros.applyAsLong(percentile);
            case MIN -> Math.min(percentileMicros.applyAsLong(percentile), fixedMicros);
            case MAX -> Math.max(percentileMicros.applyAsLong(percentile), fixedMicros);
        };
    }
}
