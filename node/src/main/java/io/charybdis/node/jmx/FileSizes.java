package io.charybdis.node.jmx;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** Sizes as Cassandra's nodetool prints them (its FileUtils.stringifyFileSize): "104.87 KiB". */
public final class FileSizes {
    private FileSizes() {
    }

    public static String stringify(double value) {
        DecimalFormat df = new DecimalFormat("#.##", DecimalFormatSymbols.getInstance(Locale.ROOT));
        double kib = 1024, mib = kib * 1024, gib = mib * 1024, tib = gib * 1024;
        if (value >= tib) {
            return df.format(value / tib) + " TiB";
        }
        if (value >= gib) {
            return df.format(value / gib) + " GiB";
        }
        if (value >= mib) {
            return df.format(value / mib) + " MiB";
        }
        if (value >= kib) {
            return df.format(value / kib) + " KiB";
        }
        return df.format(value) + " bytes";
    }
}
