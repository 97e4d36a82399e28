package io.charybdis.node.cql.syntax;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code WITH name = value AND ...} options of keyspaces, tables, views and indexes, in written order.
 * Values are constants ({@link Term.Literal}; a bare keyword value reads as a STRING literal) or maps of constants
 * ({@link Term.MapLiteral}, {@link Term.EmptyBraces}); the parser rejects anything else and duplicate names.
 */
public record Properties(List<Property> entries) {
    public static final Properties EMPTY = new Properties(List.of());

    public record Property(String name, Term value) {
    }

    public Properties {
        entries = List.copyOf(entries);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public boolean has(String name) {
        return get(name) != null;
    }

    /** The value of {@code name}, or null. */
    public Term get(String name) {
        for (Property p : entries) {
            if (p.name().equals(name)) {
                return p.value();
            }
        }
        return null;
    }

    /** The raw text of a constant property, or null when absent or a map. */
    public String getString(String name) {
        return get(name) instanceof Term.Literal l ? l.text() : null;
    }

    /** A map property as raw texts in written order, or null when absent or not a map. */
    public Map<String, String> getMap(String name) {
        Term t = get(name);
        if (t instanceof Term.EmptyBraces) {
            return Map.of();
        }
        if (!(t instanceof Term.MapLiteral m)) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<Term, Term> e : m.entries()) {
            out.put(((Term.Literal) e.getKey()).text(), ((Term.Literal) e.getValue()).text());
        }
        return Collections.unmodifiableMap(out);
    }
}
