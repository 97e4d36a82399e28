package io.charybdis.node.cql.syntax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.charybdis.node.cql.syntax.AuthStatement.Access;
import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.node.cql.syntax.AuthStatement.Resource;
import io.charybdis.node.cql.syntax.AuthStatement.RoleOptions;

/** Statement dispatch, roles and permissions, DESCRIBE; the top of the parser. One instance parses one input. */
final class StatementParser extends DdlParser {

    StatementParser(String source) {
        super(source);
    }

    /** Exactly one statement, then optional semicolons. */
    ParsedStatement single() {
        Statement statement = statement();
        while (accept(TokenType.SEMICOLON)) {
            // trailing semicolons are fine
        }
        if (!at(TokenType.EOF)) {
            throw mismatched(TokenType.EOF);
        }
        return new ParsedStatement(statement, markers);
    }

    /** Statements separated by semicolons; each with its own bind markers. */
    List<ParsedStatement> script() {
        List<ParsedStatement> out = new ArrayList<>();
        while (true) {
            while (accept(TokenType.SEMICOLON)) {
                // empty statement
            }
            if (at(TokenType.EOF)) {
                return out;
            }
            markers.clear();
            Statement statement = statement();
            out.add(new ParsedStatement(statement, markers));
            if (!at(TokenType.EOF) && !at(TokenType.SEMICOLON)) {
                throw mismatched(TokenType.SEMICOLON);
            }
        }
    }

    private Statement statement() {
        return switch (la(0)) {
            case K_SELECT -> select();
            case K_INSERT -> insert();
            case K_UPDATE -> update();
            case K_DELETE -> delete();
            case K_BEGIN -> batch();
            case K_USE -> use();
            case K_TRUNCATE -> truncate();
            case K_CREATE -> create();
            case K_ALTER -> alter();
            case K_DROP -> drop();
            case K_GRANT -> grant();
            case K_REVOKE -> revoke();
            case K_LIST -> list();
            case K_DESCRIBE, K_DESC -> describe();
            case K_ADD -> addIdentity();
            default -> throw noViableAlternative();
        };
    }

    private Statement create() {
        expect(TokenType.K_CREATE);
        Token t = next();
        return switch (t.type()) {
            case K_KEYSPACE, K_SCHEMA -> createKeyspace();
            case K_COLUMNFAMILY -> createTable();
            case K_INDEX -> createIndex(false);
            case K_CUSTOM -> {
                expect(TokenType.K_INDEX);
                yield createIndex(true);
            }
            case K_MATERIALIZED -> {
                expect(TokenType.K_VIEW);
                yield createView();
            }
            case K_TYPE -> createType();
            case K_FUNCTION -> createFunction(false);
            case K_AGGREGATE -> createAggregate(false);
            case K_OR -> {
                expect(TokenType.K_REPLACE);
                if (accept(TokenType.K_FUNCTION)) {
                    yield createFunction(true);
                }
                if (accept(TokenType.K_AGGREGATE)) {
                    yield createAggregate(true);
                }
                throw noViableAlternative();
            }
            case K_TRIGGER -> createTrigger();
            case K_ROLE -> createRole();
            case K_USER -> createUser();
            default -> throw noViableAt(t);
        };
    }

    private Statement alter() {
        expect(TokenType.K_ALTER);
        Token t = next();
        return switch (t.type()) {
            case K_KEYSPACE, K_SCHEMA -> alterKeyspace();
            case K_COLUMNFAMILY -> alterTable();
            case K_TYPE -> alterType();
            case K_MATERIALIZED -> {
                expect(TokenType.K_VIEW);
                yield alterView();
            }
            case K_ROLE -> alterRole();
            case K_USER -> alterUser();
            default -> throw noViableAt(t);
        };
    }

    private Statement drop() {
        expect(TokenType.K_DROP);
        Token t = next();
        return switch (t.type()) {
            case K_KEYSPACE, K_SCHEMA -> dropKeyspace();
            case K_COLUMNFAMILY -> dropTable();
            case K_TYPE -> dropType();
            case K_INDEX -> dropIndex();
            case K_MATERIALIZED -> {
                expect(TokenType.K_VIEW);
                yield dropView();
            }
            case K_FUNCTION -> dropFunction();
            case K_AGGREGATE -> dropAggregate();
            case K_TRIGGER -> dropTrigger();
            case K_ROLE -> {
                boolean ifExists = ifExists();
                yield new AuthStatement.DropRole(roleName(), ifExists);
            }
            case K_USER -> {
                boolean ifExists = ifExists();
                yield new AuthStatement.DropUser(username(), ifExists);
            }
            case K_IDENTITY -> {
                boolean ifExists = ifExists();
                yield new AuthStatement.DropIdentity(identity(), ifExists);
            }
            default -> throw noViableAt(t);
        };
    }

    /** The statement's prediction started at the keyword before {@code t} and failed on {@code t}. */
    private CqlSyntaxException noViableAt(Token t) {
        int i = tokens.indexOf(t);
        return noViableAlternative(i > 0 ? tokens.get(i - 1) : t, t);
    }

    // ---- roles and users ----------------------------------------------------------------------------------------

    private Statement createRole() {
        boolean ifNotExists = ifNotExists();
        String role = roleName();
        RoleOptions options = accept(TokenType.K_WITH) ? roleOptions() : RoleOptions.NONE;
        return new AuthStatement.CreateRole(role, ifNotExists, options);
    }

    private Statement alterRole() {
        boolean ifExists = ifExists();
        String role = roleName();
        RoleOptions options = accept(TokenType.K_WITH) ? roleOptions() : RoleOptions.NONE;
        return new AuthStatement.AlterRole(role, ifExists, options);
    }

    private Statement createUser() {
        boolean ifNotExists = ifNotExists();
        String user = username();
        RoleOptions options = userOptions(false);
        return new AuthStatement.CreateUser(user, ifNotExists, options);
    }

    private Statement alterUser() {
        boolean ifExists = ifExists();
        String user = username();
        return new AuthStatement.AlterUser(user, ifExists, userOptions(true));
    }

    /**
     * {@code [WITH [HASHED] PASSWORD 'pw'] [SUPERUSER|NOSUPERUSER]}. Cassandra 5.0 has no {@code GENERATED PASSWORD}
     * (a later release's syntax): it is a syntax error, as there.
     */
    private RoleOptions userOptions(boolean alter) {
        String password = null;
        String hashed = null;
        if (accept(TokenType.K_WITH)) {
            if (accept(TokenType.K_HASHED)) {
                expect(TokenType.K_PASSWORD);
                hashed = expect(TokenType.STRING_LITERAL).text();
            } else if (accept(TokenType.K_PASSWORD)) {
                password = expect(TokenType.STRING_LITERAL).text();
            } else {
                throw noViableAlternative();
            }
        }
        Boolean superuser = alter ? null : Boolean.FALSE;
        if (accept(TokenType.K_SUPERUSER)) {
            superuser = true;
        } else if (accept(TokenType.K_NOSUPERUSER)) {
            superuser = false;
        }
        return new RoleOptions(password, hashed, alter ? null : Boolean.TRUE, superuser, null, null, null);
    }

    private RoleOptions roleOptions() {
        Token start = peek();
        String password = null;
        String hashed = null;
        Boolean login = null;
        Boolean superuser = null;
        Map<String, String> options = null;
        Access datacenters = null;
        Access cidrs = null;
        Set<String> seen = new HashSet<>();
        do {
            Token optionToken = peek();
            String option;
            switch (la(0)) {
                case K_PASSWORD -> {
                    next();
                    expect(TokenType.EQ);
                    password = expect(TokenType.STRING_LITERAL).text();
                    option = "PASSWORD";
                }
                case K_HASHED -> {
                    next();
                    expect(TokenType.K_PASSWORD);
                    expect(TokenType.EQ);
                    hashed = expect(TokenType.STRING_LITERAL).text();
                    option = "HASHED_PASSWORD";
                }
                case K_OPTIONS -> {
                    next();
                    expect(TokenType.EQ);
                    Map<String, String> map = new LinkedHashMap<>();
                    for (Map.Entry<Term, Term> e : propertyMap().entries()) {
                        map.put(((Term.Literal) e.getKey()).text(), ((Term.Literal) e.getValue()).text());
                    }
                    options = Collections.unmodifiableMap(map);
                    option = "OPTIONS";
                }
                case K_SUPERUSER -> {
                    next();
                    expect(TokenType.EQ);
                    superuser = Boolean.valueOf(lower(expect(TokenType.BOOLEAN).text()));
                    option = "SUPERUSER";
                }
                case K_LOGIN -> {
                    next();
                    expect(TokenType.EQ);
                    login = Boolean.valueOf(lower(expect(TokenType.BOOLEAN).text()));
                    option = "LOGIN";
                }
                case K_ACCESS -> {
                    // repeatable, merged as Cassandra 5.0's builders merge them: ALL twice, or several lists
                    next();
                    if (accept(TokenType.K_TO)) {
                        datacenters = merge(datacenters, access(TokenType.K_DATACENTERS), "DCs");
                    } else {
                        expect(TokenType.K_FROM);
                        cidrs = merge(cidrs, access(TokenType.K_CIDRS), "CIDR Groups");
                    }
                    option = null;
                }
                default -> throw noViableAlternative();
            }
            if (option != null && !seen.add(option)) {
                throw invalid(optionToken, "Multiple definition for property '" + option + "'");
            }
        } while (accept(TokenType.K_AND));
        checkPasswords(start, password, hashed);
        return new RoleOptions(password, hashed, login, superuser, options, datacenters, cidrs);
    }

    /** A second {@code ACCESS TO/FROM} clause: Cassandra refuses mixing ALL with a list, in either order. */
    private Access merge(Access before, Access added, String what) {
        if (before == null) {
            return added;
        }
        if (before.all() != added.all()) {
            throw new CqlParser.FailedParsingException("IllegalArgumentException "
                    + (before.all() ? "All has been set" : what + " have already been set"));
        }
        List<String> names = new ArrayList<>(before.names());
        names.addAll(added.names());
        return new Access(before.all(), names);
    }

    private Access access(TokenType what) {
        if (accept(TokenType.K_ALL)) {
            expect(what);
            return new Access(true, List.of());
        }
        expect(what);
        expect(TokenType.LBRACE);
        List<String> names = new ArrayList<>();
        do {
            names.add(expect(TokenType.STRING_LITERAL).text());
        } while (accept(TokenType.COMMA));
        expect(TokenType.RBRACE);
        return new Access(false, names);
    }

    private void checkPasswords(Token at, String password, String hashed) {
        if (password != null && hashed != null) {
            throw invalid(at, "Options 'password' and 'hashed password' are mutually exclusive");
        }
    }

    /** {@code username}: IDENT (case kept) or a string literal. */
    private String username() {
        Token t = peek();
        if (t.type() == TokenType.IDENT || t.type() == TokenType.STRING_LITERAL) {
            next();
            return t.text();
        }
        if (t.type() == TokenType.QUOTED_NAME) {
            throw invalid(t, "Quoted strings are are not supported for user names and USER is deprecated, please "
                    + "use ROLE");
        }
        throw noViableAlternative();
    }

    private String identity() {
        Token t = peek();
        if (t.type() == TokenType.IDENT || t.type() == TokenType.STRING_LITERAL) {
            next();
            return t.text();
        }
        if (t.type() == TokenType.QUOTED_NAME) {
            throw invalid(t, "Quoted strings are are not supported for identity");
        }
        throw noViableAlternative();
    }

    private Statement addIdentity() {
        expect(TokenType.K_ADD);
        expect(TokenType.K_IDENTITY);
        boolean ifNotExists = ifNotExists();
        String identity = identity();
        expect(TokenType.K_TO);
        expect(TokenType.K_ROLE);
        return new AuthStatement.AddIdentity(identity, identity(), ifNotExists);
    }

    // ---- permissions --------------------------------------------------------------------------------------------

    private boolean startsPermissions() {
        return switch (la(0)) {
            case K_CREATE, K_ALTER, K_DROP, K_SELECT, K_MODIFY, K_AUTHORIZE, K_DESCRIBE, K_EXECUTE -> true;
            case K_ALL, K_UNMASK, K_SELECT_MASKED -> switch (la(1)) {
                case K_ON, K_PERMISSIONS, K_PERMISSION, COMMA -> true;
                default -> false;
            };
            default -> false;
        };
    }

    private record Permissions(Set<Permission> set, boolean all) {
    }

    private Permissions permissionOrAll() {
        if (at(TokenType.K_ALL)) {
            next();
            accept(TokenType.K_PERMISSIONS);
            return new Permissions(EnumSet.allOf(Permission.class), true);
        }
        Set<Permission> set = EnumSet.noneOf(Permission.class);
        do {
            Permission p = switch (la(0)) {
                case K_CREATE -> Permission.CREATE;
                case K_ALTER -> Permission.ALTER;
                case K_DROP -> Permission.DROP;
                case K_SELECT -> Permission.SELECT;
                case K_MODIFY -> Permission.MODIFY;
                case K_AUTHORIZE -> Permission.AUTHORIZE;
                case K_DESCRIBE -> Permission.DESCRIBE;
                case K_EXECUTE -> Permission.EXECUTE;
                case K_UNMASK -> Permission.UNMASK;
                case K_SELECT_MASKED -> Permission.SELECT_MASKED;
                default -> throw noViableAlternative();
            };
            next();
            set.add(p);
            if (!accept(TokenType.K_PERMISSION)) {
                accept(TokenType.K_PERMISSIONS);
            }
        } while (accept(TokenType.COMMA));
        return new Permissions(set, false);
    }

    /** Whether the word at offset 0 is used as a resource keyword rather than as a table name. */
    private boolean resourceKeyword() {
        return switch (la(1)) {
            case K_TO, K_FROM, K_OF, K_NORECURSIVE, EOF, DOT, SEMICOLON -> false;
            default -> true;
        };
    }

    private Resource resource() {
        Token t = peek();
        switch (t.type()) {
            case K_ALL -> {
                switch (la(1)) {
                    case K_KEYSPACES -> {
                        pos += 2;
                        return new Resource.AllKeyspaces();
                    }
                    case K_ROLES -> {
                        pos += 2;
                        return new Resource.AllRoles();
                    }
                    case K_MBEANS -> {
                        pos += 2;
                        return new Resource.AllMBeans();
                    }
                    case K_TABLES -> {
                        pos += 2;
                        expect(TokenType.K_IN);
                        keyspaceKeyword();
                        return new Resource.AllTablesInKeyspace(ident());
                    }
                    case K_FUNCTIONS -> {
                        pos += 2;
                        if (accept(TokenType.K_IN)) {
                            keyspaceKeyword();
                            return new Resource.AllFunctionsInKeyspace(ident());
                        }
                        return new Resource.AllFunctions();
                    }
                    default -> {
                        // a table named "all"
                    }
                }
            }
            case K_KEYSPACE, K_SCHEMA -> {
                next();
                return new Resource.Keyspace(ident());
            }
            case K_ROLE -> {
                if (resourceKeyword()) {
                    next();
                    return new Resource.Role(roleName());
                }
            }
            case K_FUNCTION -> {
                if (resourceKeyword()) {
                    next();
                    QualifiedName fn = functionName();
                    return new Resource.Function(fn, typeList());
                }
            }
            case K_MBEAN, K_MBEANS -> {
                if (la(1) == TokenType.STRING_LITERAL) {
                    next();
                    return new Resource.MBean(next().text(), t.type() == TokenType.K_MBEANS);
                }
            }
            case K_COLUMNFAMILY -> next();
            default -> {
                // a table
            }
        }
        return new Resource.Table(qualifiedName());
    }

    private void keyspaceKeyword() {
        if (!accept(TokenType.K_KEYSPACE) && !accept(TokenType.K_SCHEMA)) {
            throw mismatched(TokenType.K_KEYSPACE);
        }
    }

    private Statement grant() {
        expect(TokenType.K_GRANT);
        if (startsPermissions()) {
            Permissions perms = permissionOrAll();
            expect(TokenType.K_ON);
            Resource resource = resource();
            expect(TokenType.K_TO);
            return new AuthStatement.GrantPermissions(perms.set(), perms.all(), resource, roleName());
        }
        String role = roleName();
        expect(TokenType.K_TO);
        return new AuthStatement.GrantRole(role, roleName());
    }

    private Statement revoke() {
        expect(TokenType.K_REVOKE);
        if (startsPermissions()) {
            Permissions perms = permissionOrAll();
            expect(TokenType.K_ON);
            Resource resource = resource();
            expect(TokenType.K_FROM);
            return new AuthStatement.RevokePermissions(perms.set(), perms.all(), resource, roleName());
        }
        String role = roleName();
        expect(TokenType.K_FROM);
        return new AuthStatement.RevokeRole(role, roleName());
    }

    private Statement list() {
        Token list = expect(TokenType.K_LIST);
        switch (la(0)) {
            case K_ROLES -> {
                next();
                String of = accept(TokenType.K_OF) ? roleName() : null;
                return new AuthStatement.ListRoles(of, !accept(TokenType.K_NORECURSIVE));
            }
            case K_USERS -> {
                next();
                return new AuthStatement.ListUsers();
            }
            default -> {
                if (la(0) == TokenType.IDENT) {
                    // ANTLR fails its prediction of the LIST statement here, quoting from LIST
                    throw errorAt(peek(), "no viable alternative at input '" + peek().displayText() + "'", list,
                            peek());
                }
                Permissions perms = permissionOrAll();
                Resource resource = accept(TokenType.K_ON) ? resource() : null;
                String of = accept(TokenType.K_OF) ? roleName() : null;
                boolean recursive = !accept(TokenType.K_NORECURSIVE);
                return new AuthStatement.ListPermissions(perms.set(), perms.all(), resource, of, recursive);
            }
        }
    }

    // ---- DESCRIBE -----------------------------------------------------------------------------------------------

    private Statement describe() {
        next();
        DescribeStatement.Kind kind;
        QualifiedName name = null;
        boolean only = false;
        boolean listing = la(1) != TokenType.DOT;
        switch (la(0)) {
            case K_CLUSTER -> kind = listing ? DescribeStatement.Kind.CLUSTER : null;
            case K_KEYSPACES -> kind = listing ? DescribeStatement.Kind.KEYSPACES : null;
            case K_TABLES -> kind = listing ? DescribeStatement.Kind.TABLES : null;
            case K_TYPES -> kind = listing ? DescribeStatement.Kind.TYPES : null;
            case K_FUNCTIONS -> kind = listing ? DescribeStatement.Kind.FUNCTIONS : null;
            case K_AGGREGATES -> kind = listing ? DescribeStatement.Kind.AGGREGATES : null;
            case K_FULL -> {
                next();
                expect(TokenType.K_SCHEMA);
                pos--;
                kind = DescribeStatement.Kind.FULL_SCHEMA;
            }
            case K_SCHEMA -> kind = DescribeStatement.Kind.SCHEMA;
            default -> kind = null;
        }
        if (kind != null) {
            next();
        } else {
            switch (la(0)) {
                case K_ONLY, K_KEYSPACE, K_SCHEMA -> {
                    if (at(TokenType.K_ONLY) && la(1) == TokenType.K_KEYSPACE) {
                        next();
                        only = true;
                    }
                    if (at(TokenType.K_KEYSPACE)) {
                        next();
                        kind = DescribeStatement.Kind.KEYSPACE;
                        if (isIdent(0)) {
                            name = QualifiedName.of(ident());
                        }
                    }
                }
                case K_COLUMNFAMILY -> {
                    next();
                    kind = DescribeStatement.Kind.TABLE;
                    name = qualifiedName();
                }
                case K_INDEX -> {
                    next();
                    kind = DescribeStatement.Kind.INDEX;
                    name = qualifiedName();
                }
                case K_MATERIALIZED -> {
                    next();
                    expect(TokenType.K_VIEW);
                    kind = DescribeStatement.Kind.MATERIALIZED_VIEW;
                    name = qualifiedName();
                }
                case K_TYPE -> {
                    if (listing) {
                        next();
                        kind = DescribeStatement.Kind.TYPE;
                        name = userTypeName();
                    }
                }
                case K_FUNCTION -> {
                    if (listing) {
                        next();
                        kind = DescribeStatement.Kind.FUNCTION;
                        name = functionName();
                    }
                }
                case K_AGGREGATE -> {
                    if (listing) {
                        next();
                        kind = DescribeStatement.Kind.AGGREGATE;
                        name = functionName();
                    }
                }
                default -> {
                    // generic
                }
            }
            if (kind == null) {
                kind = DescribeStatement.Kind.GENERIC;
                name = qualifiedName();
            }
        }
        boolean withInternals = false;
        if (accept(TokenType.K_WITH)) {
            expect(TokenType.K_INTERNALS);
            withInternals = true;
        }
        return new DescribeStatement(kind, name, only, withInternals);
    }
}
