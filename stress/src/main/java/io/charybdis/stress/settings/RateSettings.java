package io.charybdis.stress.settings;

import java.util.List;

/**
 * {@code -rate}: a fixed number of client threads, optionally throttled ({@code throttle=}/{@code limit=N/s}:
 * at most N op/s, latency measured from when an operation is sent) or scheduled ({@code fixed=N/s}: operation k
 * is due at start + k/N seconds and its latency counts from that intended start); or auto mode, which steps the
 * thread count from {@code threads>=} up to {@code threads<=} while the throughput keeps improving.
 */
public record RateSettings(boolean auto, int threads, int minThreads, int maxThreads, long opsPerSecond,
                           boolean fixed, boolean autoStopOnSaturation) {

    public static RateSettings threads(int n) {
        return new RateSettings(false, n, n, n, 0, false, false);
    }

    static RateSettings parse(List<String> items, CommandSettings command) {
        if (items == null) {
            if (command.type().isWrite() && command.count() > 0) {
                return threads(200);
            }
            return new RateSettings(true, 0, 4, 1000, 0, false, true);
        }
        Params p = new Params("-rate", items);
        try {
            String threads = p.value("threads=", "[0-9]+");
            String throttle = p.value("throttle=", "[0-9]+/s");
            String limit = p.value("limit=", "[0-9]+/s");
            String fixed = p.value("fixed=", "[0-9]+/s");
            String min = p.value("threads>=", "[0-9]+");
            String max = p.value("threads<=", "[0-9]+");
            boolean auto = p.flag("auto");
            p.finish();
            int limits = (throttle != null ? 1 : 0) + (limit != null ? 1 : 0) + (fixed != null ? 1 : 0);
            if (threads != null) {
                if (min != null || max != null || auto || limits > 1) {
                    throw SettingsException.invalidGroup("-rate");
                }
                String rate = fixed != null ? fixed : throttle != null ? throttle : limit;
                long ops = rate == null ? 0 : Long.parseLong(rate.substring(0, rate.length() - 2));
                int n = Integer.parseInt(threads);
                if (n <= 0) {
                    throw SettingsException.invalidGroup("-rate");
                }
                return new RateSettings(false, n, n, n, ops, fixed != null, false);
            }
            if (limits > 0) {
                throw SettingsException.invalidGroup("-rate");
            }
            int lo = min == null ? 4 : Integer.parseInt(min);
            int hi = max == null ? 1000 : Integer.parseInt(max);
            if (lo <= 0 || hi < lo) {
                throw SettingsException.invalidGroup("-rate");
            }
            return new RateSettings(true, 0, lo, hi, 0, false, auto);
        } catch (NumberFormatException e) {
            throw SettingsException.invalidGroup("-rate");
        }
    }
}
