package io.charybdis.node.cql.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad inputs: each fails with a CqlSyntaxException at the expected line:column. */
class CqlSyntaxErrorTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "SELECT * FORM t | 1 | 9 | mismatched input 'FORM' expecting K_FROM",
            "SELECT * FROM | 1 | 13 | no viable alternative at input '<EOF>'",
            "SELECT FROM t | 1 | 7 | no viable alternative at input 'FROM'",
            "SELECT * FROM t WHERE | 1 | 21 | no viable alternative at input '<EOF>'",
            "SELECT * FROM t WHERE a = | 1 | 25 | no viable alternative at input '<EOF>'",
            "SELECT * FROM t WHERE a | 1 | 23 | no viable alternative at input '<EOF>'",
            "SELECT * FROM t LIMIT x | 1 | 22 | no viable alternative at input 'x'",
            "SELECT * FROM t WHERE a = 1 extra | 1 | 28 | no viable alternative at input 'extra'",
            "SELECT * FROM t ORDER a | 1 | 22 | mismatched input 'a' expecting K_BY",
            "SELECT * FROM t ALLOW | 1 | 21 | mismatched input '<EOF>' expecting K_FILTERING",
            "SELECT * FROM select | 1 | 14 | no viable alternative at input 'select'",
            "SELECT a b FROM t | 1 | 9 | no viable alternative at input 'b'",
            "SELECT * FROM t WHERE a IN 1 | 1 | 27 | no viable alternative at input '1'",
            "SELECT * FROM t WHERE (a, b) = 1 | 1 | 31 | no viable alternative at input '1'",
            "SELEC * FROM t | 1 | 0 | no viable alternative at input 'SELEC'",
            "| 1 | 0 | no viable alternative at input '<EOF>'",
            "INSERT t (a) VALUES (1) | 1 | 7 | mismatched input 't' expecting K_INTO",
            "INSERT INTO t (a) VALUES 1 | 1 | 25 | mismatched input '1' expecting '('",
            "INSERT INTO t (a) VALUES (1 | 1 | 27 | mismatched input '<EOF>' expecting ')'",
            "INSERT INTO t (a) VALUES (1) USING TLL 1 | 1 | 35 | no viable alternative at input 'TLL'",
            "INSERT INTO t JSON 1 | 1 | 19 | no viable alternative at input '1'",
            "UPDATE t SET a = 1 | 1 | 18 | mismatched input '<EOF>' expecting K_WHERE",
            "UPDATE t SET a = b WHERE k = 1 | 1 | 19 | no viable alternative at input 'WHERE'",
            "UPDATE t SET a WHERE k = 1 | 1 | 15 | no viable alternative at input 'WHERE'",
            "DELETE FROM t USING TTL 1 WHERE k = 1 | 1 | 20 | mismatched input 'TTL' expecting K_TIMESTAMP",
            "DELETE FROM t | 1 | 13 | mismatched input '<EOF>' expecting K_WHERE",
            "BEGIN BATCH SELECT * FROM t APPLY BATCH | 1 | 12 | mismatched input 'SELECT' expecting K_APPLY",
            "BEGIN BATCH INSERT INTO t (a) VALUES (1) | 1 | 40 | mismatched input '<EOF>' expecting K_APPLY",
            "CREATE TABLE t (a int PRIMARY KEY | 1 | 33 | mismatched input '<EOF>' expecting ')'",
            "CREATE TABLE t (a map<int>) | 1 | 25 | mismatched input '>' expecting ','",
            "CREATE TABLE t (a vector<float, x>) | 1 | 32 | mismatched input 'x' expecting INTEGER",
            "CREATE TABLE t (a int) WITH CLUSTERING ORDER BY (a) | 1 | 50 | mismatched input ')' expecting K_ASC",
            "CREATE TABLE t (a int) WITH x = | 1 | 31 | no viable alternative at input '<EOF>'",
            "CREATE TABLES t (a int) | 1 | 7 | no viable alternative at input 'TABLES'",
            "CREATE KEYSPACE ks | 1 | 18 | mismatched input '<EOF>' expecting K_WITH",
            "CREATE KEYSPACE ks WITH replication = {'a': ?} | 1 | 38 | Invalid property value: ? for property: 'a' (bind variables are not supported in DDL queries)",
            "CREATE KEYSPACE ks WITH a = 1 AND a = 2 | 1 | 34 | Multiple definitions for property 'a'",
            "CREATE INDEX ON t | 1 | 17 | mismatched input '<EOF>' expecting '('",
            "CREATE FUNCTION f() RETURNS int LANGUAGE java AS 'x' | 1 | 28 | mismatched input 'int' expecting K_NULL",
            "ALTER TABLE t FOO a | 1 | 14 | no viable alternative at input 'FOO'",
            "DROP THING x | 1 | 5 | no viable alternative at input 'THING'",
            "GRANT SELECT ON ks.t bob | 1 | 21 | mismatched input 'bob' expecting K_TO",
            "CREATE ROLE r WITH PASSWORD 'x' | 1 | 28 | mismatched input 'x' expecting '='",
            "CREATE ROLE r WITH LOGIN = true AND LOGIN = false | 1 | 36 | Multiple definition for property 'LOGIN'",
            "CREATE ROLE r WITH PASSWORD = 'a' AND HASHED PASSWORD = 'b' | 1 | 19 | Options 'password' and 'hashed password' are mutually exclusive",
            "CREATE USER \"bob\" | 1 | 12 | Quoted strings are are not supported for user names and USER is deprecated, please use ROLE",
            "DESCRIBE | 1 | 8 | no viable alternative at input '<EOF>'",
            "DESCRIBE TABLE t WITH | 1 | 21 | mismatched input '<EOF>' expecting K_INTERNALS",
            "UPDATE t SET a = b + 1 WHERE k = 1 | 1 | 17 | Only expressions of the form X = X +<value> are supported.",
            "UPDATE t SET a = [1] + b WHERE k = 1 | 1 | 23 | Only expressions of the form X = <value> + X are supported.",
            "CREATE MATERIALIZED VIEW v AS SELECT * FROM t PRIMARY KEY (a) WITH COMPACT STORAGE | 1 | 67 | COMPACT STORAGE tables are not allowed starting with version 4.0",
            "CREATE TYPE date (a int) | 1 | 12 | no viable alternative at input 'date'",
            "CREATE TYPE interval (a int) | 1 | 12 | Invalid (reserved) user type name interval",
            "SELECT * FROM t WHERE a = 'x | 1 | 28 | mismatched character '<EOF>' expecting '''",
            "SELECT * FROM t WHERE a = 1 AND | 1 | 31 | no viable alternative at input '<EOF>'",
            "SELECT * FROM t WHERE token(a) = | 1 | 32 | no viable alternative at input '<EOF>'",
            "USE | 1 | 3 | no viable alternative at input '<EOF>'",
            "TRUNCATE | 1 | 8 | no viable alternative at input '<EOF>'",
    })
    void shouldReportPosition(String cql, int line, int column, String message) {
        String input = cql == null ? "" : cql;
        assertThatThrownBy(() -> CqlParser.parse(input)).isInstanceOfSatisfying(CqlSyntaxException.class, e -> {
            assertThat(e.getMessage()).contains(message);
            assertThat(e.line()).isEqualTo(line);
            assertThat(e.column()).isEqualTo(column);
        });
    }

    @Test
    void shouldReportLinesOfMultiLineInput() {
        String cql = "SELECT a,\n       b\n  FROM t\n WHERE a = 1\n   AND b => 2";
        assertThatThrownBy(() -> CqlParser.parse(cql)).isInstanceOfSatisfying(CqlSyntaxException.class, e -> {
            assertThat(e.line()).isEqualTo(5);
            assertThat(e.column()).isEqualTo(10);
            assertThat(e.getMessage()).startsWith("line 5:10 no viable alternative at input '>'");
        });
    }

    @Test
    void shouldQuoteTheQueryAroundTheOffendingToken() {
        // as Cassandra's ErrorCollector: ten tokens back, whitespace runs included, up to the offending token
        assertThatThrownBy(() -> CqlParser.parse("SELECT * FORM t WHERE a = 1"))
                .hasMessage("line 1:9 mismatched input 'FORM' expecting K_FROM (SELECT * [FORM]...)");
        assertThatThrownBy(() -> CqlParser.parse("SELECT * FROM t WHERE a = 1 extra"))
                .hasMessage("line 1:28 no viable alternative at input 'extra' (...t WHERE a = 1 [extra])");
        // a prediction that read past the token it started at: the bracket stays there, the snippet ends two
        // tokens of the stream (whitespace included) later or at the token it failed on
        assertThatThrownBy(() -> CqlParser.parse("SELECT * FROM t WHERE k = x.y"))
                .hasMessage("line 0:-1 no viable alternative at input '<EOF>' (...FROM t WHERE k = [x].y)");
        assertThatThrownBy(() -> CqlParser.parse("INSERT INTO t (k, v) VALUES (1, ks.v + 1)"))
                .hasMessage("line 1:37 no viable alternative at input '+' (... v) VALUES (1, [ks].v...)");
        assertThatThrownBy(() -> CqlParser.parse("INSERT INTO kv (k, v) VALUES (3, 'a') USING TIMESTAMP 5 IF NOT "
                + "EXISTS")).hasMessage("line 1:56 mismatched input 'IF' expecting EOF (... 'a') USING TIMESTAMP 5 "
                + "[IF]...)");
        // lines are joined without their breaks; comments count as tokens
        assertThatThrownBy(() -> CqlParser.parse("BEGIN BATCH\nSELECT * FROM kv;\nAPPLY BATCH"))
                .hasMessage("line 2:0 mismatched input 'SELECT' expecting K_APPLY (BEGIN BATCH[SELECT]...)");
        assertThatThrownBy(() -> CqlParser.parse("SELECT * /* b */ -- c\n FORM t"))
                .hasMessage("line 2:1 mismatched input 'FORM' expecting K_FROM (SELECT * /* b */ -- c [FORM]...)");
        // a name read on by a prediction: the snippet ends two tokens of the stream after it, a comment counting
        assertThatThrownBy(() -> CqlParser.parse("SELECT a /* b */ -- c\n FORM t"))
                .hasMessage("line 2:1 no viable alternative at input 'FORM' (SELECT [a] /* b */...)");
        // where ANTLR looked ahead to choose, the quote runs from the choice to the token it failed on
        assertThatThrownBy(() -> CqlParser.parse("UPDATE kv SET v = 'a' WHERE k = 3 IF EXISTS AND v = 'a'"))
                .hasMessage("line 1:44 no viable alternative at input 'AND' (...WHERE k = 3 IF [EXISTS] AND...)");
    }

    @Test
    @org.junit.jupiter.api.Timeout(10)
    void shouldQuoteTheQueryCheaplyInHugeInput() {
        String huge = "SELECT * FROM t WHERE k IN (" + "1 , ".repeat(200_000) + "1) extra";
        assertThatThrownBy(() -> CqlParser.parse(huge)).hasMessageEndingWith("(... , 1 , 1) [extra])");
    }

    @Test
    void shouldReportTheEndOfInputWithoutPositionInTheMessage() {
        assertThatThrownBy(() -> CqlParser.parse("UPDATE kv SET v = 'a'")).isInstanceOfSatisfying(
                CqlSyntaxException.class, e -> {
                    assertThat(e).hasMessage("line 0:-1 mismatched input '<EOF>' expecting K_WHERE");
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(21);
                });
    }

    @Test
    void shouldReportMultiplePrimaryKeysAsAnInvalidRequest() {
        assertThatThrownBy(() -> CqlParser.parse("CREATE TABLE ks.t (a int PRIMARY KEY, b int, PRIMARY KEY (b))"))
                .isInstanceOfSatisfying(CqlSyntaxException.class, e -> {
                    assertThat(e).hasMessage("Multiple PRIMARY KEY specified for table 't' (exactly one required)");
                    assertThat(e.invalidRequest()).isTrue();
                    assertThat(e.column()).isEqualTo(45);
                });
    }

    @Test
    void shouldReportScriptErrorsAtTheirLine() {
        assertThatThrownBy(() -> CqlParser.parseScript("USE ks;\nSELECT * FROM t;\nSELECT * FROM t WHERE;\n"))
                .isInstanceOfSatisfying(CqlSyntaxException.class, e -> assertThat(e.line()).isEqualTo(3));
        assertThatThrownBy(() -> CqlParser.parseScript("USE ks USE ks2"))
                .hasMessageStartingWith("line 1:7 mismatched input 'USE' expecting ';'");
    }

    @Test
    void shouldLimitNestingInsteadOfOverflowingTheStack() {
        for (String open : new String[] {"[", "(", "{", "{a: ", "-(", "(int) ", "[(", "frozen<"}) {
            String deep = "INSERT INTO t (a) VALUES (" + open.repeat(5000) + "1";
            assertThatThrownBy(() -> CqlParser.parse(deep)).isInstanceOf(CqlSyntaxException.class);
        }
        String types = "CREATE TABLE t (a " + "frozen<list<".repeat(3000) + "int";
        assertThatThrownBy(() -> CqlParser.parse(types)).isInstanceOf(CqlSyntaxException.class)
                .hasMessageContaining("too deeply nested");
        String selectors = "SELECT " + "f(".repeat(5000) + "a FROM t";
        assertThatThrownBy(() -> CqlParser.parse(selectors)).isInstanceOf(CqlSyntaxException.class);
        String relations = "SELECT * FROM t WHERE " + "(".repeat(5000) + "a = 1";
        assertThatThrownBy(() -> CqlParser.parse(relations)).isInstanceOf(CqlSyntaxException.class);
        String negations = "SELECT " + "-".repeat(1000) + "a FROM t";
        assertThatThrownBy(() -> CqlParser.parse(negations)).isInstanceOf(CqlSyntaxException.class);
    }

    @Test
    void shouldAcceptNestingWithinTheLimit() {
        String cql = "INSERT INTO t (a) VALUES (" + "[".repeat(40) + "1" + "]".repeat(40) + ")";
        assertThat(CqlParser.parse(cql)).isInstanceOf(InsertStatement.class);
    }
}
