package io.charybdis.stress.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed distribution definition as cassandra-stress spells it: {@code uniform(1..200000)},
 * {@code gaussian(1..1000,500,10)}, {@code gauss(1..1000,5)}, {@code exp(1..10)}, {@code extreme(1..10,1.5)},
 * {@code qextreme(1..10,1.5,4)}, {@code fixed(34)}, {@code seq(1..100)}, any of them preceded by {@code ~} to
 * invert it. Bounds accept the k/m/b suffixes (thousand, million, billion).
 *
 * <p>Implementation notes: gaussian with one range argument uses 3 standard deviations to the edge; with two,
 * the second is that number; with three they are mean and stdev. Exponential and extreme (Weibull) scale their
 * parameter so that the top of the range is reached with probability about 1/sqrt(max-min), which is how
 * cassandra-stress keeps the whole range visitable without flattening the skew.
 */
public record DistributionSpec(Kind kind, boolean inverted, long min, long max, double mean, double stdev,
                               double shape, double scale, int quantas, String text) {

    public enum Kind { UNIFORM, GAUSSIAN, EXP, EXTREME, QEXTREME, FIXED, SEQ }

    private static final Pattern FULL = Pattern.compile("(~?)([A-Z]+)\\((.+)\\)", Pattern.CASE_INSENSITIVE);
    private static final Map<String, Kind> ALIASES = Map.ofEntries(
            Map.entry("uniform", Kind.UNIFORM), Map.entry("gaussian", Kind.GAUSSIAN), Map.entry("gauss", Kind.GAUSSIAN),
            Map.entry("normal", Kind.GAUSSIAN), Map.entry("norm", Kind.GAUSSIAN), Map.entry("exp", Kind.EXP),
            Map.entry("extreme", Kind.EXTREME), Map.entry("extr", Kind.EXTREME), Map.entry("weibull", Kind.EXTREME),
            Map.entry("qextreme", Kind.QEXTREME), Map.entry("qextr", Kind.QEXTREME), Map.entry("fixed", Kind.FIXED),
            Map.entry("seq", Kind.SEQ));

    public static DistributionSpec parse(String spec) {
        Matcher m = FULL.matcher(spec.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("Illegal distribution specification: " + spec);
        }
        boolean inverted = m.group(1).equals("~");
        String name = m.group(2).toLowerCase(Locale.ROOT);
        Kind kind = ALIASES.get(name);
        if (kind == null) {
            throw new IllegalArgumentException("Illegal distribution type: " + m.group(2));
        }
        List<String> params = new ArrayList<>();
        for (String p : m.group(3).split(",")) {
            if (!p.isBlank()) {
                params.add(p.trim());
            }
        }
        String text = spec.trim();
        try {
            return build(kind, inverted, params, text);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("Invalid parameter list for " + describe(kind) + " distribution: " + params);
        }
    }

    private static DistributionSpec build(Kind kind, boolean inverted, List<String> p, String text) {
        if (kind == Kind.FIXED) {
            require(p.size() == 1);
            long v = parseLong(p.get(0));
            return new DistributionSpec(kind, inverted, v, v, v, 0, 0, 0, 0, text);
        }
        long[] range = parseRange(p.get(0));
        long min = range[0];
        long max = range[1];
        require(min <= max);
        switch (kind) {
            case UNIFORM, SEQ -> {
                require(p.size() == 1);
                return new DistributionSpec(kind, inverted, min, max, (min + max) / 2d, 0, 0, 0, 0, text);
            }
            case GAUSSIAN -> {
                require(p.size() >= 1 && p.size() <= 3);
                double mean;
                double stdev;
                if (p.size() == 3) {
                    mean = Double.parseDouble(p.get(1));
                    stdev = Double.parseDouble(p.get(2));
                } else {
                    double stdevsToEdge = p.size() == 1 ? 3d : Double.parseDouble(p.get(1));
                    mean = (min + max) / 2d;
                    stdev = ((max - min) / 2d) / stdevsToEdge;
                }
                return new DistributionSpec(kind, inverted, min, max, mean, stdev, 0, 0, 0, text);
            }
            case EXP -> {
                require(p.size() == 1);
                double q = expQuantile(1d - Math.sqrt(1d / Math.max(1, max - min)));
                return new DistributionSpec(kind, inverted, min, max, (max - min) / q, 0, 0, 0, 0, text);
            }
            case EXTREME, QEXTREME -> {
                require(p.size() == (kind == Kind.EXTREME ? 2 : 3));
                double shape = Double.parseDouble(p.get(1));
                require(shape > 0);
                double q = Math.pow(expQuantile(1d - Math.sqrt(1d / Math.max(1, max - min))), 1d / shape);
                int quantas = kind == Kind.QEXTREME ? Integer.parseInt(p.get(2)) : 0;
                return new DistributionSpec(kind, inverted, min, max, 0, 0, shape, (max - min) / q, quantas, text);
            }
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    private static double expQuantile(double p) {
        return -Math.log(1d - p);
    }

    private static void require(boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException();
        }
    }

    private static String describe(Kind kind) {
        return switch (kind) {
            case EXTREME -> "extreme (Weibull)";
            case QEXTREME -> "quantized extreme (Weibull)";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
    }

    /** "1..100", "1..1m", "5...10" (any number of dots) into {min, max}. */
    public static long[] parseRange(String s) {
        String[] bounds = s.split("\\.\\.+");
        if (bounds.length != 2) {
            throw new IllegalArgumentException("Invalid range: " + s);
        }
        return new long[] {parseLong(bounds[0]), parseLong(bounds[1])};
    }

    /** A count with an optional k, m or b suffix (thousand, million, billion). */
    public static long parseLong(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long multiplier = switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
            case 'b' -> 1_000_000_000L;
            case 'm' -> 1_000_000L;
            case 'k' -> 1_000L;
            default -> 1L;
        };
        if (multiplier != 1L) {
            v = v.substring(0, v.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(v), multiplier);
    }

    public static DistributionSpec fixed(long v) {
        return parse("fixed(" + v + ")");
    }

    /** A new, independent sampler of this distribution. */
    public Distribution create() {
        Distribution d = switch (kind) {
            case UNIFORM -> new Distributions.Uniform(min, max);
            case GAUSSIAN -> new Distributions.Gaussian(min, max, mean, stdev);
            case EXP -> new Distributions.Exponential(min, max, mean);
            case EXTREME -> new Distributions.Extreme(min, max, shape, scale);
            case QEXTREME -> new Distributions.Quantized(new Distributions.Extreme(min, max, shape, scale), min, max, quantas);
            case FIXED -> new Distributions.Fixed(min);
            case SEQ -> new Distributions.Sequence(min, max, new java.util.concurrent.atomic.AtomicLong());
        };
        return inverted ? new Distributions.Inverted(d, min, max) : d;
    }

    /** The settings-dump form cassandra-stress prints, e.g. {@code Uniform:  min=1,max=200000}. */
    public String display() {
        String body = switch (kind) {
            case UNIFORM -> "Uniform:  min=" + min + ",max=" + max;
            case GAUSSIAN -> String.format(Locale.ROOT, "Gaussian:  min=%d,max=%d,mean=%f,stdev=%f", min, max, mean, stdev);
            case EXP -> String.format(Locale.ROOT, "Exponential:  min=%d,max=%d,mean=%f", min, max, mean);
            case EXTREME -> String.format(Locale.ROOT, "Extreme:  min=%d,max=%d,shape=%f,scale=%f", min, max, shape, scale);
            case QEXTREME -> String.format(Locale.ROOT, "QuantizedExtreme:  min=%d,max=%d,shape=%f,scale=%f,quantas=%d",
                    min, max, shape, scale, quantas);
            case FIXED -> "Fixed:  key=" + min;
            case SEQ -> "Sequence:  min=" + min + ",max=" + max;
        };
        return inverted ? "Inverted: " + body : body;
    }

    @Override
    public String toString() {
        return text;
    }
}
