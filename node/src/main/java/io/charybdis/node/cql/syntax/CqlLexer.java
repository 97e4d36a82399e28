package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.List;

/**
 * Hand-written lexer for CQL, following Cassandra's Lexer.g.
 *
 * <p>Implementation notes: ANTLR picks the longest match and, on a tie, the rule defined first; the cases where that
 * matters are handled explicitly: a UUID ({@code 8-4-4-4-12} hex digits) wins over an identifier or integer starting
 * the same way; an ISO 8601 duration ({@code P1DT2H}, upper-case designators only) wins over an identifier of equal
 * length; keywords and booleans win over identifiers. As in Cassandra, a {@code -} directly followed by a digit
 * starts an INTEGER, FLOAT or DURATION ({@code 1-1} and {@code 1h-1m} are two constants, which the parser refuses);
 * a {@code -} elsewhere is its own token, and the parser folds it into a numeric constant that follows
 * ({@code - 1}, {@code -Infinity}). {@code 1..2} is INTEGER RANGE INTEGER. A lexer error becomes a LEX_ERROR token
 * in place of the token it broke, followed by EOF: as ANTLR's lexer runs as the parser asks for tokens, the error
 * is the statement's only if the parser gets that far (a parser error before it comes first). Lines are 1-based
 * and counted on {@code \n}; columns are 0-based.
 */
final class CqlLexer {
    private final String src;
    private final int len;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;
    private int lineStart;

    private CqlLexer(String src) {
        this.src = src;
        this.len = src.length();
    }

    static List<Token> tokenize(String src) {
        CqlLexer lexer = new CqlLexer(src);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        while (true) {
            int start = pos;
            try {
                skipWhitespaceAndComments();
                if (pos >= len) {
                    tokens.add(new Token(TokenType.EOF, "<EOF>", len, len, line, pos - lineStart));
                    return;
                }
                start = pos;
                lexToken();
            } catch (CqlSyntaxException e) {
                // ANTLR's lexer reports an error when the parser asks for the token: a parser error before it
                // comes first. The error stands where that token would be; nothing after it is ever read.
                tokens.add(new Token(TokenType.LEX_ERROR, e.getMessage(), start, start, e.line(), e.column()));
                tokens.add(new Token(TokenType.EOF, "<EOF>", len, len, line, len - lineStart));
                return;
            }
        }
    }

    private char at(int i) {
        return i < len ? src.charAt(i) : '\0';
    }

    private void skipWhitespaceAndComments() {
        while (pos < len) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '\n') {
                newline(pos);
                pos++;
            } else if ((c == '-' && at(pos + 1) == '-') || (c == '/' && at(pos + 1) == '/')) {
                while (pos < len && src.charAt(pos) != '\n' && src.charAt(pos) != '\r') {
                    pos++;
                }
            } else if (c == '/' && at(pos + 1) == '*') {
                int end = src.indexOf("*/", pos + 2);
                if (end < 0) {
                    advanceTo(len);
                    throw error("mismatched character '<EOF>' expecting '*'", line, pos - lineStart);
                }
                advanceTo(end + 2);
            } else {
                return;
            }
        }
    }

    private void newline(int at) {
        line++;
        lineStart = at + 1;
    }

    /** Moves to {@code target}, counting the newlines passed. */
    private void advanceTo(int target) {
        for (int i = pos; i < target; i++) {
            if (src.charAt(i) == '\n') {
                newline(i);
            }
        }
        pos = target;
    }

    private void lexToken() {
        int start = pos;
        int tokLine = line;
        int tokCol = pos - lineStart;
        char c = src.charAt(pos);
        if (isHex(c)) {
            int u = matchUuid(pos);
            if (u > 0) {
                emit(TokenType.UUID, src.substring(start, u), start, u, tokLine, tokCol);
                return;
            }
        }
        if (isLetter(c)) {
            int identEnd = pos + 1;
            while (identEnd < len && isIdentPart(src.charAt(identEnd))) {
                identEnd++;
            }
            int durationEnd = c == 'P' ? matchIsoDuration(pos) : -1;
            if (durationEnd >= identEnd) {
                emit(TokenType.DURATION, src.substring(start, durationEnd), start, durationEnd, tokLine, tokCol);
                return;
            }
            String word = src.substring(start, identEnd);
            TokenType type;
            if (word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false")) {
                type = TokenType.BOOLEAN;
            } else {
                TokenType kw = TokenType.keyword(word);
                type = kw != null ? kw : TokenType.IDENT;
            }
            emit(type, word, start, identEnd, tokLine, tokCol);
            return;
        }
        if (isDigit(c)) {
            lexNumber(start, tokLine, tokCol, true);
            return;
        }
        switch (c) {
            case '\'' -> lexString(start, tokLine, tokCol);
            case '"' -> lexQuotedName(start, tokLine, tokCol);
            case '$' -> {
                if (at(pos + 1) != '$') {
                    throw error("no viable alternative at character '$'", tokLine, tokCol);
                }
                lexDollarString(start, tokLine, tokCol);
            }
            case ';' -> punct(TokenType.SEMICOLON, 1, tokLine, tokCol);
            case ',' -> punct(TokenType.COMMA, 1, tokLine, tokCol);
            case '.' -> punct(at(pos + 1) == '.' ? TokenType.RANGE : TokenType.DOT, at(pos + 1) == '.' ? 2 : 1,
                    tokLine, tokCol);
            case ':' -> punct(TokenType.COLON, 1, tokLine, tokCol);
            case '(' -> punct(TokenType.LPAREN, 1, tokLine, tokCol);
            case ')' -> punct(TokenType.RPAREN, 1, tokLine, tokCol);
            case '[' -> punct(TokenType.LBRACKET, 1, tokLine, tokCol);
            case ']' -> punct(TokenType.RBRACKET, 1, tokLine, tokCol);
            case '{' -> punct(TokenType.LBRACE, 1, tokLine, tokCol);
            case '}' -> punct(TokenType.RBRACE, 1, tokLine, tokCol);
            case '=' -> punct(TokenType.EQ, 1, tokLine, tokCol);
            case '?' -> punct(TokenType.QMARK, 1, tokLine, tokCol);
            case '*' -> punct(TokenType.STAR, 1, tokLine, tokCol);
            case '/' -> punct(TokenType.SLASH, 1, tokLine, tokCol);
            case '%' -> punct(TokenType.PERCENT, 1, tokLine, tokCol);
            case '<' -> punct(at(pos + 1) == '=' ? TokenType.LTE : TokenType.LT, at(pos + 1) == '=' ? 2 : 1,
                    tokLine, tokCol);
            case '>' -> punct(at(pos + 1) == '=' ? TokenType.GTE : TokenType.GT, at(pos + 1) == '=' ? 2 : 1,
                    tokLine, tokCol);
            case '+' -> punct(at(pos + 1) == '=' ? TokenType.PLUS_EQ : TokenType.PLUS, at(pos + 1) == '=' ? 2 : 1,
                    tokLine, tokCol);
            case '-' -> {
                if (isDigit(at(pos + 1))) {
                    // Cassandra's INTEGER, FLOAT and DURATION rules take a leading '-': 1-1 is two integers
                    pos++;
                    lexNumber(start, tokLine, tokCol, false);
                    return;
                }
                requireSignedSpecialFloat(tokLine, tokCol);
                punct(at(pos + 1) == '=' ? TokenType.MINUS_EQ : TokenType.MINUS,
                        at(pos + 1) == '=' ? 2 : 1, tokLine, tokCol);
            }
            case '!' -> {
                if (at(pos + 1) != '=') {
                    throw error("no viable alternative at character '!'", tokLine, tokCol);
                }
                punct(TokenType.NEQ, 2, tokLine, tokCol);
            }
            default -> throw error("no viable alternative at character '" + new String(Character.toChars(
                    src.codePointAt(pos))) + "'", tokLine, tokCol);
        }
    }

    /**
     * Cassandra's lexer reads {@code -NaN} and {@code -Infinity} (any case) as one token: a '-' directly followed by
     * an 'n' or an 'i' must go on to spell one of them ({@code -n}, {@code -inf} are errors at the first character
     * that does not). The parser folds the sign into the constant.
     */
    private void requireSignedSpecialFloat(int tokLine, int tokCol) {
        char next = Character.toLowerCase(at(pos + 1));
        String word = next == 'n' ? "nan" : next == 'i' ? "infinity" : null;
        if (word == null) {
            return;
        }
        for (int k = 1; k < word.length(); k++) {
            int i = pos + 1 + k;
            if (i >= len || Character.toLowerCase(src.charAt(i)) != word.charAt(k)) {
                String found = i >= len ? "<EOF>" : String.valueOf(src.charAt(i));
                throw error("mismatched character '" + found + "' expecting set null", tokLine, tokCol + 1 + k);
            }
        }
    }

    private void punct(TokenType type, int length, int tokLine, int tokCol) {
        emit(type, src.substring(pos, pos + length), pos, pos + length, tokLine, tokCol);
    }

    private void emit(TokenType type, String text, int start, int end, int tokLine, int tokCol) {
        tokens.add(new Token(type, text, start, end, tokLine, tokCol));
        advanceTo(end);
    }

    private void lexNumber(int start, int tokLine, int tokCol, boolean hexAllowed) {
        char c = src.charAt(pos);
        if (hexAllowed && c == '0' && (at(pos + 1) == 'x' || at(pos + 1) == 'X')) {
            int i = pos + 2;
            while (i < len && isHex(src.charAt(i))) {
                i++;
            }
            emit(TokenType.HEXNUMBER, src.substring(start, i), start, i, tokLine, tokCol);
            return;
        }
        int i = digits(pos);
        boolean isFloat = false;
        // as Cassandra's lexer: "1..2" is 1 RANGE 2, but "0...3." is the float 0. then RANGE
        if (at(i) == '.' && (at(i + 1) != '.' || at(i + 2) == '.')) {
            isFloat = true;
            i = digits(i + 1);
        }
        char e = at(i);
        if (e == 'e' || e == 'E') {
            int j = i + 1;
            if (at(j) == '+' || at(j) == '-') {
                j++;
            }
            if (isDigit(at(j))) {
                isFloat = true;
                i = digits(j);
            }
        }
        if (!isFloat) {
            int d = matchDurationUnits(i);
            if (d > 0) {
                emit(TokenType.DURATION, src.substring(start, d), start, d, tokLine, tokCol);
                return;
            }
        }
        emit(isFloat ? TokenType.FLOAT : TokenType.INTEGER, src.substring(start, i), start, i, tokLine, tokCol);
    }

    /** After the leading digits ending at {@code i}: the end of {@code unit (digits unit)*}, or -1. */
    private int matchDurationUnits(int i) {
        int end = unit(i);
        if (end < 0) {
            return -1;
        }
        while (isDigit(at(end))) {
            int next = unit(digits(end));
            if (next < 0) {
                break;
            }
            end = next;
        }
        return end;
    }

    private int unit(int i) {
        char a = Character.toLowerCase(at(i));
        char b = Character.toLowerCase(at(i + 1));
        if ((a == 'm' && (b == 'o' || b == 's')) || (a == 'u' && b == 's') || (a == '\u00b5' && b == 's')
                || (a == 'n' && b == 's')) {
            return i + 2;
        }
        return switch (a) {
            case 'y', 'w', 'd', 'h', 'm', 's' -> i + 1;
            default -> -1;
        };
    }

    private int digits(int i) {
        while (i < len && isDigit(src.charAt(i))) {
            i++;
        }
        return i;
    }

    /** {@code P...} ISO 8601 duration starting at {@code i}: its end, or -1. */
    private int matchIsoDuration(int i) {
        if (at(i) != 'P') {
            return -1;
        }
        int j = i + 1;
        if (matchesAlternativeFormat(j)) {
            return j + 19;
        }
        if (at(j) == 'T') {
            return matchTimeDesignators(j);
        }
        int k = digits(j);
        if (k == j) {
            return -1;
        }
        int end;
        switch (at(k)) {
            case 'W' -> {
                return k + 1;
            }
            case 'Y' -> end = optionalDesignator(optionalDesignator(k + 1, 'M'), 'D');
            case 'M' -> end = optionalDesignator(k + 1, 'D');
            case 'D' -> end = k + 1;
            default -> {
                return -1;
            }
        }
        if (at(end) == 'T') {
            int t = matchTimeDesignators(end);
            if (t > 0) {
                end = t;
            }
        }
        return end;
    }

    private int matchTimeDesignators(int j) {
        int k = digits(j + 1);
        if (k == j + 1) {
            return -1;
        }
        return switch (at(k)) {
            case 'H' -> optionalDesignator(optionalDesignator(k + 1, 'M'), 'S');
            case 'M' -> optionalDesignator(k + 1, 'S');
            case 'S' -> k + 1;
            default -> -1;
        };
    }

    /** {@code (DIGIT+ designator)?} at {@code i}. */
    private int optionalDesignator(int i, char designator) {
        int k = digits(i);
        return k > i && at(k) == designator ? k + 1 : i;
    }

    /** {@code DDDD-DD-DDTDD:DD:DD} at {@code j}. */
    private boolean matchesAlternativeFormat(int j) {
        String pattern = "dddd-dd-ddTdd:dd:dd";
        for (int k = 0; k < pattern.length(); k++) {
            char p = pattern.charAt(k);
            char c = at(j + k);
            if (p == 'd' ? !isDigit(c) : c != p) {
                return false;
            }
        }
        return true;
    }

    /**
     * A UUID at {@code i}: its end, or -1 when none starts there. Cassandra's lexer commits to a UUID once it has read
     * eight hex digits, a '-' and another hex digit; from there a character that does not fit is its error
     * ({@code mismatched character ')' expecting '-'}, or {@code expecting set null} where a hex digit was due).
     */
    private int matchUuid(int i) {
        for (int n = 0; n < 8; n++) {
            if (!isHex(at(i + n))) {
                return -1;
            }
        }
        if (at(i + 8) != '-' || !isHex(at(i + 9))) {
            return -1;
        }
        int[] groups = {8, 4, 4, 4, 12};
        int k = i;
        for (int g = 0; g < groups.length; g++) {
            for (int n = 0; n < groups[g]; n++, k++) {
                if (!isHex(at(k))) {
                    throw mismatchedCharacter(k, "set null");
                }
            }
            if (g < groups.length - 1) {
                if (at(k) != '-') {
                    throw mismatchedCharacter(k, "'-'");
                }
                k++;
            }
        }
        return k;
    }

    private CqlSyntaxException mismatchedCharacter(int at, String expecting) {
        int l = line;
        int ls = lineStart;
        for (int j = pos; j < at && j < len; j++) {
            if (src.charAt(j) == '\n') {
                l++;
                ls = j + 1;
            }
        }
        String found = at >= len ? "<EOF>" : String.valueOf(src.charAt(at));
        return error("mismatched character '" + found + "' expecting " + expecting, l, at - ls);
    }

    private void lexString(int start, int tokLine, int tokCol) {
        StringBuilder sb = new StringBuilder();
        int i = pos + 1;
        while (true) {
            if (i >= len) {
                advanceTo(len);
                throw error("mismatched character '<EOF>' expecting '''", line, pos - lineStart);
            }
            char c = src.charAt(i);
            if (c == '\'') {
                if (at(i + 1) == '\'') {
                    sb.append('\'');
                    i += 2;
                    continue;
                }
                break;
            }
            sb.append(c);
            i++;
        }
        emit(TokenType.STRING_LITERAL, sb.toString(), start, i + 1, tokLine, tokCol);
    }

    private void lexDollarString(int start, int tokLine, int tokCol) {
        int end = src.indexOf("$$", pos + 2);
        if (end < 0) {
            advanceTo(len);
            throw error("mismatched character '<EOF>' expecting '$'", line, pos - lineStart);
        }
        emit(TokenType.STRING_LITERAL, src.substring(pos + 2, end), start, end + 2, tokLine, tokCol);
    }

    private void lexQuotedName(int start, int tokLine, int tokCol) {
        StringBuilder sb = new StringBuilder();
        int i = pos + 1;
        while (true) {
            if (i >= len) {
                advanceTo(len);
                throw error("mismatched character '<EOF>' expecting '\"'", line, pos - lineStart);
            }
            char c = src.charAt(i);
            if (c == '"') {
                if (at(i + 1) == '"') {
                    sb.append('"');
                    i += 2;
                    continue;
                }
                break;
            }
            sb.append(c);
            i++;
        }
        TokenType type = sb.isEmpty() ? TokenType.EMPTY_QUOTED_NAME : TokenType.QUOTED_NAME;
        emit(type, sb.toString(), start, i + 1, tokLine, tokCol);
    }

    private CqlSyntaxException error(String message, int errLine, int errCol) {
        return new CqlSyntaxException("line " + errLine + ":" + errCol + " " + message, errLine, errCol);
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static boolean isIdentPart(char c) {
        return isLetter(c) || isDigit(c) || c == '_';
    }
}
