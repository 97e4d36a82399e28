package io.charybdis.stress.settings;

import io.charybdis.stress.dist.DistributionSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command and its own parameters: how long to run ({@code n=}, {@code duration=}, or until the standard
 * error of the throughput falls below {@code err<}), consistency level, warmup, truncation, and for mixed and user
 * the operation ratios.
 *
 * @param count      operations to run, or -1 when running by duration or uncertainty
 * @param duration   the duration in {@code durationUnit}, or 0
 * @param targetUncertainty {@code err<}, or -1 when not running until convergence
 * @param ratios     mixed: the weight of each operation kind (read, write, counter_write, counter_read)
 * @param ops        user: weight per query name ("insert" for the inserts)
 */
public record CommandSettings(Command type, long count, long duration, TimeUnit durationUnit, boolean noWarmup,
                              Truncate truncate, String consistencyLevel, double targetUncertainty,
                              int minUncertaintyMeasurements, int maxUncertaintyMeasurements, int keySize,
                              DistributionSpec add, Map<Command, Double> ratios, DistributionSpec clustering,
                              List<String> profiles, Map<String, Double> ops) {

    public enum Truncate { NEVER, ONCE, ALWAYS }

    static final String CL_PATTERN = "ONE|QUORUM|LOCAL_QUORUM|EACH_QUORUM|ALL|ANY|TWO|THREE|LOCAL_ONE|SERIAL|LOCAL_SERIAL";

    public boolean byCount() {
        return count >= 0;
    }

    public boolean byDuration() {
        return duration > 0;
    }

    public boolean untilConverged() {
        return targetUncertainty >= 0;
    }

    public long durationSeconds() {
        return durationUnit == null ? 0 : durationUnit.toSeconds(duration);
    }

    static CommandSettings parse(Command type, List<String> items) {
        Params p = new Params(type.lowerName(), items);
        try {
            return parse(type, p);
        } catch (NumberFormatException e) {
            throw SettingsException.invalidGroup(type.lowerName());
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), type.lowerName());
        }
    }

    private static CommandSettings parse(Command type, Params p) {
        String n = p.value("n=", "[0-9]+[bmk]?");
        String durationText = p.value("duration=", "[0-9]+[smhd]");
        String err = p.value("err<");
        String nMin = p.value("n>");
        String nMax = p.value("n<");
        if ((n != null ? 1 : 0) + (durationText != null ? 1 : 0) + (err != null || nMin != null || nMax != null ? 1 : 0) > 1) {
            throw SettingsException.invalidGroup(type.lowerName());
        }
        boolean noWarmup = p.flag("no-warmup");
        String truncate = p.value("truncate=", "never|once|always");
        String cl = p.value("cl=", CL_PATTERN);

        Map<Command, Double> ratios = Map.of();
        DistributionSpec clustering = null;
        DistributionSpec add = DistributionSpec.parse("fixed(1)");
        int keySize = 10;
        List<String> profiles = List.of();
        Map<String, Double> ops = Map.of();
        if (type == Command.MIXED) {
            Map<String, String> r = p.call("ratio");
            ratios = r == null ? defaultRatios() : parseRatios(r);
            clustering = distribution(p.value("clustering="), "gaussian(1..10)");
            add = distribution(p.value("add="), "fixed(1)");
            String ks = p.value("keysize=", "[0-9]+");
            keySize = ks == null ? 10 : Integer.parseInt(ks);
        } else if (type == Command.USER) {
            String profile = p.value("profile=");
            Map<String, String> o = p.call("ops");
            if (profile == null || o == null) {
                throw SettingsException.invalidGroup(type.lowerName());
            }
            profiles = List.of(profile.split(","));
            Map<String, Double> parsed = new LinkedHashMap<>();
            o.forEach((k, v) -> parsed.put(k, Double.parseDouble(v)));
            ops = Collections.unmodifiableMap(parsed);
            clustering = distribution(p.value("clustering="), "gaussian(1..10)");
        }
        p.finish();

        long count = n == null ? -1 : DistributionSpec.parseLong(n);
        long duration = 0;
        TimeUnit unit = null;
        if (durationText != null) {
            duration = Long.parseLong(durationText.substring(0, durationText.length() - 1));
            unit = switch (durationText.charAt(durationText.length() - 1)) {
                case 's' -> TimeUnit.SECONDS;
                case 'm' -> TimeUnit.MINUTES;
                case 'h' -> TimeUnit.HOURS;
                default -> TimeUnit.DAYS;
            };
        }
        boolean converge = n == null && durationText == null;
        return new CommandSettings(type, count, duration, unit, noWarmup,
                truncate == null ? Truncate.NEVER : Truncate.valueOf(truncate.toUpperCase(Locale.ROOT)),
                cl == null ? "LOCAL_ONE" : cl.toUpperCase(Locale.ROOT),
                converge ? (err == null ? 0.02 : Double.parseDouble(err)) : -1,
                nMin == null ? 30 : Integer.parseInt(nMin), nMax == null ? 200 : Integer.parseInt(nMax),
                keySize, add, ratios, clustering, profiles, ops);
    }

    private static DistributionSpec distribution(String given, String dflt) {
        return DistributionSpec.parse(given == null ? dflt : given);
    }

    private static Map<Command, Double> defaultRatios() {
        Map<Command, Double> m = new EnumMap<>(Command.class);
        m.put(Command.READ, 1d);
        m.put(Command.WRITE, 1d);
        return Collections.unmodifiableMap(m);
    }

    private static Map<Command, Double> parseRatios(Map<String, String> given) {
        Map<Command, Double> m = new EnumMap<>(Command.class);
        List<String> bad = new ArrayList<>();
        given.forEach((k, v) -> {
            Command c = Command.find(k);
            if (c == null || !(c == Command.READ || c == Command.WRITE || c == Command.COUNTER_READ
                    || c == Command.COUNTER_WRITE)) {
                bad.add(k);
            } else {
                m.put(c, Double.parseDouble(v));
            }
        });
        if (!bad.isEmpty() || m.isEmpty()) {
            throw SettingsException.invalidGroup("mixed");
        }
        return Collections.unmodifiableMap(m);
    }
}
