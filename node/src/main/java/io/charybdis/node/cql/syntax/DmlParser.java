package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.List;

/** WHERE relations, IF conditions, SELECT, INSERT, UPDATE, DELETE, BATCH, USE, TRUNCATE. */
abstract class DmlParser extends ExpressionParser {

    DmlParser(String source) {
        super(source);
    }

    // ---- relations ----------------------------------------------------------------------------------------------

    final List<Relation> whereClause() {
        List<Relation> relations = new ArrayList<>();
        do {
            relations.add(relation());
        } while (accept(TokenType.K_AND));
        return relations;
    }

    final Operator relationType() {
        Operator op = relationTypeOrNull();
        if (op == null) {
            throw noViableAlternative();
        }
        return op;
    }

    private Operator relationTypeOrNull() {
        Operator op = switch (la(0)) {
            case EQ -> Operator.EQ;
            case LT -> Operator.LT;
            case LTE -> Operator.LTE;
            case GT -> Operator.GT;
            case GTE -> Operator.GTE;
            case NEQ -> Operator.NEQ;
            default -> null;
        };
        if (op != null) {
            next();
        }
        return op;
    }

    private Relation relation() {
        enter();
        Relation result;
        Token t = peek();
        if (t.type() == TokenType.IDENT && lower(t.text()).equals("expr") && la(1) == TokenType.LPAREN) {
            next();
            next();
            QualifiedName index = qualifiedName();
            expect(TokenType.COMMA);
            Term value = term();
            expect(TokenType.RPAREN);
            result = new Relation.CustomIndexExpression(index, value);
        } else if (t.type() == TokenType.K_TOKEN) {
            next();
            List<String> columns = tupleOfIdentifiers();
            if (accept(TokenType.K_BETWEEN)) {
                Term low = term();
                expect(TokenType.K_AND);
                result = new Relation.Token(columns, Operator.BETWEEN, new Term.TupleLiteral(List.of(low, term())));
            } else {
                Operator op = relationType();
                result = new Relation.Token(columns, op, term());
            }
        } else if (t.type() == TokenType.LPAREN) {
            if (isCident(1) && (la(2) == TokenType.COMMA || la(2) == TokenType.RPAREN)) {
                result = multiColumnRelation(tupleOfIdentifiers());
            } else {
                next();
                result = relation();
                expect(TokenType.RPAREN);
            }
        } else {
            columnToken = peek();
            result = singleColumnRelation(cident());
        }
        leave();
        return result;
    }

    /** The first token of the single-column relation being parsed (where Cassandra's prediction starts). */
    private Token columnToken;

    private Relation singleColumnRelation(String column) {
        if (accept(TokenType.LBRACKET)) {
            Term key = term();
            expect(TokenType.RBRACKET);
            Operator op = relationType();
            return new Relation.MapElement(column, key, op, term());
        }
        Operator op = relationTypeOrNull();
        if (op != null) {
            return new Relation.SingleColumn(column, op, term());
        }
        switch (la(0)) {
            case K_BETWEEN -> {
                next();
                Term low = term();
                expect(TokenType.K_AND);
                return new Relation.Between(column, low, term());
            }
            case K_LIKE -> {
                next();
                return new Relation.SingleColumn(column, Operator.LIKE, term());
            }
            case K_IS -> {
                next();
                expect(TokenType.K_NOT);
                expect(TokenType.K_NULL);
                return new Relation.IsNotNull(column);
            }
            case K_IN -> {
                next();
                if (!at(TokenType.LPAREN) && !isMarkerStart(0)) {
                    throw noViableAlternative(columnToken, peek()); // the relation's prediction read on past IN
                }
                return new Relation.In(column, Operator.IN, inValues());
            }
            case K_CONTAINS -> {
                next();
                return new Relation.SingleColumn(column,
                        accept(TokenType.K_KEY) ? Operator.CONTAINS_KEY : Operator.CONTAINS, term());
            }
            case K_NOT -> {
                next();
                if (accept(TokenType.K_IN)) {
                    return new Relation.In(column, Operator.NOT_IN, inValues());
                }
                expect(TokenType.K_CONTAINS);
                return new Relation.SingleColumn(column,
                        accept(TokenType.K_KEY) ? Operator.NOT_CONTAINS_KEY : Operator.NOT_CONTAINS, term());
            }
            default -> throw noViableAlternative();
        }
    }

    private Relation multiColumnRelation(List<String> columns) {
        if (at(TokenType.K_IN) || at(TokenType.K_NOT, TokenType.K_IN)) {
            Operator op = accept(TokenType.K_NOT) ? Operator.NOT_IN : Operator.IN;
            next();
            if (isMarkerStart(0)) {
                return new Relation.MultiColumnIn(columns, op, new InValues.Marker(marker()));
            }
            expect(TokenType.LPAREN);
            List<Term> values = new ArrayList<>();
            if (!at(TokenType.RPAREN)) {
                // as Cassandra's grammar: either a list of markers or a list of tuple literals, never both
                boolean markers = isMarkerStart(0);
                do {
                    if (!values.isEmpty() && isMarkerStart(0) != markers) {
                        throw noViableAlternative();
                    }
                    values.add(tupleOrMarker());
                } while (accept(TokenType.COMMA));
            }
            expect(TokenType.RPAREN);
            return new Relation.MultiColumnIn(columns, op, new InValues.Terms(values));
        }
        if (accept(TokenType.K_BETWEEN)) {
            Term low = tupleOrMarker();
            expect(TokenType.K_AND);
            return new Relation.MultiColumnBetween(columns, low, tupleOrMarker());
        }
        Operator op = relationType();
        return new Relation.MultiColumn(columns, op, tupleOrMarker());
    }

    /** {@code multiColumnValue}: a tuple literal or a bind marker. */
    private Term tupleOrMarker() {
        if (isMarkerStart(0)) {
            return marker();
        }
        if (!at(TokenType.LPAREN)) {
            throw noViableAlternative();
        }
        return new Term.TupleLiteral(tuple());
    }

    /** {@code ( cident [, cident]* )}. */
    final List<String> tupleOfIdentifiers() {
        expect(TokenType.LPAREN);
        List<String> names = new ArrayList<>();
        do {
            names.add(cident());
        } while (accept(TokenType.COMMA));
        expect(TokenType.RPAREN);
        return names;
    }

    /** After IN: {@code ( [term, ...] )} or a marker. */
    private InValues inValues() {
        if (isMarkerStart(0)) {
            return new InValues.Marker(marker());
        }
        expect(TokenType.LPAREN);
        List<Term> values = new ArrayList<>();
        if (!at(TokenType.RPAREN)) {
            do {
                values.add(term());
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RPAREN);
        return new InValues.Terms(values);
    }

    // ---- conditions ---------------------------------------------------------------------------------------------

    /** After IF: {@code EXISTS} (returns null) or conditions. */
    private List<Condition> conditionsOrExists() {
        if (at(TokenType.K_EXISTS) && !startsConditionRest(1)) {
            if (!endsStatement(1)) {
                // ANTLR looked past EXISTS to choose between IF EXISTS and a condition on a column named exists
                Token t = peek(1);
                throw errorAt(t, "no viable alternative at input '" + t.displayText() + "'", peek(), t);
            }
            next();
            return null;
        }
        List<Condition> conditions = new ArrayList<>();
        do {
            conditions.add(condition());
        } while (accept(TokenType.K_AND));
        return conditions;
    }

    /** Whether the token at offset {@code k} may follow a complete INSERT, UPDATE or DELETE. */
    private boolean endsStatement(int k) {
        return switch (la(k)) {
            case EOF, SEMICOLON, K_APPLY, K_INSERT, K_UPDATE, K_DELETE -> true;
            default -> false;
        };
    }

    private boolean startsConditionRest(int k) {
        return switch (la(k)) {
            case EQ, LT, LTE, GT, GTE, NEQ, K_IN, K_CONTAINS, LBRACKET, DOT -> true;
            default -> false;
        };
    }

    private Condition condition() {
        String column = cident();
        if (accept(TokenType.LBRACKET)) {
            Term element = term();
            expect(TokenType.RBRACKET);
            if (accept(TokenType.K_IN)) {
                return new Condition.ElementIn(column, element, inValues());
            }
            Operator op = relationType();
            return new Condition.Element(column, element, op, term());
        }
        if (accept(TokenType.DOT)) {
            String field = ident();
            if (accept(TokenType.K_IN)) {
                return new Condition.FieldIn(column, field, inValues());
            }
            Operator op = relationType();
            return new Condition.Field(column, field, op, term());
        }
        if (accept(TokenType.K_IN)) {
            return new Condition.In(column, inValues());
        }
        if (accept(TokenType.K_CONTAINS)) {
            return new Condition.Simple(column, accept(TokenType.K_KEY) ? Operator.CONTAINS_KEY : Operator.CONTAINS,
                    term());
        }
        Operator op = relationType();
        return new Condition.Simple(column, op, term());
    }

    // ---- SELECT -------------------------------------------------------------------------------------------------

    private record SelectClause(boolean distinct, List<Selector.Item> selectors) {
    }

    final SelectStatement select() {
        expect(TokenType.K_SELECT);
        SelectClause clause = null;
        boolean json = false;
        if (at(TokenType.K_JSON)) {
            clause = attempt(() -> {
                next();
                SelectClause c = selectClause();
                if (!at(TokenType.K_FROM)) {
                    throw noViableAlternative();
                }
                return c;
            });
            json = clause != null;
        }
        if (clause == null) {
            clause = selectClause();
        }
        expect(TokenType.K_FROM);
        QualifiedName table = qualifiedName();
        List<Relation> where = accept(TokenType.K_WHERE) ? whereClause() : List.of();
        List<Selector> groupBy = new ArrayList<>();
        if (accept(TokenType.K_GROUP)) {
            expect(TokenType.K_BY);
            do {
                groupBy.add(selector());
            } while (accept(TokenType.COMMA));
        }
        List<SelectStatement.Ordering> orderBy = new ArrayList<>();
        if (accept(TokenType.K_ORDER)) {
            expect(TokenType.K_BY);
            do {
                String column = cident();
                Term ann = null;
                if (at(TokenType.K_ANN, TokenType.K_OF)) {
                    pos += 2;
                    ann = term();
                }
                boolean descending = false;
                if (accept(TokenType.K_DESC)) {
                    descending = true;
                } else {
                    accept(TokenType.K_ASC);
                }
                orderBy.add(new SelectStatement.Ordering(column, ann, descending));
            } while (accept(TokenType.COMMA));
        }
        Term perPartitionLimit = null;
        if (accept(TokenType.K_PER)) {
            expect(TokenType.K_PARTITION);
            expect(TokenType.K_LIMIT);
            perPartitionLimit = intValue();
        }
        Term limit = accept(TokenType.K_LIMIT) ? intValue() : null;
        boolean allowFiltering = false;
        if (accept(TokenType.K_ALLOW)) {
            expect(TokenType.K_FILTERING);
            allowFiltering = true;
        }
        // ScyllaDB's extensions, which its drivers send: BYPASS CACHE (a hint), USING TIMEOUT d
        if (atWord(0, "bypass") && atWord(1, "cache")) {
            pos += 2;
        }
        Term timeout = null;
        if (at(TokenType.K_USING) && atWord(1, "timeout")) {
            pos += 2;
            timeout = term();
        }
        return new SelectStatement(table, json, clause.distinct(), clause.selectors(), where, groupBy, orderBy,
                perPartitionLimit, limit, allowFiltering, timeout);
    }

    private SelectClause selectClause() {
        if (at(TokenType.K_DISTINCT)) {
            List<Selector.Item> distinct = attempt(() -> {
                next();
                List<Selector.Item> items = selectors();
                if (!at(TokenType.K_FROM)) {
                    throw noViableAlternative();
                }
                return items;
            });
            if (distinct != null) {
                return new SelectClause(true, distinct);
            }
        }
        return new SelectClause(false, selectors());
    }

    // ---- INSERT, UPDATE, DELETE, BATCH --------------------------------------------------------------------------

    /** Whether the token {@code k} ahead is the identifier {@code word} (a ScyllaDB keyword Cassandra lacks). */
    private boolean atWord(int k, String word) {
        Token t = peek(k);
        return t.type() == TokenType.IDENT && t.text().equalsIgnoreCase(word);
    }

    /**
     * {@code USING TIMESTAMP t AND TTL n} ({@code timestampOnly}: DELETE's {@code USING TIMESTAMP t}), with ScyllaDB's
     * {@code TIMEOUT d} among them ({@code AND}-joined in any order).
     */
    private Attributes usingClause(boolean timestampOnly) {
        if (!accept(TokenType.K_USING)) {
            return Attributes.NONE;
        }
        Term timestamp = null;
        Term ttl = null;
        Term timeout = null;
        do {
            if (accept(TokenType.K_TIMESTAMP)) {
                timestamp = usingValue();
            } else if (!timestampOnly && accept(TokenType.K_TTL)) {
                ttl = usingValue();
            } else if (atWord(0, "timeout")) {
                next();
                timeout = term();
            } else if (timestampOnly) {
                throw mismatched(TokenType.K_TIMESTAMP);
            } else {
                throw noViableAlternative();
            }
        } while (at(TokenType.K_AND) && (!timestampOnly || atWord(1, "timeout")
                || (timeout != null && la(1) == TokenType.K_TIMESTAMP)) && accept(TokenType.K_AND));
        return new Attributes(timestamp, ttl, timeout);
    }

    /** The value of USING TIMESTAMP / TTL: Cassandra's parser has no viable alternative for anything else. */
    private Term usingValue() {
        if (at(TokenType.QMARK) || at(TokenType.COLON) || at(TokenType.INTEGER)
                || at(TokenType.MINUS) && la(1) == TokenType.INTEGER) {
            return intValue();
        }
        throw noViableAlternative();
    }

    final ModificationStatement insert() {
        expect(TokenType.K_INSERT);
        expect(TokenType.K_INTO);
        Token nameToken = peek();
        QualifiedName table = qualifiedName();
        if (table.keyspace() == null && !at(TokenType.LPAREN) && !at(TokenType.K_JSON)) {
            // whether the name is a keyspace's ([ks.]t) is predicted from the token after it: none fits
            throw noViableAlternative(nameToken, peek());
        }
        if (accept(TokenType.K_JSON)) {
            Term json;
            if (at(TokenType.STRING_LITERAL)) {
                json = Term.Literal.string(next().text());
            } else if (isMarkerStart(0)) {
                json = marker();
            } else {
                throw noViableAlternative();
            }
            boolean defaultUnset = false;
            if (accept(TokenType.K_DEFAULT)) {
                if (accept(TokenType.K_UNSET)) {
                    defaultUnset = true;
                } else if (!accept(TokenType.K_NULL)) {
                    throw noViableAlternative();
                }
            }
            boolean ifNotExists = ifNotExists();
            return new InsertJsonStatement(table, json, defaultUnset, ifNotExists, usingClause(false));
        }
        List<String> columns = tupleOfIdentifiers();
        expect(TokenType.K_VALUES);
        List<Term> values = tuple();
        boolean ifNotExists = ifNotExists();
        return new InsertStatement(table, columns, values, ifNotExists, usingClause(false));
    }

    final UpdateStatement update() {
        expect(TokenType.K_UPDATE);
        QualifiedName table = qualifiedName();
        Attributes attributes = usingClause(false);
        expect(TokenType.K_SET);
        List<Assignment> assignments = new ArrayList<>();
        do {
            assignments.add(assignment());
        } while (accept(TokenType.COMMA));
        expect(TokenType.K_WHERE);
        List<Relation> where = whereClause();
        boolean ifExists = false;
        List<Condition> conditions = List.of();
        if (accept(TokenType.K_IF)) {
            conditions = conditionsOrExists();
            ifExists = conditions == null;
            if (ifExists) {
                conditions = List.of();
            }
        }
        return new UpdateStatement(table, attributes, assignments, where, ifExists, conditions);
    }

    private Assignment assignment() {
        String column = cident();
        switch (la(0)) {
            case EQ -> {
                next();
                if (isCident(0) && !startsTerm(0)) {
                    Token other = peek();
                    String source = cident();
                    if (at(TokenType.INTEGER)) {
                        // as Cassandra: X = X -3 is lexed as X = X INTEGER(-3), and read as X = X + -3
                        boolean negative = peek().text().startsWith("-");
                        if (!source.equals(column)) {
                            throw invalid(other, "Only expressions of the form X = X " + (negative ? "-" : "+")
                                    + " <value> are supported.");
                        }
                        return new Assignment.Add(column, constant());
                    }
                    boolean plus = at(TokenType.PLUS);
                    if (!plus && !at(TokenType.MINUS)) {
                        throw noViableAlternative(other, peek()); // the operation's prediction read the name on
                    }
                    next();
                    if (!source.equals(column)) {
                        throw invalid(other, "Only expressions of the form X = X " + (plus ? "+" : "-")
                                + "<value> are supported.");
                    }
                    Term value = term();
                    return plus ? new Assignment.Add(column, value) : new Assignment.Subtract(column, value);
                }
                Term value = term();
                if (at(TokenType.PLUS) && isCident(1)) {
                    next();
                    Token other = peek();
                    if (!cident().equals(column)) {
                        throw invalid(other, "Only expressions of the form X = <value> + X are supported.");
                    }
                    return new Assignment.Prepend(column, value);
                }
                return new Assignment.SetValue(column, value);
            }
            case PLUS_EQ -> {
                next();
                return new Assignment.Add(column, term());
            }
            case MINUS_EQ -> {
                next();
                return new Assignment.Subtract(column, term());
            }
            case LBRACKET -> {
                next();
                Term key = term();
                expect(TokenType.RBRACKET);
                expect(TokenType.EQ);
                return new Assignment.SetElement(column, key, term());
            }
            case DOT -> {
                next();
                String field = ident();
                expect(TokenType.EQ);
                return new Assignment.SetField(column, field, term());
            }
            default -> throw noViableAlternative();
        }
    }

    final DeleteStatement delete() {
        expect(TokenType.K_DELETE);
        List<DeleteStatement.Target> targets = new ArrayList<>();
        if (!at(TokenType.K_FROM)) {
            do {
                String column = cident();
                if (accept(TokenType.LBRACKET)) {
                    Term element = term();
                    expect(TokenType.RBRACKET);
                    targets.add(new DeleteStatement.Target.Element(column, element));
                } else if (accept(TokenType.DOT)) {
                    targets.add(new DeleteStatement.Target.Field(column, ident()));
                } else {
                    targets.add(new DeleteStatement.Target.Column(column));
                }
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.K_FROM);
        QualifiedName table = qualifiedName();
        Attributes attributes = usingClause(true);
        expect(TokenType.K_WHERE);
        List<Relation> where = whereClause();
        boolean ifExists = false;
        List<Condition> conditions = List.of();
        if (accept(TokenType.K_IF)) {
            conditions = conditionsOrExists();
            ifExists = conditions == null;
            if (ifExists) {
                conditions = List.of();
            }
        }
        return new DeleteStatement(targets, table, attributes, where, ifExists, conditions);
    }

    final BatchStatement batch() {
        expect(TokenType.K_BEGIN);
        BatchStatement.Type type = BatchStatement.Type.LOGGED;
        if (accept(TokenType.K_UNLOGGED)) {
            type = BatchStatement.Type.UNLOGGED;
        } else if (accept(TokenType.K_COUNTER)) {
            type = BatchStatement.Type.COUNTER;
        }
        expect(TokenType.K_BATCH);
        Attributes attributes = usingClause(false);
        List<ModificationStatement> statements = new ArrayList<>();
        while (!at(TokenType.K_APPLY)) {
            statements.add(switch (la(0)) {
                case K_INSERT -> insert();
                case K_UPDATE -> update();
                case K_DELETE -> delete();
                default -> throw mismatched(TokenType.K_APPLY);
            });
            accept(TokenType.SEMICOLON);
        }
        expect(TokenType.K_APPLY);
        expect(TokenType.K_BATCH);
        return new BatchStatement(type, attributes, statements);
    }

    final UseStatement use() {
        expect(TokenType.K_USE);
        if (at(TokenType.QMARK)) {
            throw invalid(peek(), "Bind variables cannot be used for keyspace names");
        }
        return new UseStatement(ident());
    }

    final TruncateStatement truncate() {
        expect(TokenType.K_TRUNCATE);
        accept(TokenType.K_COLUMNFAMILY);
        return new TruncateStatement(qualifiedName());
    }
}
