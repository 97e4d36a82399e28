package io.charybdis.stress.settings;

import java.util.List;

/**
 * {@code -errors}: each operation is tried {@code retries + 1} times; an operation that fails every try stops
 * the run unless {@code ignore} is given, in which case it is counted in the errors column.
 */
public record ErrorSettings(boolean ignore, int tries, boolean skipReadValidation) {

    static ErrorSettings parse(List<String> items) {
        Params p = new Params("-errors", items == null ? List.of() : items);
        String retries = p.value("retries=", "[0-9]+");
        boolean ignore = p.flag("ignore");
        boolean skip = p.flag("skip-read-validation");
        p.finish();
        return new ErrorSettings(ignore, 1 + (retries == null ? 9 : Integer.parseInt(retries)), skip);
    }
}
