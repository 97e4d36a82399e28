package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Token cursor, error reporting, speculation and names, shared by the layers of the recursive-descent parser
 * ({@link ExpressionParser} &lt; {@link DmlParser} &lt; {@link DdlParser} &lt; {@link StatementParser}).
 *
 * <p>Implementation notes: errors read like ANTLR's as Cassandra reports them: {@code line L:C message (snippet)}.
 * The snippet is Cassandra's ErrorCollector's: it starts ten tokens before the offending one, counting the hidden
 * ones (each run of whitespace, each comment), ends with the offending token in brackets (or a little later where
 * ANTLR had looked further ahead), joins the lines without their line breaks, and measures tokens by their text
 * (string literals and quoted names without their quotes). At the end of the input, ANTLR's EOF token has no
 * position: the message reads {@code line 0:-1}, and no snippet is shown where the bracketed or the last token is EOF
 * (the exception still carries the position). A failed prediction ({@link #noViableAlternative(Token, Token)}) names
 * the token it failed on but brackets the one it started from: ANTLR's stream index stays at the decision while its
 * DFA reads ahead, and Cassandra's ErrorCollector quotes from ten tokens before that index to two after it, never past
 * the furthest token read. Where Cassandra's grammar uses syntactic predicates ({@code (x)=>}), the parser speculates with
 * {@link #attempt}: it saves the cursor, the bind markers and the nesting depth, runs an alternative, and restores
 * all three if the alternative throws. Speculated alternatives never recurse into another speculation at the same
 * position, so parsing stays linear. Nesting (terms, selectors, types, relations) is bounded by {@link #MAX_DEPTH}
 * so that hostile input fails with a syntax error rather than a StackOverflowError.
 */
abstract class ParserCore {
    static final int MAX_DEPTH = 100;

    final String source;
    final List<Token> tokens;
    int pos;
    int depth;
    final List<Term.BindMarker> markers = new ArrayList<>();

    ParserCore(String source) {
        this.source = source;
        this.tokens = CqlLexer.tokenize(source);
    }

    // ---- cursor -------------------------------------------------------------------------------------------------

    final Token peek() {
        return checked(tokens.get(pos));
    }

    final Token peek(int k) {
        return checked(tokens.get(Math.min(pos + k, tokens.size() - 1)));
    }

    /** A token the parser reads; reading where the lexer failed reports the lexer's error. */
    private static Token checked(Token t) {
        if (t.type() == TokenType.LEX_ERROR) {
            throw CqlSyntaxException.lexical(t.text(), t.line(), t.column());
        }
        return t;
    }

    final TokenType la(int k) {
        return peek(k).type();
    }

    final boolean at(TokenType type) {
        return peek().type() == type;
    }

    final boolean at(TokenType a, TokenType b) {
        return la(0) == a && la(1) == b;
    }

    final boolean accept(TokenType type) {
        if (at(type)) {
            pos++;
            return true;
        }
        return false;
    }

    final Token next() {
        Token t = peek();
        if (t.type() != TokenType.EOF) {
            pos++;
        }
        return t;
    }

    final Token expect(TokenType type) {
        if (!at(type)) {
            throw mismatched(type);
        }
        return next();
    }

    /** {@code IF NOT EXISTS} when present. */
    final boolean ifNotExists() {
        if (at(TokenType.K_IF)) {
            next();
            expect(TokenType.K_NOT);
            expect(TokenType.K_EXISTS);
            return true;
        }
        return false;
    }

    /** {@code IF EXISTS} when present. */
    final boolean ifExists() {
        if (at(TokenType.K_IF)) {
            next();
            expect(TokenType.K_EXISTS);
            return true;
        }
        return false;
    }

    // ---- nesting and speculation --------------------------------------------------------------------------------

    final void enter() {
        if (++depth > MAX_DEPTH) {
            throw errorAt(peek(), "too deeply nested (more than " + MAX_DEPTH + " levels) at input '"
                    + peek().displayText() + "'");
        }
    }

    final void leave() {
        depth--;
    }

    /** Runs {@code alternative}; if it fails, restores the parser and returns null. */
    final <T> T attempt(Supplier<T> alternative) {
        int savedPos = pos;
        int savedMarkers = markers.size();
        int savedDepth = depth;
        try {
            return alternative.get();
        } catch (CqlSyntaxException e) {
            if (e.invalidRequest() || e.isLexical()) {
                throw e;
            }
            pos = savedPos;
            markers.subList(savedMarkers, markers.size()).clear();
            depth = savedDepth;
            return null;
        }
    }

    final Term.BindMarker newMarker(String name) {
        Term.BindMarker m = new Term.BindMarker(markers.size(), name);
        markers.add(m);
        return m;
    }

    // ---- errors -------------------------------------------------------------------------------------------------

    final CqlSyntaxException mismatched(TokenType expected) {
        Token t = peek();
        return errorAt(t, "mismatched input '" + t.displayText() + "' expecting " + expected.displayName());
    }

    final CqlSyntaxException noViableAlternative() {
        Token t = peek();
        return errorAt(t, "no viable alternative at input '" + t.displayText() + "'");
    }

    /**
     * ANTLR's failed prediction: a decision that started at {@code start} read up to {@code fail} and found no
     * alternative. The message names {@code fail}; the snippet brackets {@code start} (where the parser stood) and
     * runs two tokens of ANTLR's stream (hidden ones included) past it, but never past {@code fail}, the furthest
     * token read.
     */
    final CqlSyntaxException noViableAlternative(Token start, Token fail) {
        String message = "no viable alternative at input '" + fail.displayText() + "'";
        String position = fail.type() == TokenType.EOF ? "line 0:-1 " : "line " + fail.line() + ":" + fail.column() + " ";
        Span to = twoAfter(start, fail);
        String snippet = to == null || start.type() == TokenType.EOF ? "" : snippet(start, to);
        return new CqlSyntaxException(position + message + snippet, fail.line(), fail.column());
    }

    /** The end of ANTLR's snippet: two tokens of the full stream after {@code start}, at most {@code fail}. */
    private Span twoAfter(Token start, Token fail) {
        int index = tokens.indexOf(start);
        int failIndex = tokens.indexOf(fail);
        int steps = 0;
        for (int i = index; i >= 0 && i < failIndex; i++) {
            Token nextReal = tokens.get(i + 1);
            List<Integer> hidden = hiddenTokenStarts(tokens.get(i).end(), nextReal.start());
            for (int h = 0; h < hidden.size(); h++) {
                if (++steps == 2) {
                    int from = hidden.get(h);
                    int end = h + 1 < hidden.size() ? hidden.get(h + 1) : nextReal.start();
                    return spanAt(from, end - from);
                }
            }
            if (++steps == 2 || i + 1 == failIndex) {
                return nextReal.type() == TokenType.EOF ? null
                        : new Span(nextReal.line(), nextReal.column(), nextReal.displayText().length());
            }
        }
        return fail.type() == TokenType.EOF ? null : new Span(fail.line(), fail.column(),
                fail.displayText().length());
    }

    private Span spanAt(int offset, int length) {
        int l = 1;
        int ls = 0;
        for (int i = 0; i < offset; i++) {
            if (source.charAt(i) == '\n') {
                l++;
                ls = i + 1;
            }
        }
        return new Span(l, offset - ls, length);
    }

    /** An ANTLR-style error at {@code t}: position prefix and query snippet. */
    final CqlSyntaxException errorAt(Token t, String message) {
        return errorAt(t, message, t, t);
    }

    /**
     * An ANTLR-style error reported at {@code t} whose snippet highlights {@code highlighted} and runs to {@code to}:
     * where ANTLR fails a prediction after looking ahead, it reports the token it failed on but quotes from where
     * the prediction started to the furthest token it read.
     */
    final CqlSyntaxException errorAt(Token t, String message, Token highlighted, Token to) {
        String position = t.type() == TokenType.EOF ? "line 0:-1 " : "line " + t.line() + ":" + t.column() + " ";
        return new CqlSyntaxException(position + message + snippet(highlighted, to), t.line(), t.column());
    }

    /** A grammar-level check failing at {@code t} (Cassandra's addRecognitionError): the message as is. */
    final CqlSyntaxException invalid(Token t, String message) {
        return new CqlSyntaxException(message, t.line(), t.column());
    }

    /** A token of ANTLR's stream, hidden ones included: where it starts, and the length of its text. */
    private record Span(int line, int column, int length) {
    }

    private String snippet(Token offending, Token to) {
        if (to.type() == TokenType.EOF) {
            return "";
        }
        return snippet(offending, new Span(to.line(), to.column(), to.displayText().length()));
    }

    private String snippet(Token offending, Span last) {
        int index = tokens.indexOf(offending);
        if (index < 0 || offending.type() == TokenType.EOF) {
            return "";
        }
        // ANTLR's token stream has the hidden tokens too (whitespace runs, comments): the snippet starts ten
        // tokens of it before the offending one. Walk back over real tokens and the hidden ones between them.
        int remaining = 10;
        int fromOffset = offending.start();
        for (int i = index; i > 0 && remaining > 0; i--) {
            Token prev = tokens.get(i - 1);
            List<Integer> hidden = hiddenTokenStarts(prev.end(), tokens.get(i).start());
            for (int h = hidden.size() - 1; h >= 0 && remaining > 0; h--, remaining--) {
                fromOffset = hidden.get(h);
            }
            if (remaining > 0) {
                fromOffset = prev.start();
                remaining--;
            }
        }
        if (remaining > 0) {
            List<Integer> leading = hiddenTokenStarts(0, tokens.get(0).start());
            int take = Math.min(remaining, leading.size());
            if (take > 0) {
                fromOffset = leading.get(leading.size() - take);
            }
        }
        int fromLine = 1;
        int fromLineStart = 0;
        for (int i = 0; i < fromOffset; i++) {
            if (source.charAt(i) == '\n') {
                fromLine++;
                fromLineStart = i + 1;
            }
        }
        Span from = new Span(fromLine, fromOffset - fromLineStart, 0);
        Span off = new Span(offending.line(), offending.column(), offending.displayText().length());
        String[] lines = source.split("\n");
        if (last.line() > lines.length || from.line() > last.line()) {
            return "";
        }
        boolean includeStart = from.line() == 1 && from.column() == 0;
        boolean includeEnd = last.line() == lines.length
                && last.column() + last.length() == lines[lines.length - 1].length();
        String toLine = lines[last.line() - 1];
        int toEnd = last.column() + last.length();
        lines[last.line() - 1] = toEnd >= toLine.length() ? toLine : toLine.substring(0, toEnd);
        String offLine = lines[off.line() - 1];
        int close = Math.min(off.column() + off.length(), offLine.length());
        int open = Math.min(off.column(), close);
        lines[off.line() - 1] = offLine.substring(0, open) + '[' + offLine.substring(open, close) + ']'
                + offLine.substring(close);
        String first = lines[from.line() - 1];
        lines[from.line() - 1] = first.substring(Math.min(from.column(), first.length()));
        StringBuilder sb = new StringBuilder(" (");
        if (!includeStart) {
            sb.append("...");
        }
        for (int i = from.line() - 1; i < last.line(); i++) {
            sb.append(lines[i]);
        }
        if (!includeEnd) {
            sb.append("...");
        }
        return sb.append(')').toString();
    }

    /** Where the hidden tokens of {@code source[start, end)} start: whitespace runs and comments. */
    private List<Integer> hiddenTokenStarts(int start, int end) {
        List<Integer> out = new ArrayList<>(2);
        int p = start;
        while (p < end) {
            out.add(p);
            char c = source.charAt(p);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                while (p < end && " \t\n\r".indexOf(source.charAt(p)) >= 0) {
                    p++;
                }
            } else if (c == '/' && p + 1 < end && source.charAt(p + 1) == '*') {
                int close = source.indexOf("*/", p + 2);
                p = close < 0 || close + 2 > end ? end : close + 2;
            } else {
                // -- or // comment, up to and including the line break
                while (p < end && source.charAt(p) != '\n' && source.charAt(p) != '\r') {
                    p++;
                }
                p = Math.min(end, p + 1);
            }
        }
        return out;
    }

    // ---- names --------------------------------------------------------------------------------------------------

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** IDENT, QUOTED_NAME or an unreserved keyword at offset {@code k}. */
    final boolean isIdent(int k) {
        TokenType t = la(k);
        return t == TokenType.IDENT || t == TokenType.QUOTED_NAME || t.isUnreservedKeyword();
    }

    /** {@code ident}: a name, lower-cased unless quoted. */
    final String ident() {
        Token t = peek();
        if (t.type() == TokenType.QUOTED_NAME) {
            next();
            return t.text();
        }
        if (t.type() == TokenType.IDENT || t.type().isUnreservedKeyword()) {
            next();
            return lower(t.text());
        }
        if (t.type() == TokenType.QMARK) {
            throw invalid(t, "Bind variables cannot be used for names");
        }
        throw noViableAlternative();
    }

    /** {@code cident}: like {@link #ident} but also the empty quoted name {@code ""}. */
    final String cident() {
        if (at(TokenType.EMPTY_QUOTED_NAME)) {
            next();
            return "";
        }
        return ident();
    }

    final boolean isCident(int k) {
        return la(k) == TokenType.EMPTY_QUOTED_NAME || isIdent(k);
    }

    /** {@code columnFamilyName}, {@code indexName}: {@code [ks.]name}. */
    final QualifiedName qualifiedName() {
        String first = ident();
        if (accept(TokenType.DOT)) {
            return new QualifiedName(first, ident());
        }
        return QualifiedName.of(first);
    }

    /** A function name's last part (allowedFunctionName). */
    final boolean isFunctionNamePart(int k) {
        TokenType t = la(k);
        return t == TokenType.IDENT || t == TokenType.QUOTED_NAME || t.isFunctionKeyword()
                || t == TokenType.K_TOKEN || t == TokenType.K_COUNT;
    }

    final String allowedFunctionName() {
        Token t = peek();
        if (!isFunctionNamePart(0)) {
            throw noViableAlternative();
        }
        next();
        return t.type() == TokenType.QUOTED_NAME ? t.text() : lower(t.text());
    }

    /** Whether a function call {@code [ks.]fn(} starts at offset {@code k}. */
    final boolean isFunctionCallStart(int k) {
        if (isFunctionNamePart(k) && la(k + 1) == TokenType.LPAREN) {
            return true;
        }
        return isIdent(k) && la(k + 1) == TokenType.DOT && isFunctionNamePart(k + 2)
                && la(k + 3) == TokenType.LPAREN;
    }

    final QualifiedName functionName() {
        if (isIdent(0) && la(1) == TokenType.DOT) {
            String ks = ident();
            next();
            return new QualifiedName(ks, allowedFunctionName());
        }
        return QualifiedName.of(allowedFunctionName());
    }

    private static final List<String> RESERVED_TYPE_NAMES =
            List.of("byte", "complex", "enum", "date", "interval", "macaddr", "bitstring");

    /** {@code non_type_ident}: a user type's own name. */
    final String nonTypeIdent() {
        Token t = peek();
        if (t.type() == TokenType.QUOTED_NAME) {
            next();
            return t.text();
        }
        if (t.type() == TokenType.IDENT) {
            next();
            String name = lower(t.text());
            if (RESERVED_TYPE_NAMES.contains(name)) {
                throw invalid(t, "Invalid (reserved) user type name " + name);
            }
            return name;
        }
        if (t.type().isBasicUnreserved() || t.type() == TokenType.K_KEY) {
            next();
            return lower(t.text());
        }
        throw noViableAlternative();
    }

    /** {@code userTypeName}: {@code [ks.]type}. */
    final QualifiedName userTypeName() {
        if (isIdent(0) && la(1) == TokenType.DOT) {
            String ks = ident();
            next();
            return new QualifiedName(ks, nonTypeIdent());
        }
        return QualifiedName.of(nonTypeIdent());
    }

    /** {@code roleName}: IDENT or keyword lower-cased; STRING_LITERAL and QUOTED_NAME keep case. */
    final String roleName() {
        Token t = peek();
        if (t.type() == TokenType.STRING_LITERAL || t.type() == TokenType.QUOTED_NAME) {
            next();
            return t.text();
        }
        if (t.type() == TokenType.QMARK) {
            throw invalid(t, "Bind variables cannot be used for role names");
        }
        return ident();
    }

    final boolean isRoleName(int k) {
        return la(k) == TokenType.STRING_LITERAL || isIdent(k);
    }
}
