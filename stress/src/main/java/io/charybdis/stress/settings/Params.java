package io.charybdis.stress.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The parameters given to one command or option group ({@code write n=10 cl=ONE}, {@code -rate threads=4}),
 * consumed by name. Names match case-insensitively, as cassandra-stress matches them. Whatever no accessor
 * consumed is an error reported by {@link #finish()}.
 */
final class Params {

    private final String group;
    private final List<String> items;
    private final boolean[] used;

    Params(String group, List<String> items) {
        this.group = group;
        this.items = List.copyOf(items);
        this.used = new boolean[items.size()];
    }

    String group() {
        return group;
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    /** The text after {@code prefix} ({@code "n="}, {@code "threads>="}) or null if absent. */
    String value(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        for (int i = 0; i < items.size(); i++) {
            String s = items.get(i);
            if (!used[i] && s.toLowerCase(Locale.ROOT).startsWith(p)) {
                used[i] = true;
                return s.substring(prefix.length());
            }
        }
        return null;
    }

    /** The value after {@code prefix}, checked against {@code pattern} (a regex, matched case-insensitively). */
    String value(String prefix, String pattern) {
        String v = value(prefix);
        if (v != null && !Pattern.compile(pattern, Pattern.CASE_INSENSITIVE).matcher(v).matches()) {
            throw new SettingsException("Invalid value " + v + "; must match pattern " + pattern);
        }
        return v;
    }

    boolean flag(String name) {
        for (int i = 0; i < items.size(); i++) {
            if (!used[i] && items.get(i).equalsIgnoreCase(name)) {
                used[i] = true;
                return true;
            }
        }
        return false;
    }

    /**
     * A parenthesised sub-group such as {@code ratio(write=1,read=3)} or {@code replication(factor=3 strategy=X)}:
     * the key=value pairs inside, separated by commas or spaces, in order; null if the group is absent.
     */
    Map<String, String> call(String name) {
        String v = value(name + "(");
        if (v == null) {
            return null;
        }
        if (!v.endsWith(")")) {
            throw new SettingsException("Invalid " + name + " specification: " + name + "(" + v);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : v.substring(0, v.length() - 1).split("[,\\s]+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new SettingsException("Invalid " + name + " option: " + pair + "; expected key=value");
            }
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }

    /** Throws the cassandra-stress error for this group if any parameter was not understood. */
    void finish() {
        List<String> unused = unused();
        if (!unused.isEmpty()) {
            throw SettingsException.invalidGroup(group);
        }
    }

    List<String> unused() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (!used[i]) {
                out.add(items.get(i));
            }
        }
        return out;
    }
}
