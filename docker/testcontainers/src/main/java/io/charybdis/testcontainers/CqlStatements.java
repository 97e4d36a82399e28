package io.charybdis.testcontainers;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a CQL script into statements as {@code cqlsh -f} reads it: on {@code ;} outside {@code 'strings'} (with
 * {@code ''} escapes), {@code "identifiers"}, {@code $$bodies$$} and comments ({@code --}, {@code //},
 * {@code /* *}{@code /}), which are dropped. (The same rules as charybdis-embedded's CqlScript; this module does not
 * depend on the node.)
 */
final class CqlStatements {

    private CqlStatements() {
    }

    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            char next = i + 1 < n ? text.charAt(i + 1) : 0;
            if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                current.append(' ');
            } else if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < n) {
                    if (text.charAt(end) == c) {
                        if (end + 1 < n && text.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(end + 1, n);
                current.append(text, i, end);
                i = end;
            } else if (c == '$' && next == '$') {
                int end = text.indexOf("$$", i + 2);
                end = end < 0 ? n : end + 2;
                current.append(text, i, end);
                i = end;
            } else if (c == ';') {
                add(out, current);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        add(out, current);
        return List.copyOf(out);
    }

    private static void add(List<String> out, StringBuilder statement) {
        String s = statement.toString().strip();
        if (!s.isEmpty()) {
            out.add(s);
        }
        statement.setLength(0);
    }
}
