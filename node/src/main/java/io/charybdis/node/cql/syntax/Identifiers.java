package io.charybdis.node.cql.syntax;

/** Quoting of identifiers for output (error messages, DESCRIBE). */
public final class Identifiers {
    private Identifiers() {
    }

    /** {@code name} as CQL: unquoted when it is a lower-case identifier and not a reserved keyword, else quoted. */
    public static String quoteIfNeeded(String name) {
        if (isUnquotedSafe(name)) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Whether {@code name} reads back as itself without quotes. */
    public static boolean isUnquotedSafe(String name) {
        if (name.isEmpty() || name.charAt(0) < 'a' || name.charAt(0) > 'z') {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        TokenType kw = TokenType.keyword(name);
        return (kw == null || kw.isUnreservedKeyword()) && !name.equals("true") && !name.equals("false");
    }

    /** Whether {@code word} (any case) is a reserved CQL keyword (or a boolean literal). */
    public static boolean isReservedKeyword(String word) {
        TokenType kw = TokenType.keyword(word);
        return kw != null && kw.isReserved() || word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false");
    }
}
