package io.charybdis.stress.settings;

import io.charybdis.stress.dist.DistributionSpec;
import java.util.List;
import java.util.Locale;

/**
 * {@code -insert}: how user-profile inserts split and batch partition updates. Ratio distributions are written
 * {@code DIST/divisor}, e.g. {@code select-ratio=fixed(1)/10}.
 */
public record InsertSettings(DistributionSpec revisit, DistributionSpec visits, DistributionSpec partitions,
                             String batchType, DistributionSpec selectRatio, double selectDivisor,
                             DistributionSpec rowPopulationRatio, double rowPopulationDivisor) {

    static InsertSettings parse(List<String> items) {
        Params p = new Params("-insert", items == null ? List.of() : items);
        try {
            String revisit = p.value("revisit=");
            String visits = p.value("visits=");
            String partitions = p.value("partitions=");
            String batch = p.value("batchtype=", "LOGGED|UNLOGGED|COUNTER");
            String select = p.value("select-ratio=");
            String rowPop = p.value("row-population-ratio=");
            p.finish();
            Object[] sel = ratio(select);
            Object[] row = ratio(rowPop);
            return new InsertSettings(DistributionSpec.parse(revisit == null ? "uniform(1..1M)" : revisit),
                    DistributionSpec.parse(visits == null ? "fixed(1)" : visits),
                    partitions == null ? null : DistributionSpec.parse(partitions),
                    batch == null ? null : batch.toUpperCase(Locale.ROOT),
                    (DistributionSpec) sel[0], (Double) sel[1], (DistributionSpec) row[0], (Double) row[1]);
        } catch (SettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), "-insert");
        }
    }

    private static Object[] ratio(String s) {
        if (s == null) {
            return new Object[] {null, 1d};
        }
        int slash = s.lastIndexOf('/');
        if (slash < 0 || slash < s.lastIndexOf(')')) {
            return new Object[] {DistributionSpec.parse(s), 1d};
        }
        return new Object[] {DistributionSpec.parse(s.substring(0, slash)), Double.parseDouble(s.substring(slash + 1))};
    }
}
