package io.charybdis.node.cql.syntax;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Token types of the CQL lexer. Keywords are case-insensitive; their {@link Kind} follows Cassandra's Parser.g:
 * {@code RESERVED} words never name anything; {@code BASIC_UNRESERVED} ones (basic_unreserved_keyword) may name
 * columns, keyspaces, tables, functions and user types; {@code NATIVE_TYPE} names may also name columns and functions;
 * {@code UNRESERVED} ones (ttl, count, key, ...) may name columns and keyspaces but not functions or types.
 * Synonyms: {@code columnfamily} lexes as {@link #K_COLUMNFAMILY} (TABLE), {@code columnfamilies} as
 * {@link #K_TABLES}.
 */
enum TokenType {
    IDENT(Kind.OTHER, "IDENT"),
    QUOTED_NAME(Kind.OTHER, "QUOTED_NAME"),
    EMPTY_QUOTED_NAME(Kind.OTHER, "EMPTY_QUOTED_NAME"),
    STRING_LITERAL(Kind.OTHER, "STRING_LITERAL"),
    INTEGER(Kind.OTHER, "INTEGER"),
    FLOAT(Kind.OTHER, "FLOAT"),
    BOOLEAN(Kind.OTHER, "BOOLEAN"),
    DURATION(Kind.OTHER, "DURATION"),
    UUID(Kind.OTHER, "UUID"),
    HEXNUMBER(Kind.OTHER, "HEXNUMBER"),
    QMARK(Kind.OTHER, "QMARK"),
    RANGE(Kind.OTHER, "RANGE"),
    SEMICOLON(Kind.OTHER, "';'"),
    COMMA(Kind.OTHER, "','"),
    DOT(Kind.OTHER, "'.'"),
    COLON(Kind.OTHER, "':'"),
    LPAREN(Kind.OTHER, "'('"),
    RPAREN(Kind.OTHER, "')'"),
    LBRACKET(Kind.OTHER, "'['"),
    RBRACKET(Kind.OTHER, "']'"),
    LBRACE(Kind.OTHER, "'{'"),
    RBRACE(Kind.OTHER, "'}'"),
    EQ(Kind.OTHER, "'='"),
    NEQ(Kind.OTHER, "'!='"),
    LT(Kind.OTHER, "'<'"),
    LTE(Kind.OTHER, "'<='"),
    GT(Kind.OTHER, "'>'"),
    GTE(Kind.OTHER, "'>='"),
    PLUS(Kind.OTHER, "'+'"),
    MINUS(Kind.OTHER, "'-'"),
    STAR(Kind.OTHER, "'*'"),
    SLASH(Kind.OTHER, "'/'"),
    PERCENT(Kind.OTHER, "'%'"),
    PLUS_EQ(Kind.OTHER, "'+='"),
    MINUS_EQ(Kind.OTHER, "'-='"),
    EOF(Kind.OTHER, "EOF"),
    /** Where the lexer failed; its text is the lexer's error message (reported when the parser reaches it). */
    LEX_ERROR(Kind.OTHER, "LEX_ERROR"),
    K_SELECT("select", Kind.RESERVED),
    K_FROM("from", Kind.RESERVED),
    K_WHERE("where", Kind.RESERVED),
    K_AND("and", Kind.RESERVED),
    K_INSERT("insert", Kind.RESERVED),
    K_UPDATE("update", Kind.RESERVED),
    K_WITH("with", Kind.RESERVED),
    K_LIMIT("limit", Kind.RESERVED),
    K_USING("using", Kind.RESERVED),
    K_USE("use", Kind.RESERVED),
    K_SET("set", Kind.RESERVED),
    K_BEGIN("begin", Kind.RESERVED),
    K_UNLOGGED("unlogged", Kind.RESERVED),
    K_BATCH("batch", Kind.RESERVED),
    K_APPLY("apply", Kind.RESERVED),
    K_TRUNCATE("truncate", Kind.RESERVED),
    K_DELETE("delete", Kind.RESERVED),
    K_IN("in", Kind.RESERVED),
    K_CREATE("create", Kind.RESERVED),
    K_SCHEMA("schema", Kind.RESERVED),
    K_KEYSPACE("keyspace", Kind.RESERVED),
    K_COLUMNFAMILY("table", Kind.RESERVED),
    K_MATERIALIZED("materialized", Kind.RESERVED),
    K_VIEW("view", Kind.RESERVED),
    K_INDEX("index", Kind.RESERVED),
    K_ON("on", Kind.RESERVED),
    K_TO("to", Kind.RESERVED),
    K_DROP("drop", Kind.RESERVED),
    K_PRIMARY("primary", Kind.RESERVED),
    K_INTO("into", Kind.RESERVED),
    K_ALTER("alter", Kind.RESERVED),
    K_RENAME("rename", Kind.RESERVED),
    K_ADD("add", Kind.RESERVED),
    K_ORDER("order", Kind.RESERVED),
    K_BY("by", Kind.RESERVED),
    K_ASC("asc", Kind.RESERVED),
    K_DESC("desc", Kind.RESERVED),
    K_ALLOW("allow", Kind.RESERVED),
    K_IF("if", Kind.RESERVED),
    K_IS("is", Kind.RESERVED),
    K_GRANT("grant", Kind.RESERVED),
    K_OF("of", Kind.RESERVED),
    K_REVOKE("revoke", Kind.RESERVED),
    K_MODIFY("modify", Kind.RESERVED),
    K_AUTHORIZE("authorize", Kind.RESERVED),
    K_DESCRIBE("describe", Kind.RESERVED),
    K_EXECUTE("execute", Kind.RESERVED),
    K_NORECURSIVE("norecursive", Kind.RESERVED),
    K_TOKEN("token", Kind.RESERVED),
    K_NULL("null", Kind.RESERVED),
    K_NOT("not", Kind.RESERVED),
    K_NAN("nan", Kind.RESERVED),
    K_INFINITY("infinity", Kind.RESERVED),
    K_OR("or", Kind.RESERVED),
    K_ENTRIES("entries", Kind.RESERVED),
    K_FULL("full", Kind.RESERVED),
    K_KEYS("keys", Kind.BASIC_UNRESERVED),
    K_AS("as", Kind.BASIC_UNRESERVED),
    K_CLUSTER("cluster", Kind.BASIC_UNRESERVED),
    K_CLUSTERING("clustering", Kind.BASIC_UNRESERVED),
    K_COMPACT("compact", Kind.BASIC_UNRESERVED),
    K_STORAGE("storage", Kind.BASIC_UNRESERVED),
    K_TABLES("tables", Kind.BASIC_UNRESERVED),
    K_TYPE("type", Kind.BASIC_UNRESERVED),
    K_TYPES("types", Kind.BASIC_UNRESERVED),
    K_VALUES("values", Kind.BASIC_UNRESERVED),
    K_MAP("map", Kind.BASIC_UNRESERVED),
    K_LIST("list", Kind.BASIC_UNRESERVED),
    K_FILTERING("filtering", Kind.BASIC_UNRESERVED),
    K_PERMISSION("permission", Kind.BASIC_UNRESERVED),
    K_PERMISSIONS("permissions", Kind.BASIC_UNRESERVED),
    K_KEYSPACES("keyspaces", Kind.BASIC_UNRESERVED),
    K_ALL("all", Kind.BASIC_UNRESERVED),
    K_USER("user", Kind.BASIC_UNRESERVED),
    K_USERS("users", Kind.BASIC_UNRESERVED),
    K_ROLE("role", Kind.BASIC_UNRESERVED),
    K_ROLES("roles", Kind.BASIC_UNRESERVED),
    K_IDENTITY("identity", Kind.BASIC_UNRESERVED),
    K_SUPERUSER("superuser", Kind.BASIC_UNRESERVED),
    K_NOSUPERUSER("nosuperuser", Kind.BASIC_UNRESERVED),
    K_LOGIN("login", Kind.BASIC_UNRESERVED),
    K_NOLOGIN("nologin", Kind.BASIC_UNRESERVED),
    K_OPTIONS("options", Kind.BASIC_UNRESERVED),
    K_PASSWORD("password", Kind.BASIC_UNRESERVED),
    K_HASHED("hashed", Kind.BASIC_UNRESERVED),
    K_EXISTS("exists", Kind.BASIC_UNRESERVED),
    K_CUSTOM("custom", Kind.BASIC_UNRESERVED),
    K_TRIGGER("trigger", Kind.BASIC_UNRESERVED),
    K_CONTAINS("contains", Kind.BASIC_UNRESERVED),
    K_INTERNALS("internals", Kind.BASIC_UNRESERVED),
    K_ONLY("only", Kind.BASIC_UNRESERVED),
    K_STATIC("static", Kind.BASIC_UNRESERVED),
    K_FROZEN("frozen", Kind.BASIC_UNRESERVED),
    K_TUPLE("tuple", Kind.BASIC_UNRESERVED),
    K_FUNCTION("function", Kind.BASIC_UNRESERVED),
    K_FUNCTIONS("functions", Kind.BASIC_UNRESERVED),
    K_AGGREGATE("aggregate", Kind.BASIC_UNRESERVED),
    K_AGGREGATES("aggregates", Kind.BASIC_UNRESERVED),
    K_SFUNC("sfunc", Kind.BASIC_UNRESERVED),
    K_STYPE("stype", Kind.BASIC_UNRESERVED),
    K_FINALFUNC("finalfunc", Kind.BASIC_UNRESERVED),
    K_INITCOND("initcond", Kind.BASIC_UNRESERVED),
    K_RETURNS("returns", Kind.BASIC_UNRESERVED),
    K_LANGUAGE("language", Kind.BASIC_UNRESERVED),
    K_CALLED("called", Kind.BASIC_UNRESERVED),
    K_INPUT("input", Kind.BASIC_UNRESERVED),
    K_LIKE("like", Kind.BASIC_UNRESERVED),
    K_PER("per", Kind.BASIC_UNRESERVED),
    K_PARTITION("partition", Kind.BASIC_UNRESERVED),
    K_GROUP("group", Kind.BASIC_UNRESERVED),
    K_DATACENTERS("datacenters", Kind.BASIC_UNRESERVED),
    K_CIDRS("cidrs", Kind.BASIC_UNRESERVED),
    K_ACCESS("access", Kind.BASIC_UNRESERVED),
    K_DEFAULT("default", Kind.BASIC_UNRESERVED),
    K_MBEAN("mbean", Kind.BASIC_UNRESERVED),
    K_MBEANS("mbeans", Kind.BASIC_UNRESERVED),
    K_REPLACE("replace", Kind.BASIC_UNRESERVED),
    K_UNSET("unset", Kind.BASIC_UNRESERVED),
    K_MASKED("masked", Kind.BASIC_UNRESERVED),
    K_UNMASK("unmask", Kind.BASIC_UNRESERVED),
    K_SELECT_MASKED("select_masked", Kind.BASIC_UNRESERVED),
    K_VECTOR("vector", Kind.BASIC_UNRESERVED),
    K_ANN("ann", Kind.BASIC_UNRESERVED),
    K_BETWEEN("between", Kind.BASIC_UNRESERVED),
    K_CHECK("check", Kind.BASIC_UNRESERVED),
    K_INDEXES("indexes", Kind.BASIC_UNRESERVED),
    K_ASCII("ascii", Kind.NATIVE_TYPE),
    K_BIGINT("bigint", Kind.NATIVE_TYPE),
    K_BLOB("blob", Kind.NATIVE_TYPE),
    K_BOOLEAN("boolean", Kind.NATIVE_TYPE),
    K_COUNTER("counter", Kind.NATIVE_TYPE),
    K_DECIMAL("decimal", Kind.NATIVE_TYPE),
    K_DOUBLE("double", Kind.NATIVE_TYPE),
    K_DURATION("duration", Kind.NATIVE_TYPE),
    K_FLOAT("float", Kind.NATIVE_TYPE),
    K_INET("inet", Kind.NATIVE_TYPE),
    K_INT("int", Kind.NATIVE_TYPE),
    K_SMALLINT("smallint", Kind.NATIVE_TYPE),
    K_TEXT("text", Kind.NATIVE_TYPE),
    K_TIMESTAMP("timestamp", Kind.NATIVE_TYPE),
    K_TINYINT("tinyint", Kind.NATIVE_TYPE),
    K_UUID("uuid", Kind.NATIVE_TYPE),
    K_VARCHAR("varchar", Kind.NATIVE_TYPE),
    K_VARINT("varint", Kind.NATIVE_TYPE),
    K_TIMEUUID("timeuuid", Kind.NATIVE_TYPE),
    K_DATE("date", Kind.NATIVE_TYPE),
    K_TIME("time", Kind.NATIVE_TYPE),
    K_TTL("ttl", Kind.UNRESERVED),
    K_COUNT("count", Kind.UNRESERVED),
    K_WRITETIME("writetime", Kind.UNRESERVED),
    K_MAXWRITETIME("maxwritetime", Kind.UNRESERVED),
    K_KEY("key", Kind.UNRESERVED),
    K_CAST("cast", Kind.UNRESERVED),
    K_JSON("json", Kind.UNRESERVED),
    K_DISTINCT("distinct", Kind.UNRESERVED);

    enum Kind { OTHER, RESERVED, BASIC_UNRESERVED, NATIVE_TYPE, UNRESERVED }

    private static final Map<String, TokenType> KEYWORDS = new HashMap<>();

    static {
        for (TokenType t : values()) {
            if (t.kind != Kind.OTHER) {
                KEYWORDS.put(t.text, t);
            }
        }
        KEYWORDS.put("columnfamily", K_COLUMNFAMILY);
        KEYWORDS.put("columnfamilies", K_TABLES);
    }

    private final Kind kind;
    private final String text;

    TokenType(Kind kind, String display) {
        this.kind = kind;
        this.text = display;
    }

    TokenType(String keyword, Kind kind) {
        this.kind = kind;
        this.text = keyword;
    }

    /** The keyword for {@code word} (any case), or null. */
    static TokenType keyword(String word) {
        return KEYWORDS.get(word.toLowerCase(Locale.ROOT));
    }

    boolean isKeyword() {
        return kind != Kind.OTHER;
    }

    boolean isReserved() {
        return kind == Kind.RESERVED;
    }

    /** Usable as a column, keyspace, table or role name (unreserved_keyword). */
    boolean isUnreservedKeyword() {
        return kind == Kind.BASIC_UNRESERVED || kind == Kind.NATIVE_TYPE || kind == Kind.UNRESERVED;
    }

    /** Usable as a function name (unreserved_function_keyword). */
    boolean isFunctionKeyword() {
        return kind == Kind.BASIC_UNRESERVED || kind == Kind.NATIVE_TYPE;
    }

    boolean isBasicUnreserved() {
        return kind == Kind.BASIC_UNRESERVED;
    }

    boolean isNativeType() {
        return kind == Kind.NATIVE_TYPE;
    }

    /** The lower-case keyword text (for keywords). */
    String keywordText() {
        return text;
    }

    /** The name used in error messages, as ANTLR prints it: {@code K_FROM}, {@code IDENT}, {@code ')'}. */
    String displayName() {
        return kind == Kind.OTHER ? text : name();
    }
}
