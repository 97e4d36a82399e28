package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Constants, terms, types, selectors and properties.
 *
 * <p>Implementation notes: binary operators loop (no recursion) and only consume an operator when the token after it
 * can start an operand, so that {@code SET l = [1] + l} ends the term before {@code + l}. A parenthesis starts a
 * type hint {@code (type) x} only when a type, {@code )} and the start of an operand follow (checked by
 * speculation), otherwise a tuple. A {@code {} } whose first entry is {@code name :} is a UDT literal.
 */
abstract class ExpressionParser extends ParserCore {

    ExpressionParser(String source) {
        super(source);
    }

    // ---- constants ----------------------------------------------------------------------------------------------

    private static boolean isNumeric(TokenType t) {
        return t == TokenType.INTEGER || t == TokenType.FLOAT || t == TokenType.DURATION || t == TokenType.K_NAN
                || t == TokenType.K_INFINITY;
    }

    final boolean isConstantStart(int k) {
        return switch (la(k)) {
            case STRING_LITERAL, INTEGER, FLOAT, BOOLEAN, DURATION, UUID, HEXNUMBER, K_NAN, K_INFINITY -> true;
            case MINUS -> isNumeric(la(k + 1));
            default -> false;
        };
    }

    /**
     * A floating-point constant as Cassandra's parser takes it: it must make a {@code BigDecimal} whose scale fits
     * an int, and a finite double (Cassandra works out the literal's preferred type from both while parsing, so a
     * constant beyond them fails the whole statement). The messages are those of the JDK Cassandra runs on.
     */
    static String checkedFloat(String text) {
        int e = Math.max(text.indexOf('e'), text.indexOf('E'));
        String mantissa = e < 0 ? text : text.substring(0, e);
        int dot = mantissa.indexOf('.');
        long fractionDigits = dot < 0 ? 0 : mantissa.length() - dot - 1;
        if (e >= 0) {
            java.math.BigInteger exp = new java.math.BigInteger(text.substring(e + 1).replace("+", ""));
            if (exp.bitLength() > 31) {
                throw new LiteralFormatException("Exponent overflow.");
            }
            long scale = fractionDigits - exp.longValue();
            if (scale > Integer.MAX_VALUE || scale < Integer.MIN_VALUE) {
                throw new LiteralFormatException("Scale out of range.");
            }
        }
        if (Double.isInfinite(Double.parseDouble(text))) {
            throw new LiteralFormatException("Character I is neither a decimal digit number, decimal point, nor "
                    + "\"e\" notation exponential mark.");
        }
        return text;
    }

    /** A constant Cassandra's parser fails on with a NumberFormatException (reported as such in a syntax error). */
    static final class LiteralFormatException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LiteralFormatException(String message) {
            super(message, null, false, false);
        }
    }

    final Term.Literal constant() {
        boolean negative = false;
        if (at(TokenType.MINUS) && isNumeric(la(1))) {
            next();
            negative = true;
        }
        Token t = peek();
        String sign = negative ? "-" : "";
        Term.Literal literal = switch (t.type()) {
            case STRING_LITERAL -> Term.Literal.string(t.text());
            case INTEGER -> Term.Literal.integer(sign + t.text());
            case FLOAT -> new Term.Literal(LiteralKind.FLOAT, checkedFloat(sign + t.text()));
            case DURATION -> new Term.Literal(LiteralKind.DURATION, sign + t.text());
            case BOOLEAN -> new Term.Literal(LiteralKind.BOOLEAN, lower(t.text()));
            case UUID -> new Term.Literal(LiteralKind.UUID, t.text());
            case HEXNUMBER -> new Term.Literal(LiteralKind.HEX, t.text());
            case K_NAN -> new Term.Literal(LiteralKind.FLOAT, "NaN");
            case K_INFINITY -> new Term.Literal(LiteralKind.FLOAT, sign + "Infinity");
            default -> throw noViableAlternative();
        };
        next();
        return literal;
    }

    /** {@code intValue}: an INTEGER (possibly negative) or a bind marker. */
    final Term intValue() {
        if (at(TokenType.QMARK) || at(TokenType.COLON)) {
            return marker();
        }
        if (at(TokenType.INTEGER) || at(TokenType.MINUS) && la(1) == TokenType.INTEGER) {
            return constant();
        }
        throw noViableAlternative();
    }

    final Term.BindMarker marker() {
        if (accept(TokenType.QMARK)) {
            return newMarker(null);
        }
        expect(TokenType.COLON);
        return newMarker(ident());
    }

    final boolean isMarkerStart(int k) {
        return la(k) == TokenType.QMARK || la(k) == TokenType.COLON && isIdent(k + 1);
    }

    // ---- terms --------------------------------------------------------------------------------------------------

    final boolean startsSimpleTerm(int k) {
        return switch (la(k)) {
            case K_NULL, QMARK, LBRACKET, LBRACE, LPAREN -> true;
            case COLON -> isIdent(k + 1);
            case K_CAST -> la(k + 1) == TokenType.LPAREN || isFunctionCallStart(k);
            default -> isConstantStart(k) || isFunctionCallStart(k);
        };
    }

    final boolean startsTerm(int k) {
        return la(k) == TokenType.MINUS || startsSimpleTerm(k);
    }

    final Term term() {
        enter();
        Term left = termMultiplication();
        while ((at(TokenType.PLUS) || at(TokenType.MINUS)) && startsTerm(1)) {
            ArithmeticOperator op = next().type() == TokenType.PLUS ? ArithmeticOperator.ADD
                    : ArithmeticOperator.SUBTRACT;
            left = new Term.BinaryOp(op, left, termMultiplication());
        }
        if (neverFollowsValue(la(0))) {
            // the operator loops after a term predict with the tokens that may follow it: a name or a constant
            // right after a term is no alternative of theirs
            throw noViableAlternative(peek(), peek());
        }
        leave();
        return left;
    }

    /**
     * Tokens that can never follow a complete term or selector: names and constants ({@code VALUES (1, 2 3)},
     * {@code SELECT k v}). Cassandra's prediction after a term fails on them ("no viable alternative").
     */
    static boolean neverFollowsValue(TokenType t) {
        return switch (t) {
            case IDENT, QUOTED_NAME, EMPTY_QUOTED_NAME, STRING_LITERAL, INTEGER, FLOAT, DURATION, UUID, HEXNUMBER,
                 BOOLEAN, QMARK -> true;
            default -> false;
        };
    }

    /**
     * A name where a term is due ({@code VALUES (1, v)}): Cassandra's prediction reads on as for a function call
     * {@code [ks.]f(} and fails at the first token that does not continue one; the snippet brackets the name.
     */
    final CqlSyntaxException nameInTerm() {
        Token start = peek();
        int k = 1;
        if (la(1) == TokenType.DOT) {
            k = isFunctionNamePart(2) ? 3 : 2;
        }
        return noViableAlternative(start, peek(k));
    }

    private Term termMultiplication() {
        Term left = termGroup();
        while (true) {
            ArithmeticOperator op = multiplicative(la(0));
            if (op == null || !startsTerm(1)) {
                return left;
            }
            next();
            left = new Term.BinaryOp(op, left, termGroup());
        }
    }

    static ArithmeticOperator multiplicative(TokenType t) {
        return switch (t) {
            case STAR -> ArithmeticOperator.MULTIPLY;
            case SLASH -> ArithmeticOperator.DIVIDE;
            case PERCENT -> ArithmeticOperator.MODULO;
            default -> null;
        };
    }

    private Term termGroup() {
        if (at(TokenType.MINUS) && !isConstantStart(0)) {
            next();
            return new Term.Negation(simpleTerm());
        }
        return simpleTerm();
    }

    final Term simpleTerm() {
        enter();
        Term result;
        Token t = peek();
        switch (t.type()) {
            case LPAREN -> {
                CqlTypeSyntax hint = attempt(() -> {
                    next();
                    CqlTypeSyntax type = type();
                    expect(TokenType.RPAREN);
                    if (!startsSimpleTerm(0)) {
                        throw noViableAlternative();
                    }
                    return type;
                });
                result = hint != null ? new Term.TypeCast(hint, simpleTerm()) : new Term.TupleLiteral(tuple());
            }
            case LBRACKET -> {
                next();
                List<Term> elements = new ArrayList<>();
                if (!at(TokenType.RBRACKET)) {
                    do {
                        elements.add(term());
                    } while (accept(TokenType.COMMA));
                }
                expect(TokenType.RBRACKET);
                result = new Term.ListLiteral(elements);
            }
            case LBRACE -> result = bracesLiteral();
            case K_NULL -> {
                next();
                result = Term.Literal.NULL;
            }
            case QMARK, COLON -> result = marker();
            default -> {
                if (t.type() == TokenType.K_CAST && la(1) == TokenType.LPAREN) {
                    next();
                    next();
                    Term inner = simpleTerm();
                    expect(TokenType.K_AS);
                    CqlTypeSyntax.Native type = nativeType();
                    expect(TokenType.RPAREN);
                    result = new Term.Cast(inner, type);
                } else if (isConstantStart(0)) {
                    result = constant();
                } else if (isFunctionCallStart(0)) {
                    QualifiedName fn = functionName();
                    expect(TokenType.LPAREN);
                    List<Term> args = new ArrayList<>();
                    if (!at(TokenType.RPAREN)) {
                        if (!startsTerm(0)) {
                            throw mismatched(TokenType.RPAREN); // the arguments are optional: ')' is due
                        }
                        do {
                            args.add(term());
                        } while (accept(TokenType.COMMA));
                    }
                    expect(TokenType.RPAREN);
                    result = new Term.FunctionCall(fn, args);
                } else if (isIdent(0) || isFunctionNamePart(0)) {
                    throw nameInTerm();
                } else {
                    throw noViableAlternative();
                }
            }
        }
        leave();
        return result;
    }

    /** {@code ( term [, term]* )}. */
    final List<Term> tuple() {
        expect(TokenType.LPAREN);
        List<Term> elements = new ArrayList<>();
        do {
            elements.add(term());
        } while (accept(TokenType.COMMA));
        expect(TokenType.RPAREN);
        return elements;
    }

    private Term bracesLiteral() {
        expect(TokenType.LBRACE);
        if (accept(TokenType.RBRACE)) {
            return new Term.EmptyBraces();
        }
        if (isIdent(0) && la(1) == TokenType.COLON) {
            Map<String, Term> fields = new LinkedHashMap<>();
            do {
                String field = ident();
                expect(TokenType.COLON);
                fields.put(field, term());
            } while (accept(TokenType.COMMA));
            expect(TokenType.RBRACE);
            return new Term.UdtLiteral(fields);
        }
        Term first = term();
        Term result;
        if (accept(TokenType.COLON)) {
            List<Map.Entry<Term, Term>> entries = new ArrayList<>();
            entries.add(Map.entry(first, term()));
            while (accept(TokenType.COMMA)) {
                Term k = term();
                expect(TokenType.COLON);
                entries.add(Map.entry(k, term()));
            }
            result = new Term.MapLiteral(entries);
        } else {
            List<Term> elements = new ArrayList<>();
            elements.add(first);
            while (accept(TokenType.COMMA)) {
                elements.add(term());
            }
            result = new Term.SetLiteral(elements);
        }
        expect(TokenType.RBRACE);
        return result;
    }

    // ---- types --------------------------------------------------------------------------------------------------

    final CqlTypeSyntax.Native nativeType() {
        Token t = peek();
        if (!t.type().isNativeType()) {
            throw noViableAlternative();
        }
        next();
        return new CqlTypeSyntax.Native(CqlTypeSyntax.NativeType.valueOf(t.type().name().substring(2)));
    }

    final CqlTypeSyntax type() {
        enter();
        CqlTypeSyntax result;
        Token t = peek();
        boolean angle = la(1) == TokenType.LT;
        if (t.type().isNativeType() && la(1) != TokenType.DOT) {
            result = nativeType();
        } else if (t.type() == TokenType.K_MAP && angle) {
            next();
            next();
            CqlTypeSyntax key = type();
            expect(TokenType.COMMA);
            CqlTypeSyntax value = type();
            expect(TokenType.GT);
            result = new CqlTypeSyntax.MapType(key, value);
        } else if ((t.type() == TokenType.K_LIST && angle) || t.type() == TokenType.K_SET) {
            next();
            expect(TokenType.LT);
            CqlTypeSyntax element = type();
            expect(TokenType.GT);
            result = t.type() == TokenType.K_LIST ? new CqlTypeSyntax.ListType(element)
                    : new CqlTypeSyntax.SetType(element);
        } else if (t.type() == TokenType.K_FROZEN && angle) {
            next();
            next();
            CqlTypeSyntax inner = type();
            expect(TokenType.GT);
            result = new CqlTypeSyntax.Frozen(inner);
        } else if (t.type() == TokenType.K_TUPLE && angle) {
            next();
            next();
            List<CqlTypeSyntax> elements = new ArrayList<>();
            do {
                elements.add(type());
            } while (accept(TokenType.COMMA));
            expect(TokenType.GT);
            result = new CqlTypeSyntax.TupleType(elements);
        } else if (t.type() == TokenType.K_VECTOR && angle) {
            next();
            next();
            CqlTypeSyntax element = type();
            expect(TokenType.COMMA);
            Token dim = expect(TokenType.INTEGER);
            expect(TokenType.GT);
            result = new CqlTypeSyntax.VectorType(element, parseInt(dim));
        } else if (t.type() == TokenType.STRING_LITERAL) {
            next();
            result = new CqlTypeSyntax.Custom(t.text());
        } else {
            result = new CqlTypeSyntax.UserType(userTypeName());
        }
        leave();
        return result;
    }

    final int parseInt(Token t) {
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            // as Cassandra's parser action: the statement fails with the NumberFormatException
            throw new LiteralFormatException(e.getMessage());
        }
    }

    /** {@code ( type [, type]* )} or {@code ()}. */
    final List<CqlTypeSyntax> typeList() {
        expect(TokenType.LPAREN);
        List<CqlTypeSyntax> types = new ArrayList<>();
        if (!at(TokenType.RPAREN)) {
            do {
                types.add(type());
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RPAREN);
        return types;
    }

    // ---- selectors ----------------------------------------------------------------------------------------------

    /** {@code *} (empty list) or {@code selector [AS alias] [, ...]}. */
    final List<Selector.Item> selectors() {
        if (accept(TokenType.STAR)) {
            return List.of();
        }
        List<Selector.Item> items = new ArrayList<>();
        do {
            itemStart = pos;
            itemGroupEnd = -1;
            Selector s = selector();
            if (itemGroupEnd == pos) {
                // as Cassandra: an item written whole in one pair of parentheses is a tuple of one element or a
                // selector between parentheses, which it cannot tell apart (nor type); an operation's pair of
                // parentheses is counted by the operation
                s = s instanceof Selector.BinaryOp bo && bo.parentheses() > 0
                        ? new Selector.Parenthesized(new Selector.BinaryOp(bo.op(), bo.left(), bo.right(),
                        bo.parentheses() - 1))
                        : new Selector.Parenthesized(s);
            }
            String alias = accept(TokenType.K_AS) ? ident() : null;
            items.add(new Selector.Item(s, alias));
        } while (accept(TokenType.COMMA));
        return items;
    }

    /** Where the selection item being parsed starts, and where its first group ends when it is one in parentheses. */
    private int itemStart = -1;
    private int itemGroupEnd = -1;

    final boolean startsSelector(int k) {
        return la(k) == TokenType.MINUS || startsSelectorGroup(k);
    }

    private boolean startsSelectorGroup(int k) {
        return switch (la(k)) {
            case LPAREN, LBRACKET, LBRACE, K_NULL, QMARK -> true;
            case COLON -> isIdent(k + 1);
            default -> isConstantStart(k) || isCident(k) || isFunctionCallStart(k);
        };
    }

    /** {@code unaliasedSelector}. */
    final Selector selector() {
        enter();
        Selector left = selectionMultiplication();
        while ((at(TokenType.PLUS) || at(TokenType.MINUS)) && startsSelector(1)) {
            ArithmeticOperator op = next().type() == TokenType.PLUS ? ArithmeticOperator.ADD
                    : ArithmeticOperator.SUBTRACT;
            left = new Selector.BinaryOp(op, left, selectionMultiplication());
        }
        leave();
        return left;
    }

    private Selector selectionMultiplication() {
        Selector left = selectionGroup();
        while (true) {
            ArithmeticOperator op = multiplicative(la(0));
            if (op == null || !startsSelector(1)) {
                return left;
            }
            next();
            left = new Selector.BinaryOp(op, left, selectionGroup());
        }
    }

    private Selector selectionGroup() {
        if (at(TokenType.MINUS) && !isConstantStart(0)) {
            next();
            enter();
            boolean paren = at(TokenType.LPAREN);
            Selector operand = selectionGroup();
            Selector negated = new Selector.Negation(operand, paren && !(operand instanceof Selector.TypeHint));
            leave();
            return negated;
        }
        return selectorModifiers(selectionGroupWithoutField());
    }

    private Selector selectorModifiers(Selector receiver) {
        Selector s = receiver;
        while (true) {
            if (at(TokenType.DOT) && isIdent(1)) {
                next();
                s = new Selector.FieldAccess(s, ident());
            } else if (at(TokenType.LBRACKET)) {
                next();
                if (accept(TokenType.RANGE)) {
                    s = new Selector.SliceAccess(s, null, term());
                } else {
                    Term from = term();
                    if (accept(TokenType.RANGE)) {
                        s = new Selector.SliceAccess(s, from, at(TokenType.RBRACKET) ? null : term());
                    } else {
                        s = new Selector.ElementAccess(s, from);
                    }
                }
                expect(TokenType.RBRACKET);
            } else {
                return s;
            }
        }
    }

    private Selector selectionGroupWithoutField() {
        enter();
        Selector result;
        switch (la(0)) {
            case LPAREN -> {
                CqlTypeSyntax hint = attempt(() -> {
                    next();
                    CqlTypeSyntax type = type();
                    expect(TokenType.RPAREN);
                    if (!startsSelectorGroup(0) || at(TokenType.K_AS) && isIdent(1)) {
                        // (c) AS x: a selector in parentheses and its alias
                        throw noViableAlternative();
                    }
                    return type;
                });
                if (hint != null) {
                    boolean paren = at(TokenType.LPAREN);
                    result = new Selector.TypeHint(hint, selectionGroupWithoutField(), paren);
                } else {
                    int groupStart = pos;
                    next();
                    List<Selector> elements = new ArrayList<>();
                    boolean innerParen = at(TokenType.LPAREN);
                    do {
                        elements.add(literalElement());
                    } while (accept(TokenType.COMMA));
                    expect(TokenType.RPAREN);
                    if (elements.size() == 1 && elements.get(0) instanceof Selector.BinaryOp bo) {
                        result = new Selector.BinaryOp(bo.op(), bo.left(), bo.right(), bo.parentheses() + 1);
                    } else if (elements.size() == 1 && innerParen && elements.get(0) instanceof Selector.Parenthesized p) {
                        // ((x)): the inner pair is kept, the outer one is this group's
                        result = p;
                    } else {
                        result = elements.size() == 1 ? elements.get(0) : new Selector.TupleSelector(elements);
                    }
                    if (groupStart == itemStart && elements.size() == 1) {
                        itemGroupEnd = pos;
                    }
                }
            }
            case LBRACKET -> {
                next();
                List<Selector> elements = new ArrayList<>();
                if (!at(TokenType.RBRACKET)) {
                    do {
                        elements.add(literalElement());
                    } while (accept(TokenType.COMMA));
                }
                expect(TokenType.RBRACKET);
                result = new Selector.ListSelector(elements);
            }
            case LBRACE -> result = bracesSelector();
            default -> result = simpleSelector();
        }
        leave();
        return result;
    }

    /**
     * An element of a list, set, map or tuple literal of selectors; one written whole in parentheses
     * ({@code [(ck)]}) is kept {@link Selector.Parenthesized}.
     */
    private Selector literalElement() {
        boolean paren = at(TokenType.LPAREN);
        Selector s = selector();
        boolean whole = s instanceof Selector.Column || s instanceof Selector.Value || s instanceof Selector.FunctionCall
                || s instanceof Selector.WriteTime || s instanceof Selector.CountRows || s instanceof Selector.Cast
                || s instanceof Selector.ListSelector || s instanceof Selector.SetSelector
                || s instanceof Selector.MapOrUdtSelector || s instanceof Selector.Parenthesized;
        return paren && whole ? new Selector.Parenthesized(s) : s;
    }

    private Selector bracesSelector() {
        expect(TokenType.LBRACE);
        if (accept(TokenType.RBRACE)) {
            return new Selector.Value(new Term.EmptyBraces());
        }
        Selector first = literalElement();
        Selector result;
        if (accept(TokenType.COLON)) {
            List<Map.Entry<Selector, Selector>> entries = new ArrayList<>();
            entries.add(Map.entry(first, literalElement()));
            while (accept(TokenType.COMMA)) {
                Selector k = literalElement();
                expect(TokenType.COLON);
                entries.add(Map.entry(k, literalElement()));
            }
            result = new Selector.MapOrUdtSelector(entries);
        } else {
            List<Selector> elements = new ArrayList<>();
            elements.add(first);
            while (accept(TokenType.COMMA)) {
                elements.add(literalElement());
            }
            result = new Selector.SetSelector(elements);
        }
        expect(TokenType.RBRACE);
        return result;
    }

    private Selector simpleSelector() {
        TokenType t = la(0);
        boolean call = la(1) == TokenType.LPAREN;
        if (t == TokenType.K_COUNT && call && la(2) == TokenType.STAR) {
            pos += 3;
            expect(TokenType.RPAREN);
            return new Selector.CountRows();
        }
        if (call && (t == TokenType.K_WRITETIME || t == TokenType.K_MAXWRITETIME || t == TokenType.K_TTL)) {
            next();
            next();
            Selector column = selectorModifiers(new Selector.Column(cident()));
            expect(TokenType.RPAREN);
            Selector.WriteTimeKind kind = t == TokenType.K_TTL ? Selector.WriteTimeKind.TTL
                    : t == TokenType.K_WRITETIME ? Selector.WriteTimeKind.WRITETIME
                    : Selector.WriteTimeKind.MAXWRITETIME;
            return new Selector.WriteTime(kind, column);
        }
        if (call && t == TokenType.K_CAST) {
            next();
            next();
            Selector inner = selector();
            expect(TokenType.K_AS);
            CqlTypeSyntax.Native type = nativeType();
            expect(TokenType.RPAREN);
            return new Selector.Cast(inner, type);
        }
        if (isFunctionCallStart(0)) {
            QualifiedName fn = functionName();
            expect(TokenType.LPAREN);
            List<Selector> args = new ArrayList<>();
            if (!at(TokenType.RPAREN)) {
                if (!startsSelector(0)) {
                    throw mismatched(TokenType.RPAREN); // the arguments are optional: ')' is due
                }
                do {
                    args.add(selector());
                } while (accept(TokenType.COMMA));
            }
            expect(TokenType.RPAREN);
            return new Selector.FunctionCall(fn, args);
        }
        if (isConstantStart(0)) {
            return new Selector.Value(constant());
        }
        if (accept(TokenType.K_NULL)) {
            return new Selector.Value(Term.Literal.NULL);
        }
        if (isMarkerStart(0)) {
            return new Selector.Value(marker());
        }
        if (isCident(0)) {
            Token name = peek();
            if (neverFollowsValue(la(1))) {
                throw noViableAlternative(name, peek(1)); // SELECT k v: the name's prediction fails on v
            }
            return new Selector.Column(cident());
        }
        throw noViableAlternative();
    }

    // ---- properties ---------------------------------------------------------------------------------------------

    /** {@code name = value [AND name = value]*}. */
    final Properties properties() {
        List<Properties.Property> entries = new ArrayList<>();
        do {
            property(entries);
        } while (accept(TokenType.K_AND));
        return new Properties(entries);
    }

    /** One {@code name = constant | keyword | {map}}, added to {@code into}. */
    final void property(List<Properties.Property> into) {
        Token nameToken = peek();
        String name = ident();
        if (!at(TokenType.EQ)) {
            throw noViableAlternative(nameToken, peek()); // the property's prediction reads the name and fails
        }
        next();
        Term value;
        if (at(TokenType.LBRACE)) {
            value = propertyMap();
        } else if (isConstantStart(0)) {
            value = constant();
        } else if (la(0).isUnreservedKeyword()) {
            value = Term.Literal.string(next().text());
        } else {
            throw noViableAlternative();
        }
        for (Properties.Property p : into) {
            if (p.name().equals(name)) {
                throw invalid(nameToken, "Multiple definitions for property '" + name + "'");
            }
        }
        into.add(new Properties.Property(name, value));
    }

    /** {@code fullMapLiteral} whose keys and values must be constants. */
    final Term.MapLiteral propertyMap() {
        Token start = expect(TokenType.LBRACE);
        List<Map.Entry<Term, Term>> entries = new ArrayList<>();
        if (!at(TokenType.RBRACE)) {
            do {
                Term k = term();
                expect(TokenType.COLON);
                Term v = term();
                if (!(k instanceof Term.Literal)) {
                    throw invalid(start, "Invalid property name: " + k.toCql()
                            + (k instanceof Term.BindMarker ? " (bind variables are not supported in DDL queries)"
                            : ""));
                }
                if (!(v instanceof Term.Literal lv) || lv.kind() == LiteralKind.NULL) {
                    throw invalid(start, "Invalid property value: " + (v == Term.Literal.NULL ? "NULL" : v.toCql())
                            + " for property: " + k.toCql()
                            + (v instanceof Term.BindMarker ? " (bind variables are not supported in DDL queries)"
                            : ""));
                }
                String key = ((Term.Literal) k).text();
                for (Map.Entry<Term, Term> e : entries) {
                    if (((Term.Literal) e.getKey()).text().equals(key)) {
                        throw invalid(start, "Multiple definition for property " + key);
                    }
                }
                entries.add(Map.entry(k, v));
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RBRACE);
        return new Term.MapLiteral(entries);
    }
}
