package io.charybdis.stress.settings;

import java.util.ArrayList;
import java.util.List;

/** Splits a command line as a POSIX shell would for the quoting the tests use ('...' and "..."). */
final class ShellWords {

    private ShellWords() {
    }

    static String[] split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    sb.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(sb.toString());
                    sb.setLength(0);
                    inWord = false;
                }
            } else {
                sb.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(sb.toString());
        }
        return out.toArray(String[]::new);
    }
}
