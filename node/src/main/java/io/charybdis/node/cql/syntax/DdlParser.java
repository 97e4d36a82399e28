package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.List;

import io.charybdis.node.cql.syntax.SchemaStatement.ClusteringOrder;
import io.charybdis.node.cql.syntax.SchemaStatement.ColumnDefinition;
import io.charybdis.node.cql.syntax.SchemaStatement.ColumnMask;
import io.charybdis.node.cql.syntax.SchemaStatement.PrimaryKey;
import io.charybdis.node.cql.syntax.SchemaStatement.Rename;

/**
 * Schema statements. Each method starts after the leading {@code CREATE X} / {@code ALTER X} / {@code DROP X}
 * words, which {@link StatementParser} has consumed to dispatch.
 */
abstract class DdlParser extends DmlParser {

    DdlParser(String source) {
        super(source);
    }

    // ---- keyspaces ----------------------------------------------------------------------------------------------

    final SchemaStatement createKeyspace() {
        boolean ifNotExists = ifNotExists();
        String name = ident();
        expect(TokenType.K_WITH);
        return new SchemaStatement.CreateKeyspace(name, ifNotExists, properties());
    }

    final SchemaStatement alterKeyspace() {
        boolean ifExists = ifExists();
        String name = ident();
        expect(TokenType.K_WITH);
        return new SchemaStatement.AlterKeyspace(name, ifExists, properties());
    }

    final SchemaStatement dropKeyspace() {
        boolean ifExists = ifExists();
        return new SchemaStatement.DropKeyspace(ident(), ifExists);
    }

    // ---- tables -------------------------------------------------------------------------------------------------

    final SchemaStatement createTable() {
        boolean ifNotExists = ifNotExists();
        QualifiedName table = qualifiedName();
        expect(TokenType.LPAREN);
        List<ColumnDefinition> columns = new ArrayList<>();
        PrimaryKey primaryKey = null;
        boolean first = true;
        do {
            // Cassandra's grammar makes every definition after a comma optional: "(k int PRIMARY KEY, , v int,)"
            // is a table of two columns (cassandra-stress sends such a CREATE TABLE for counter1)
            if (!first && (at(TokenType.RPAREN) || at(TokenType.COMMA))) {
                continue;
            }
            first = false;
            Token start = peek();
            if (at(TokenType.K_PRIMARY, TokenType.K_KEY)) {
                pos += 2;
                PrimaryKey pk = primaryKeyColumns();
                primaryKey = onePrimaryKey(primaryKey, pk, start, table);
            } else {
                ColumnDefinition column = columnDefinition();
                columns.add(column);
                if (at(TokenType.K_PRIMARY)) {
                    next();
                    expect(TokenType.K_KEY);
                    primaryKey = onePrimaryKey(primaryKey, new PrimaryKey(List.of(column.name()), List.of()), start,
                            table);
                }
            }
        } while (accept(TokenType.COMMA));
        expect(TokenType.RPAREN);
        List<ClusteringOrder> clusteringOrder = new ArrayList<>();
        List<Properties.Property> properties = new ArrayList<>();
        boolean compactStorage = false;
        if (accept(TokenType.K_WITH)) {
            do {
                if (at(TokenType.K_COMPACT, TokenType.K_STORAGE)) {
                    pos += 2;
                    compactStorage = true;
                } else if (at(TokenType.K_CLUSTERING, TokenType.K_ORDER)) {
                    clusteringOrder.addAll(clusteringOrder());
                } else {
                    property(properties);
                }
            } while (accept(TokenType.K_AND));
        }
        return new SchemaStatement.CreateTable(table, ifNotExists, columns, primaryKey, clusteringOrder,
                compactStorage, new Properties(properties));
    }

    private PrimaryKey onePrimaryKey(PrimaryKey existing, PrimaryKey declared, Token at, QualifiedName table) {
        if (existing != null) {
            // an invalid request in Cassandra, raised as soon as the parser meets the second one
            throw new CqlSyntaxException("Multiple PRIMARY KEY specified for table '" + table.name()
                    + "' (exactly one required)", at.line(), at.column(), true);
        }
        return declared;
    }

    /** After {@code PRIMARY KEY}: {@code ( pk | (pk1, pk2) [, c]* )}. */
    private PrimaryKey primaryKeyColumns() {
        expect(TokenType.LPAREN);
        List<String> partition = new ArrayList<>();
        if (accept(TokenType.LPAREN)) {
            do {
                partition.add(ident());
            } while (accept(TokenType.COMMA));
            expect(TokenType.RPAREN);
        } else {
            partition.add(ident());
        }
        List<String> clustering = new ArrayList<>();
        while (accept(TokenType.COMMA)) {
            clustering.add(ident());
        }
        expect(TokenType.RPAREN);
        return new PrimaryKey(partition, clustering);
    }

    /** {@code CLUSTERING ORDER BY ( c ASC|DESC [, ...] )}. */
    private List<ClusteringOrder> clusteringOrder() {
        expect(TokenType.K_CLUSTERING);
        expect(TokenType.K_ORDER);
        expect(TokenType.K_BY);
        expect(TokenType.LPAREN);
        List<ClusteringOrder> order = new ArrayList<>();
        do {
            String column = ident();
            boolean descending;
            if (accept(TokenType.K_DESC)) {
                descending = true;
            } else {
                expect(TokenType.K_ASC);
                descending = false;
            }
            order.add(new ClusteringOrder(column, descending));
        } while (accept(TokenType.COMMA));
        expect(TokenType.RPAREN);
        return order;
    }

    /** {@code name type [STATIC] [MASKED WITH ...]}. */
    private ColumnDefinition columnDefinition() {
        String name = ident();
        CqlTypeSyntax type = type();
        boolean isStatic = accept(TokenType.K_STATIC);
        ColumnMask mask = at(TokenType.K_MASKED) ? columnMask() : null;
        return new ColumnDefinition(name, type, isStatic, mask);
    }

    private ColumnMask columnMask() {
        expect(TokenType.K_MASKED);
        expect(TokenType.K_WITH);
        if (accept(TokenType.K_DEFAULT)) {
            return new ColumnMask(QualifiedName.of("mask_default"), List.of());
        }
        QualifiedName function = functionName();
        expect(TokenType.LPAREN);
        List<Term> args = new ArrayList<>();
        if (!at(TokenType.RPAREN)) {
            do {
                args.add(term());
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RPAREN);
        return new ColumnMask(function, args);
    }

    final SchemaStatement alterTable() {
        boolean ifExists = ifExists();
        QualifiedName table = qualifiedName();
        SchemaStatement.AlterTableAction action;
        switch (la(0)) {
            case K_ALTER -> {
                next();
                boolean columnIfExists = ifExists();
                String column = cident();
                if (!columnIfExists && accept(TokenType.K_TYPE)) {
                    action = new SchemaStatement.AlterColumnType(column, type());
                } else if (at(TokenType.K_MASKED)) {
                    action = new SchemaStatement.AlterColumnMask(column, columnIfExists, columnMask());
                } else if (at(TokenType.K_DROP)) {
                    next();
                    expect(TokenType.K_MASKED);
                    action = new SchemaStatement.AlterColumnMask(column, columnIfExists, null);
                } else {
                    throw noViableAlternative();
                }
            }
            case K_ADD -> {
                next();
                boolean ifNotExists = ifNotExists();
                List<ColumnDefinition> columns = new ArrayList<>();
                if (accept(TokenType.LPAREN)) {
                    do {
                        columns.add(columnDefinition());
                    } while (accept(TokenType.COMMA));
                    expect(TokenType.RPAREN);
                } else {
                    columns.add(columnDefinition());
                }
                action = new SchemaStatement.AddColumns(ifNotExists, columns);
            }
            case K_DROP -> {
                next();
                if (at(TokenType.K_COMPACT, TokenType.K_STORAGE)) {
                    pos += 2;
                    action = new SchemaStatement.DropCompactStorage();
                } else {
                    boolean columnIfExists = ifExists();
                    List<String> columns = new ArrayList<>();
                    if (accept(TokenType.LPAREN)) {
                        do {
                            columns.add(ident());
                        } while (accept(TokenType.COMMA));
                        expect(TokenType.RPAREN);
                    } else {
                        columns.add(ident());
                    }
                    Long timestamp = null;
                    if (accept(TokenType.K_USING)) {
                        expect(TokenType.K_TIMESTAMP);
                        Token ts = expect(TokenType.INTEGER);
                        try {
                            timestamp = Long.parseLong(ts.text());
                        } catch (NumberFormatException e) {
                            throw invalid(ts, "Invalid timestamp " + ts.text() + " (must fit in 64 bits)");
                        }
                    }
                    action = new SchemaStatement.DropColumns(columnIfExists, columns, timestamp);
                }
            }
            case K_RENAME -> {
                next();
                boolean columnIfExists = ifExists();
                action = new SchemaStatement.RenameColumns(columnIfExists, renames());
            }
            case K_WITH -> {
                next();
                if (at(TokenType.K_COMPACT, TokenType.K_STORAGE)) {
                    // only CREATE TABLE declares compact storage; ANTLR fails its prediction on STORAGE
                    Token storage = peek(1);
                    throw errorAt(storage, "no viable alternative at input '" + storage.displayText() + "'", peek(),
                            storage);
                }
                action = new SchemaStatement.AlterTableOptions(properties());
            }
            default -> throw noViableAlternative();
        }
        return new SchemaStatement.AlterTable(table, ifExists, action);
    }

    private List<Rename> renames() {
        List<Rename> renames = new ArrayList<>();
        do {
            String from = ident();
            expect(TokenType.K_TO);
            renames.add(new Rename(from, ident()));
        } while (accept(TokenType.K_AND));
        return renames;
    }

    final SchemaStatement dropTable() {
        boolean ifExists = ifExists();
        return new SchemaStatement.DropTable(qualifiedName(), ifExists);
    }

    // ---- user types ---------------------------------------------------------------------------------------------

    final SchemaStatement createType() {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = userTypeName();
        expect(TokenType.LPAREN);
        List<SchemaStatement.FunctionArgument> fields = new ArrayList<>();
        do {
            if (at(TokenType.RPAREN) && !fields.isEmpty()) {
                break;
            }
            String field = ident();
            fields.add(new SchemaStatement.FunctionArgument(field, type()));
        } while (accept(TokenType.COMMA));
        expect(TokenType.RPAREN);
        return new SchemaStatement.CreateType(name, ifNotExists, fields);
    }

    final SchemaStatement alterType() {
        boolean ifExists = ifExists();
        QualifiedName name = userTypeName();
        SchemaStatement.AlterTypeAction action;
        if (accept(TokenType.K_ALTER)) {
            String field = ident();
            expect(TokenType.K_TYPE);
            action = new SchemaStatement.AlterFieldType(field, type());
        } else if (accept(TokenType.K_ADD)) {
            boolean ifNotExists = ifNotExists();
            String field = ident();
            action = new SchemaStatement.AddField(ifNotExists, field, type());
        } else if (accept(TokenType.K_RENAME)) {
            boolean fieldIfExists = ifExists();
            action = new SchemaStatement.RenameFields(fieldIfExists, renames());
        } else {
            throw noViableAlternative();
        }
        return new SchemaStatement.AlterType(name, ifExists, action);
    }

    final SchemaStatement dropType() {
        boolean ifExists = ifExists();
        return new SchemaStatement.DropType(userTypeName(), ifExists);
    }

    // ---- indexes ------------------------------------------------------------------------------------------------

    /** After {@code CREATE [CUSTOM] INDEX}. */
    final SchemaStatement createIndex(boolean custom) {
        boolean ifNotExists = ifNotExists();
        String name = at(TokenType.K_ON) ? null : ident();
        expect(TokenType.K_ON);
        QualifiedName table = qualifiedName();
        expect(TokenType.LPAREN);
        List<SchemaStatement.IndexTarget> targets = new ArrayList<>();
        if (!at(TokenType.RPAREN)) {
            do {
                targets.add(indexTarget());
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RPAREN);
        String usingClass = null;
        if (accept(TokenType.K_USING)) {
            usingClass = expect(TokenType.STRING_LITERAL).text();
        }
        Properties properties = accept(TokenType.K_WITH) ? properties() : Properties.EMPTY;
        return new SchemaStatement.CreateIndex(custom, ifNotExists, name, table, targets, usingClass, properties);
    }

    private SchemaStatement.IndexTarget indexTarget() {
        SchemaStatement.IndexTargetKind kind = null;
        if (la(1) == TokenType.LPAREN) {
            kind = switch (la(0)) {
                case K_KEYS -> SchemaStatement.IndexTargetKind.KEYS;
                case K_VALUES -> SchemaStatement.IndexTargetKind.VALUES;
                case K_ENTRIES -> SchemaStatement.IndexTargetKind.ENTRIES;
                case K_FULL -> SchemaStatement.IndexTargetKind.FULL;
                default -> null;
            };
        }
        if (kind == null) {
            return new SchemaStatement.IndexTarget(cident(), SchemaStatement.IndexTargetKind.SIMPLE);
        }
        next();
        next();
        String column = cident();
        expect(TokenType.RPAREN);
        return new SchemaStatement.IndexTarget(column, kind);
    }

    final SchemaStatement dropIndex() {
        boolean ifExists = ifExists();
        return new SchemaStatement.DropIndex(qualifiedName(), ifExists);
    }

    // ---- materialised views -------------------------------------------------------------------------------------

    final SchemaStatement createView() {
        boolean ifNotExists = ifNotExists();
        QualifiedName view = qualifiedName();
        expect(TokenType.K_AS);
        expect(TokenType.K_SELECT);
        List<Selector.Item> selectors = selectors();
        expect(TokenType.K_FROM);
        QualifiedName base = qualifiedName();
        List<Relation> where = accept(TokenType.K_WHERE) ? whereClause() : List.of();
        expect(TokenType.K_PRIMARY);
        expect(TokenType.K_KEY);
        PrimaryKey primaryKey = primaryKeyColumns();
        List<ClusteringOrder> clusteringOrder = new ArrayList<>();
        List<Properties.Property> properties = new ArrayList<>();
        if (accept(TokenType.K_WITH)) {
            do {
                if (at(TokenType.K_COMPACT, TokenType.K_STORAGE)) {
                    throw invalid(peek(), "COMPACT STORAGE tables are not allowed starting with version 4.0");
                } else if (at(TokenType.K_CLUSTERING, TokenType.K_ORDER)) {
                    clusteringOrder.addAll(clusteringOrder());
                } else {
                    property(properties);
                }
            } while (accept(TokenType.K_AND));
        }
        return new SchemaStatement.CreateView(view, ifNotExists, selectors, base, where, primaryKey,
                clusteringOrder, new Properties(properties));
    }

    final SchemaStatement alterView() {
        boolean ifExists = ifExists();
        QualifiedName view = qualifiedName();
        expect(TokenType.K_WITH);
        return new SchemaStatement.AlterView(view, ifExists, properties());
    }

    final SchemaStatement dropView() {
        boolean ifExists = ifExists();
        return new SchemaStatement.DropView(qualifiedName(), ifExists);
    }

    // ---- functions, aggregates, triggers ------------------------------------------------------------------------

    final SchemaStatement createFunction(boolean orReplace) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = functionName();
        expect(TokenType.LPAREN);
        List<SchemaStatement.FunctionArgument> arguments = new ArrayList<>();
        if (!at(TokenType.RPAREN)) {
            do {
                String arg = ident();
                arguments.add(new SchemaStatement.FunctionArgument(arg, type()));
            } while (accept(TokenType.COMMA));
        }
        expect(TokenType.RPAREN);
        boolean calledOnNullInput;
        if (accept(TokenType.K_CALLED)) {
            calledOnNullInput = true;
        } else if (accept(TokenType.K_RETURNS)) {
            expect(TokenType.K_NULL);
            calledOnNullInput = false;
        } else {
            throw noViableAlternative();
        }
        expect(TokenType.K_ON);
        expect(TokenType.K_NULL);
        expect(TokenType.K_INPUT);
        expect(TokenType.K_RETURNS);
        CqlTypeSyntax returnType = type();
        expect(TokenType.K_LANGUAGE);
        String language = lower(expect(TokenType.IDENT).text());
        expect(TokenType.K_AS);
        String body = expect(TokenType.STRING_LITERAL).text();
        return new SchemaStatement.CreateFunction(name, orReplace, ifNotExists, arguments, calledOnNullInput,
                returnType, language, body);
    }

    final SchemaStatement dropFunction() {
        boolean ifExists = ifExists();
        QualifiedName name = functionName();
        return new SchemaStatement.DropFunction(name, ifExists, at(TokenType.LPAREN) ? typeList() : null);
    }

    final SchemaStatement createAggregate(boolean orReplace) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = functionName();
        List<CqlTypeSyntax> argumentTypes = typeList();
        expect(TokenType.K_SFUNC);
        String stateFunction = allowedFunctionName();
        expect(TokenType.K_STYPE);
        CqlTypeSyntax stateType = type();
        String finalFunction = accept(TokenType.K_FINALFUNC) ? allowedFunctionName() : null;
        Term initCond = accept(TokenType.K_INITCOND) ? term() : null;
        return new SchemaStatement.CreateAggregate(name, orReplace, ifNotExists, argumentTypes, stateFunction,
                stateType, finalFunction, initCond);
    }

    final SchemaStatement dropAggregate() {
        boolean ifExists = ifExists();
        QualifiedName name = functionName();
        return new SchemaStatement.DropAggregate(name, ifExists, at(TokenType.LPAREN) ? typeList() : null);
    }

    final SchemaStatement createTrigger() {
        boolean ifNotExists = ifNotExists();
        String name = ident();
        expect(TokenType.K_ON);
        QualifiedName table = qualifiedName();
        expect(TokenType.K_USING);
        return new SchemaStatement.CreateTrigger(name, ifNotExists, table,
                expect(TokenType.STRING_LITERAL).text());
    }

    final SchemaStatement dropTrigger() {
        boolean ifExists = ifExists();
        String name = ident();
        expect(TokenType.K_ON);
        return new SchemaStatement.DropTrigger(name, ifExists, qualifiedName());
    }
}
