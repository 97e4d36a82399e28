package io.charybdis.stress.settings;

import io.charybdis.stress.dist.DistributionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code -col}: the regular columns of the predefined tables (names C0..C4 by default) and the size of each
 * value ({@code size=}, 34 bytes by default) and how many columns each write touches ({@code n=}).
 */
public record ColumnSettings(List<String> names, DistributionSpec count, DistributionSpec size, boolean slice,
                             int superColumns, String comparator, String timestamp) {

    public int maxColumnsPerKey() {
        return (int) count.max();
    }

    public boolean variableColumnCount() {
        return count.min() != count.max();
    }

    static ColumnSettings parse(List<String> items) {
        Params p = new Params("-col", items == null ? List.of() : items);
        try {
            String names = p.value("names=");
            String n = p.value("n=");
            boolean slice = p.flag("slice");
            String sup = p.value("super=", "[0-9]+");
            String comparator = p.value("comparator=");
            String timestamp = p.value("timestamp=", "[0-9]+");
            String size = p.value("size=");
            p.finish();
            if (names != null && n != null) {
                throw SettingsException.invalidGroup("-col");
            }
            DistributionSpec sizeSpec = DistributionSpec.parse(size == null ? "fixed(34)" : size);
            List<String> nameList;
            DistributionSpec countSpec;
            if (names != null) {
                nameList = List.of(names.split(","));
                countSpec = DistributionSpec.fixed(nameList.size());
            } else {
                countSpec = DistributionSpec.parse(n == null ? "fixed(5)" : n);
                if (countSpec.min() < 1) {
                    throw SettingsException.invalidGroup("-col");
                }
                nameList = new ArrayList<>();
                for (int i = 0; i < countSpec.max(); i++) {
                    nameList.add("C" + i);
                }
                nameList = List.copyOf(nameList);
            }
            return new ColumnSettings(nameList, countSpec, sizeSpec, slice, sup == null ? 0 : Integer.parseInt(sup),
                    comparator == null ? "AsciiType" : comparator, timestamp);
        } catch (SettingsException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), "-col");
        }
    }
}
