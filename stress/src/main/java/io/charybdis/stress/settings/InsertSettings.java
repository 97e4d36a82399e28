package io.charybdis.stress.settings;

import io.charybdis.stress.dist.DistributionSpec;
import io.charybdis.stress.dist.RatioSpec;
import java.util.List;
import java.util.Locale;

/**
 * {@code -insert}: how user-profile inserts split and batch partition updates. Ratio distributions are written
 * {@code DIST/divisor}, e.g. {@code select-ratio=fixed(1)/10}. {@code partitions}, {@code batchType} and
 * {@code selectRatio} are null when not given (the profile's {@code insert:} section, or its defaults, apply).
 */
public record InsertSettings(DistributionSpec revisit, DistributionSpec visits, DistributionSpec partitions,
                             String batchType, RatioSpec selectRatio, RatioSpec rowPopulationRatio) {

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
            return new InsertSettings(DistributionSpec.parse(revisit == null ? "uniform(1..1M)" : revisit),
                    DistributionSpec.parse(visits == null ? "fixed(1)" : visits),
                    partitions == null ? null : DistributionSpec.parse(partitions),
                    batch == null ? null : batch.toUpperCase(Locale.ROOT),
                    select == null ? null : RatioSpec.parse(select), rowPop == null ? null : RatioSpec.parse(rowPop));
        } catch (SettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), "-insert");
        }
    }
}
