package io.charybdis.stress.settings;

import io.charybdis.stress.dist.DistributionSpec;
import java.util.List;
import java.util.Locale;

/**
 * {@code -pop}: which partition seeds the operations visit. Either a sequence ({@code seq=1..N}, shared by all
 * threads so each seed is visited once per pass) or a distribution sampled independently by each thread. Without
 * {@code -pop}: {@code seq=1..N} for write, counter_write and a user command that only inserts, else
 * {@code dist=gaussian(1..N)}, N being n= or 1,000,000.
 *
 * @param distribution the seeds: a SEQ spec for {@code seq=}
 * @param wrap         for a sequence: start again after the last seed (false with {@code no-wrap})
 * @param order        ARBITRARY, SORTED or SHUFFLED (intra-partition order; no effect on single-row partitions)
 */
public record PopulationSettings(DistributionSpec distribution, boolean sequential, boolean wrap,
                                 DistributionSpec readLookback, String order) {

    static PopulationSettings parse(List<String> items, CommandSettings command) {
        if (items == null) {
            long limit = command.count() <= 0 ? 1_000_000 : command.count();
            if (command.type().isWrite() || insertOnly(command)) {
                return new PopulationSettings(DistributionSpec.parse("seq(1.." + limit + ")"), true, true, null, "ARBITRARY");
            }
            return new PopulationSettings(DistributionSpec.parse("gaussian(1.." + limit + ")"), false, false, null, "ARBITRARY");
        }
        Params p = new Params("-pop", items);
        try {
            String seq = p.value("seq=");
            String dist = p.value("dist=");
            boolean noWrap = p.flag("no-wrap");
            String lookback = p.value("read-lookback=");
            String contents = p.value("contents=", "sorted|shuffled");
            p.finish();
            if ((seq == null) == (dist == null) || (seq == null && (noWrap || lookback != null))) {
                throw SettingsException.invalidGroup("-pop");
            }
            String order = contents == null ? "ARBITRARY" : contents.toUpperCase(Locale.ROOT);
            if (seq != null) {
                long[] r = DistributionSpec.parseRange(seq);
                return new PopulationSettings(DistributionSpec.parse("seq(" + r[0] + ".." + r[1] + ")"), true, !noWrap,
                        lookback == null ? null : DistributionSpec.parse(lookback), order);
            }
            return new PopulationSettings(DistributionSpec.parse(dist), false, false, null, order);
        } catch (SettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), "-pop");
        }
    }

    /** A user command whose only operations are inserts: like write, it visits the population in sequence. */
    private static boolean insertOnly(CommandSettings command) {
        return command.type() == Command.USER && !command.ops().isEmpty() && command.ops().keySet().stream()
                .map(k -> k.toLowerCase(Locale.ROOT)).allMatch(k -> k.equals("insert") || k.endsWith(".insert"));
    }
}
