package io.charybdis.stress.settings;

import java.util.List;
import java.util.Locale;

/**
 * {@code -log}: where the output also goes ({@code file=}), an HdrHistogram interval log ({@code hdrfile=}),
 * the reporting interval ({@code interval=1s}, {@code 500ms}, or plain seconds) and the verbosity.
 */
public record LogSettings(String level, boolean noSummary, boolean noSettings, String file, String hdrFile,
                          long intervalMillis) {

    static LogSettings parse(List<String> items) {
        Params p = new Params("-log", items == null ? List.of() : items);
        String level = p.value("level=", "minimal|normal|verbose");
        boolean noSummary = p.flag("no-summary");
        String file = p.value("file=");
        String hdr = p.value("hdrfile=");
        String interval = p.value("interval=", "[0-9]+(ms|s)?");
        boolean noSettings = p.flag("no-settings");
        p.finish();
        return new LogSettings(level == null ? "NORMAL" : level.toUpperCase(Locale.ROOT), noSummary, noSettings, file,
                hdr, interval == null ? 1000 : intervalMillis(interval));
    }

    static long intervalMillis(String s) {
        String v = s.toLowerCase(Locale.ROOT);
        if (v.endsWith("ms")) {
            return Long.parseLong(v.substring(0, v.length() - 2));
        }
        if (v.endsWith("s")) {
            v = v.substring(0, v.length() - 1);
        }
        return Long.parseLong(v) * 1000;
    }
}
